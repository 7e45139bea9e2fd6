// @module HOPS: for each object, how many links at least lie between it and the nearest end point it leads to, and the nearest start point leading to it; a walk for start and end points expands no object that cannot lead to one within the hops it has left.
import type { Block, Blocks } from "./blocks.ts";
import { check } from "./errors.ts";
import type { WalkGraph } from "./flow-points.ts";
import { END, START } from "./object-core.ts";

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
 * HOPS's one block: a byte per rank, the low nibble `down`, the high nibble `up`
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

export function encodePointHops(hops: Uint8Array): Block[] {
  return [hops];
}

/** HOPS decoded: whether expanding an object can still find a point. Any byte is a valid value. */
export class PointHops {
  /** The byte of each rank, as stored. */
  readonly hops: Uint8Array;

  constructor(blocks: Blocks, objects: number) {
    this.hops = blocks.u8(0);
    check(this.hops.length === objects, `HOPS: ${this.hops.length} bytes for ${objects} objects`);
  }

  /**
   * Whether following the links of `rank` on a walk `direction` with `left` links left may reach a
   * point: the nibble plus one is the fewest links to one, or (at 15) a bound below it.
   */
  leadsOn(rank: number, direction: HopsDirection, left: number): boolean {
    const byte = this.hops[rank];
    return (direction === "down" ? byte & 0xf : byte >> 4) + 1 <= left;
  }

  get byteSize(): number {
    return 64 + this.hops.byteLength;
  }
}
