// @module LinkPages: each object's callees and distinct callers, in small checksummed varint pages (LNKP) with a directory (LNKD).
//
// The only store of the links: one object's links, both ways, sit together in a page of a few KiB,
// read by range (a section of all links is 70 MB at 5M links, for one object's callees). Every link also
// carries the role of the object at its other end, so a walk for start and end points reads the
// pages of the objects it expands, never the roles of the objects it only reaches.
//
// Readers keep a page as its stored bytes and read one object's entries in place: a walk needs one
// or a few objects of each page it loads, and pages decoded into columns weighed four to five times
// their bytes in the section cache.

import { callersOf } from "./adjacency.ts";
import type { Block, Blocks } from "./blocks.ts";
import { check } from "./errors.ts";
import { type CalleeLinks, LINK_DIRECT, LINK_ESCALATED, type SnapshotModel } from "./model.ts";
import { END, objectFlags, START } from "./object-core.ts";
import { encodeRankPageDirectory, RankPageDirectory, type RankPages, varintRankPages } from "./page-directory.ts";
import { encodeStringList, StringList } from "./string-list.ts";
import { VarintReader } from "./varint.ts";

/** Pages are cut once they reach this many bytes: one object's links cost one read of a few KiB. */
export const LINK_PAGE_BYTES = 4096;

/**
 * Consecutive pages read and cached together, as one window, when a reader keeps link pages by
 * windows (see linkRows). The mixed workload at 300k objects came back to a page some 400 answers
 * after its last use: too late for the section cache to see it used twice, so it was dropped and
 * read again (11,508 page reads in 2,000 answers). A window of 16 pages comes back far sooner and
 * is kept (477 reads); one read of 64 KiB costs storage about what one of 4 KiB does. Its pages
 * are checked and indexed only when first read.
 */
export const LINK_PAGES_PER_WINDOW = 16;

/** In a decoded callee flag byte, beside LINK_DIRECT and LINK_ESCALATED: the callee is an end point. */
export const TARGET_IS_END = 4;
/** In a decoded caller flag byte: the caller is a start point. */
export const SOURCE_IS_START = 1;

export interface EncodedLinkPages extends RankPages {
  linkTypes: string[];
}

/**
 * Per rank, as LEB128: the object's flags (OBJC block 0); the callee count, then per callee entry
 * (by target rank, then link type) the gap from the previous target (the first from 0) and `type·8 + end·4 + flags`;
 * the caller count, then per distinct caller (ascending) `gap·2 + start`, the gap being from the
 * previous caller minus one (the first: the caller itself).
 */
export function encodeLinkPages(model: SnapshotModel): EncodedLinkPages {
  const { objects, callees } = model;
  const [callerOffsets, callers] = callersOf(callees, objects.length);
  const flags = Uint8Array.from(objects, objectFlags);
  const pages = varintRankPages(objects.length, LINK_PAGE_BYTES, (page, rank) => {
    page.put(flags[rank]);
    page.put(callees.offsets[rank + 1] - callees.offsets[rank]);
    let previous = 0;
    for (let i = callees.offsets[rank]; i < callees.offsets[rank + 1]; i++) {
      const target = callees.targets[i];
      page.put(target - previous);
      page.put(callees.types[i] * 8 + (flags[target] & END ? TARGET_IS_END : 0) + callees.flags[i]);
      previous = target;
    }
    page.put(callerOffsets[rank + 1] - callerOffsets[rank]);
    let last = -1;
    for (let i = callerOffsets[rank]; i < callerOffsets[rank + 1]; i++) {
      const caller = callers[i];
      page.put((caller - last - 1) * 2 + (flags[caller] & START ? SOURCE_IS_START : 0));
      last = caller;
    }
  });
  return { linkTypes: callees.linkTypes, ...pages };
}

/** LNKD's five blocks: link types (StringList, sorted), u32 first rank of each page (P), u32 page offsets in LNKP (P + 1), u32 CRC-32 of each page (P). */
export function encodeLinkDirectory(pages: EncodedLinkPages): Block[] {
  return [...encodeStringList(pages.linkTypes), ...encodeRankPageDirectory(pages)];
}

export class LinkDirectory extends RankPageDirectory {
  readonly linkTypes: string[];
  /** The windowings asked for so far, by pages per window. */
  private readonly windowings = new Map<number, LinkWindows>();

  constructor(blocks: Blocks, rows: number) {
    super(blocks.u32(2), blocks.u32(3), blocks.u32(4), rows, "link pages", "link directory");
    this.linkTypes = [...new StringList(blocks, 0, "link types").all()];
  }

  /** The pages cut into windows of `pagesPerWindow` (the last may hold fewer). */
  windows(pagesPerWindow: number): LinkWindows {
    let windows = this.windowings.get(pagesPerWindow);
    if (!windows) this.windowings.set(pagesPerWindow, (windows = new LinkWindows(this, pagesPerWindow)));
    return windows;
  }

  /** Page `p` (its stored bytes exactly), checked against its checksum; its objects are checked as they are walked to. */
  decodePage(p: number, bytes: Uint8Array): LinkPage {
    this.verify(p, bytes);
    const first = this.firstRanks[p];
    return new LinkPage(bytes, first, this.endOf(p), this.rows, this.linkTypes.length, `link page ${p}`);
  }

  override get byteSize(): number {
    let windows = 0;
    for (const w of this.windowings.values()) windows += w.offsets.byteLength;
    return super.byteSize + windows;
  }
}

/** Every object's callee entries, as the encoder was given them, from LNKP's body read whole (decodeSnapshotModel). */
export function decodeAllCallees(directory: LinkDirectory, body: Uint8Array): CalleeLinks {
  const pageBytes = directory.pagesOfBody(body, "LNKP", "LNKD");
  const offsets = new Uint32Array(directory.rows + 1);
  const [targets, types, flags]: number[][] = [[], [], []];
  for (let p = 0; p < directory.pageCount; p++) {
    const page = directory.decodePage(p, pageBytes(p));
    for (let rank = directory.firstRanks[p]; rank < directory.endOf(p); rank++) {
      page.forEachCallee(rank, (target, type, kinds) => {
        targets.push(target);
        types.push(type);
        flags.push(kinds & (LINK_DIRECT | LINK_ESCALATED));
      });
      offsets[rank + 1] = targets.length;
    }
  }
  return {
    offsets,
    targets: Uint32Array.from(targets),
    types: Uint32Array.from(types),
    flags: Uint8Array.from(flags),
    linkTypes: directory.linkTypes,
  };
}

export class LinkWindows {
  readonly pagesPerWindow: number;
  /** Every pagesPerWindow-th page offset, and the end. */
  readonly offsets: Uint32Array;
  private readonly directory: LinkDirectory;

  constructor(directory: LinkDirectory, pagesPerWindow: number) {
    check(
      Number.isInteger(pagesPerWindow) && pagesPerWindow >= 1,
      `a link window holds 1 page or more, not ${pagesPerWindow}`,
    );
    this.directory = directory;
    this.pagesPerWindow = pagesPerWindow;
    const pages = directory.pageCount;
    this.offsets = Uint32Array.from(
      { length: Math.ceil(pages / pagesPerWindow) + 1 },
      (_, w) => directory.offsets[Math.min(w * pagesPerWindow, pages)],
    );
  }

  get pageCount(): number {
    return this.offsets.length - 1;
  }

  /** The window holding page `p`. */
  of(p: number): number {
    return Math.floor(p / this.pagesPerWindow);
  }

  /** Window `w` (its stored bytes exactly), its pages checked as they are first read. */
  decodePage(w: number, bytes: Uint8Array): LinkWindow {
    return new LinkWindow(this.directory, w * this.pagesPerWindow, this.pagesPerWindow, bytes);
  }
}

/** Consecutive link pages read together; each is checked against its CRC when first asked for. */
export class LinkWindow {
  private readonly directory: LinkDirectory;
  private readonly firstPage: number;
  private readonly bytes: Uint8Array;
  private readonly pages: (LinkPage | undefined)[];
  /** Counted whole from the start, as if every page were indexed: a cached entry's size does not change. */
  readonly byteSize: number;

  constructor(directory: LinkDirectory, firstPage: number, pagesPerWindow: number, bytes: Uint8Array) {
    this.directory = directory;
    this.firstPage = firstPage;
    const end = Math.min(firstPage + pagesPerWindow, directory.pageCount);
    const { offsets } = directory;
    check(
      bytes.length === offsets[end] - offsets[firstPage],
      `${directory.what}: the window from page ${firstPage} is ${bytes.length} bytes, expected ${offsets[end] - offsets[firstPage]}`,
    );
    // Its own copy: the bytes may be a view into a read of many windows, which the cache must not pin.
    this.bytes = bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
    this.pages = new Array(end - this.firstPage);
    let size = 64 + this.bytes.byteLength;
    for (let p = this.firstPage; p < end; p++)
      size += 64 + LinkPage.indexBytes(directory.endOf(p) - directory.firstRanks[p], offsets[p + 1] - offsets[p]);
    this.byteSize = size;
  }

  /** Page `p`, which must lie in this window. */
  page(p: number): LinkPage {
    const i = p - this.firstPage;
    // Tested before calling check: a walk asks once per object it expands.
    if (!(i >= 0 && i < this.pages.length))
      check(false, `link page ${p} is not in the window starting at ${this.firstPage}`);
    const at = this.directory.offsets[this.firstPage];
    this.pages[i] ??= this.directory.decodePage(
      p,
      this.bytes.subarray(this.directory.offsets[p] - at, this.directory.offsets[p + 1] - at),
    );
    return this.pages[i];
  }
}

/**
 * Columns callee entries are decoded into, object after object, reused from batch to batch: entry
 * `i` (of `count`) runs to `targets[i]`, its link type index times 8 plus its kinds (LINK_DIRECT,
 * LINK_ESCALATED, TARGET_IS_END) in `packed[i]`, as the page stores it.
 */
export class CalleeEntries {
  targets = new Uint32Array(256);
  packed = new Uint32Array(256);
  count = 0;

  /** Room for `more` entries past those held, which are kept. */
  reserve(more: number): void {
    if (this.count + more <= this.targets.length) return;
    const size = 2 ** Math.ceil(Math.log2(this.count + more));
    const [targets, packed] = [new Uint32Array(size), new Uint32Array(size)];
    targets.set(this.targets.subarray(0, this.count));
    packed.set(this.packed.subarray(0, this.count));
    [this.targets, this.packed] = [targets, packed];
  }
}

/** The columns LinkPage.forEachCallee decodes into, unless a call is under way. */
let spareEntries: CalleeEntries | null = new CalleeEntries();

/** One object's links, copied out of its page (for answers listing them; walks read entries in place). */
export interface LinkRow {
  /** The object's own flags (OBJC block 0): 1 external, 2 start point, 4 end point. */
  flags: number;
  /** Callee entries by target rank, then link type: target rank, link type index, LINK_DIRECT/LINK_ESCALATED plus TARGET_IS_END. */
  targets: Uint32Array;
  types: Uint32Array;
  targetFlags: Uint8Array;
  /** Distinct callers, ascending, and SOURCE_IS_START per caller. */
  callers: Uint32Array;
  callerFlags: Uint8Array;
}

/** Where `varint` stopped: read right after each call, before anything else can call it. */
let after = 0;

/** The LEB128 value at `at` of a page walked and checked past it (so it ends on the page and below 2^53). */
function varint(bytes: Uint8Array, at: number): number {
  let byte = bytes[at++];
  if (byte < 0x80) {
    after = at;
    return byte;
  }
  let value = byte & 0x7f;
  let scale = 0x80;
  do {
    byte = bytes[at++];
    value += (byte & 0x7f) * scale;
    scale *= 0x80;
  } while (byte & 0x80);
  after = at;
  return value;
}

/**
 * The links of the ranks [first, end) of one page, kept as the page's stored bytes and read in
 * place. A walk reads one or a few objects of each page it loads: decoding every object into
 * columns would cost most of a page load and make a cached page weigh four to five times its bytes.
 *
 * Objects are found by walking the page from its start, and the walk is the page's check: it
 * goes only as far as the objects asked for (the first time each is), checking every object it
 * passes and noting where its values and its callers begin, two offsets an object. Walking whole
 * pages on load, for the one object a walk wants, would be a fifth of a 3-hop walk's CPU at 1M objects.
 * The page's checksum was checked when it was loaded; a page that passes it yet breaks the format
 * (a faulty writer, a forged checksum) is refused when an answer asks for an object at or past its
 * bad bytes, and an object is never read before every byte up to its end has been checked.
 */
export class LinkPage {
  readonly first: number;
  private readonly bytes: Uint8Array;
  /** Per object r of the page: at 2r the offset of its flags, at 2r + 1 that of its caller count. */
  private readonly starts: Uint16Array | Uint32Array;
  private readonly objects: number;
  private readonly linkTypes: number;
  private readonly what: string;
  /** Objects walked and checked so far, from the first, and where the next one begins. */
  private walked = 0;
  private walkedTo = 0;

  constructor(bytes: Uint8Array, first: number, end: number, objects: number, linkTypes: number, what: string) {
    this.first = first;
    this.bytes = bytes;
    const count = end - first;
    this.starts = bytes.length <= 0xffff ? new Uint16Array(2 * count) : new Uint32Array(2 * count);
    this.objects = objects;
    this.linkTypes = linkTypes;
    this.what = what;
  }

  /** Walks the page on to object `r` (of the page) included, checking each object it passes. */
  private walkThrough(r: number): void {
    const { bytes, starts, objects, linkTypes, what, first } = this;
    const count = starts.length / 2;
    const read = new VarintReader(bytes, what);
    read.at = this.walkedTo;
    for (let o = this.walked; o <= r; o++) {
      starts[2 * o] = read.at;
      const flags = read.next();
      if (flags > 7) check(false, `${what}: object ${first + o} has flags ${flags}`);
      const callees = read.next();
      if (callees > bytes.length - read.at) check(false, `${what}: object ${first + o} claims ${callees} callees`);
      let target = 0;
      let previousType = -1;
      for (let i = 0; i < callees; i++) {
        const gap = read.next();
        const packed = read.next();
        const type = Math.floor(packed / 8);
        target += gap;
        // Tested before calling check: a message made per entry would cost more than the walk.
        if (
          !(
            target < objects &&
            type < linkTypes &&
            (packed & (LINK_DIRECT | LINK_ESCALATED)) !== 0 &&
            (gap > 0 || type > previousType)
          )
        )
          check(false, `${what}: callee entry ${i} of object ${first + o} is malformed`);
        previousType = type;
      }
      starts[2 * o + 1] = read.at;
      const callers = read.next();
      if (callers > bytes.length - read.at) check(false, `${what}: object ${first + o} claims ${callers} callers`);
      let caller = -1;
      for (let i = 0; i < callers; i++) {
        caller += Math.floor(read.next() / 2) + 1;
        if (caller >= objects) check(false, `${what}: caller ${i} of object ${first + o} is out of range`);
      }
      this.walked = o + 1;
      this.walkedTo = read.at;
    }
    if (this.walked === count) check(read.done, `${what}: bytes left after its ${count} objects`);
  }

  /** The object's own flags (OBJC block 0). */
  flagsOf(rank: number): number {
    return varint(this.bytes, this.starts[2 * this.offsetOf(rank)]);
  }

  /** Calls `visit` for each callee entry of `rank` (target rank, link type index, kinds | TARGET_IS_END) and returns how many there were. */
  forEachCallee(rank: number, visit: (target: number, type: number, flags: number) => void): number {
    // Columns made for each call cost ten times the decoding: one pair serves every call but those a visit makes.
    const entries = spareEntries ?? new CalleeEntries();
    spareEntries = null;
    try {
      entries.count = 0;
      const count = this.calleesInto(rank, entries);
      const { targets, packed } = entries;
      for (let i = 0; i < count; i++) visit(targets[i], packed[i] >>> 3, packed[i] & 7);
      return count;
    } finally {
      spareEntries = entries;
    }
  }

  /**
   * The callee entries of `rank` added to those `into` holds (its columns grown as needed),
   * returning their count: a walk then reads plain arrays, without a call per entry (a call per
   * entry, through two closures, cost half of a transaction graph's walk at 1M objects).
   */
  calleesInto(rank: number, into: CalleeEntries): number {
    const { bytes } = this;
    varint(bytes, this.starts[2 * this.offsetOf(rank)]);
    const count = varint(bytes, after);
    let at = after;
    into.reserve(count);
    const { targets, packed } = into;
    const base = into.count;
    into.count += count;
    let target = 0;
    // Most gaps and types take one byte: read in line, the rest through varint.
    for (let i = 0; i < count; i++) {
      let gap = bytes[at++];
      if (gap >= 0x80) (gap = varint(bytes, at - 1)), (at = after);
      target += gap;
      let entry = bytes[at++];
      if (entry >= 0x80) (entry = varint(bytes, at - 1)), (at = after);
      targets[base + i] = target;
      packed[base + i] = entry;
    }
    return count;
  }

  /**
   * Calls `visit` for each callee entry of `rank` whose target is one of `targets` (ascending).
   * Entries ascend by target too: one pass over them, stopping past the last target, serves every
   * target, however many a busy caller calls.
   */
  forEachLinkTo(
    rank: number,
    targets: ArrayLike<number>,
    visit: (target: number, type: number, flags: number) => void,
  ): void {
    if (targets.length === 0) return;
    const { bytes } = this;
    let at = this.starts[2 * this.offsetOf(rank)];
    varint(bytes, at);
    const count = varint(bytes, after);
    at = after;
    let reached = 0;
    let t = 0;
    // A busy caller's entries are passed over by the thousand: one-byte gaps are read in line.
    for (let i = 0; i < count; i++) {
      let gap = bytes[at++];
      if (gap >= 0x80) (gap = varint(bytes, at - 1)), (at = after);
      reached += gap;
      while (reached > targets[t]) if (++t === targets.length) return;
      if (reached < targets[t]) {
        // Skipped, not decoded.
        while (bytes[at++] & 0x80);
        continue;
      }
      const packed = varint(bytes, at);
      at = after;
      visit(reached, Math.floor(packed / 8), packed & 7);
    }
  }

  /** Calls `visit` for each distinct caller of `rank`, ascending, with SOURCE_IS_START or 0, and returns how many there were. */
  forEachCaller(rank: number, visit: (caller: number, flags: number) => void): number {
    const { bytes } = this;
    const count = varint(bytes, this.starts[2 * this.offsetOf(rank) + 1]);
    let at = after;
    let caller = -1;
    for (let i = 0; i < count; i++) {
      const packed = varint(bytes, at);
      at = after;
      caller += Math.floor(packed / 2) + 1;
      visit(caller, packed & SOURCE_IS_START);
    }
    return count;
  }

  /** The links of `rank`, copied into columns. */
  row(rank: number): LinkRow {
    const r = this.offsetOf(rank);
    const flags = varint(this.bytes, this.starts[2 * r]);
    const calleeCount = varint(this.bytes, after);
    const callerCount = varint(this.bytes, this.starts[2 * r + 1]);
    const targets = new Uint32Array(calleeCount);
    const types = new Uint32Array(calleeCount);
    const targetFlags = new Uint8Array(calleeCount);
    let e = 0;
    this.forEachCallee(rank, (target, type, kinds) => {
      targets[e] = target;
      types[e] = type;
      targetFlags[e++] = kinds;
    });
    const callers = new Uint32Array(callerCount);
    const callerFlags = new Uint8Array(callerCount);
    let c = 0;
    this.forEachCaller(rank, (caller, start) => {
      callers[c] = caller;
      callerFlags[c++] = start;
    });
    return { flags, targets, types, targetFlags, callers, callerFlags };
  }

  /** Checks the page up to the end of `rank`'s links, which are then read without a check. */
  walkTo(rank: number): void {
    this.offsetOf(rank);
  }

  /** Whether `rank` is one of this page's objects. */
  holds(rank: number): boolean {
    return rank >= this.first && 2 * (rank - this.first) < this.starts.length;
  }

  /** Where `rank` sits on the page, the page walked to it first if it was not yet. */
  private offsetOf(rank: number): number {
    const r = rank - this.first;
    // Tested before calling check: a walk asks once per object it expands.
    if (!(r >= 0 && 2 * r < this.starts.length))
      check(false, `rank ${rank} is not on the link page starting at ${this.first}`);
    if (r >= this.walked) this.walkThrough(r);
    return r;
  }

  /** The bytes of the offsets a page of `objects` objects and `length` bytes keeps beside its bytes. */
  static indexBytes(objects: number, length: number): number {
    return 2 * objects * (length <= 0xffff ? 2 : 4);
  }
}
