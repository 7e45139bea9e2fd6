// @module startEndPoints: start points reaching the object and end points it reaches within `hops` links.
import type { Snapshot } from "../format/snapshot.ts";
import { rankOfId } from "./lookup.ts";
import { type ApiPoint, renderPoints } from "./render.ts";

export interface PointsResult {
  startPoints: ApiPoint[];
  endPoints: ApiPoint[];
}

/** Breadth-first over `neighbours` from `origin`, at most `hops` steps; returns every rank reached (origin included). */
function reach(origin: number, hops: number, offsets: Uint32Array, neighbours: Uint32Array): Set<number> {
  const seen = new Set([origin]);
  let frontier = [origin];
  for (let step = 0; step < hops && frontier.length > 0; step++) {
    const next: number[] = [];
    for (const r of frontier)
      for (let i = offsets[r]; i < offsets[r + 1]; i++) {
        const n = neighbours[i];
        if (!seen.has(n)) seen.add(n), next.push(n);
      }
    frontier = next;
  }
  return seen;
}

export async function startEndPoints(snapshot: Snapshot, id: string, hops: number): Promise<PointsResult> {
  const rank = await rankOfId(snapshot, id);
  const [core, callees, callers] = await Promise.all([snapshot.section("OBJC"), snapshot.section("CALE"), snapshot.section("CALR")]);
  const starts = [...reach(rank, hops, callers.offsets, callers.callers)].filter((r) => core.isStart(r)).sort((a, b) => a - b);
  const ends = [...reach(rank, hops, callees.offsets, callees.targets)].filter((r) => core.isEnd(r)).sort((a, b) => a - b);
  return { startPoints: await renderPoints(snapshot, starts), endPoints: await renderPoints(snapshot, ends) };
}
