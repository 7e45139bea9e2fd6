// @module ObjectCore: the fixed-width per-object fields no other section holds: flags and level-5 node, by rank.
import { type Block, type Blocks, checkBelow } from "./blocks.ts";
import { check } from "./errors.ts";
import type { ObjectRecord, Role } from "./model.ts";

export const EXTERNAL = 1;
export const START = 2;
export const END = 4;

/** The flags byte of an object: 1 external, 2 start point, 4 end point. */
export function objectFlags(o: ObjectRecord): number {
  return (o.external ? EXTERNAL : 0) | (o.role === "start" ? START : 0) | (o.role === "end" ? END : 0);
}

/** Ranks ordered by ascending id: the order of the id pages (IDXP). */
export function ranksById(objects: readonly ObjectRecord[]): Uint32Array {
  // Ids of up to 15 digits are exact doubles: sorted natively as numbers, each rank is then put at
  // its id's place, found by a binary search (at 1M objects 120 ms, where a comparator sorting the
  // ranks took 225).
  const values = new Float64Array(objects.length);
  let exact = true;
  for (let r = 0; r < objects.length && exact; r++) {
    exact = objects[r].id.length <= 15;
    values[r] = Number(objects[r].id);
  }
  if (exact) {
    const sorted = values.slice().sort();
    let distinct = true;
    for (let i = 1; i < sorted.length && distinct; i++) distinct = sorted[i - 1] < sorted[i];
    // Equal ids (never in a model the compiler accepts) would share a place: their ranks then keep their order.
    if (distinct) {
      const order = new Uint32Array(objects.length);
      for (let r = 0; r < values.length; r++) order[placeOf(sorted, values[r])] = r;
      return order;
    }
    return Uint32Array.from(objects.keys()).sort((a, b) => values[a] - values[b]);
  }
  // Decimal ids without leading zeros order numerically as (length, text): no BigInt per comparison.
  return Uint32Array.from(objects.keys()).sort((a, b) => {
    const x = objects[a].id;
    const y = objects[b].id;
    return x.length - y.length || (x < y ? -1 : x > y ? 1 : 0);
  });
}

/**
 * The index of `value` in `sorted` (ascending, distinct, holding it): firstFailing's search with
 * its test written in, as a million searches through a test callback took what the native sort
 * saves (220–325 ms at 1M objects, against 112–168).
 */
function placeOf(sorted: Float64Array, value: number): number {
  let low = 0;
  let high = sorted.length - 1;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle] < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Two blocks: u8 flags by rank (1 external, 2 start point, 4 end point); u32 level-5 node by rank.
 * Ids and parents are the id pages' (IDXP): stored once.
 */
export function encodeObjectCore(objects: readonly ObjectRecord[]): Block[] {
  return [Uint8Array.from(objects, objectFlags), Uint32Array.from(objects, (o) => o.level5)];
}

export class ObjectCore {
  readonly count: number;
  readonly flags: Uint8Array;
  readonly level5: Uint32Array;

  constructor(blocks: Blocks, objectCount: number, level5Count: number) {
    this.flags = blocks.u8(0);
    this.level5 = blocks.u32(1);
    this.count = this.flags.length;
    const n = this.count;
    check(n === objectCount, `OBJC holds ${n} objects, META says ${objectCount}`);
    check(this.level5.length === n, "object columns differ in length");
    checkBelow(this.level5, level5Count, "object level-5 nodes");
  }

  external(rank: number): boolean {
    return (this.flags[rank] & EXTERNAL) !== 0;
  }
  role(rank: number): Role | null {
    const f = this.flags[rank];
    return f & START ? "start" : f & END ? "end" : null;
  }
  isStart(rank: number): boolean {
    return (this.flags[rank] & START) !== 0;
  }
  isEnd(rank: number): boolean {
    return (this.flags[rank] & END) !== 0;
  }

  get byteSize(): number {
    return this.flags.byteLength + this.level5.byteLength;
  }
}
