// @module verifySnapshotSource: everything a reader will rely on, checked before a snapshot is published, one section in memory at a time.
//
// A reader checks each section as it decodes it, but some checks wait until an answer needs them:
// a string's UTF-8, a page of rows, links or ids, a trigram posting list. And no reader compares
// sections with one another or with META's counts. A snapshot that passes its checksums can thus
// still fail, or answer wrongly, long after it was published. Here every section is decoded by the
// reader's own decoders, its deferred checks are made at once, and the sections are checked against
// one another, so that what is published reads.
//
// Memory. Sections are read through a SectionCache without budget, which keeps only the section
// being checked and the sections its decoder consults (a trigram index its search index and that
// index's text column, LGRA the taxonomy); paged sections (rows, links, ids, keys, trigram posting
// chunks) are read in pieces of about WINDOW bytes and never whole. What later sections are checked
// against is kept as copies of 21 bytes per object (ids, flags, level-5 node, callee and caller
// offsets), not as the sections themselves.
import { forEachDistinctTarget } from "./adjacency.ts";
import { Blocks } from "./blocks.ts";
import type { TocEntry } from "./container.ts";
import { crc32 } from "./crc32.ts";
import { check } from "./errors.ts";
import type { SnapshotMeta } from "./model.ts";
import { EXTERNAL } from "./object-core.ts";
import type { PageDirectory } from "./page-directory.ts";
import { reverseCodeUnits, type SearchIndex } from "./search-index.ts";
import { SectionCache } from "./section-cache.ts";
import {
  CHUNKS_OF,
  isOptionalSection,
  KEY_PAGES_OF,
  META_TAG,
  SECTIONS,
  type SearchIndexTag,
  type SectionTag,
  TRIGRAMS_OF,
  type TrigramTag,
} from "./sections.ts";
import { type ByteSource, Snapshot } from "./snapshot.ts";
import { TRIGRAM_SPACE } from "./trigram-index.ts";

/** Bytes read at once from a section read in pieces (a page longer than this is read alone). */
const WINDOW = 1024 * 1024;

/**
 * Opens the snapshot in `source` and checks all of it as described above; throws
 * CorruptSnapshotError at the first problem, else returns its metadata.
 */
export async function verifySnapshotSource(source: ByteSource): Promise<SnapshotMeta> {
  const snapshot = await Snapshot.open(source, { sections: new SectionCache(0) });
  await new Verification(snapshot).run();
  return snapshot.meta;
}

const SEARCH_INDEXES = Object.keys(TRIGRAMS_OF) as SearchIndexTag[];
const TRIGRAM_INDEXES = Object.values(TRIGRAMS_OF) as TrigramTag[];
type ChunksTag = (typeof CHUNKS_OF)[TrigramTag];
const trigramsOfChunks = new Map<string, TrigramTag>(
  Object.entries(CHUNKS_OF).map(([trigrams, chunks]) => [chunks, trigrams as TrigramTag]),
);
/** Each paged section's directory, and the pages it locates (checked with it). */
const PAGES_OF_DIRECTORY = new Map<SectionTag, SectionTag>([
  ["ROWD", "ROWP"],
  ["LNKD", "LNKP"],
  ["IDXD", "IDXP"],
  ...Object.values(KEY_PAGES_OF).map(({ pages, directory }): [SectionTag, SectionTag] => [directory, pages]),
]);
const PAGES = new Set(PAGES_OF_DIRECTORY.values());

/** Reads one section front to back in pieces, checking its TOC checksum over them once at its end. */
class SectionReader {
  private readonly source: ByteSource;
  private readonly entry: TocEntry;
  private at = 0;
  private crc = 0;

  constructor(source: ByteSource, entry: TocEntry) {
    this.source = source;
    this.entry = entry;
  }

  /** The next `length` bytes of the section. */
  async next(length: number): Promise<Uint8Array> {
    const { tag, offset } = this.entry;
    check(
      this.at + length <= this.entry.length,
      () => `section ${tag}: ${length} bytes at ${this.at} run past its end (${this.entry.length} bytes)`,
    );
    const bytes = await this.source.read(offset + this.at, length);
    this.crc = crc32(bytes, this.crc);
    this.at += length;
    return bytes;
  }

  /** Reads on to `offset` (bytes no decoder looks at: padding, the gap before a block). */
  async skipTo(offset: number): Promise<void> {
    check(offset >= this.at, () => `section ${this.entry.tag}: a part at ${offset} overlaps the one before it`);
    while (this.at < offset) await this.next(Math.min(WINDOW, offset - this.at));
  }

  /** Reads the rest and checks the section's checksum. */
  async finish(): Promise<void> {
    await this.skipTo(this.entry.length);
    check(this.crc === this.entry.crc, `section ${this.entry.tag} checksum mismatch`);
  }

  /** Reads the pages `directory` lists, starting here, in runs of about WINDOW bytes, handing each to `visit`. */
  async pages(directory: PageDirectory, visit: (page: number, bytes: Uint8Array) => void): Promise<void> {
    const { offsets, pageCount } = directory;
    for (let p = 0; p < pageCount; ) {
      let end = p + 1;
      while (end < pageCount && offsets[end + 1] - offsets[p] <= WINDOW) end++;
      const run = await this.next(offsets[end] - offsets[p]);
      for (let q = p; q < end; q++) visit(q, run.subarray(offsets[q] - offsets[p], offsets[q + 1] - offsets[p]));
      p = end;
    }
  }
}

class Verification {
  private readonly snapshot: Snapshot;
  private readonly meta: SnapshotMeta;
  private readonly objects: number;
  /** Sections checked so far (a paged section is checked with its directory). */
  private readonly checked = new Set<string>([META_TAG]);
  /** From OBJC, for the sections that repeat it: each object's id, flags and level-5 node. */
  private ids = new BigUint64Array(0);
  private flags = new Uint8Array(0);
  private level5 = new Uint32Array(0);
  /** From CALE and CALR, for the link pages: where each object's callees and callers start. */
  private calleeOffsets = new Uint32Array(0);
  private callerOffsets = new Uint32Array(0);
  private linkTypes: readonly string[] = [];
  /** Keys of each search index, for its key pages. */
  private readonly keyCounts = new Map<SearchIndexTag, number>();

  constructor(snapshot: Snapshot) {
    this.snapshot = snapshot;
    this.meta = snapshot.meta;
    this.objects = snapshot.meta.counts.objects;
  }

  async run(): Promise<void> {
    const { snapshot } = this;
    const tags = Object.keys(SECTIONS) as SectionTag[];
    for (const tag of tags)
      check(isOptionalSection(tag) || snapshot.has(tag), `snapshot has no ${tag} section, which every reader needs`);
    // Catalogue order is the writer's: each section comes after those it is checked against.
    for (const tag of tags) {
      if (!snapshot.has(tag) || this.checked.has(tag) || PAGES.has(tag)) continue;
      await this.section(tag);
      this.checked.add(tag);
    }
    // Sections no reader decodes (unknown optional ones, pages without a directory): their checksum.
    for (const entry of snapshot.toc.values())
      if (!this.checked.has(entry.tag)) await new SectionReader(snapshot.source, entry).finish();
  }

  private async section(tag: SectionTag): Promise<void> {
    switch (tag) {
      case "OBJC":
        return this.objectCore();
      case "NAME":
      case "FULL":
      case "MANG": {
        const column = await this.snapshot.section(tag);
        for (let r = 0; r < column.length; r++) column.get(r);
        return;
      }
      case "TYPE":
      case "TYID":
      case "LANG":
      case "FPTH": {
        const { dictionary } = await this.snapshot.section(tag);
        for (let k = 0; k < dictionary.length; k++) dictionary.get(k);
        return;
      }
      case "ANNO":
      case "TAGS": {
        const column = await this.snapshot.section(tag);
        for (let r = 0; r < this.objects; r++) column.get(r);
        return;
      }
      case "STAT": {
        const status = await this.snapshot.section(tag);
        for (let r = 0; r < this.objects; r++) status.checksum(r);
        return;
      }
      case "PSTI":
        return this.postIts();
      case "CALE":
        return this.links();
      case "TAXO":
        return this.taxonomy();
      case "SLOC": {
        const files = (await this.snapshot.section(tag)).files().length;
        check(files === this.meta.counts.files, `SLOC holds ${files} files, META says ${this.meta.counts.files}`);
        return;
      }
      case "ROWD":
        return this.rows();
      case "LNKD":
        return this.linkPages();
      case "IDXD":
        return this.idPages();
      case "DFUL":
      case "DMNG":
        return this.keyPages(tag === "DFUL" ? "XFUL" : "XMNG");
    }
    if ((SEARCH_INDEXES as string[]).includes(tag)) return this.searchIndex(tag as SearchIndexTag);
    if ((TRIGRAM_INDEXES as string[]).includes(tag)) return this.trigramIndex(tag as TrigramTag);
    const trigrams = trigramsOfChunks.get(tag);
    if (trigrams) return this.trigramChunks(tag as ChunksTag, trigrams);
    await this.snapshot.section(tag);
  }

  private async objectCore(): Promise<void> {
    const core = await this.snapshot.section("OBJC");
    this.ids = core.ids.slice();
    this.flags = core.flags.slice();
    this.level5 = core.level5.slice();
  }

  private async postIts(): Promise<void> {
    const postIts = await this.snapshot.section("PSTI");
    let count = 0;
    for (let r = 0; r < this.objects; r++) count += postIts.get(r).length;
    check(count === this.meta.counts.postIts, `PSTI holds ${count} post-its, META says ${this.meta.counts.postIts}`);
  }

  /** CALE's links against META's count, and CALR against CALE: exactly the distinct callers of each object, ascending. */
  private async links(): Promise<void> {
    const callees = await this.snapshot.section("CALE");
    let links = 0;
    // A callee entry stands for one link of each kind its flags name (direct, escalated).
    for (const kinds of callees.flags) links += (kinds & 1) + (kinds >> 1);
    check(links === this.meta.counts.links, `CALE holds ${links} links, META says ${this.meta.counts.links}`);
    const callers = await this.snapshot.section("CALR");
    const next = callers.offsets.slice(0, this.objects);
    forEachDistinctTarget(callees, this.objects, (from, to) =>
      check(
        next[to] < callers.offsets[to + 1] && callers.callers[next[to]++] === from,
        () => `CALR: the callers of object ${to} are not the objects CALE says call it`,
      ),
    );
    for (let to = 0; to < this.objects; to++)
      check(next[to] === callers.offsets[to + 1], () => `CALR: object ${to} has callers CALE does not know`);
    this.calleeOffsets = callees.offsets.slice();
    this.callerOffsets = callers.offsets.slice();
    this.linkTypes = callees.linkTypes;
    this.checked.add("CALR");
  }

  /** Every node's strings; object counts that add up level by level; level-5 members that are exactly the objects OBJC places there. */
  private async taxonomy(): Promise<void> {
    const taxonomy = await this.snapshot.section("TAXO");
    for (let level = 1; level <= 5; level++) taxonomy.nodes(level);
    const { levels } = taxonomy;
    for (let node = 0; node < levels[4].count; node++) {
      const members = taxonomy.members(node);
      check(
        levels[4].nbObjects[node] === members.length,
        () =>
          `TAXO: level-5 node ${node} counts ${levels[4].nbObjects[node]} objects but has ${members.length} members`,
      );
      for (let i = 0; i < members.length; i++)
        check(
          this.level5[members[i]] === node && (i === 0 || members[i - 1] < members[i]),
          () => `TAXO: the members of level-5 node ${node} are not the objects OBJC places there, ascending`,
        );
    }
    for (let level = 4; level >= 1; level--) {
      const sums = new Float64Array(levels[level - 1].count);
      levels[level].parents.forEach((parent, node) => (sums[parent] += levels[level].nbObjects[node]));
      for (let node = 0; node < sums.length; node++)
        check(
          sums[node] === levels[level - 1].nbObjects[node],
          () =>
            `TAXO: level-${level} node ${node} counts ${levels[level - 1].nbObjects[node]} objects, its children ${sums[node]}`,
        );
    }
  }

  /** Keys strictly ascending (and UTF-8) and postings ascending, as binary searches and intersections assume. */
  private async searchIndex(tag: SearchIndexTag): Promise<void> {
    const index: SearchIndex = await this.snapshot.section(tag);
    this.keyCounts.set(tag, index.keyCount);
    const { offsets, postings } = index;
    for (let k = 0; k < index.keyCount; k++)
      for (let i = offsets[k] + 1; i < offsets[k + 1]; i++)
        check(postings[i - 1] < postings[i], () => `${tag}: the postings of key ${k} do not ascend`);
    const keys = index.keys;
    if (!keys) {
      const paged = KEY_PAGES_OF[tag as keyof typeof KEY_PAGES_OF];
      check(
        paged && this.snapshot.has(paged.pages) && this.snapshot.has(paged.directory),
        `${tag}: its keys are in key pages, which the file does not have`,
      );
      return;
    }
    for (let k = 1; k < keys.length; k++)
      check(keys.get(k - 1) < keys.get(k), () => `${tag}: keys do not ascend at ${k}`);
    for (let i = 1; i < index.byReversed.length; i++)
      check(
        reverseCodeUnits(keys.get(index.byReversed[i - 1])) < reverseCodeUnits(keys.get(index.byReversed[i])),
        () => `${tag}: the reversed order does not ascend at ${i}`,
      );
  }

  /** Every posting list decoded (a reader decodes each when a query first needs it). */
  private async trigramIndex(tag: TrigramTag): Promise<void> {
    const index = await this.snapshot.section(tag);
    const [first, end] = index.slotRange(0, TRIGRAM_SPACE);
    const slots = Array.from({ length: end - first }, (_, i) => first + i);
    const lists = await index.lists(slots);
    for (const slot of slots) lists.keys(slot);
  }

  /** The chunk directory against its trigram index, read as a reader reads it by range: head, then each chunk. */
  private async trigramChunks(tag: ChunksTag, trigrams: TrigramTag): Promise<void> {
    const chunks = await this.snapshot.section(tag);
    if (!this.snapshot.has(trigrams)) return;
    const reader = new SectionReader(this.snapshot.source, this.snapshot.toc.get(trigrams)!);
    chunks.readHead(await reader.next(chunks.headLength), trigrams);
    await reader.pages(chunks, (c, bytes) => chunks.verify(c, bytes));
    await reader.finish();
  }

  private async keyPages(index: "XFUL" | "XMNG"): Promise<void> {
    const { pages, directory: tag } = KEY_PAGES_OF[index];
    const directory = await this.snapshot.section(tag);
    check(
      directory.keyCount === this.keyCounts.get(index),
      `${tag}: ${directory.keyCount} keys in pages for the ${this.keyCounts.get(index)} keys of ${index}`,
    );
    await this.pages(pages, directory, (p, bytes) => directory.decodePage(p, bytes));
  }

  /** Every row page decoded; each row's id and external flag those of OBJC. */
  private async rows(): Promise<void> {
    const directory = await this.snapshot.section("ROWD");
    await this.pages("ROWP", directory, (p, bytes) =>
      directory.decodePage(p, bytes).forEach((row, i) => {
        const rank = directory.firstRanks[p] + i;
        check(
          BigInt(row.id) === this.ids[rank] && row.external === ((this.flags[rank] & EXTERNAL) !== 0),
          () => `row ${rank} differs from OBJC`,
        );
      }),
    );
  }

  /** Every link page decoded; each object's flags those of OBJC, its callee and caller counts those of CALE and CALR. */
  private async linkPages(): Promise<void> {
    const directory = await this.snapshot.section("LNKD");
    check(
      directory.linkTypes.length === this.linkTypes.length &&
        directory.linkTypes.every((t, i) => t === this.linkTypes[i]),
      "LNKD: its link types are not CALE's",
    );
    await this.pages("LNKP", directory, (p, bytes) => {
      const page = directory.decodePage(p, bytes);
      const end = p + 1 < directory.pageCount ? directory.firstRanks[p + 1] : this.objects;
      for (let rank = directory.firstRanks[p]; rank < end; rank++) {
        const row = page.row(rank);
        check(
          row.flags === this.flags[rank] &&
            row.targets.length === this.calleeOffsets[rank + 1] - this.calleeOffsets[rank] &&
            row.callers.length === this.callerOffsets[rank + 1] - this.callerOffsets[rank],
          () => `link page ${p}: object ${rank} differs from OBJC, CALE or CALR`,
        );
      }
    });
  }

  /** Every id page decoded; each id at the rank OBJC gives it. */
  private async idPages(): Promise<void> {
    const directory = await this.snapshot.section("IDXD");
    await this.pages("IDXP", directory, (p, bytes) => {
      const { ids, ranks } = directory.decodePage(p, bytes);
      for (let i = 0; i < ids.length; i++)
        check(this.ids[ranks[i]] === ids[i], () => `id page ${p}: id ${ids[i]} is not that of rank ${ranks[i]}`);
    });
  }

  /**
   * The paged section `tag` (one block: its pages, where `directory` says), read in pieces: its block
   * table, each page handed to `visit`, its checksum.
   */
  private async pages(
    tag: SectionTag,
    directory: PageDirectory,
    visit: (page: number, bytes: Uint8Array) => void,
  ): Promise<void> {
    if (!this.snapshot.has(tag)) return;
    const entry = this.snapshot.toc.get(tag)!;
    const reader = new SectionReader(this.snapshot.source, entry);
    const [start, length] = new Blocks(await reader.next(16), tag, 1).extent(0);
    check(start >= 16 && start + length <= entry.length, `${tag}: malformed block table`);
    check(
      directory.offsets[directory.pageCount] === length,
      `${tag}: its directory's pages end at ${directory.offsets[directory.pageCount]}, its block at ${length}`,
    );
    await reader.skipTo(start);
    await reader.pages(directory, visit);
    await reader.finish();
    this.checked.add(tag);
  }
}
