// @module callHierarchy: the objects within some hops of one object along qualifying links, forward, backward or both, with the links between them.

import type { Snapshot } from "../format/snapshot.ts";
import { type GraphAnswer, graphAnswer } from "./graph-answer.ts";
import { linkRows } from "./link-rows.ts";
import { type Direction, WALK_BUDGET, walk } from "./link-walk.ts";
import { rankOfId } from "./lookup.ts";

export interface HierarchyQuery {
  direction: "callees" | "callers" | "both";
  hops: number;
  /** Link type names followed; empty: every type. A name no link has follows nothing. */
  linkTypes: readonly string[];
  limit: number;
}

const WALKS: Record<HierarchyQuery["direction"], Direction[]> = {
  callees: ["forward"],
  callers: ["backward"],
  both: ["forward", "backward"],
};

/**
 * `both` walks each way separately (sharing one budget of link entries: `traversalBudget`, tests
 * make it small) and answers their union. `signal`: the request's (the walks stop once its client
 * has gone).
 */
export async function callHierarchy(
  snapshot: Snapshot,
  id: string,
  query: HierarchyQuery,
  { traversalBudget = WALK_BUDGET, signal }: { traversalBudget?: number; signal?: AbortSignal } = {},
): Promise<GraphAnswer> {
  const origin = await rankOfId(snapshot, id);
  const names = (await linkRows(snapshot, [origin])).linkTypes;
  const types = query.linkTypes.length
    ? new Set(query.linkTypes.map((t) => names.indexOf(t)).filter((i) => i >= 0))
    : null;
  let budget = traversalBudget;
  const walks = [];
  for (const direction of WALKS[query.direction]) {
    if (budget < 0) break;
    const w = await walk(snapshot, origin, {
      direction,
      hops: query.hops,
      types,
      stopAtFlowEnds: false,
      budget,
      recordLinksUpTo: query.limit,
      signal,
    });
    budget -= w.examined;
    walks.push(w);
  }
  return graphAnswer(snapshot, walks, query.limit, names, false);
}
