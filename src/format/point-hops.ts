// @module HOPS: for each object, how many links at least lie between it and the nearest end point it leads to, and the nearest start point leading to it, and the points one link away; a walk for start and end points expands no object that cannot lead to one within the hops it has left, and takes its last step without link pages.
import { type Block, type Blocks, checkOffsets } from "./blocks.ts";
import { check } from "./errors.ts";
import type { WalkGraph } from "./flow-points.ts";
import { END, START } from "./object-core.ts";
import { VarintReader, VarintWriter } from "./varint.ts";

/** The direction of a walk: `down` the callees towards end points, `up` the callers towards start points. */
export type HopsDirection = "down" | "up";

/** Hops a nibble tells exactly: 1 to 15. 16 and more (or never) share the nibble 15. */
const EXACT_HOPS = 15;
/** What a breadth-first search goes no further than: what the nibble can tell apart. */
const SEARCHED = EXACT_HOPS + 1;
const UNREACHED = 0xff;

/**
 * The fewest steps along `graph` from any of `sources` to each object (0 for a source), up to
 * SEARCHED; UNREACHED beyond. Along the callers from the end points, that is each object's fewest
 * links down to one. A multi-source breadth-first search: O(objects + links).
 */
function distances(sources: (rank: number) => boolean, graph: WalkGraph): Uint8Array {
  const n = graph.offsets.length - 1;
  const distance = new Uint8Array(n).fill(UNREACHED);
  const queue = new Uint32Array(n);
  let tail = 0;
  for (let r = 0; r < n; r++)
    if (sources(r)) {
      distance[r] = 0;
      queue[tail++] = r;
    }
  for (let head = 0; head < tail; head++) {
    const v = queue[head];
    const next = distance[v] + 1;
    if (next > SEARCHED) break;
    for (let i = graph.offsets[v]; i < graph.offsets[v + 1]; i++) {
      const w = graph.targets[i];
      if (distance[w] === UNREACHED) {
        distance[w] = next;
        queue[tail++] = w;
      }
    }
  }
  return distance;
}

/**
 * Each object's nibble: the fewest links of a path of one link or more from it to a point (a link to
 * one of its `neighbours`, then that one's `distance`), less one, at most 15.
 */
function nibbles(distance: Uint8Array, neighbours: WalkGraph): Uint8Array {
  const n = distance.length;
  const out = new Uint8Array(n);
  for (let r = 0; r < n; r++) {
    let nearest = SEARCHED;
    for (let i = neighbours.offsets[r]; i < neighbours.offsets[r + 1] && nearest > 0; i++)
      nearest = Math.min(nearest, distance[neighbours.targets[i]]);
    out[r] = Math.min(nearest, EXACT_HOPS);
  }
  return out;
}

/**
 * HOPS's first block: a byte per rank, the low nibble `down`, the high nibble `up`
 * (SNAPSHOT-FORMAT.md §8.24). `flags` are OBJC's (START, END); `callees` and `callers` the links
 * each way, every link type and kind.
 */
export function pointHops(flags: Uint8Array, callees: WalkGraph, callers: WalkGraph): Uint8Array {
  // Down: the callees' fewest links to an end point, found by searching up the callers from the end points.
  const down = nibbles(
    distances((r) => (flags[r] & END) !== 0, callers),
    callees,
  );
  const up = nibbles(
    distances((r) => (flags[r] & START) !== 0, callees),
    callers,
  );
  for (let r = 0; r < down.length; r++) down[r] |= up[r] << 4;
  return down;
}

/** The callers of each object of a callee graph, a caller once per entry naming the object, ascending. */
export function reversedGraph(callees: WalkGraph): WalkGraph {
  const n = callees.offsets.length - 1;
  const offsets = new Uint32Array(n + 1);
  for (let i = 0; i < callees.targets.length; i++) offsets[callees.targets[i] + 1]++;
  for (let r = 0; r < n; r++) offsets[r + 1] += offsets[r];
  const next = offsets.slice(0, n);
  const targets = new Uint32Array(callees.targets.length);
  for (let from = 0; from < n; from++)
    for (let i = callees.offsets[from]; i < callees.offsets[from + 1]; i++) targets[next[callees.targets[i]]++] = from;
  return { offsets, targets };
}

/** Ranks whose lists of points one link away start at one stored offset: a lookup decodes at most this many lists. */
const ADJACENT_GROUP = 64;

/** Whether a HOPS nibble says a point lies one link away: the fewest links to one is 1. */
const ONE_LINK = 0;

/** The nibble of a HOPS byte for `direction`: the fewest links to a point that way, less one (15: 16 or more, or none). */
function nibbleOf(byte: number, direction: HopsDirection): number {
  return direction === "down" ? byte & 0xf : byte >> 4;
}

/**
 * The points one link away, one direction: for each rank whose nibble that way says one lies
 * there, in rank order, the count of distinct objects of `role` among its `neighbours`, then their
 * indexes in FLOW's list of that role (the objects of `role` in rank order), ascending, the first as
 * it is and each next as its gap less one; and the byte offset of each group of ADJACENT_GROUP
 * ranks' lists, then the lists' length.
 */
function adjacentLists(
  hops: Uint8Array,
  direction: HopsDirection,
  flags: Uint8Array,
  role: number,
  neighbours: WalkGraph,
): [Uint32Array, Uint8Array] {
  const n = hops.length;
  const indexOf = new Int32Array(n).fill(-1);
  for (let r = 0, i = 0; r < n; r++) if (flags[r] & role) indexOf[r] = i++;
  const offsets = new Uint32Array(Math.ceil(n / ADJACENT_GROUP) + 1);
  const lists = new VarintWriter();
  const points: number[] = [];
  for (let r = 0; r < n; r++) {
    if (r % ADJACENT_GROUP === 0) offsets[r / ADJACENT_GROUP] = lists.length;
    if (nibbleOf(hops[r], direction) !== ONE_LINK) continue;
    points.length = 0;
    for (let i = neighbours.offsets[r]; i < neighbours.offsets[r + 1]; i++) {
      const index = indexOf[neighbours.targets[i]];
      if (index >= 0) points.push(index);
    }
    points.sort((a, b) => a - b);
    const distinct = points.filter((p, k) => k === 0 || p !== points[k - 1]);
    // The nibble was worked out from the same links: one of them leads to a point.
    if (distinct.length === 0) throw new Error(`HOPS: object ${r} is one link from a point but none of its links is`);
    lists.put(distinct.length);
    distinct.forEach((p, k) => lists.put(k === 0 ? p : p - distinct[k - 1] - 1));
  }
  offsets[offsets.length - 1] = lists.length;
  return [offsets, lists.slice()];
}

/**
 * HOPS's five blocks (SNAPSHOT-FORMAT.md §8.24): a byte per rank, the low nibble `down`, the high
 * nibble `up`; then, down then up, the offsets of each group of ranks' lists and the lists of the
 * end points among each object's callees and of the start points among its callers. `flags` are
 * OBJC's (START, END); `callees` and `callers` the links each way, every link type and kind.
 */
export function encodePointHops(flags: Uint8Array, callees: WalkGraph, callers: WalkGraph): Block[] {
  const hops = pointHops(flags, callees, callers);
  return [
    hops,
    ...adjacentLists(hops, "down", flags, END, callees),
    ...adjacentLists(hops, "up", flags, START, callers),
  ];
}

/** The lists of points one link away in one direction, decoded a group of ranks at a time. */
class AdjacentPoints {
  private readonly offsets: Uint32Array;
  private readonly lists: Uint8Array;
  private readonly hops: Uint8Array;
  private readonly direction: HopsDirection;
  private readonly what: string;

  constructor(offsets: Uint32Array, lists: Uint8Array, hops: Uint8Array, direction: HopsDirection, what: string) {
    checkOffsets(offsets, Math.ceil(hops.length / ADJACENT_GROUP), lists.length, what);
    this.offsets = offsets;
    this.lists = lists;
    this.hops = hops;
    this.direction = direction;
    this.what = what;
  }

  get byteSize(): number {
    return this.offsets.byteLength + this.lists.byteLength;
  }

  /**
   * Visits the rank in `points` (FLOW's list of the role) of each point one link from `rank`,
   * ascending by index; returns how many. Its group's lists are decoded whole and checked: each
   * count at least 1, indexes ascending and within `points`, the last list ending the group.
   */
  forEach(rank: number, points: Uint32Array, visit: (point: number) => void): number {
    const group = Math.floor(rank / ADJACENT_GROUP);
    const reader = new VarintReader(this.lists.subarray(this.offsets[group], this.offsets[group + 1]), this.what);
    const end = Math.min(this.hops.length, (group + 1) * ADJACENT_GROUP);
    let visited = 0;
    for (let r = group * ADJACENT_GROUP; r < end; r++) {
      if (nibbleOf(this.hops[r], this.direction) !== ONE_LINK) continue;
      const count = reader.next();
      if (count < 1) check(false, `${this.what}: object ${r} lists no point`);
      for (let k = 0, index = -1; k < count; k++) {
        index += reader.next() + 1;
        if (index >= points.length) check(false, `${this.what}: object ${r} lists point ${index} of ${points.length}`);
        if (r === rank) {
          visit(points[index]);
          visited++;
        }
      }
    }
    if (!reader.done)
      check(
        false,
        `${this.what}: the lists of ranks ${group * ADJACENT_GROUP} to ${end - 1} do not end at the next group`,
      );
    return visited;
  }
}

/**
 * HOPS decoded: whether expanding an object can still find a point, and the points one link away.
 * Any nibble is a valid value; the lists are checked a group of ranks at a time, as they are read.
 */
export class PointHops {
  /** The byte of each rank, as stored. */
  readonly hops: Uint8Array;
  private readonly down: AdjacentPoints;
  private readonly up: AdjacentPoints;

  constructor(blocks: Blocks, objects: number) {
    this.hops = blocks.u8(0);
    check(this.hops.length === objects, `HOPS: ${this.hops.length} bytes for ${objects} objects`);
    this.down = new AdjacentPoints(blocks.u32(1), blocks.u8(2), this.hops, "down", "HOPS end points one link down");
    this.up = new AdjacentPoints(blocks.u32(3), blocks.u8(4), this.hops, "up", "HOPS start points one link up");
  }

  /**
   * Visits each point one link `direction` of `rank` (an end point it calls, a start point calling
   * it), given the ranks of FLOW's list of that role (`points`), and returns how many: none unless
   * leadsOn(rank, direction, 1).
   */
  forEachAdjacentPoint(
    rank: number,
    direction: HopsDirection,
    points: Uint32Array,
    visit: (point: number) => void,
  ): number {
    if (!this.leadsOn(rank, direction, 1)) return 0;
    return (direction === "down" ? this.down : this.up).forEach(rank, points, visit);
  }

  /**
   * Whether following the links of `rank` on a walk `direction` with `left` links left may reach a
   * point: the nibble plus one is the fewest links to one, or (at 15) a bound below it.
   */
  leadsOn(rank: number, direction: HopsDirection, left: number): boolean {
    return nibbleOf(this.hops[rank], direction) + 1 <= left;
  }

  get byteSize(): number {
    return 64 + this.hops.byteLength + this.down.byteSize + this.up.byteSize;
  }
}
