// @module ObjectCore: ids with their lookup index, and the fixed-width per-object fields (flags, parent, level 5).
import { type Block, type Blocks, checkBelow } from "./blocks.ts";
import { check } from "./errors.ts";
import { parseObjectId, rankOfAscendingId, u64Ids } from "./id-pages.ts";
import { NONE, type ObjectRecord, type Role } from "./model.ts";

export const EXTERNAL = 1;
export const START = 2;
export const END = 4;

/** The flags byte of an object: 1 external, 2 start point, 4 end point. */
export function objectFlags(o: ObjectRecord): number {
  return (o.external ? EXTERNAL : 0) | (o.role === "start" ? START : 0) | (o.role === "end" ? END : 0);
}

/** Ranks ordered by ascending id: OBJC's lookup index, and the order of the id pages (IDXP). */
export function ranksById(objects: readonly ObjectRecord[]): Uint32Array {
  // Ids of up to 15 digits are exact doubles: compared as numbers, twice as fast as as text.
  const values = new Float64Array(objects.length);
  let exact = true;
  for (let r = 0; r < objects.length && exact; r++) {
    exact = objects[r].id.length <= 15;
    values[r] = Number(objects[r].id);
  }
  if (exact) return Uint32Array.from(objects.keys()).sort((a, b) => values[a] - values[b]);
  // Decimal ids without leading zeros order numerically as (length, text): no BigInt per comparison.
  return Uint32Array.from(objects.keys()).sort((a, b) => {
    const x = objects[a].id;
    const y = objects[b].id;
    return x.length - y.length || (x < y ? -1 : x > y ? 1 : 0);
  });
}

/**
 * Five blocks: u64 id by rank; u32 ranks ordered by id (the lookup index); u8 flags by rank
 * (1 external, 2 start point, 4 end point); u32 parent rank (NONE: no parent); u32 level-5 node.
 */
export function encodeObjectCore(objects: readonly ObjectRecord[], byId = ranksById(objects)): Block[] {
  const ids = u64Ids(objects.length, (r) => objects[r].id);
  return [
    ids,
    byId,
    Uint8Array.from(objects, objectFlags),
    Uint32Array.from(objects, (o) => o.parent),
    Uint32Array.from(objects, (o) => o.level5),
  ];
}

export class ObjectCore {
  readonly count: number;
  readonly ids: BigUint64Array;
  readonly flags: Uint8Array;
  readonly parents: Uint32Array;
  readonly level5: Uint32Array;
  /** Ranks in ascending id order: the id index. */
  readonly byId: Uint32Array;

  constructor(blocks: Blocks, objectCount: number, level5Count: number) {
    this.ids = blocks.u64(0);
    this.byId = blocks.u32(1);
    this.flags = blocks.u8(2);
    this.parents = blocks.u32(3);
    this.level5 = blocks.u32(4);
    this.count = this.ids.length;
    const n = this.count;
    check(n === objectCount, `OBJC holds ${n} objects, META says ${objectCount}`);
    check(
      this.byId.length === n && this.flags.length === n && this.parents.length === n && this.level5.length === n,
      "object columns differ in length",
    );
    checkBelow(this.byId, n, "object id index");
    checkBelow(this.parents, n, "object parents", NONE);
    checkBelow(this.level5, level5Count, "object level-5 nodes");
    for (let i = 1; i < n; i++)
      check(this.ids[this.byId[i - 1]] < this.ids[this.byId[i]], "object id index is not strictly increasing");
  }

  /** Rank of the object with id `id`, or -1; ids are compared as written, so "0302" names no object. */
  rankOf(id: string): number {
    const wanted = parseObjectId(id);
    if (wanted === null) return -1;
    return rankOfAscendingId(
      this.count,
      (i) => this.ids[this.byId[i]],
      (i) => this.byId[i],
      wanted,
    );
  }

  id(rank: number): string {
    return this.ids[rank].toString();
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
  parent(rank: number): number {
    return this.parents[rank];
  }

  get byteSize(): number {
    return (
      this.ids.byteLength +
      this.byId.byteLength +
      this.flags.byteLength +
      this.parents.byteLength +
      this.level5.byteLength
    );
  }
}
