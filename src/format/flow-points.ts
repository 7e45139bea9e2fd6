// @module FLOW: the start and end points of an application with the size of each one's transaction or data graph, counted once at compile time.
import type { Block, Blocks } from "./blocks.ts";
import { check } from "./errors.ts";
import { type CalleeLinks, LINK_DIRECT, NONE, type Role } from "./model.ts";
import { firstFailing } from "./page-directory.ts";

/**
 * The objects a walk goes from each object to: a CSR over ranks. An object that ends a flow this way
 * has none, as a walk reaches it but does not go past it.
 */
export interface WalkGraph {
  offsets: Uint32Array;
  targets: Uint32Array;
}

/** The start points and end points, ascending, with the objects each one's graph holds (NONE: not counted). */
export interface FlowTotals {
  starts: Uint32Array;
  startTotals: Uint32Array;
  ends: Uint32Array;
  endTotals: Uint32Array;
}

/** Each rank's role as one byte (pointRoles): all that counting the flows needs of the objects. */
const START_POINT = 1;
const END_POINT = 2;

/** The role of an object as pointRoles writes it: START_POINT, END_POINT, or 0 for neither. */
export const roleCode = (role: Role | null | undefined): number =>
  role === "start" ? START_POINT : role === "end" ? END_POINT : 0;

/** Each rank's role code, from objects in rank order. */
export function pointRoles(objects: readonly { role: Role | null }[]): Uint8Array {
  return Uint8Array.from(objects, (o) => roleCode(o.role));
}

/**
 * Link entries the counts of one snapshot may examine past the cheap cases, per object and link:
 * bounds the compile time of an analysis whose graphs share no large cycle, where each point's
 * graph is a walk of its own. Points left uncounted are walked when asked (within the walk budget).
 */
const SPEND_PER_ELEMENT = 64;

/** The graphs of the flows: forward along direct links, not past end points; backward from callee to caller, not past start points. */
export interface WalkGraphs {
  forward: WalkGraph;
  backward: WalkGraph;
}

/** The walk graphs of `callees` (a model's links, by caller rank), the objects' `roles` (pointRoles) by rank. */
export function walkGraphs(callees: Pick<CalleeLinks, "offsets" | "targets" | "flags">, roles: Uint8Array): WalkGraphs {
  const n = roles.length;
  const { offsets, targets, flags } = callees;
  // Entries are one per (target, type), a target's adjacent: each counted once, and only direct ones.
  const forwardOffsets = new Uint32Array(n + 1);
  const backwardOffsets = new Uint32Array(n + 1);
  for (let from = 0; from < n; from++) {
    let previous = -1;
    for (let i = offsets[from]; i < offsets[from + 1]; i++) {
      const to = targets[i];
      if (!(flags[i] & LINK_DIRECT) || to === previous) continue;
      previous = to;
      forwardOffsets[from + 1] += roles[from] === END_POINT ? 0 : 1;
      backwardOffsets[to + 1] += roles[to] === START_POINT ? 0 : 1;
    }
  }
  for (let r = 0; r < n; r++) {
    forwardOffsets[r + 1] += forwardOffsets[r];
    backwardOffsets[r + 1] += backwardOffsets[r];
  }
  const forwardTargets = new Uint32Array(forwardOffsets[n]);
  const backwardTargets = new Uint32Array(backwardOffsets[n]);
  const backwardNext = backwardOffsets.slice(0, n);
  for (let from = 0; from < n; from++) {
    let previous = -1;
    let at = forwardOffsets[from];
    for (let i = offsets[from]; i < offsets[from + 1]; i++) {
      const to = targets[i];
      if (!(flags[i] & LINK_DIRECT) || to === previous) continue;
      previous = to;
      if (roles[from] !== END_POINT) forwardTargets[at++] = to;
      if (roles[to] !== START_POINT) backwardTargets[backwardNext[to]++] = from;
    }
  }
  return {
    forward: { offsets: forwardOffsets, targets: forwardTargets },
    backward: { offsets: backwardOffsets, targets: backwardTargets },
  };
}

/** Each object's strongly connected component (Tarjan's, without recursion), and each component's size. */
function components(graph: WalkGraph): { component: Int32Array; sizes: number[] } {
  const { offsets, targets } = graph;
  const n = offsets.length - 1;
  const order = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const component = new Int32Array(n).fill(-1);
  const stack = new Int32Array(n);
  const path = new Int32Array(n);
  const edge = new Uint32Array(n);
  const sizes: number[] = [];
  let stackSize = 0;
  let counter = 0;
  for (let root = 0; root < n; root++) {
    if (order[root] >= 0) continue;
    let depth = 0;
    path[0] = root;
    order[root] = low[root] = counter++;
    edge[root] = offsets[root];
    stack[stackSize++] = root;
    while (depth >= 0) {
      const v = path[depth];
      if (edge[v] < offsets[v + 1]) {
        const w = targets[edge[v]++];
        if (order[w] < 0) {
          order[w] = low[w] = counter++;
          edge[w] = offsets[w];
          stack[stackSize++] = w;
          path[++depth] = w;
        } else if (component[w] < 0 && order[w] < low[v]) low[v] = order[w];
        continue;
      }
      if (low[v] === order[v]) {
        let members = 0;
        let w: number;
        do {
          w = stack[--stackSize];
          component[w] = sizes.length;
          members++;
        } while (w !== v);
        sizes.push(members);
      }
      depth--;
      if (depth >= 0 && low[v] < low[path[depth]]) low[path[depth]] = low[v];
    }
  }
  return { component, sizes };
}

/** Components taken as hubs: the largest, at most 8 (one bit each), of at least this many objects. */
const HUBS = 8;
const HUB_SIZE = 64;

/**
 * The number of objects reachable from each of `sources` in `graph`, itself included (NONE where
 * counting it would pass `spend` link entries in all).
 *
 * Walking each source alone costs sources × graph size when the graphs overlap, as a large
 * application's transactions do (at 300k objects most reach some 200k). Instead the largest
 * strongly connected components (hubs) and what each reaches are found once: every object of a hub
 * reaches all that the hub reaches. A source's walk does not go into a hub it meets, nor past an
 * object that a hub it met reaches; its count is what the hubs it met reach, together, plus the
 * objects it found that none of them reaches. An object that some other hub reaches waits until
 * the walk has nothing else to do, as a hub met later may cover it.
 */
export function reachCounts(graph: WalkGraph, sources: Uint32Array, spend: number): Uint32Array {
  const { offsets, targets } = graph;
  const n = offsets.length - 1;
  const counts = new Uint32Array(sources.length);
  const { component, sizes } = components(graph);
  const hubs: number[] = [];
  for (let c = 0; c < sizes.length; c++) if (sizes[c] >= HUB_SIZE) hubs.push(c);
  hubs.sort((a, b) => sizes[b] - sizes[a] || a - b).splice(HUBS);
  // hubOf: the hub an object is in (bit), or 0; reachedBy: the hubs that reach it (bits).
  const hubOf = new Uint8Array(n);
  const reachedBy = new Uint8Array(n);
  const queue = new Uint32Array(n);
  hubs.forEach((c, k) => {
    const bit = 1 << k;
    const first = component.indexOf(c);
    let tail = 0;
    reachedBy[first] |= bit;
    queue[tail++] = first;
    for (let head = 0; head < tail; head++) {
      const v = queue[head];
      if (component[v] === c) hubOf[v] = bit;
      for (let i = offsets[v]; i < offsets[v + 1]; i++)
        if (!(reachedBy[targets[i]] & bit)) (reachedBy[targets[i]] |= bit), (queue[tail++] = targets[i]);
    }
  });
  // How many objects the hubs of each set reach together.
  const byPattern = new Float64Array(256);
  for (let v = 0; v < n; v++) byPattern[reachedBy[v]]++;
  const unionOf = new Float64Array(256);
  for (let met = 1; met < 256; met++)
    for (let pattern = 1; pattern < 256; pattern++) if (pattern & met) unionOf[met] += byPattern[pattern];

  const seenBy = new Uint32Array(n);
  const deferred: number[] = [];
  let spent = 0;
  for (let s = 0; s < sources.length; s++) {
    const source = sources[s];
    if (hubOf[source]) {
      counts[s] = unionOf[hubOf[source]];
      continue;
    }
    if (spent > spend) {
      counts[s] = NONE;
      continue;
    }
    const stamp = s + 1;
    let met = 0;
    deferred.length = 0;
    seenBy[source] = stamp;
    queue[0] = source;
    let tail = 1;
    let head = 0;
    for (; ; head++) {
      if (head === tail) {
        // Nothing left but what other hubs reach: walk those no hub met so far covers.
        for (const w of deferred) if (!(reachedBy[w] & met)) queue[tail++] = w;
        deferred.length = 0;
        if (head === tail) break;
      }
      if (spent > spend) break;
      const v = queue[head];
      spent += offsets[v + 1] - offsets[v];
      for (let i = offsets[v]; i < offsets[v + 1]; i++) {
        const w = targets[i];
        if (seenBy[w] === stamp) continue;
        seenBy[w] = stamp;
        if (hubOf[w]) met |= hubOf[w];
        else if (reachedBy[w] & met) continue;
        else if (reachedBy[w]) deferred.push(w);
        else queue[tail++] = w;
      }
    }
    if (head < tail) {
      counts[s] = NONE;
      continue;
    }
    // The objects found that no hub met reaches, the source included, and all that those hubs reach.
    let outside = 0;
    for (let k = 0; k < tail; k++) if (!(reachedBy[queue[k]] & met)) outside++;
    counts[s] = outside + unionOf[met];
  }
  return counts;
}

/**
 * Every start point's transaction and every end point's data graph counted on `graphs`, the walk
 * graphs of the objects whose `roles` (pointRoles) are given.
 */
export function flowTotals(graphs: WalkGraphs, roles: Uint8Array): FlowTotals {
  const ranksWith = (role: number) => {
    const ranks: number[] = [];
    for (let r = 0; r < roles.length; r++) if (roles[r] === role) ranks.push(r);
    return Uint32Array.from(ranks);
  };
  const starts = ranksWith(START_POINT);
  const ends = ranksWith(END_POINT);
  const spend = SPEND_PER_ELEMENT * (roles.length + graphs.forward.targets.length);
  return {
    starts,
    startTotals: reachCounts(graphs.forward, starts, spend),
    ends,
    endTotals: reachCounts(graphs.backward, ends, spend),
  };
}

/** The flow totals of a model's links and objects (`callees`, `roles` by rank). */
export const countFlows = (callees: CalleeLinks, roles: Uint8Array): FlowTotals =>
  flowTotals(walkGraphs(callees, roles), roles);

export function encodeFlowPoints(totals: FlowTotals): Block[] {
  return [totals.starts, totals.startTotals, totals.ends, totals.endTotals];
}

/** FLOW decoded: the points of each role, ascending, and the size of each one's graph. */
export class FlowPoints implements FlowTotals {
  readonly starts: Uint32Array;
  readonly startTotals: Uint32Array;
  readonly ends: Uint32Array;
  readonly endTotals: Uint32Array;

  constructor(blocks: Blocks, objects: number) {
    [this.starts, this.startTotals, this.ends, this.endTotals] = [0, 1, 2, 3].map((b) => blocks.u32(b));
    for (const [ranks, totals, what] of [
      [this.starts, this.startTotals, "start"],
      [this.ends, this.endTotals, "end"],
    ] as const) {
      check(ranks.length === totals.length, `FLOW: ${ranks.length} ${what} points but ${totals.length} totals`);
      // Tested before calling check: a message closure for each point would be garbage at every decode.
      for (let i = 0; i < ranks.length; i++) {
        if (!(ranks[i] < objects && (i === 0 || ranks[i - 1] < ranks[i])))
          check(false, `FLOW: ${what} points do not ascend at ${i}`);
        if (!(totals[i] === NONE || (totals[i] >= 1 && totals[i] <= objects)))
          check(false, `FLOW: the graph of ${what} point ${ranks[i]} holds ${totals[i]} objects, of ${objects}`);
      }
    }
  }

  get byteSize(): number {
    return (this.starts.length + this.ends.length) * 8;
  }

  /** Where `rank` is in `ranks` (ascending), or -1. */
  private static indexIn(ranks: Uint32Array, rank: number): number {
    const at = firstFailing(0, ranks.length, (i) => ranks[i] < rank);
    return at < ranks.length && ranks[at] === rank ? at : -1;
  }

  /** The objects the graph of point `rank` holds, from `ranks` (ascending) and `totals`; null when not counted or not a point. */
  static totalAt(ranks: Uint32Array, totals: Uint32Array, rank: number): number | null {
    const at = FlowPoints.indexIn(ranks, rank);
    return at >= 0 && totals[at] !== NONE ? totals[at] : null;
  }

  /** Whether `rank` is one of the points of `role`. */
  has(role: "start" | "end", rank: number): boolean {
    return FlowPoints.indexIn(role === "start" ? this.starts : this.ends, rank) >= 0;
  }

  /** The size of the transaction of start point `rank`, or null when it was not counted. */
  transactionSize(rank: number): number | null {
    return FlowPoints.totalAt(this.starts, this.startTotals, rank);
  }

  /** The size of the data graph of end point `rank`, or null when it was not counted. */
  dataGraphSize(rank: number): number | null {
    return FlowPoints.totalAt(this.ends, this.endTotals, rank);
  }
}
