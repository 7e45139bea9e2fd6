// @module PageDirectory: where each page of a paged section lies and its CRC-32, for sections read page by page.
//
// A paged section (ROWP, LNKP, IDXP) is too large to read whole for one answer, so its TOC checksum
// cannot protect a page read alone. Its directory (ROWD, LNKD, IDXD: small, read whole and checked)
// gives every page's byte range and checksum instead, as PMTiles' directories locate tiles.
import { type Block, Blocks, checkBelow } from "./blocks.ts";
import { crc32 } from "./crc32.ts";
import { check } from "./errors.ts";
import { MAX_INFLATION } from "./inflate.ts";
import { DEFLATE, type PageCodec, type PageEncoder } from "./page-codec.ts";
import { VarintWriter } from "./varint.ts";

export class PageDirectory {
  /** Byte offset of each page in the paged section's one block (P + 1, strictly increasing from 0). */
  readonly offsets: Uint32Array;
  readonly crcs: Uint32Array;
  readonly what: string;
  /** 1 for each page whose contents passed the checks made once a page (checkOnce). */
  private readonly checked: Uint8Array;

  constructor(offsets: Uint32Array, crcs: Uint32Array, what: string) {
    this.offsets = offsets;
    this.crcs = crcs;
    this.what = what;
    this.checked = new Uint8Array(crcs.length);
    check(offsets.length === crcs.length + 1, `${what}: ${crcs.length} pages but ${offsets.length} offsets`);
    check(offsets[0] === 0, `${what}: pages do not start at offset 0`);
    for (let p = 0; p < crcs.length; p++) if (offsets[p] >= offsets[p + 1]) check(false, `${what}: page ${p} is empty`);
  }

  get pageCount(): number {
    return this.crcs.length;
  }

  /** Bytes of page `p` as stored. */
  storedBytes(p: number): number {
    return this.offsets[p + 1] - this.offsets[p];
  }

  /** Bytes of all its pages together, as stored. */
  get pagesBytes(): number {
    return this.offsets[this.crcs.length];
  }

  /**
   * The pages of paged section `tag`'s body read whole, as this directory (section `directoryTag`)
   * cuts them: page `p`'s stored bytes, not yet checked, by the function returned. The body's block
   * must be exactly as long as the directory says (what decodeSnapshotModel reads every page from).
   */
  pagesOfBody(body: Uint8Array, tag: string, directoryTag: string): (p: number) => Uint8Array {
    const pages = new Blocks(body, tag, 1).u8(0);
    check(pages.length === this.pagesBytes, `${tag}: its pages are not as long as ${directoryTag} says`);
    return (p) => pages.subarray(this.offsets[p], this.offsets[p + 1]);
  }

  /** Checks that `bytes` are page `p` exactly, as written: its length and checksum. */
  verify(p: number, bytes: Uint8Array): void {
    check(
      bytes.length === this.storedBytes(p),
      `${this.what}: page ${p} is ${bytes.length} bytes, expected ${this.storedBytes(p)}`,
    );
    check(crc32(bytes) === this.crcs[p], `${this.what}: page ${p} checksum mismatch`);
  }

  /**
   * Runs `checks` of what page `p` says (its text, its keys' order) the first time only: the
   * snapshot is immutable and `verify` ties the bytes read again after an eviction to those checked,
   * by their checksum. Checks that throw leave the page unchecked: refused again at its next read.
   */
  protected checkOnce(p: number, checks: () => void): void {
    if (this.checked[p]) return;
    checks();
    this.checked[p] = 1;
  }

  /**
   * Checks that each deflated page states at most `maxRaw` bytes of `contents` once inflated, and
   * at most MAX_INFLATION times its stored bytes: however its directory is forged, a reader then
   * inflates no more than that for each byte it reads. `what` names the directory in messages.
   */
  protected checkRawLengths(rawLengths: Uint32Array, maxRaw: number, what: string, contents: string): void {
    checkBelow(rawLengths, maxRaw + 1, `${what} page lengths`);
    for (let p = 0; p < rawLengths.length; p++) {
      const stored = this.storedBytes(p);
      // Tested before calling check: a message closure for each page would be garbage every directory leaves.
      if (!(rawLengths[p] <= MAX_INFLATION * stored))
        check(
          false,
          `${what}: page ${p} states ${rawLengths[p]} bytes of ${contents} from ${stored} stored bytes, more than ${MAX_INFLATION} times as many`,
        );
    }
  }

  get byteSize(): number {
    return this.offsets.byteLength + this.crcs.byteLength + this.checked.byteLength;
  }
}

/**
 * The directory of pages that each hold the consecutive ranks from their first rank to the next
 * page's (rows, links, source locations), checked on decoding: a first rank for each page, the first
 * 0, strictly ascending, each below `rows`. `directory` names it in messages.
 */
export class RankPageDirectory extends PageDirectory {
  readonly firstRanks: Uint32Array;
  /** The ranks the pages hold together: the snapshot's objects. */
  readonly rows: number;

  constructor(
    firstRanks: Uint32Array,
    offsets: Uint32Array,
    crcs: Uint32Array,
    rows: number,
    what: string,
    directory: string,
  ) {
    super(offsets, crcs, what);
    this.firstRanks = firstRanks;
    this.rows = rows;
    const pages = crcs.length;
    check(firstRanks.length === pages, `${directory}: ${firstRanks.length} first ranks for ${pages} pages`);
    check(rows === 0 ? pages === 0 : pages > 0 && firstRanks[0] === 0, `${directory}: pages do not start at rank 0`);
    checkBelow(firstRanks, Math.max(rows, 1), `${directory} first ranks`);
    for (let p = 1; p < pages; p++)
      check(firstRanks[p - 1] < firstRanks[p], `${directory}: first ranks do not ascend at page ${p}`);
  }

  /** The page holding `rank`. */
  pageOf(rank: number): number {
    return pageStartingAtOrBefore(this.firstRanks, rank);
  }

  /** The rank after page `p`'s last. */
  endOf(p: number): number {
    return p + 1 < this.firstRanks.length ? this.firstRanks[p + 1] : this.rows;
  }

  override get byteSize(): number {
    return super.byteSize + this.firstRanks.byteLength;
  }
}

/** The first index in [lo, hi) where `test` fails, for a test true on a prefix of the range (a binary search). */
export function firstFailing(lo: number, hi: number, test: (i: number) => boolean): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (test(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * `firstFailing` for values that may have to be read before they are tested (keys in pages not
 * read yet). A step whose middle `peek` can test at once (its page is at hand) halves the range as
 * `firstFailing` does; else `read` brings the values at up to `width` − 1 evenly spaced indices
 * together (one round of storage reads) and the range narrows to the gap holding the answer. A cold
 * search then waits some log_width(n) rounds, not log2(n): 5 rather than 20 over a million keys at
 * width 16, while a warm one costs no more than a binary search.
 */
export async function firstFailingWide(
  lo: number,
  hi: number,
  width: number,
  peek: (i: number) => boolean | undefined,
  read: (indices: number[]) => Promise<(i: number) => boolean>,
): Promise<number> {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const known = peek(mid);
    if (known !== undefined) {
      if (known) lo = mid + 1;
      else hi = mid;
      continue;
    }
    const span = hi - lo;
    const probes: number[] = [];
    if (span <= width) for (let i = lo; i < hi; i++) probes.push(i);
    else for (let j = 1; j < width; j++) probes.push(lo + Math.floor((span * j) / width));
    const test = await read(probes);
    let k = 0;
    while (k < probes.length && test(probes[k])) k++;
    if (span <= width) return k < probes.length ? probes[k] : hi;
    // The answer lies after the last probe passing, and at the first failing at the latest.
    if (k > 0) lo = probes[k - 1] + 1;
    if (k < probes.length) hi = probes[k];
  }
  return lo;
}

/** The last index i with `firsts[i] <= key` (0 when none): the page whose first key starts the range holding `key`. */
export function pageStartingAtOrBefore<T extends number | bigint>(firsts: ArrayLike<T>, key: T): number {
  let lo = 0;
  let hi = firsts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (firsts[mid] <= key) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Raw pages are handed to a PageEncoder in batches of about this many bytes: few enough messages
 * when it encodes on other threads, small enough that the first batch starts early.
 */
const ENCODE_BATCH_BYTES = 256 * 1024;

/**
 * Cuts a stream of encoded items into pages of about `pageBytes`, recording offsets and checksums.
 * Given an encoder, it stores each page added as `codec` encodes it, in the order added, whichever
 * thread encoded it: the same raw pages give the same bytes. Without one, pages are stored as added.
 */
export class PageWriter {
  private readonly encoder: PageEncoder | undefined;
  private readonly codec: PageCodec;
  /** Pages as stored, or for an encoding writer, each batch's pages once it is asked for. */
  private readonly chunks: (Uint8Array | (() => Uint8Array[]))[] = [];
  private batch: Uint8Array[] = [];
  private batchBytes = 0;
  private pages = 0;

  constructor(encoder?: PageEncoder, codec: PageCodec = DEFLATE) {
    this.encoder = encoder;
    this.codec = codec;
  }

  add(page: Uint8Array): void {
    this.pages++;
    if (!this.encoder) return void this.chunks.push(page);
    this.batch.push(page);
    this.batchBytes += page.length;
    if (this.batchBytes >= ENCODE_BATCH_BYTES) this.flush();
  }

  private flush(): void {
    if (this.batch.length === 0 || !this.encoder) return;
    this.chunks.push(this.encoder.encode(this.batch, this.codec));
    this.batch = [];
    this.batchBytes = 0;
  }

  get pageCount(): number {
    return this.pages;
  }

  finish(): { pages: Uint8Array; offsets: Uint32Array; crcs: Uint32Array } {
    this.flush();
    const stored = this.chunks.flatMap((chunk) => (typeof chunk === "function" ? chunk() : [chunk]));
    const offsets = new Uint32Array(stored.length + 1);
    const crcs = new Uint32Array(stored.length);
    let length = 0;
    stored.forEach((page, p) => {
      crcs[p] = crc32(page);
      offsets[p + 1] = length += page.length;
    });
    check(length <= 0xffffffff, "paged section larger than 4 GiB");
    const pages = new Uint8Array(length);
    stored.forEach((page, p) => pages.set(page, offsets[p]));
    return { pages, offsets, crcs };
  }
}

/** Pages holding consecutive ranks, as stored, with what their RankPageDirectory gives of each. */
export interface RankPages {
  /** The paged section's one block: the pages back to back. */
  pages: Uint8Array;
  /** The first rank of each page (P). */
  firstRanks: Uint32Array;
  offsets: Uint32Array;
  crcs: Uint32Array;
}

/**
 * Ranks 0 to `count` − 1, each written by `write` as LEB128 values (and bytes), in pages stored as
 * written: a page is cut once it reaches `pageBytes`, so each starts at a rank.
 */
export function varintRankPages(
  count: number,
  pageBytes: number,
  write: (page: VarintWriter, rank: number) => void,
): RankPages {
  const out = new PageWriter();
  const firstRanks: number[] = [];
  const page = new VarintWriter();
  for (let rank = 0; rank < count; rank++) {
    if (page.length === 0) firstRanks.push(rank);
    write(page, rank);
    if (page.length >= pageBytes) out.add(page.slice()), page.clear();
  }
  if (page.length) out.add(page.slice());
  return { firstRanks: Uint32Array.from(firstRanks), ...out.finish() };
}

/** A rank page directory's three blocks: u32 first rank of each page (P), u32 page offsets (P + 1), u32 CRC-32 of each page (P). */
export function encodeRankPageDirectory(pages: RankPages): Block[] {
  return [pages.firstRanks, pages.offsets, pages.crcs];
}

/**
 * An encoder run in steps (a generator yielding between steps): ahead of its turn while the
 * encoder of its pages has room for more, then to the end when its result is needed.
 */
export class Stepwise<T> {
  private readonly steps: Generator<void, T>;
  private result: { value: T } | undefined;

  constructor(steps: Generator<void, T>) {
    this.steps = steps;
  }

  /** Runs one step; false once there are none left. */
  step(): boolean {
    if (this.result) return false;
    const next = this.steps.next();
    if (next.done) this.result = { value: next.value };
    return !next.done;
  }

  finish(): T {
    while (this.step());
    return (this.result as { value: T }).value;
  }
}
