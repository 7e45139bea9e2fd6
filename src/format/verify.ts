// @module verifySnapshotSteps: everything a reader will rely on, checked before a snapshot is published, one section in memory at a time and in resumable steps.
//
// A reader checks each section as it decodes it, but some checks wait until an answer needs them:
// a string's UTF-8, a page of rows, links or ids, a trigram posting list. And no reader compares
// sections with one another or with META's counts. A snapshot that passes its checksums can thus
// still fail, or answer wrongly, long after it was published. Here every section is decoded by the
// reader's own decoders, its deferred checks are made at once, and the sections are checked against
// one another, so that what is published reads.
//
// The work is a list of checks run in order: a section (with those its decoder consults), or a part
// of at most PART_BYTES of a paged section's pages. A caller may stop between checks and resume
// from the next one later (a Worker's request has a CPU limit). Memory: each check opens the
// snapshot afresh, so nothing it decodes outlives it; a section is read whole only when its decoder
// needs it whole; pages are read in windows of about WINDOW bytes. The first checks, which compare
// other sections with OBJC and the id pages, share 17 bytes per object taken from them (ids,
// flags, parents, level-5 nodes; the id pages are read whole for it), dropped once they are done.
// The links are checked in one pass over all their pages (the callers of an object are known only
// with every object's callees): the only check holding more, each object's distinct callees and
// its callers, 8 bytes per distinct caller-callee pair.
import { Blocks } from "./blocks.ts";
import type { TocEntry } from "./container.ts";
import { crc32 } from "./crc32.ts";
import { check } from "./errors.ts";
import { readWholeIdPages } from "./id-pages.ts";
import { type LinkDirectory, SOURCE_IS_START, TARGET_IS_END } from "./link-pages.ts";
import { NONE, type SnapshotMeta } from "./model.ts";
import { END, EXTERNAL, START } from "./object-core.ts";
import { firstFailing, type PageDirectory } from "./page-directory.ts";
import { encodePointHops } from "./point-hops.ts";
import { REVERSED_SAMPLE, reverseCodeUnits } from "./search-index.ts";
import {
  CHUNKS_OF,
  KEY_PAGES_OF,
  META_TAG,
  type PagedIndexTag,
  SECTIONS,
  type SectionTag,
  type StoredIndexTag,
  TRIGRAMS_OF,
  type TrigramTag,
} from "./sections.ts";
import { type ByteSource, Snapshot } from "./snapshot.ts";
import { decodeUtf8 } from "./string-list.ts";
import { TRIGRAM_SPACE } from "./trigram-index.ts";

/** Bytes read at once from a section read in pieces (a page longer than this is read alone). */
const WINDOW = 1024 * 1024;
/** Stored bytes of pages one check decodes: under a second of CPU (row pages, the slowest to decode). */
const PART_BYTES = 4 * 1024 * 1024;
/**
 * Entries of a reversed order (RNAM, RFUL, RMNG) one check compares: the keys they name are held as
 * strings while it runs. At 1M objects a part of full names holds at most some 50 MiB live; all
 * of them at once would hold 115–123 MiB, next to a Worker's 128 MB.
 */
const REVERSED_PART_KEYS = 1 << 18;
/** Trigram slots asked for at once. */
const SLOTS_AT_ONCE = 4096;

/** How far a verification got: `done` of its `of` checks passed (all of them: the snapshot is valid). */
export interface VerificationProgress {
  meta: SnapshotMeta;
  done: number;
  of: number;
}

/**
 * Runs the checks of the snapshot in `source` from check `from` on, until all have passed or, once
 * at least one has run, until `enough()` says to stop; throws CorruptSnapshotError at the first that
 * fails. Checks are the same, in the same order, for the same bytes, so a later call resumes with
 * the `done` this one returns.
 */
export async function verifySnapshotSteps(
  source: ByteSource,
  from = 0,
  enough: () => boolean = () => false,
  { reversedPartKeys = REVERSED_PART_KEYS }: { reversedPartKeys?: number } = {},
): Promise<VerificationProgress> {
  const verification = new Verification(source, await Snapshot.open(source), reversedPartKeys);
  const of = verification.checks.length;
  check(from >= 0 && from <= of, `verification cannot resume at check ${from} of ${of}`);
  let done = from;
  while (done < of && (done === from || !enough())) await verification.run(done++);
  return { meta: verification.meta, done, of };
}

/** Checks all of the snapshot in `source` at once (verifySnapshotSteps to the end); returns its metadata. */
export async function verifySnapshotSource(source: ByteSource): Promise<SnapshotMeta> {
  return (await verifySnapshotSteps(source)).meta;
}

const SEARCH_INDEXES = new Set<string>(Object.keys(TRIGRAMS_OF).filter((tag) => !(tag in KEY_PAGES_OF)));
const TRIGRAM_INDEXES = new Set<string>(Object.values(TRIGRAMS_OF));
const trigramsOfChunks = new Map<string, TrigramTag>(
  Object.entries(CHUNKS_OF).map(([trigrams, chunks]) => [chunks, trigrams as TrigramTag]),
);
type ChunksTag = (typeof CHUNKS_OF)[TrigramTag];
type PagesTag = "ROWP" | "LNKP" | "IDXP" | "MEMP" | "PNTP" | "KNAM" | "KFUL" | "KMNG" | "SRCP" | "SLCP" | "SFLP";
type DirectoryTag = "ROWD" | "LNKD" | "IDXD" | "MEMD" | "PNTD" | "DNAM" | "DFUL" | "DMNG" | "SRCD" | "SLCD" | "SFLD";
/** The directories whose pages are checked in parts, page by page (the link pages in one pass, the id pages whole with OBJC). */
type PartedTag = Exclude<DirectoryTag, "LNKD" | "IDXD">;
/** Each paged section's directory and the pages it locates, checked together; link, row and member pages first, against OBJC and the id pages. */
const PAGES_OF: Record<DirectoryTag, PagesTag> = {
  LNKD: "LNKP",
  IDXD: "IDXP",
  ROWD: "ROWP",
  MEMD: "MEMP",
  PNTD: "PNTP",
  DNAM: "KNAM",
  DFUL: "KFUL",
  DMNG: "KMNG",
  SRCD: "SRCP",
  SLCD: "SLCP",
  SFLD: "SFLP",
};
const PAGES = new Set<string>(Object.values(PAGES_OF));
/** The key pages each reversed order (RNAM, RFUL, RMNG) and each key directory serve. */
const KEY_PAGES_BY = new Map(
  Object.entries(KEY_PAGES_OF).flatMap(([pages, { directory, reversed }]) => [
    [directory as string, pages as PagedIndexTag],
    [reversed as string, pages as PagedIndexTag],
  ]),
);

/** One check: what it checks (for progress and messages), and whether it compares with OBJC. */
interface Check {
  what: string;
  crossChecked: boolean;
  run(snapshot: Snapshot): Promise<void>;
}

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

  /** Reads the rest and checks the section's checksum. */
  async finish(): Promise<void> {
    while (this.at < this.entry.length) await this.next(Math.min(WINDOW, this.entry.length - this.at));
    check(this.crc === this.entry.crc, `section ${this.entry.tag} checksum mismatch`);
  }
}

/** Keys strictly ascending, and `byReversed` orders them by their reversed text. */
function keyOrders(tag: string, keys: { length: number; get(k: number): string }, byReversed: Uint32Array): void {
  if (keys.length === 0) return;
  for (let k = 1, previous = keys.get(0); k < keys.length; k++) {
    const key = keys.get(k);
    check(previous < key, () => `${tag}: keys do not ascend at ${k}`);
    previous = key;
  }
  check(
    byReversed.length === keys.length,
    `${tag}: the reversed order has ${byReversed.length} keys, not ${keys.length}`,
  );
  for (let i = 1, previous = reverseCodeUnits(keys.get(byReversed[0])); i < byReversed.length; i++) {
    const reversed = reverseCodeUnits(keys.get(byReversed[i]));
    check(previous < reversed, () => `${tag}: the reversed order does not ascend at ${i}`);
    previous = reversed;
  }
}

/** Strings read as a search index's keys are. */
function listOf(strings: readonly string[]): { length: number; get(k: number): string } {
  return { length: strings.length, get: (k) => strings[k] };
}

/**
 * Pages [first, end) of a directory's `offsets`, read in runs of about WINDOW bytes by
 * `read(offset, length)` (offsets into their block), each handed to `visit`.
 */
async function forEachPage(
  offsets: Uint32Array,
  first: number,
  end: number,
  read: (offset: number, length: number) => Promise<Uint8Array>,
  visit: (page: number, bytes: Uint8Array) => void,
): Promise<void> {
  for (let p = first; p < end; ) {
    let last = p + 1;
    while (last < end && offsets[last + 1] - offsets[p] <= WINDOW) last++;
    const run = await read(offsets[p], offsets[last] - offsets[p]);
    for (let q = p; q < last; q++) visit(q, run.subarray(offsets[q] - offsets[p], offsets[q + 1] - offsets[p]));
    p = last;
  }
}

/** What the first checks take from OBJC and the id pages: each object's id, flags, parent and level-5 node, by rank. */
interface ObjectFacts {
  ids: BigUint64Array;
  flags: Uint8Array;
  parents: Uint32Array;
  level5: Uint32Array;
}

/** The first index where `a` and `b` differ (the shorter one's length when one is a prefix of the other), or -1. */
function firstDifference(a: Uint8Array | Uint32Array, b: Uint8Array | Uint32Array): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : Math.min(a.length, b.length);
}

/**
 * What the link pages hold, gathered page by page in rank order: each object's distinct callees and
 * its callers (CSR). Each distinct caller-callee pair has at least one link, so META's count of links
 * bounds both lists (and so does the link pages' length, a value taking at least a byte): a page
 * holding more is refused, and the lists are allocated once.
 */
class GatheredLinks {
  readonly calleeOffsets: Uint32Array;
  readonly callerOffsets: Uint32Array;
  readonly callees: Uint32Array;
  readonly callers: Uint32Array;
  calleeCount = 0;
  callerCount = 0;
  /** Links counted as META counts them: one per kind (direct, escalated) each callee entry names. */
  links = 0;

  constructor(objects: number, pairs: number) {
    this.calleeOffsets = new Uint32Array(objects + 1);
    this.callerOffsets = new Uint32Array(objects + 1);
    this.callees = new Uint32Array(pairs);
    this.callers = new Uint32Array(pairs);
  }
}

class Verification {
  readonly meta: SnapshotMeta;
  /** The checks in the order run. */
  readonly checks: readonly Check[];
  private readonly source: ByteSource;
  private readonly objects: number;
  private objectFacts: ObjectFacts | null = null;
  /** Entries of a reversed order one check compares (REVERSED_PART_KEYS; tests make it small). */
  private readonly reversedPartKeys: number;

  constructor(source: ByteSource, snapshot: Snapshot, reversedPartKeys: number) {
    this.reversedPartKeys = reversedPartKeys;
    this.source = source;
    this.meta = snapshot.meta;
    this.objects = snapshot.meta.counts.objects;
    const checks: Check[] = [];
    const add = (what: string, run: (snapshot: Snapshot) => Promise<unknown>, crossChecked = false) =>
      checks.push({ what, crossChecked, run: async (s) => void (await run(s)) });
    add("required sections", async (s) => this.requiredSections(s));
    // First what is compared with OBJC and the id pages, while what is taken from them is at hand.
    add("OBJC and IDXD with all its pages", () => this.objectsOf(), true);
    add("TAXO", (s) => this.taxonomy(s), true);
    add("LNKD and all its pages, and HOPS", (s) => this.links(s), true);
    add("FLOW", (s) => this.section(s, "FLOW"), true);
    const pagedParts = (directory: PartedTag, crossChecked: boolean) => {
      const pages = snapshot.toc.get(PAGES_OF[directory]);
      const parts = Math.max(1, Math.ceil((pages?.length ?? 0) / PART_BYTES));
      for (let part = 0; part < parts; part++)
        add(`${directory} part ${part + 1} of ${parts}`, (s) => this.pagesPart(s, directory, part), crossChecked);
    };
    for (const directory of ["ROWD", "MEMD", "PNTD"] as const) pagedParts(directory, true);
    const done = new Set<string>(["OBJC", "TAXO", "LNKD", "HOPS", "FLOW", "IDXD", "ROWD", "MEMD", "PNTD", ...PAGES]);
    for (const tag of Object.keys(SECTIONS) as SectionTag[]) {
      if (done.has(tag)) continue;
      if (tag === "DNAM" || tag === "DFUL" || tag === "DMNG" || tag === "SRCD") pagedParts(tag, false);
      else add(tag, (s) => this.section(s, tag));
      const paged = KEY_PAGES_BY.get(tag);
      if (paged && tag === KEY_PAGES_OF[paged].reversed) {
        // Keys number at most the objects: a part beyond the keys checks nothing.
        const parts = Math.max(1, Math.ceil(this.objects / reversedPartKeys));
        for (let part = 0; part < parts; part++)
          add(`${tag}'s order, part ${part + 1} of ${parts}`, (s) => this.reversedOrderPart(s, paged, part));
      }
    }
    add("checksums of the sections read in parts or not at all", (s) => this.checksums(s));
    this.checks = checks;
  }

  /** Runs check `index`, on the snapshot opened afresh. */
  async run(index: number): Promise<void> {
    const { crossChecked, run } = this.checks[index];
    // Past the checks against OBJC, what was taken from it goes.
    if (!crossChecked) this.objectFacts = null;
    await run(await Snapshot.open(this.source));
  }

  private requiredSections(snapshot: Snapshot): void {
    for (const tag of Object.keys(SECTIONS) as SectionTag[])
      check(snapshot.has(tag), `snapshot has no ${tag} section, which every reader needs`);
  }

  /** A section read whole: decoded, its deferred checks made, its counts compared with META's. */
  private async section(snapshot: Snapshot, tag: SectionTag): Promise<void> {
    switch (tag) {
      case "TYPE":
      case "TYID":
      case "LANG":
      case "FPTH": {
        const { dictionary } = await snapshot.section(tag);
        for (let k = 0; k < dictionary.length; k++) dictionary.get(k);
        return;
      }
      case "ANNO":
      case "TAGS": {
        const column = await snapshot.section(tag);
        for (let r = 0; r < this.objects; r++) column.get(r);
        return;
      }
      case "STAT": {
        const status = await snapshot.section(tag);
        for (let r = 0; r < this.objects; r++) status.checksum(r);
        return;
      }
      case "PSTI": {
        const postIts = await snapshot.section(tag);
        let count = 0;
        for (let r = 0; r < this.objects; r++) count += postIts.get(r).length;
        check(
          count === this.meta.counts.postIts,
          `PSTI holds ${count} post-its, META says ${this.meta.counts.postIts}`,
        );
        return;
      }
      case "FLOW": {
        const { flags } = await this.objectsOf();
        const flows = await snapshot.section(tag);
        for (const [ranks, flag, what] of [
          [flows.starts, START, "start"],
          [flows.ends, END, "end"],
        ] as const) {
          let count = 0;
          for (let r = 0; r < this.objects; r++) if (flags[r] & flag) count++;
          check(count === ranks.length, `FLOW lists ${ranks.length} ${what} points, OBJC flags ${count}`);
          for (const rank of ranks)
            check(flags[rank] & flag, () => `FLOW: rank ${rank} is not a ${what} point in OBJC`);
        }
        return;
      }
      case "SFID":
        // Its decoder checks its count against META's; the source code route's lookups rely on its order.
        check((await snapshot.section(tag)).inOrder(), "SFID: the file ids are not in the order of compareIds");
        return;
    }
    if (SEARCH_INDEXES.has(tag)) return this.searchIndex(snapshot, tag as StoredIndexTag);
    const paged = KEY_PAGES_BY.get(tag);
    if (paged && tag === KEY_PAGES_OF[paged].reversed) return this.pagedIndex(snapshot, paged);
    if (TRIGRAM_INDEXES.has(tag)) return this.trigramIndex(snapshot, tag as TrigramTag);
    const trigrams = trigramsOfChunks.get(tag);
    if (trigrams) return this.trigramChunks(snapshot, tag as ChunksTag, trigrams);
    await snapshot.section(tag);
  }

  /** OBJC and the id pages decoded (their own checks: every page, every rank once), and what later checks compare with them. */
  private async objectsOf(): Promise<ObjectFacts> {
    this.objectFacts ??= await this.objectsTaken();
    return this.objectFacts;
  }

  private async objectsTaken(): Promise<ObjectFacts> {
    const snapshot = await Snapshot.open(this.source);
    // OBJC first: its count against META's is the plainest message when the two disagree.
    const core = await snapshot.section("OBJC");
    // Readers take the id pages' block table as written; it is checked here, as every paged section's is.
    await this.pagesBlock(snapshot, "IDXP", await snapshot.section("IDXD"));
    const order = await readWholeIdPages(snapshot);
    const ids = new BigUint64Array(this.objects);
    // Written as 32-bit halves (little-endian, as the pages store them): no BigInt per id.
    const halves = new Uint32Array(ids.buffer);
    const parents = new Uint32Array(this.objects);
    for (let i = 0; i < order.count; i++) {
      const rank = order.rank(i);
      halves[2 * rank] = order.idLow(i);
      halves[2 * rank + 1] = order.idHigh(i);
      parents[rank] = order.parent(i);
    }
    return { ids, flags: core.flags.slice(), parents, level5: core.level5.slice() };
  }

  /**
   * Every link page, each object's flags and the roles its links give the objects at their other
   * ends those of OBJC; then the links counted as META says, each object's callers exactly the
   * objects whose callees name it, ascending; and HOPS as those links give it.
   */
  private async links(snapshot: Snapshot): Promise<void> {
    const { flags } = await this.objectsOf();
    const directory = await snapshot.section("LNKD");
    const { linkTypes } = directory;
    for (let t = 1; t < linkTypes.length; t++)
      check(linkTypes[t - 1] < linkTypes[t], () => `LNKD: link types do not ascend at ${t}`);
    const pages = snapshot.toc.get("LNKP")?.length ?? 0;
    const gathered = new GatheredLinks(this.objects, Math.min(this.meta.counts.links, pages));
    await this.pages(snapshot, "LNKD", directory, 0, directory.pageCount, (p, bytes) =>
      this.linkPageGathered(directory, p, bytes, flags, gathered),
    );
    check(
      gathered.links === this.meta.counts.links,
      `the link pages hold ${gathered.links} links, META says ${this.meta.counts.links}`,
    );
    const { calleeOffsets, callees, callerOffsets, callers } = gathered;
    const next = callerOffsets.slice(0, this.objects);
    for (let from = 0; from < this.objects; from++)
      for (let i = calleeOffsets[from]; i < calleeOffsets[from + 1]; i++) {
        const to = callees[i];
        if (!(next[to] < callerOffsets[to + 1] && callers[next[to]++] === from))
          check(false, `LNKP: the callers of object ${to} are not the objects whose callees name it`);
      }
    for (let to = 0; to < this.objects; to++)
      check(next[to] === callerOffsets[to + 1], () => `LNKP: object ${to} has callers whose callees do not name it`);
    const expected = encodePointHops(
      flags,
      { offsets: calleeOffsets, targets: callees },
      { offsets: callerOffsets, targets: callers },
    );
    const { hops } = await snapshot.section("HOPS");
    const wrong = expected[0].findIndex((byte, r) => byte !== hops[r]);
    check(
      wrong < 0,
      () => `HOPS: object ${wrong} has ${hops[wrong]}, its links give ${expected[0][wrong]} (§8.24 of the format)`,
    );
    // The lists of points one link away (a reader checks only their shape), as the links give them.
    const entry = snapshot.toc.get("HOPS")!;
    const stored = new Blocks(await this.source.read(entry.offset, entry.length), "HOPS", expected.length);
    for (const [offsets, lists, what] of [
      [1, 2, "end points one link down"],
      [3, 4, "start points one link up"],
    ] as const) {
      const group = firstDifference(expected[offsets] as Uint32Array, stored.u32(offsets));
      check(
        group < 0,
        () => `HOPS: the offsets of its ${what} at group ${group} are not those its links give (§8.24 of the format)`,
      );
      const byte = firstDifference(expected[lists] as Uint8Array, stored.u8(lists));
      check(byte < 0, () => `HOPS: its ${what} at byte ${byte} are not those its links give (§8.24 of the format)`);
    }
  }

  /** Link page `p` checked against OBJC's flags, its objects' distinct callees and callers added to `gathered`. */
  private linkPageGathered(
    directory: LinkDirectory,
    p: number,
    bytes: Uint8Array,
    flags: Uint8Array,
    gathered: GatheredLinks,
  ): void {
    const page = directory.decodePage(p, bytes);
    const { callees, callers } = gathered;
    const tooMany = () =>
      check(false, `link page ${p}: more caller-callee pairs than the ${this.meta.counts.links} links META counts`);
    for (let rank = directory.firstRanks[p]; rank < directory.endOf(p); rank++) {
      check(page.flagsOf(rank) === flags[rank], () => `link page ${p}: object ${rank} has flags OBJC does not give it`);
      let previous = -1;
      page.forEachCallee(rank, (target, _, kinds) => {
        gathered.links += (kinds & 1) + ((kinds >> 1) & 1);
        if ((kinds & TARGET_IS_END) !== (flags[target] & END ? TARGET_IS_END : 0))
          check(false, `link page ${p}: object ${rank} calls ${target} with another role than OBJC's`);
        if (target !== previous) {
          if (gathered.calleeCount === callees.length) tooMany();
          callees[gathered.calleeCount++] = target;
        }
        previous = target;
      });
      gathered.calleeOffsets[rank + 1] = gathered.calleeCount;
      page.forEachCaller(rank, (caller, start) => {
        if (start !== (flags[caller] & START ? SOURCE_IS_START : 0))
          check(false, `link page ${p}: caller ${caller} of object ${rank} has another role than OBJC's`);
        if (gathered.callerCount === callers.length) tooMany();
        callers[gathered.callerCount++] = caller;
      });
      gathered.callerOffsets[rank + 1] = gathered.callerCount;
    }
  }

  /** Every node's strings; object counts that add up level by level, at level 5 those of the objects OBJC places there. */
  private async taxonomy(snapshot: Snapshot): Promise<void> {
    const { level5 } = await this.objectsOf();
    const taxonomy = await snapshot.section("TAXO");
    for (let level = 1; level <= 5; level++) taxonomy.nodes(level);
    const { levels } = taxonomy;
    const placed = new Float64Array(levels[4].count);
    for (const node of level5) placed[node]++;
    for (let node = 0; node < levels[4].count; node++)
      check(
        levels[4].nbObjects[node] === placed[node],
        () =>
          `TAXO: level-5 node ${node} counts ${levels[4].nbObjects[node]} objects, OBJC places ${placed[node]} there`,
      );
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
  private async searchIndex(snapshot: Snapshot, tag: StoredIndexTag): Promise<void> {
    const index = await snapshot.section(tag);
    const { offsets, postings } = index;
    for (let k = 0; k < index.keyCount; k++)
      for (let i = offsets[k] + 1; i < offsets[k + 1]; i++)
        check(postings[i - 1] < postings[i], () => `${tag}: the postings of key ${k} do not ascend`);
    keyOrders(tag, listOf(index.keys.all()), index.byReversed);
  }

  /**
   * Key pages read in order, each checked as a reader checks it: their keys ascending across pages,
   * and every object in exactly one key's postings (reversedOrderPart checks the reversed order).
   */
  private async pagedIndex(snapshot: Snapshot, tag: PagedIndexTag): Promise<void> {
    const { directory: directoryTag, reversed, ofRanks } = KEY_PAGES_OF[tag];
    const directory = await snapshot.section(directoryTag);
    const keysOfRanks = ofRanks ? await snapshot.section(ofRanks) : null;
    let previous: string | null = null;
    let keyCount = 0;
    const held = new Uint8Array(this.objects);
    await this.pages(snapshot, directoryTag, directory, 0, directory.pageCount, (p, bytes) => {
      const page = directory.decodePage(p, bytes);
      for (const key of page.keys()) {
        if (previous !== null && !(previous < key)) check(false, `${tag}: keys do not ascend at ${keyCount}`);
        previous = key;
        keyCount++;
      }
      for (let i = 0; i < page.count; i++)
        for (const rank of page.ranksOf(i)) {
          if (held[rank]) check(false, `${tag}: object ${rank} holds two keys`);
          held[rank] = 1;
          const key = directory.firstKeys[p] + i;
          if (keysOfRanks && keysOfRanks.keyOf(rank) !== key)
            check(
              false,
              `${ofRanks}: object ${rank} holds key ${keysOfRanks.keyOf(rank)}, ${tag} lists it under key ${key}`,
            );
        }
    });
    check(
      held.every((h) => h === 1),
      `${tag}: some object holds no key`,
    );
    const { order } = await snapshot.section(reversed);
    check(
      order.length === keyCount,
      `${tag}: the reversed order ${reversed} has ${order.length} keys, not ${keyCount}`,
    );
  }

  /**
   * Entries [part·reversedPartKeys, …) of the reversed order of key pages `tag`: each key's
   * reversed text after the one before (the part's first after the last of the part before), and
   * the samples among them. Only the keys those entries name are read out of the pages.
   */
  private async reversedOrderPart(snapshot: Snapshot, tag: PagedIndexTag, part: number): Promise<void> {
    const { directory: directoryTag, reversed } = KEY_PAGES_OF[tag];
    const { order, samples } = await snapshot.section(reversed);
    const from = part * this.reversedPartKeys;
    const to = Math.min(order.length, from + this.reversedPartKeys);
    if (from >= to) return;
    const directory = await snapshot.section(directoryTag);
    const first = Math.max(0, from - 1);
    // The keys the part names, ascending: the pages holding them are then read in order, once.
    const keys = order.slice(first, to).sort();
    if (!(keys[keys.length - 1] < directory.keyCount))
      check(false, `${reversed}: an entry names key ${keys[keys.length - 1]}, of ${directory.keyCount}`);
    const texts = new Map<number, string>();
    // The pages' block located (and checked) once for every run read below.
    const { entry, start } = await this.pagesBlock(snapshot, tag, directory);
    const { firstKeys, offsets } = directory;
    let next = 0;
    const visit = (p: number, bytes: Uint8Array) => {
      const page = directory.decodePage(p, bytes);
      for (; next < keys.length && keys[next] < firstKeys[p + 1]; next++)
        texts.set(keys[next], page.keyAt(keys[next] - firstKeys[p]));
    };
    // Runs of pages holding a key named, each read as the key pages' check reads them.
    for (let k = 0; k < keys.length; ) {
      const p = directory.pageOfKey(keys[k]);
      let end = p + 1;
      while (k < keys.length && keys[k] < firstKeys[end]) {
        k++;
        if (k < keys.length && keys[k] >= firstKeys[end] && keys[k] < firstKeys[end + 1]) end++;
      }
      await forEachPage(
        offsets,
        p,
        end,
        (offset, length) => this.source.read(entry.offset + start + offset, length),
        visit,
      );
    }
    const key = (i: number) => texts.get(order[i])!;
    for (let i = first + 1, previous = reverseCodeUnits(key(first)); i < to; i++) {
      const text = reverseCodeUnits(key(i));
      check(previous < text, () => `${reversed}: the reversed order does not ascend at ${i}`);
      previous = text;
    }
    for (let j = Math.ceil(from / REVERSED_SAMPLE); j < samples.length && j * REVERSED_SAMPLE < to; j++)
      check(
        samples.get(j) === key(j * REVERSED_SAMPLE),
        () => `${reversed}: sampled key ${j} is not the key of entry ${j * REVERSED_SAMPLE}`,
      );
  }

  /** Every posting list decoded (a reader decodes each when a query first needs it), a batch of slots at a time. */
  private async trigramIndex(snapshot: Snapshot, tag: TrigramTag): Promise<void> {
    const index = await snapshot.section(tag);
    const [first, end] = index.slotRange(0, TRIGRAM_SPACE);
    for (let from = first; from < end; from += SLOTS_AT_ONCE) {
      const slots = Array.from({ length: Math.min(SLOTS_AT_ONCE, end - from) }, (_, i) => from + i);
      const lists = await index.lists(slots);
      for (const slot of slots) lists.keys(slot);
    }
  }

  /** The chunk directory against its trigram index, read as a reader reads it by range: head, then each chunk. */
  private async trigramChunks(snapshot: Snapshot, tag: ChunksTag, trigrams: TrigramTag): Promise<void> {
    const chunks = await snapshot.section(tag);
    const reader = new SectionReader(this.source, snapshot.toc.get(trigrams)!);
    chunks.readHead(await reader.next(chunks.headLength), trigrams);
    await forEachPage(
      chunks.offsets,
      0,
      chunks.pageCount,
      (_, length) => reader.next(length),
      (c, bytes) => chunks.verify(c, bytes),
    );
    await reader.finish();
  }

  /** Part `part` of the pages `directory` locates: the pages starting in its PART_BYTES of their block, each checked as pageVisitor says. */
  private async pagesPart(snapshot: Snapshot, directory: PartedTag, part: number): Promise<void> {
    const visit = await this.pageVisitor(snapshot, directory);
    const { offsets, pageCount } = visit.directory;
    const first = firstFailing(0, pageCount, (p) => offsets[p] < part * PART_BYTES);
    const end = firstFailing(first, pageCount, (p) => offsets[p] < (part + 1) * PART_BYTES);
    await this.pages(snapshot, directory, visit.directory, first, end, visit.page);
  }

  /** Where paged section `tag`'s pages start, from its block table (SNAPSHOT-FORMAT.md §6: one block), checked against the section and `directory`. */
  private async pagesBlock(
    snapshot: Snapshot,
    tag: PagesTag,
    directory: PageDirectory,
  ): Promise<{ entry: TocEntry; start: number }> {
    const entry = snapshot.toc.get(tag);
    check(entry, `snapshot has no ${tag} section, which every reader needs`);
    const [start, length] = new Blocks(await this.source.read(entry.offset, 16), entry.tag, 1).extent(0);
    check(start >= 16 && start + length <= entry.length, `${entry.tag}: malformed block table`);
    check(
      directory.pagesBytes === length,
      `${entry.tag}: its directory's pages end at ${directory.pagesBytes}, its block at ${length}`,
    );
    return { entry, start };
  }

  /** Pages [first, end) that `directory` (of tag `tag`) locates, read in windows, each handed to `visit`. */
  private async pages(
    snapshot: Snapshot,
    tag: DirectoryTag,
    directory: PageDirectory,
    first: number,
    end: number,
    visit: (p: number, bytes: Uint8Array) => void,
  ): Promise<void> {
    const { entry, start } = await this.pagesBlock(snapshot, PAGES_OF[tag], directory);
    const { offsets } = directory;
    await forEachPage(
      offsets,
      first,
      end,
      (offset, bytes) => this.source.read(entry.offset + start + offset, bytes),
      visit,
    );
  }

  /** The directory `tag` decoded and checked against what it repeats, with what checks each of its pages. */
  private async pageVisitor(
    snapshot: Snapshot,
    tag: PartedTag,
  ): Promise<{ directory: PageDirectory; page: (p: number, bytes: Uint8Array) => void }> {
    switch (tag) {
      case "ROWD": {
        const { ids, flags, parents } = await this.objectsOf();
        const directory = await snapshot.section(tag);
        // Each row's id and parent those of the id pages, its external flag OBJC's.
        return {
          directory,
          page: (p, bytes) => {
            const page = directory.decodePage(p, bytes);
            for (let rank = page.firstRank; rank < page.firstRank + page.count; rank++) {
              const row = page.row(rank);
              check(BigInt(row.id) === ids[rank], () => `row ${rank} has id ${row.id}, the id pages ${ids[rank]}`);
              check(
                row.parent === parents[rank],
                () => `row ${rank} has parent ${row.parent}, the id pages ${parents[rank]} (${NONE}: none)`,
              );
              check(row.external === ((flags[rank] & EXTERNAL) !== 0), () => `row ${rank} differs from OBJC`);
            }
          },
        };
      }
      case "MEMD": {
        const { ids, level5 } = await this.objectsOf();
        const directory = await snapshot.section(tag);
        // OBJC's objects grouped by level-5 node, ascending within each: the members each node's pages must list.
        const starts = new Uint32Array(directory.firstPages.length);
        for (const node of level5) starts[node + 1]++;
        for (let n = 1; n < starts.length; n++) starts[n] += starts[n - 1];
        for (let n = 0; n + 1 < starts.length; n++)
          check(
            directory.memberCount(n) === starts[n + 1] - starts[n],
            () =>
              `MEMD: level-5 node ${n} has ${directory.memberCount(n)} members, OBJC places ${starts[n + 1] - starts[n]} there`,
          );
        const members = new Uint32Array(this.objects);
        const next = starts.slice();
        level5.forEach((node, rank) => (members[next[node]++] = rank));
        // Where each page's members start in that grouping: the pages lie in node order, each node's together.
        const pageStarts = new Float64Array(directory.pageCount);
        for (let p = 1; p < directory.pageCount; p++) pageStarts[p] = pageStarts[p - 1] + directory.memberCounts[p - 1];
        return {
          directory,
          page: (p, bytes) =>
            directory.decodePage(p, bytes).forEach((member, i) => {
              const rank = members[pageStarts[p] + i];
              check(
                BigInt(member.id) === ids[rank],
                () => `member page ${p}: member ${i} is not object ${rank} of level-5 node ${directory.nodeOf(p)}`,
              );
            }),
        };
      }
      case "PNTD": {
        const { ids } = await this.objectsOf();
        const [directory, flows] = await Promise.all([snapshot.section(tag), snapshot.section("FLOW")]);
        // FLOW's points in its order, the start points then the end points: what the pages must list.
        const points = [...flows.starts, ...flows.ends];
        check(
          directory.pointCount === points.length,
          `PNTD: its pages hold ${directory.pointCount} points, FLOW lists ${points.length}`,
        );
        return {
          directory,
          page: (p, bytes) => {
            const page = directory.decodePage(p, bytes);
            for (let point = page.firstPoint; point < page.firstPoint + page.count; point++) {
              const { id } = JSON.parse(decodeUtf8(page.pointText(point))) as { id: string };
              check(
                BigInt(id) === ids[points[point]],
                () => `point page ${p}: point ${point} is not object ${points[point]}, FLOW's point there`,
              );
            }
          },
        };
      }
      case "DNAM":
      case "DFUL":
      case "DMNG": {
        const { reversed } = KEY_PAGES_OF[KEY_PAGES_BY.get(tag)!];
        const directory = await snapshot.section(tag);
        const keyCount = (await snapshot.section(reversed)).order.length;
        check(
          directory.keyCount === keyCount,
          `${tag}: ${directory.keyCount} keys in pages, ${keyCount} in the reversed order ${reversed}`,
        );
        // Keys UTF-8, ascending within and across pages, postings counted and ascending (decodePage checks all).
        return { directory, page: (p, bytes) => void directory.decodePage(p, bytes) };
      }
      case "SRCD": {
        // Each page UTF-8 with the lines its directory gives it (decodePage checks both).
        const directory = await snapshot.section(tag);
        return { directory, page: (p, bytes) => void directory.decodePage(p, bytes) };
      }
      case "SLCD": {
        // Each page's objects and no more, every file within the file table (decodePage checks both).
        const directory = await snapshot.section(tag);
        return { directory, page: (p, bytes) => void directory.decodePage(p, bytes) };
      }
      case "SFLD": {
        // Each page's files and no more, paths and languages UTF-8 (decodePage checks both).
        const directory = await snapshot.section(tag);
        return { directory, page: (p, bytes) => void directory.decodePage(p, bytes) };
      }
    }
  }

  /** The checksum of every section no check reads whole: pages (read in parts), sections this reader does not know (without the required flag). */
  private async checksums(snapshot: Snapshot): Promise<void> {
    for (const entry of snapshot.toc.values())
      if (entry.tag !== META_TAG && (PAGES.has(entry.tag) || !(entry.tag in SECTIONS)))
        await new SectionReader(this.source, entry).finish();
  }
}
