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
 * Links a walk records for the answer while it has reached at most this many objects, whatever the
 * limit: past the limit, the links of the kept nodes would otherwise be read again after the walk, a
 * round of as many pages as nodes kept. Three numbers a link, held for the request: at five links an
 * object, some 2.4 MB for a walk of 20,000 objects.
 */
const RECORD_LINKS_UP_TO = 20_000;

/**
 * `both` walks each way (sharing one budget of link entries: `traversalBudget`, tests make it
 * small) and answers their union. The two walks go out together, so that their rounds of reads
 * overlap; the answer is the one of walking forward, then backward on what the forward walk left of
 * the budget: when the backward walk examined more than that, it is walked again within it.
 * `signal`: the request's (the walks stop once its client has gone).
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
  const walkWithin = (direction: Direction, budget: number) =>
    walk(snapshot, origin, {
      direction,
      hops: query.hops,
      types,
      stopAtFlowEnds: false,
      budget,
      recordLinksUpTo: Math.max(query.limit, RECORD_LINKS_UP_TO),
      signal,
    });
  const walks = await Promise.all(WALKS[query.direction].map((direction) => walkWithin(direction, traversalBudget)));
  if (walks.length === 2) {
    const [forward, backward] = walks;
    const left = traversalBudget - forward.examined;
    if (left < 0) walks.pop();
    else if (backward.examined > left) walks[1] = await walkWithin("backward", left);
  }
  return graphAnswer(snapshot, walks, query.limit, names, false);
}
