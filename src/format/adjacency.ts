// @module Link adjacency: callees by caller (CSR, in the callees route's order) and distinct callers by callee.
import { type Block, type Blocks, checkBelow, checkOffsets } from "./blocks.ts";
import { check } from "./errors.ts";
import { type CalleeLinks, LINK_DIRECT, LINK_ESCALATED } from "./model.ts";
import { encodeStringList, StringList } from "./string-list.ts";

/** Six blocks: link types (StringList, sorted); u32 offsets by caller rank; u32 target rank; u32 link type; u8 flags. */
export function encodeCallees(links: CalleeLinks): Block[] {
  return [...encodeStringList(links.linkTypes), links.offsets, links.targets, links.types, links.flags];
}

export class CalleeIndex implements CalleeLinks {
  readonly linkTypes: string[];
  readonly offsets: Uint32Array;
  readonly targets: Uint32Array;
  readonly types: Uint32Array;
  readonly flags: Uint8Array;

  constructor(blocks: Blocks, rows: number) {
    const types = new StringList(blocks, 0, "link types");
    this.linkTypes = [...types.all()];
    this.offsets = blocks.u32(2);
    this.targets = blocks.u32(3);
    this.types = blocks.u32(4);
    this.flags = blocks.u8(5);
    const n = this.targets.length;
    checkOffsets(this.offsets, rows, n, "callees");
    check(this.types.length === n && this.flags.length === n, "callee columns differ in length");
    checkBelow(this.targets, rows, "callee targets");
    checkBelow(this.types, this.linkTypes.length, "callee link types");
    // The message is built only on failure: a template per link cost more than the test.
    for (let i = 0; i < n; i++)
      if (this.flags[i] === 0 || this.flags[i] > (LINK_DIRECT | LINK_ESCALATED))
        check(false, `callee flags invalid at ${i}`);
  }

  get byteSize(): number {
    return this.offsets.byteLength + this.targets.byteLength * 2 + this.flags.byteLength;
  }
}

/** Two blocks: u32 offsets by callee rank, u32 distinct caller ranks (ascending) — derived from the callees. */
export function encodeCallers(links: CalleeLinks, rows: number): Block[] {
  const counts = new Uint32Array(rows + 1);
  const lastSeen = new Int32Array(rows).fill(-1);
  forEachDistinctTarget(links, rows, (from, to) => {
    if (lastSeen[to] !== from) (lastSeen[to] = from), counts[to + 1]++;
  });
  for (let i = 0; i < rows; i++) counts[i + 1] += counts[i];
  const offsets = counts.slice();
  const callers = new Uint32Array(offsets[rows]);
  const cursor = offsets.slice(0, rows);
  lastSeen.fill(-1);
  // Callers are visited in ascending rank, so each row comes out sorted.
  forEachDistinctTarget(links, rows, (from, to) => {
    if (lastSeen[to] !== from) (lastSeen[to] = from), (callers[cursor[to]++] = from);
  });
  return [offsets, callers];
}

export class CallerIndex {
  readonly offsets: Uint32Array;
  readonly callers: Uint32Array;

  constructor(blocks: Blocks, rows: number) {
    this.offsets = blocks.u32(0);
    this.callers = blocks.u32(1);
    checkOffsets(this.offsets, rows, this.callers.length, "callers");
    checkBelow(this.callers, rows, "caller ranks");
  }

  get byteSize(): number {
    return this.offsets.byteLength + this.callers.byteLength;
  }
}

/** Calls `visit(from, to)` once per distinct (caller, callee) pair, callers in ascending rank. */
export function forEachDistinctTarget(
  links: Pick<CalleeLinks, "offsets" | "targets">,
  rows: number,
  visit: (from: number, to: number) => void,
): void {
  for (let from = 0; from < rows; from++) {
    let previous = -1;
    for (let i = links.offsets[from]; i < links.offsets[from + 1]; i++) {
      const to = links.targets[i];
      if (to !== previous) visit(from, to);
      previous = to;
    }
  }
}
