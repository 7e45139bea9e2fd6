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
export const MAX_TOTAL_PATHS = 100_000;

const CHUNK = 512;

/**
 * Breadth-first from the origin until the level that reaches `to` (or `hops` levels), keeping the
 * links from each level to the next: the shortest paths are the walks along them that end at `to`.
 * Like start and end points, a walk past the traversal budget is a 400 (hops), not a cut answer:
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
  const depth = new Map<number, number>([[origin, 0]]);
  /** The links from a level to the next: from → to → link type indices. */
  const next = new Map<number, Map<number, number[]>>();
  let frontier = Uint32Array.of(origin);
  let budget = TRAVERSAL_BUDGET;
  for (let d = 0; d < query.hops && !depth.has(target) && frontier.length > 0; d++) {
    const reached: number[] = [];
    for (let at = 0; at < frontier.length; at += CHUNK) {
      const { examined } = await expand(snapshot, frontier.subarray(at, at + CHUNK), "forward", null, (u, w, t) => {
        if (!depth.has(w)) depth.set(w, d + 1), reached.push(w);
        if (depth.get(w) !== d + 1) return;
        let out = next.get(u);
        if (!out) next.set(u, (out = new Map()));
        const types = out.get(w);
        if (types) types.push(t);
        else out.set(w, [t]);
      });
      budget -= examined;
      if (budget < 0)
        throw new ApiError(
          "invalid_parameter",
          `hops=${query.hops} from this object would follow more than ${TRAVERSAL_BUDGET} links; ask for fewer hops`,
          { parameter: "hops" },
        );
    }
    frontier = Uint32Array.from(reached).sort();
  }
  const length = depth.get(target);
  if (length === undefined) return { length: null, totalPaths: 0, paths: [] };
  const ways = pathCounts(next, depth, target, length);
  const paths = firstPaths(origin, target, next, ways, query.limit);
  return { length, totalPaths: ways.get(origin)!, paths: await renderPaths(snapshot, paths, next, linkTypes) };
}

/** For each object on a shortest path, how many shortest paths lead from it to `target` (capped). */
function pathCounts(
  next: Map<number, Map<number, number[]>>,
  depth: Map<number, number>,
  target: number,
  length: number,
): Map<number, number> {
  const ways = new Map<number, number>([[target, 1]]);
  const byLevel: number[][] = Array.from({ length }, () => []);
  for (const u of next.keys()) byLevel[depth.get(u)!].push(u);
  for (let d = length - 1; d >= 0; d--)
    for (const u of byLevel[d]) {
      let sum = 0;
      for (const w of next.get(u)!.keys()) sum += ways.get(w) ?? 0;
      if (sum > 0) ways.set(u, Math.min(sum, MAX_TOTAL_PATHS));
    }
  return ways;
}

/** The first `limit` shortest paths, ranks step by step ascending (rank order is name order). */
function firstPaths(
  origin: number,
  target: number,
  next: Map<number, Map<number, number[]>>,
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
  next: Map<number, Map<number, number[]>>,
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
