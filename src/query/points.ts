// @module startEndPoints: start points reaching the object and end points it reaches within `hops` links.
import { ApiError } from "../api-error.ts";
import type { Snapshot } from "../format/snapshot.ts";
import type { ApiPointsResult } from "./api-schemas.ts";
import { rankOfId } from "./lookup.ts";
import { renderPoints } from "./render.ts";

export type PointsResult = ApiPointsResult;

/**
 * Links one request may follow, both directions together: enough to walk a whole 1M-object,
 * 5M-link application, and a bound on the CPU any single request can take on a larger one.
 */
export const TRAVERSAL_BUDGET = 12_000_000;

/** Breadth-first over `neighbours` from `origin`, at most `hops` steps; returns every rank reached (origin included). */
function reach(origin: number, hops: number, offsets: Uint32Array, neighbours: Uint32Array, budget: { links: number; limit: number }): Set<number> {
  const seen = new Set([origin]);
  let frontier = [origin];
  for (let step = 0; step < hops && frontier.length > 0; step++) {
    const next: number[] = [];
    for (const r of frontier) {
      budget.links -= offsets[r + 1] - offsets[r];
      if (budget.links < 0)
        throw new ApiError("invalid_parameter", `hops=${hops} from this object would follow more than ${budget.limit} links; ask for fewer hops`, { parameter: "hops" });
      for (let i = offsets[r]; i < offsets[r + 1]; i++) {
        const n = neighbours[i];
        if (!seen.has(n)) seen.add(n), next.push(n);
      }
    }
    frontier = next;
  }
  return seen;
}

export async function startEndPoints(snapshot: Snapshot, id: string, hops: number, traversalBudget = TRAVERSAL_BUDGET): Promise<PointsResult> {
  const rank = await rankOfId(snapshot, id);
  const [core, callees, callers] = await Promise.all([snapshot.section("OBJC"), snapshot.section("CALE"), snapshot.section("CALR")]);
  const budget = { links: traversalBudget, limit: traversalBudget };
  const starts = [...reach(rank, hops, callers.offsets, callers.callers, budget)].filter((r) => core.isStart(r)).sort((a, b) => a - b);
  const ends = [...reach(rank, hops, callees.offsets, callees.targets, budget)].filter((r) => core.isEnd(r)).sort((a, b) => a - b);
  return { startPoints: await renderPoints(snapshot, starts), endPoints: await renderPoints(snapshot, ends) };
}
