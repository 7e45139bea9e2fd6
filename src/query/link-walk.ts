// @module Walks over qualifying links (not escalated) forward or backward, page by page, within a traversal budget: the call hierarchy, paths, transactions and data graphs.

import { CalleeEntries, SOURCE_IS_START, TARGET_IS_END } from "../format/link-pages.ts";
import { LINK_DIRECT } from "../format/model.ts";
import type { LoadOptions } from "../format/page-loads.ts";
import type { Snapshot } from "../format/snapshot.ts";
import { ChunksAhead, chunksOf } from "./chunks-ahead.ts";
import { type HeavyGate, heavyAnswers } from "./heavy-gate.ts";
import { type LinkRows, linkRows } from "./link-rows.ts";
import { distinctAscending, RankBitmap } from "./rank-set.ts";
import { HEAVY_LINKS, LINKS_A_TURN, Turns } from "./turns.ts";

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

/**
 * One qualifying link met while expanding `rank`: the object at its other end, the link type index,
 * and whether that object ends a flow this way (it is an end point forward, a start point backward;
 * the link entries carry it, so no walk reads the roles of the objects it only reaches).
 */
export type Visit = (rank: number, neighbour: number, type: number, endsFlow: boolean) => void;

/** Whether a walk follows a link of `type` with `flags`: a direct one, of a type `types` allows (null: all). */
const follows = (types: ReadonlySet<number> | null, type: number, flags: number) =>
  (flags & LINK_DIRECT) !== 0 && (!types || types.has(type));

/** The links a chunk of a walk's frontier is expanded by: its own, and backward, its callers'. */
interface ChunkLinks {
  own: LinkRows;
  callers: CallersOf | null;
}

/**
 * The callers of a chunk's ranks, each with the ranks it calls, as a backward expansion reads them:
 * the caller's entries once for all the ranks of the chunk it calls (read once per (rank, caller),
 * a busy caller's entries would be passed over once per rank it calls, most of a data graph's time).
 * Pairs sort as one number each: (caller·2 + start)·|ranks| + the rank's index.
 */
interface CallersOf {
  sorted: Float64Array;
  callers: Float64Array;
  theirs: LinkRows;
}

/** The links `expand` visits at `ranks` (ascending) in `direction`: `own` if read already; `sweeping`: see expand. */
async function chunkLinks(
  snapshot: Snapshot,
  ranks: Uint32Array,
  direction: Direction,
  { own, sweeping }: { own?: LinkRows } & LoadOptions,
): Promise<ChunkLinks> {
  own ??= await linkRows(snapshot, ranks, { sweeping });
  if (direction === "forward") return { own, callers: null };
  const pairs: number[] = [];
  const n = ranks.length;
  ranks.forEach((rank, i) => own.forEachCaller(rank, (caller, start) => pairs.push((caller * 2 + start) * n + i)));
  const sorted = Float64Array.from(pairs).sort();
  const callers = new Float64Array(sorted.length);
  for (let k = 0; k < sorted.length; k++) callers[k] = Math.floor(sorted[k] / n / 2);
  return { own, callers: { sorted, callers, theirs: await linkRows(snapshot, callers, { sweeping }) } };
}

/**
 * Calls `visit` for every link at each of `ranks` (ascending) that `follows` allows, with the links
 * `links` loaded for them, in no particular order; returns how many link entries it examined.
 * Forward, a rank's own page says it all; backward, its page lists its distinct callers and the
 * callers' pages say with which types and kinds they call it.
 */
function visitLinks(ranks: Uint32Array, links: ChunkLinks, types: ReadonlySet<number> | null, visit: Visit): number {
  let examined = 0;
  if (!links.callers) {
    for (const rank of ranks)
      links.own.forEachCallee(rank, (target, type, flags) => {
        examined++;
        if (follows(types, type, flags)) visit(rank, target, type, (flags & TARGET_IS_END) !== 0);
      });
    return examined;
  }
  const { sorted, callers, theirs } = links.callers;
  const n = ranks.length;
  const targets = new Uint32Array(n);
  for (let k = 0; k < sorted.length; ) {
    const caller = callers[k];
    const start = Math.floor(sorted[k] / n) % 2 === SOURCE_IS_START;
    let count = 0;
    for (; k < sorted.length && callers[k] === caller; k++) targets[count++] = ranks[sorted[k] % n];
    theirs.forEachLinkTo(caller, targets.subarray(0, count), (target, type, flags) => {
      examined++;
      if (follows(types, type, flags)) visit(target, caller, type, start);
    });
  }
  return examined;
}

/**
 * Calls `visit` for every link at each of `ranks` (ascending) in `direction` that `follows` allows,
 * in no particular order, and returns how many link entries it examined; `loaded`: the links of
 * `ranks` if read already; `sweeping`: a walk's frontier, whose loads read ahead (loadPages).
 */
export async function expand(
  snapshot: Snapshot,
  ranks: Uint32Array,
  direction: Direction,
  types: ReadonlySet<number> | null,
  visit: Visit,
  { loaded, sweeping }: { loaded?: LinkRows } & LoadOptions = {},
): Promise<{ examined: number; own: LinkRows }> {
  const links = await chunkLinks(snapshot, ranks, direction, { own: loaded, sweeping });
  return { examined: visitLinks(ranks, links, types, visit), own: links.own };
}

/**
 * `expand` forward for a walk: the entries of all `ranks` (whose links are `rows`) decoded into
 * `entries` at once, and `visit` called for those `follows` allows. Returns how many entries it examined.
 */
function expandForward(
  rows: LinkRows,
  ranks: Uint32Array,
  types: ReadonlySet<number> | null,
  entries: CalleeEntries,
  visit: Visit,
): number {
  const ends = new Uint32Array(ranks.length);
  rows.calleesOf(ranks, entries, ends);
  const { targets, packed } = entries;
  for (let k = 0, i = 0; k < ranks.length; k++) {
    const rank = ranks[k];
    for (; i < ends[k]; i++) {
      // An entry packs its type over its flags (LinkPage).
      const entry = packed[i];
      if (follows(types, entry >>> 3, entry)) visit(rank, targets[i], entry >>> 3, (entry & TARGET_IS_END) !== 0);
    }
  }
  return entries.count;
}

export interface Walk {
  /** The objects reached by depth: `levels[d]` those first reached at depth d (the origin alone at 0), ascending. */
  levels: Uint32Array[];
  /** How many objects the walk reached: the levels' lengths summed. */
  reachedCount: number;
  reached(rank: number): boolean;
  /** Whether the walk followed the links of `rank`: an answer reads them again for the few objects it keeps. */
  expanded(rank: number): boolean;
  direction: Direction;
  types: ReadonlySet<number> | null;
  /** The budget ran out before the walk was done. */
  truncated: boolean;
  /** Link entries examined, counted against the budget. */
  examined: number;
  /**
   * The links the walk followed, as parallel columns (link `i` runs from `from[i]` to `to[i]` with
   * link type index `type[i]`), while it reached no more objects than `recordLinksUpTo`; past that,
   * null, and an answer reads the links of the nodes it keeps again.
   */
  links: { from: number[]; to: number[]; type: number[] } | null;
}

export interface WalkOptions {
  direction: Direction;
  /** Objects at a depth below this are expanded. */
  hops: number;
  /** Link type indices followed (null: every type). */
  types: ReadonlySet<number> | null;
  /** Whether objects that end a flow this way (end points forward, start points backward) are reached but not walked past; the origin is always walked. */
  stopAtFlowEnds: boolean;
  budget: number;
  /**
   * Links are recorded while the walk has reached at most this many objects (an answer's limit): a
   * small walk's answer then reads no link twice, a large one records none it would drop.
   */
  recordLinksUpTo: number;
  /**
   * Stop once a level brings the objects reached to this many (an answer's limit, when the walk's
   * size is known beforehand): an object reached then counts as expanded unless it ends a flow, as
   * the whole walk would have expanded it, and no links are recorded.
   */
  enough?: number;
  /** Frontier ranks whose links are loaded at a time (CHUNK, unless tests make it small). */
  frontierChunk?: number;
  /** Where a walk past `heavyLinks` link entries (HEAVY_LINKS) waits its turn: the isolate's gate, unless tests give their own. */
  gate?: HeavyGate;
  heavyLinks?: number;
  /** The request's signal: a walk stops (throwing its reason) once the client has gone. */
  signal?: AbortSignal;
}

/**
 * Breadth-first from `origin`: expands every object at depth < `hops` (except those that end a flow,
 * if asked), frontier by frontier in rank order. Which objects a complete walk finds does not
 * depend on that order; a walk cut by the budget keeps what it found up to there.
 */
export async function walk(snapshot: Snapshot, origin: number, options: WalkOptions): Promise<Walk> {
  const objects = snapshot.meta.counts.objects;
  const reached = new RankBitmap(objects);
  const expanded = new RankBitmap(objects);
  const flowEnds = options.stopAtFlowEnds ? new RankBitmap(objects) : null;
  reached.add(origin);
  let stoppedShort = false;
  const result: Walk = {
    levels: [Uint32Array.of(origin)],
    reachedCount: 1,
    reached: (rank) => reached.has(rank),
    expanded: (rank) => expanded.has(rank) || (stoppedShort && reached.has(rank) && !flowEnds?.has(rank)),
    direction: options.direction,
    types: options.types,
    truncated: false,
    examined: 0,
    links: { from: [], to: [], type: [] },
  };
  const { levels } = result;
  const forward = options.direction === "forward";
  const turns = new Turns(LINKS_A_TURN, {
    gate: options.gate ?? heavyAnswers,
    after: options.heavyLinks ?? HEAVY_LINKS,
    signal: options.signal,
  });
  let next: number[] = [];
  const entries = new CalleeEntries();
  const found = (rank: number, neighbour: number, type: number, endsFlow: boolean) => {
    if (result.links) {
      result.links.from.push(forward ? rank : neighbour);
      result.links.to.push(forward ? neighbour : rank);
      result.links.type.push(type);
    }
    if (reached.has(neighbour)) return;
    reached.add(neighbour);
    next.push(neighbour);
    if (endsFlow) flowEnds?.add(neighbour);
    if (result.reachedCount + next.length > options.recordLinksUpTo) result.links = null;
  };
  try {
    for (let d = 0; d < options.hops && levels[d].length > 0; d++) {
      const frontier = levels[d];
      next = [];
      // Between levels the walk holds no link pages: a heavy one waits its turn here.
      await turns.admitted();
      // Objects that end a flow were reached at an earlier depth: the level's chunks are known now,
      // and the links of the next ones (backward, their callers' too) load while one is expanded.
      const chunks = chunksOf(frontier, options.frontierChunk ?? CHUNK).map((chunk) =>
        flowEnds && d > 0 ? chunk.filter((r) => !flowEnds.has(r)) : chunk,
      );
      // The pages a sweep brings between those wanted serve the levels after this one: the last
      // level's loads take only what they want, so a shallow walk leaves the cache as it found it.
      const sweeping = d < options.hops - 1 ? "keep" : "drop";
      const links = new ChunksAhead(chunks, (chunk) => chunkLinks(snapshot, chunk, options.direction, { sweeping }));
      try {
        for (const chunk of chunks) {
          const loaded = await links.next();
          for (const rank of chunk) expanded.add(rank);
          const examined = forward
            ? expandForward(loaded.own, chunk, options.types, entries, found)
            : visitLinks(chunk, loaded, options.types, found);
          result.examined += examined;
          result.truncated = result.examined > options.budget;
          await turns.after(examined);
          if (result.truncated) break;
        }
      } finally {
        links.abandon();
      }
      if (next.length === 0) break;
      levels.push(distinctAscending(Uint32Array.from(next), objects));
      result.reachedCount += next.length;
      if (result.truncated) break;
      if (result.reachedCount >= (options.enough ?? Number.POSITIVE_INFINITY)) {
        stoppedShort = true;
        result.links = null;
        break;
      }
    }
  } finally {
    turns.done();
  }
  return result;
}
