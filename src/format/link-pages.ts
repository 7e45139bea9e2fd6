// @module LinkPages: each object's callees and distinct callers, in small checksummed varint pages (LNKP) with a directory (LNKD).
//
// CALE and CALR are read whole: at 5M links that is 70 MB for one object's callees. Here one
// object's links, both ways, sit together in a page of a few KiB, read by range. Every link also
// carries the role of the object at its other end, so a walk for start and end points reads the
// pages of the objects it expands, never the roles of the objects it only reaches.

import { encodeCallers } from "./adjacency.ts";
import { type Block, type Blocks, checkBelow } from "./blocks.ts";
import { check } from "./errors.ts";
import { LINK_DIRECT, LINK_ESCALATED, type SnapshotModel } from "./model.ts";
import { END, objectFlags, START } from "./object-core.ts";
import { PageDirectory, PageWriter, pageStartingAtOrBefore } from "./page-directory.ts";
import { encodeStringList, StringList } from "./string-list.ts";
import { VarintReader, VarintWriter } from "./varint.ts";

/** Pages are cut once they reach this many bytes: one object's links cost one read of a few KiB. */
export const LINK_PAGE_BYTES = 4096;

/** In a decoded callee flag byte, beside LINK_DIRECT and LINK_ESCALATED: the callee is an end point. */
export const TARGET_IS_END = 4;
/** In a decoded caller flag byte: the caller is a start point. */
export const SOURCE_IS_START = 1;

export interface EncodedLinkPages {
  linkTypes: string[];
  firstRanks: Uint32Array;
  pages: Uint8Array;
  offsets: Uint32Array;
  crcs: Uint32Array;
}

/**
 * Per rank, as LEB128: the object's flags (OBJC block 2); the callee count, then per callee entry
 * (CALE's order) the gap from the previous target (the first from 0) and `type·8 + end·4 + flags`;
 * the caller count, then per distinct caller (ascending) `gap·2 + start`, the gap being from the
 * previous caller minus one (the first: the caller itself).
 */
export function encodeLinkPages(model: SnapshotModel): EncodedLinkPages {
  const { objects, callees } = model;
  const [callerOffsets, callers] = encodeCallers(callees, objects.length) as [Uint32Array, Uint32Array];
  const flags = Uint8Array.from(objects, objectFlags);
  const out = new PageWriter();
  const firstRanks: number[] = [];
  const page = new VarintWriter();
  for (let rank = 0; rank < objects.length; rank++) {
    if (page.length === 0) firstRanks.push(rank);
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
    if (page.length >= LINK_PAGE_BYTES) out.add(page.slice()), page.clear();
  }
  if (page.length) out.add(page.slice());
  return { linkTypes: callees.linkTypes, firstRanks: Uint32Array.from(firstRanks), ...out.finish() };
}

/** LNKD's five blocks: link types (StringList, sorted), u32 first rank of each page (P), u32 page offsets in LNKP (P + 1), u32 CRC-32 of each page (P). */
export function encodeLinkDirectory(pages: EncodedLinkPages): Block[] {
  return [...encodeStringList(pages.linkTypes), pages.firstRanks, pages.offsets, pages.crcs];
}

export class LinkDirectory extends PageDirectory {
  readonly linkTypes: string[];
  readonly firstRanks: Uint32Array;
  readonly rows: number;

  constructor(blocks: Blocks, rows: number) {
    super(blocks.u32(3), blocks.u32(4), "link pages");
    this.linkTypes = [...new StringList(blocks, 0, "link types").all()];
    this.firstRanks = blocks.u32(2);
    this.rows = rows;
    const pages = this.firstRanks.length;
    check(this.crcs.length === pages, `link directory: ${pages} first ranks for ${this.crcs.length} pages`);
    check(
      rows === 0 ? pages === 0 : pages > 0 && this.firstRanks[0] === 0,
      "link directory: pages do not start at rank 0",
    );
    checkBelow(this.firstRanks, Math.max(rows, 1), "link directory first ranks");
    for (let p = 1; p < pages; p++)
      check(this.firstRanks[p - 1] < this.firstRanks[p], `link directory: first ranks do not ascend at page ${p}`);
  }

  pageOf(rank: number): number {
    return pageStartingAtOrBefore(this.firstRanks, rank);
  }

  /** Checks and decodes page `p` (its stored bytes exactly). */
  decodePage(p: number, bytes: Uint8Array): LinkPage {
    this.verify(p, bytes);
    const first = this.firstRanks[p];
    const end = p + 1 < this.firstRanks.length ? this.firstRanks[p + 1] : this.rows;
    return new LinkPage(bytes, first, end, this.rows, this.linkTypes.length, `link page ${p}`);
  }

  override get byteSize(): number {
    return super.byteSize + this.firstRanks.byteLength;
  }
}

/** One object's links, as views into its decoded page. */
export interface LinkRow {
  /** The object's own flags (OBJC block 2): 1 external, 2 start point, 4 end point. */
  flags: number;
  /** Callee entries in CALE's order: target rank, link type index, LINK_DIRECT/LINK_ESCALATED plus TARGET_IS_END. */
  targets: Uint32Array;
  types: Uint32Array;
  targetFlags: Uint8Array;
  /** Distinct callers, ascending, and SOURCE_IS_START per caller. */
  callers: Uint32Array;
  callerFlags: Uint8Array;
}

/**
 * The columns a page is decoded into before they are cut to its entries, shared by every decode
 * (decoding is synchronous): a walk decodes thousands of pages, and five fresh arrays of a page's
 * byte length each made most of its garbage. Every entry takes at least one byte per varint: the
 * byte length bounds the entry counts.
 */
let scratch = {
  targets: new Uint32Array(0),
  types: new Uint32Array(0),
  targetFlags: new Uint8Array(0),
  callers: new Uint32Array(0),
  callerFlags: new Uint8Array(0),
};

function scratchFor(length: number): typeof scratch {
  if (scratch.targets.length < length)
    scratch = {
      targets: new Uint32Array(length),
      types: new Uint32Array(length),
      targetFlags: new Uint8Array(length),
      callers: new Uint32Array(length),
      callerFlags: new Uint8Array(length),
    };
  return scratch;
}

/** The decoded links of the ranks [first, end) of one page. */
export class LinkPage {
  readonly first: number;
  private readonly flags: Uint8Array;
  private readonly calleeStarts: Uint32Array;
  private readonly targets: Uint32Array;
  private readonly types: Uint32Array;
  private readonly targetFlags: Uint8Array;
  private readonly callerStarts: Uint32Array;
  private readonly callers: Uint32Array;
  private readonly callerFlags: Uint8Array;

  constructor(bytes: Uint8Array, first: number, end: number, objects: number, linkTypes: number, what: string) {
    this.first = first;
    const count = end - first;
    const read = new VarintReader(bytes, what);
    const { targets, types, targetFlags, callers, callerFlags } = scratchFor(bytes.length);
    this.flags = new Uint8Array(count);
    this.calleeStarts = new Uint32Array(count + 1);
    this.callerStarts = new Uint32Array(count + 1);
    let e = 0;
    let c = 0;
    for (let r = 0; r < count; r++) {
      const flags = read.next();
      check(flags <= 7, () => `${what}: object ${first + r} has flags ${flags}`);
      this.flags[r] = flags;
      const callees = read.next();
      check(callees <= bytes.length - e, () => `${what}: object ${first + r} claims ${callees} callees`);
      let target = 0;
      let previousType = -1;
      for (let i = 0; i < callees; i++) {
        const gap = read.next();
        const packed = read.next();
        const type = Math.floor(packed / 8);
        const kinds = packed & (LINK_DIRECT | LINK_ESCALATED);
        target += gap;
        // Tested before calling check: a message closure made per entry cost a third of a walk.
        if (!(target < objects && type < linkTypes && kinds !== 0 && (gap > 0 || type > previousType)))
          check(false, `${what}: callee entry ${i} of object ${first + r} is malformed`);
        targets[e] = target;
        types[e] = type;
        targetFlags[e++] = packed & 7;
        previousType = type;
      }
      this.calleeStarts[r + 1] = e;
      const callerCount = read.next();
      check(callerCount <= bytes.length - c, () => `${what}: object ${first + r} claims ${callerCount} callers`);
      let caller = -1;
      for (let i = 0; i < callerCount; i++) {
        const packed = read.next();
        caller += Math.floor(packed / 2) + 1;
        if (caller >= objects) check(false, `${what}: caller ${i} of object ${first + r} is out of range`);
        callers[c] = caller;
        callerFlags[c++] = packed & SOURCE_IS_START;
      }
      this.callerStarts[r + 1] = c;
    }
    check(read.done, `${what}: bytes left after its ${count} objects`);
    this.targets = targets.slice(0, e);
    this.types = types.slice(0, e);
    this.targetFlags = targetFlags.slice(0, e);
    this.callers = callers.slice(0, c);
    this.callerFlags = callerFlags.slice(0, c);
  }

  row(rank: number): LinkRow {
    const r = rank - this.first;
    check(r >= 0 && r < this.flags.length, () => `rank ${rank} is not on the link page starting at ${this.first}`);
    const [from, to] = [this.calleeStarts[r], this.calleeStarts[r + 1]];
    const [cFrom, cTo] = [this.callerStarts[r], this.callerStarts[r + 1]];
    return {
      flags: this.flags[r],
      targets: this.targets.subarray(from, to),
      types: this.types.subarray(from, to),
      targetFlags: this.targetFlags.subarray(from, to),
      callers: this.callers.subarray(cFrom, cTo),
      callerFlags: this.callerFlags.subarray(cFrom, cTo),
    };
  }

  /** Calls `visit` for each callee entry of `rank` (a walk's inner loop: no views made). */
  forEachCallee(rank: number, visit: (target: number, type: number, flags: number) => void): void {
    const r = this.offsetOf(rank);
    for (let i = this.calleeStarts[r]; i < this.calleeStarts[r + 1]; i++)
      visit(this.targets[i], this.types[i], this.targetFlags[i]);
  }

  /** Calls `visit` for each callee entry of `rank` whose target is `target`, found by bisection (entries ascend by target). */
  forEachLinkTo(rank: number, target: number, visit: (type: number, flags: number) => void): void {
    const r = this.offsetOf(rank);
    let lo = this.calleeStarts[r];
    let hi = this.calleeStarts[r + 1];
    const end = hi;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.targets[mid] < target) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < end && this.targets[i] === target; i++) visit(this.types[i], this.targetFlags[i]);
  }

  /** The distinct callers of `rank`, ascending. */
  callersOf(rank: number): Uint32Array {
    const r = this.offsetOf(rank);
    return this.callers.subarray(this.callerStarts[r], this.callerStarts[r + 1]);
  }

  private offsetOf(rank: number): number {
    const r = rank - this.first;
    check(r >= 0 && r < this.flags.length, () => `rank ${rank} is not on the link page starting at ${this.first}`);
    return r;
  }

  get byteSize(): number {
    return (
      128 +
      this.flags.byteLength +
      (this.calleeStarts.byteLength + this.callerStarts.byteLength) +
      this.targets.byteLength * 2 +
      this.targetFlags.byteLength +
      this.callers.byteLength +
      this.callerFlags.byteLength
    );
  }
}
