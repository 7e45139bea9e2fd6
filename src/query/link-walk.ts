// @module Walks over qualifying links (not escalated) forward or backward, page by page, within a traversal budget: the call hierarchy, paths, transactions and data graphs.

import { LINK_DIRECT } from "../format/model.ts";
import type { Snapshot } from "../format/snapshot.ts";
import { type LinkRows, linkRows } from "./link-rows.ts";

/** Forward follows links from caller to callee; backward from callee to caller. */
export type Direction = "forward" | "backward";

/**
 * Link entries one walk may examine. A graph's `totalNodes` counts every node the contract's walk
 * reaches, so the budget must cover whole graphs of the analyses people publish: 500,000 entries is
 * every graph of an application of some 100k links, and bounds the worst walk at 1M objects to a few
 * seconds of CPU (docs/benchmarks.md "Impact routes"), inside a Worker's limit. Past it a walk
 * answers what it has found, marked truncated, rather than time out.
 */
export const WALK_BUDGET = 500_000;

/** Frontier ranks whose links are loaded at a time, so a wide walk holds a few MB of pages at once. */
const CHUNK = 512;

/** One qualifying link met while expanding `rank`: the object at its other end and the link type index. */
export type Visit = (rank: number, neighbour: number, type: number) => void;

/**
 * Calls `visit` for every qualifying link at each of `ranks` (ascending) in `direction`, of the
 * types `types` allows (null: all), and returns how many link entries it examined. Forward, a
 * rank's own page says it all; backward, its page lists its distinct callers and the callers' pages
 * say with which types and kinds they call it.
 */
export async function expand(
  snapshot: Snapshot,
  ranks: Uint32Array,
  direction: Direction,
  types: ReadonlySet<number> | null,
  visit: Visit,
): Promise<{ examined: number; own: LinkRows }> {
  const own = await linkRows(snapshot, ranks);
  let examined = 0;
  const followed = (type: number, flags: number) => (flags & LINK_DIRECT) !== 0 && (!types || types.has(type));
  if (direction === "forward") {
    for (const rank of ranks)
      own.forEachCallee(rank, (target, type, flags) => {
        examined++;
        if (followed(type, flags)) visit(rank, target, type);
      });
    return { examined, own };
  }
  // Every rank's callers, back to back: their pages are then loaded together, one round for the chunk.
  const callers: number[] = [];
  const ends = new Uint32Array(ranks.length);
  ranks.forEach((rank, i) => {
    own.forEachCaller(rank, (caller) => callers.push(caller));
    ends[i] = callers.length;
  });
  const theirs = await linkRows(snapshot, callers);
  ranks.forEach((rank, i) => {
    for (let k = i === 0 ? 0 : ends[i - 1]; k < ends[i]; k++) {
      const caller = callers[k];
      theirs.forEachLinkTo(caller, rank, (type, flags) => {
        examined++;
        if (followed(type, flags)) visit(rank, caller, type);
      });
    }
  });
  return { examined, own };
}

export interface Walk {
  /** Depth of every object reached (the origin: 0), by rank. */
  depth: Map<number, number>;
  /** The links met, as parallel columns: link `i` runs from `from[i]` to `to[i]` with link type index `type[i]`. */
  from: number[];
  to: number[];
  type: number[];
  /** The budget ran out before the walk was done. */
  truncated: boolean;
  /** Link entries examined, counted against the budget. */
  examined: number;
}

export interface WalkOptions {
  direction: Direction;
  /** Objects at a depth below this are expanded. */
  hops: number;
  /** Link type indices followed (null: every type). */
  types: ReadonlySet<number> | null;
  /** Object flags (OBJC: 2 start, 4 end) of objects reached but not walked past; the origin is always walked. */
  stopAt: number;
  budget: number;
}

/**
 * Breadth-first from `origin`: expands every object at depth < `hops` (except those flagged
 * `stopAt`), frontier by frontier in rank order, recording each qualifying link it expands along.
 * Which objects and links a complete walk finds does not depend on that order; a walk cut by the
 * budget keeps what it found up to there.
 */
export async function walk(snapshot: Snapshot, origin: number, options: WalkOptions): Promise<Walk> {
  const result: Walk = {
    depth: new Map([[origin, 0]]),
    from: [],
    to: [],
    type: [],
    truncated: false,
    examined: 0,
  };
  const { depth } = result;
  const forward = options.direction === "forward";
  let frontier = Uint32Array.of(origin);
  for (let d = 0; d < options.hops && frontier.length > 0; d++) {
    const next: number[] = [];
    for (let at = 0; at < frontier.length; at += CHUNK) {
      const chunk = frontier.subarray(at, at + CHUNK);
      const walked = options.stopAt ? await walkedOf(snapshot, chunk, origin, options.stopAt) : chunk;
      const { examined } = await expand(snapshot, walked, options.direction, options.types, (rank, neighbour, t) => {
        result.from.push(forward ? rank : neighbour);
        result.to.push(forward ? neighbour : rank);
        result.type.push(t);
        if (!depth.has(neighbour)) {
          depth.set(neighbour, d + 1);
          next.push(neighbour);
        }
      });
      result.examined += examined;
      if (result.examined > options.budget) {
        result.truncated = true;
        return result;
      }
    }
    frontier = Uint32Array.from(next).sort();
  }
  return result;
}

/** The ranks of `chunk` walked past: the origin, and those not flagged `stopAt`. */
async function walkedOf(snapshot: Snapshot, chunk: Uint32Array, origin: number, stopAt: number) {
  const rows = await linkRows(snapshot, chunk);
  return chunk.filter((r) => r === origin || !(rows.flagsOf(r) & stopAt));
}
