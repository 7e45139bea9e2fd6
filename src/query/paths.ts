// @module objectPaths: the shortest paths from one object to another along qualifying links, in name order.

import type { ApiPathStep, ApiPaths } from "../contract/api-schemas.ts";
import { ApiError } from "../contract/errors.ts";
import type { Snapshot } from "../format/snapshot.ts";
import { summariesOf } from "./graph-answer.ts";
import { linkRows } from "./link-rows.ts";
import { expand } from "./link-walk.ts";
import { lookUp, rankOfId } from "./lookup.ts";
import { TRAVERSAL_BUDGET } from "./points.ts";

/** totalPaths counts up to this many. */
const MAX_TOTAL_PATHS = 100_000;

const CHUNK = 512;

/** Links from an object to the next objects of a shortest path: from → to → link type indices. */
type Successors = Map<number, Map<number, number[]>>;

/**
 * One end of the search: objects by distance from its end (counted along links forward from the
 * origin, backward from `to`), the last level found, and the links between consecutive levels,
 * always stored caller → callee.
 */
class SearchSide {
  readonly distance: Map<number, number>;
  readonly next: Successors = new Map();
  frontier: Uint32Array;
  level = 0;

  constructor(end: number) {
    this.distance = new Map([[end, 0]]);
    this.frontier = Uint32Array.of(end);
  }

  link(from: number, to: number, type: number): void {
    let out = this.next.get(from);
    if (!out) this.next.set(from, (out = new Map()));
    const types = out.get(to);
    if (types) types.push(type);
    else out.set(to, [type]);
  }
}

/**
 * A search from both ends: breadth-first forward from the origin and backward from `to`, each time
 * extending the side whose frontier is smaller, until the two meet or their levels add up to
 * `hops`. When they first meet, after levels kF and kB, the shortest paths are kF + kB links long
 * and each passes through an object at distance kF from the origin and kB from `to`; the links kept
 * between consecutive levels of either side are those of the shortest paths, and some that lead
 * nowhere, which counting drops. From one end alone, a path between two busy objects walked the
 * origin's whole neighbourhood up to the path's length; from both, two neighbourhoods of half of it.
 *
 * Like start and end points, a search past the traversal budget is a 400 (hops), not a cut answer:
 * an answer without the shortest paths would say there are none.
 */
export async function objectPaths(
  snapshot: Snapshot,
  id: string,
  to: string,
  query: { hops: number; limit: number },
): Promise<ApiPaths> {
  const origin = await rankOfId(snapshot, id);
  const target = await lookUp(snapshot, to);
  if (target < 0)
    throw new ApiError("object_not_found", `application "${snapshot.meta.application}" has no object with id ${to}`, {
      parameter: "to",
    });
  const linkTypes = (await linkRows(snapshot, [origin])).linkTypes;
  const forward = new SearchSide(origin);
  const backward = new SearchSide(target);
  let met = origin === target;
  let budget = TRAVERSAL_BUDGET;
  while (!met && forward.level + backward.level < query.hops) {
    if (forward.frontier.length === 0 || backward.frontier.length === 0) break;
    const side = forward.frontier.length <= backward.frontier.length ? forward : backward;
    const other = side === forward ? backward : forward;
    const level = side.level + 1;
    const reached: number[] = [];
    for (let at = 0; at < side.frontier.length; at += CHUNK) {
      const chunk = side.frontier.subarray(at, at + CHUNK);
      const direction = side === forward ? "forward" : "backward";
      const { examined } = await expand(snapshot, chunk, direction, null, (rank, neighbour, type) => {
        if (!side.distance.has(neighbour)) {
          side.distance.set(neighbour, level);
          reached.push(neighbour);
          if (other.distance.has(neighbour)) met = true;
        }
        if (side.distance.get(neighbour) !== level) return;
        if (side === forward) side.link(rank, neighbour, type);
        else side.link(neighbour, rank, type);
      });
      budget -= examined;
      if (budget < 0)
        throw new ApiError(
          "invalid_parameter",
          `hops=${query.hops} from this object would follow more than ${TRAVERSAL_BUDGET} links; ask for fewer hops`,
          { parameter: "hops" },
        );
    }
    side.level = level;
    side.frontier = Uint32Array.from(reached).sort();
  }
  if (!met) return { length: null, totalPaths: 0, paths: [] };
  const next: Successors = new Map([...forward.next, ...backward.next]);
  const ways = pathCounts(forward, backward, target);
  const paths = firstPaths(origin, target, next, ways, query.limit);
  return {
    length: forward.level + backward.level,
    totalPaths: ways.get(origin)!,
    paths: await renderPaths(snapshot, paths, next, linkTypes),
  };
}

/**
 * For each object on a shortest path, how many shortest paths lead from it to `target` (capped):
 * level by level away from `to`, over the backward side's links, then over the forward side's.
 */
function pathCounts(forward: SearchSide, backward: SearchSide, target: number): Map<number, number> {
  const ways = new Map<number, number>([[target, 1]]);
  const count = (side: SearchSide, stepsFromMeeting: (distance: number) => number) => {
    const byStep: number[][] = Array.from({ length: side.level + 1 }, () => []);
    for (const from of side.next.keys()) byStep[stepsFromMeeting(side.distance.get(from)!)].push(from);
    for (const step of byStep)
      for (const from of step) {
        let sum = 0;
        for (const to of side.next.get(from)!.keys()) sum += ways.get(to) ?? 0;
        if (sum > 0) ways.set(from, Math.min(sum, MAX_TOTAL_PATHS));
      }
  };
  // Backward, a caller lies one level further from `to` than its callee: nearest to `to` first.
  count(backward, (distance) => distance);
  // Forward, a callee lies one level further from the origin: nearest to the meeting level first.
  count(forward, (distance) => forward.level - distance);
  return ways;
}

/** The first `limit` shortest paths, ranks step by step ascending (rank order is name order). */
function firstPaths(
  origin: number,
  target: number,
  next: Successors,
  ways: Map<number, number>,
  limit: number,
): number[][] {
  const paths: number[][] = [];
  const path = [origin];
  const visit = (u: number) => {
    if (u === target) return void paths.push(path.slice());
    const successors = [...(next.get(u)?.keys() ?? [])].filter((w) => ways.has(w)).sort((a, b) => a - b);
    for (const w of successors) {
      if (paths.length >= limit) return;
      path.push(w);
      visit(w);
      path.pop();
    }
  };
  visit(origin);
  return paths;
}

async function renderPaths(
  snapshot: Snapshot,
  paths: number[][],
  next: Successors,
  linkTypes: readonly string[],
): Promise<ApiPathStep[][]> {
  const ranks = Uint32Array.from(new Set(paths.flat())).sort();
  const summaries = await summariesOf(snapshot, ranks);
  return paths.map((path) =>
    path.map((rank, i): ApiPathStep => {
      const { id, name, fullName, type, typeId } = summaries.get(rank)!;
      const types =
        i === 0
          ? []
          : next
              .get(path[i - 1])!
              .get(rank)!
              .map((t) => linkTypes[t]);
      return { id, name, fullName, type, typeId, linkTypes: [...new Set(types)].sort() };
    }),
  );
}
