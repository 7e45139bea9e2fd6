// @module IdPages: object ids in ascending order with their ranks and parents' ranks, in fixed-size checksummed pages (IDXP) with a directory (IDXD).
//
// The file's id index, and its only list of the ids in id order (each row holds its own id too):
// the directory holds each page's first id (a few KiB at 1M objects) and one page answers a lookup;
// what needs every id (changes between two analyses, a status base, verification) reads them whole.
//
// The page gives the parent's rank too, so that an answer about an object and its parent (its
// characteristics) asks for both rows in one round of reads: found in the object's row, the parent
// cost a round of its own after it (at 1M objects with 20 ms reads, 42 ms at the median; 21 so).
import type { Block, Blocks } from "./blocks.ts";
import { check } from "./errors.ts";
import { NONE, type ObjectRecord } from "./model.ts";
import { bitsFor, PackedUints } from "./packed-uints.ts";
import { firstFailing, PageDirectory, PageWriter, pageStartingAtOrBefore } from "./page-directory.ts";
import { readAllPages } from "./page-loads.ts";
import type { Snapshot } from "./snapshot.ts";

/** Ids per page (the last page may hold fewer): 8 KiB of ids, ranks and parents' ranks. */
export const IDS_PER_PAGE = 512;

export interface EncodedIdPages {
  firstIds: BigUint64Array;
  pages: Uint8Array;
  offsets: Uint32Array;
  crcs: Uint32Array;
}

/** Bytes of one entry: its u64 id, u32 rank and u32 parent's rank. */
const ENTRY_BYTES = 16;

/**
 * A page of k entries is k u64 ids (ascending), then k u32 ranks, then k u32 ranks of their
 * parents (NONE: no parent), little-endian: 16·k bytes.
 */
export function encodeIdPages(objects: readonly ObjectRecord[], byId: Uint32Array): EncodedIdPages {
  const out = new PageWriter();
  const firstIds: bigint[] = [];
  for (let from = 0; from < byId.length; from += IDS_PER_PAGE) {
    const ranks = byId.slice(from, from + IDS_PER_PAGE);
    const ids = u64Ids(ranks.length, (i) => objects[ranks[i]].id);
    const parents = Uint32Array.from(ranks, (r) => objects[r].parent);
    const page = new Uint8Array(ranks.length * ENTRY_BYTES);
    page.set(new Uint8Array(ids.buffer), 0);
    page.set(new Uint8Array(ranks.buffer), ids.byteLength);
    page.set(new Uint8Array(parents.buffer), ids.byteLength + ranks.byteLength);
    firstIds.push(ids[0]);
    out.add(page);
  }
  return { firstIds: BigUint64Array.from(firstIds), ...out.finish() };
}

const TWO_32 = 2 ** 32;

/**
 * The u64 of `count` decimal ids (the i-th is `idAt(i)`), as the format stores them: one of up to 15
 * digits, an exact double, is written as its two 32-bit halves, without a BigInt for each.
 */
export function u64Ids(count: number, idAt: (i: number) => string): BigUint64Array {
  const ids = new BigUint64Array(count);
  // Little-endian halves, as the platforms the format is written on store a u64.
  const halves = new Uint32Array(ids.buffer);
  for (let i = 0; i < count; i++) {
    const id = idAt(i);
    if (id.length > 15) ids[i] = BigInt(id);
    else {
      const value = Number(id);
      halves[2 * i] = value % TWO_32;
      halves[2 * i + 1] = Math.floor(value / TWO_32);
    }
  }
  return ids;
}

/** IDXD's three blocks: u64 first id of each page (P), u32 page offsets in IDXP (P + 1), u32 CRC-32 of each page (P). */
export function encodeIdDirectory(pages: EncodedIdPages): Block[] {
  return [pages.firstIds, pages.offsets, pages.crcs];
}

/** A decimal id as the format stores it, or null for text that names no object ("0302", "-1", 20 digits). */
export function parseObjectId(id: string): bigint | null {
  return /^(0|[1-9][0-9]{0,18})$/.test(id) ? BigInt(id) : null;
}

/** Binary search of `wanted` among `count` ids in ascending order (the i-th is idAt(i), of rank rankAt(i)): its rank, or -1. */
function rankOfAscendingId(
  count: number,
  idAt: (i: number) => bigint,
  rankAt: (i: number) => number,
  wanted: bigint,
): number {
  let lo = 0;
  let hi = count - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const value = idAt(mid);
    if (value === wanted) return rankAt(mid);
    if (value < wanted) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

export class IdDirectory extends PageDirectory {
  readonly firstIds: BigUint64Array;
  private readonly rows: number;

  constructor(blocks: Blocks, rows: number) {
    super(blocks.u32(1), blocks.u32(2), "id pages");
    this.firstIds = blocks.u64(0);
    this.rows = rows;
    const pages = this.firstIds.length;
    check(
      this.crcs.length === pages && pages === Math.ceil(rows / IDS_PER_PAGE),
      `id directory: ${pages} first ids and ${this.crcs.length} pages for ${rows} objects`,
    );
    for (let p = 0; p < pages; p++) {
      const entries = Math.min(IDS_PER_PAGE, rows - p * IDS_PER_PAGE);
      check(this.storedBytes(p) === entries * ENTRY_BYTES, `id directory: page ${p} is not ${entries} entries long`);
      check(p === 0 || this.firstIds[p - 1] < this.firstIds[p], `id directory: first ids do not ascend at page ${p}`);
    }
  }

  /** The only page that may hold `id`. */
  pageOf(id: bigint): number {
    return pageStartingAtOrBefore(this.firstIds, id);
  }

  /**
   * Checks and decodes page `p` (its stored bytes exactly). `inPlace`: the page may view `bytes`,
   * which the caller keeps whole anyway; otherwise it copies them, so as not to hold the rest of a
   * multi-page read.
   */
  decodePage(p: number, bytes: Uint8Array, inPlace = false): IdPage {
    this.verify(p, bytes);
    // Views need 8-byte alignment for the ids.
    const own = inPlace && bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
    const k = own.length / ENTRY_BYTES;
    const ids = new BigUint64Array(own.buffer, own.byteOffset, k);
    const ranks = new Uint32Array(own.buffer, own.byteOffset + k * 8, k);
    const parents = new Uint32Array(own.buffer, own.byteOffset + k * 12, k);
    check(ids[0] === this.firstIds[p], `id page ${p} does not start at its directory's first id`);
    // Ids ascend across pages too, or a lookup would search the wrong page.
    check(
      p + 1 === this.firstIds.length || ids[k - 1] < this.firstIds[p + 1],
      `id page ${p} runs past the next page's first id`,
    );
    // Ids compared by their 32-bit halves (high, then low): reading a BigUint64Array makes a BigInt
    // of each element, and checking a million ids that way left some 50 MiB for the collector.
    const halves = new Uint32Array(own.buffer, own.byteOffset, 2 * k);
    for (let i = 0; i < k; i++) {
      if (!(ranks[i] < this.rows)) check(false, `id page ${p}: rank ${ranks[i]} of ${this.rows} objects`);
      // An analysis may name an object its own parent (a parent need only exist): that is kept.
      if (!(parents[i] === NONE || parents[i] < this.rows))
        check(false, `id page ${p}: object ${ranks[i]} has parent ${parents[i]} of ${this.rows} objects`);
      if (i > 0) {
        const high = halves[2 * i + 1];
        const previousHigh = halves[2 * i - 1];
        if (!(previousHigh < high || (previousHigh === high && halves[2 * i - 2] < halves[2 * i])))
          check(false, `id page ${p}: ids do not ascend at ${i}`);
      }
    }
    return new IdPage(ids, halves, ranks, parents);
  }
}

/**
 * Every id page, from one read of the whole section (its block exactly), every page checked as it
 * is read, then held packed, not in the 16 bytes an object the pages take: each id as its distance
 * from its page's first id (when every page spans less than 2^32 ids, as analyses number their
 * objects), its rank and its parent's, each in the bits the largest needs. At 1M objects (20 bits a
 * rank and a parent, 11 a distance in the bench's analysis) that is 6.4 bytes an object, where three
 * u32 took 12: the megabytes given back hold other pages, in a budget the mixed workload is most
 * sensitive to. Their ranks are checked to name every object once. Entry i (of the id order) gives
 * its id, rank and parent's rank to what takes every id.
 */
export class WholeIdPages {
  private readonly directory: IdDirectory;
  /** Each id less its page's first id; null when a page spans 2^32 ids or more (`ids` then holds them). */
  private readonly distances: PackedUints | null;
  private readonly ids: BigUint64Array | null;
  /** The 32-bit halves (low, high) of each page's first id, or of each id when `ids` holds them. */
  private readonly halves: Uint32Array;
  private readonly ranks: PackedUints;
  /** Each parent's rank, `objects` for none (NONE does not fit the width). */
  private readonly parents: PackedUints;
  private readonly objects: number;
  readonly byteSize: number;

  constructor(directory: IdDirectory, bytes: Uint8Array) {
    const { offsets, pageCount } = directory;
    check(
      bytes.length === directory.pagesBytes,
      `id pages: ${bytes.length} bytes read for pages of ${directory.pagesBytes} bytes`,
    );
    this.directory = directory;
    const objects = bytes.length / ENTRY_BYTES;
    this.objects = objects;
    // Aligned, so that pages view it in place while they are checked.
    const aligned = bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
    const pages = Array.from({ length: pageCount }, (_, p) =>
      directory.decodePage(p, aligned.subarray(offsets[p], offsets[p + 1]), true),
    );
    let widest = 0n;
    for (const { ids } of pages) {
      const span = ids[ids.length - 1] - ids[0];
      if (span > widest) widest = span;
    }
    const near = widest < TWO_32_BIG;
    this.distances = near ? new PackedUints(objects, bitsFor(Number(widest))) : null;
    this.ids = near ? null : new BigUint64Array(objects);
    this.ranks = new PackedUints(objects, bitsFor(Math.max(0, objects - 1)));
    this.parents = new PackedUints(objects, bitsFor(objects));
    const seen = new Uint8Array(objects);
    for (let p = 0; p < pageCount; p++) {
      const { ids, halves, ranks, parents } = pages[p];
      const at = p * IDS_PER_PAGE;
      for (const rank of ranks) {
        if (seen[rank]) check(false, `id pages: rank ${rank} has two ids`);
        seen[rank] = 1;
      }
      // From the low halves, not BigInts (see decodePage): a distance below 2^32 is their difference modulo 2^32.
      if (this.distances)
        for (let i = 0; i < ids.length; i++) this.distances.set(at + i, (halves[2 * i] - halves[0]) >>> 0);
      else this.ids!.set(ids, at);
      for (let i = 0; i < ranks.length; i++) {
        this.ranks.set(at + i, ranks[i]);
        this.parents.set(at + i, parents[i] === NONE ? objects : parents[i]);
      }
    }
    const { firstIds } = directory;
    this.halves = this.ids
      ? new Uint32Array(this.ids.buffer)
      : new Uint32Array(firstIds.buffer, firstIds.byteOffset, 2 * firstIds.length);
    this.byteSize =
      64 + (this.distances?.byteLength ?? this.ids!.byteLength) + this.ranks.byteLength + this.parents.byteLength;
  }

  /** Entries: one an object. */
  get count(): number {
    return this.objects;
  }

  /** The rank of the object of entry i. */
  rank(i: number): number {
    return this.ranks.get(i);
  }

  /** The rank of the parent of the object of entry i (NONE: none). */
  parent(i: number): number {
    const parent = this.parents.get(i);
    return parent === this.objects ? NONE : parent;
  }

  /** The id of entry i, as its decimal text. */
  id(i: number): string {
    const high = this.idHigh(i);
    // Below 2^21 in the high half, the id is an exact double: no BigInt needed.
    return high < 0x20_0000
      ? (high * TWO_32 + this.idLow(i)).toString()
      : ((BigInt(high) << 32n) | BigInt(this.idLow(i))).toString();
  }

  /** How the id of entry i compares with that of entry j of `other`: negative, 0 or positive. */
  compareIds(i: number, other: WholeIdPages, j: number): number {
    // By their 32-bit halves, high then low: no BigInt per id.
    const [high, otherHigh] = [this.idHigh(i), other.idHigh(j)];
    if (high !== otherHigh) return high < otherHigh ? -1 : 1;
    const [low, otherLow] = [this.idLow(i), other.idLow(j)];
    return low === otherLow ? 0 : low < otherLow ? -1 : 1;
  }

  /** The low 32 bits of the id of entry i. */
  idLow(i: number): number {
    if (!this.distances) return this.halves[2 * i];
    return (this.halves[2 * ((i / IDS_PER_PAGE) | 0)] + this.distances.get(i)) >>> 0;
  }

  /** The high 32 bits of the id of entry i: its page's first id's, and the carry of its distance. */
  idHigh(i: number): number {
    if (!this.distances) return this.halves[2 * i + 1];
    const p = (i / IDS_PER_PAGE) | 0;
    return this.halves[2 * p + 1] + (this.halves[2 * p] + this.distances.get(i) > 0xffff_ffff ? 1 : 0);
  }

  /** The rank of `id` and its parent's (NONE: none), or null when no object has it. */
  find(id: bigint): { rank: number; parent: number } | null {
    const p = this.directory.pageOf(id);
    const from = p * IDS_PER_PAGE;
    const count = Math.min(IDS_PER_PAGE, this.objects - from);
    let i: number;
    if (this.distances) {
      const distance = id - this.directory.firstIds[p];
      if (distance < 0n || distance >= TWO_32_BIG) return null;
      const wanted = Number(distance);
      const { distances } = this;
      i = firstFailing(from, from + count, (j) => distances.get(j) < wanted);
      if (i === from + count || distances.get(i) !== wanted) return null;
    } else {
      const ids = this.ids!;
      i = rankOfAscendingId(
        count,
        (j) => ids[from + j],
        (j) => from + j,
        id,
      );
      if (i < 0) return null;
    }
    const parent = this.parents.get(i);
    return { rank: this.ranks.get(i), parent: parent === this.objects ? NONE : parent };
  }
}

const TWO_32_BIG = 1n << 32n;

export class IdPage {
  /** The page's ids, ascending, the rank of each, and the rank of its parent (NONE: none). */
  readonly ids: BigUint64Array;
  /** The same ids as 32-bit halves, low then high, for arithmetic without a BigInt for each. */
  readonly halves: Uint32Array;
  readonly ranks: Uint32Array;
  readonly parents: Uint32Array;

  constructor(ids: BigUint64Array, halves: Uint32Array, ranks: Uint32Array, parents: Uint32Array) {
    this.ids = ids;
    this.halves = halves;
    this.ranks = ranks;
    this.parents = parents;
  }

  /** The rank of `id` and its parent's (NONE: none), or null when no object has it. */
  find(id: bigint): { rank: number; parent: number } | null {
    const i = rankOfAscendingId(
      this.ids.length,
      (i) => this.ids[i],
      (i) => i,
      id,
    );
    return i < 0 ? null : { rank: this.ranks[i], parent: this.parents[i] };
  }

  get byteSize(): number {
    return 64 + this.ids.byteLength + this.ranks.byteLength + this.parents.byteLength;
  }
}

/** The cache entry of the id pages read whole. */
const WHOLE_ID_PAGES = "IDXP#whole";

/**
 * Every id page of `snapshot`, from one read of IDXP's pages, kept like a section: counted in the
 * section budget (the two of a comparison push other entries out rather than add to an isolate's
 * memory), and shared by lookups and by what takes every id (changes between two analyses, a
 * status base, verification).
 */
export function readWholeIdPages(snapshot: Snapshot): Promise<WholeIdPages> {
  return snapshot.remember(WHOLE_ID_PAGES, async () => {
    const directory = await snapshot.section("IDXD");
    return new WholeIdPages(directory, await readAllPages(snapshot, "IDXP", directory));
  });
}

/** The id pages read whole, if they are at hand (nothing is read). */
export function heldWholeIdPages(snapshot: Snapshot): WholeIdPages | undefined {
  return snapshot.recall<WholeIdPages>(WHOLE_ID_PAGES);
}

/** Where each rank's id is in `order` (its id: `order.id(positions[rank])`), 4 bytes a rank. */
export function positionsByRank(order: WholeIdPages): Uint32Array {
  const positions = new Uint32Array(order.count);
  for (let i = 0; i < order.count; i++) positions[order.rank(i)] = i;
  return positions;
}
