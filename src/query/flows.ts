// @module Transactions and data graphs: the start (end) points of an application, and what runs from one start point or reaches one end point.

import type { ApiObjectRef } from "../contract/api-schemas.ts";
import { ApiError } from "../contract/errors.ts";
import type { FlowPoints } from "../format/flow-points.ts";
import { END, START } from "../format/object-core.ts";
import type { Snapshot } from "../format/snapshot.ts";
import { fieldIndex } from "./field-index.ts";
import { type GraphAnswer, graphAnswer } from "./graph-answer.ts";
import { linkRows } from "./link-rows.ts";
import { WALK_BUDGET, walk } from "./link-walk.ts";
import { lookUp } from "./lookup.ts";
import { summaryBatches } from "./object-rows.ts";
import { matchRanksWithin } from "./text-match.ts";

/** A transaction runs forward from a start point; a data graph is read backward from an end point. */
export interface Flow {
  role: number;
  /** The points of the role, ascending. */
  points(flows: FlowPoints): Uint32Array;
  /** The objects the graph of point `rank` holds, as counted at compile time (null: not counted). */
  size(flows: FlowPoints, rank: number): number | null;
  direction: "forward" | "backward";
  notFound: "transaction_not_found" | "data_graph_not_found";
  what: string;
}

export const TRANSACTION: Flow = {
  role: START,
  points: (flows) => flows.starts,
  size: (flows, rank) => flows.transactionSize(rank),
  direction: "forward",
  notFound: "transaction_not_found",
  what: "a start point (a transaction)",
};
export const DATA_GRAPH: Flow = {
  role: END,
  points: (flows) => flows.ends,
  size: (flows, rank) => flows.dataGraphSize(rank),
  direction: "backward",
  notFound: "data_graph_not_found",
  what: "an end point (a data graph)",
};

/** The points of `flow`'s role whose name contains `name` (case-insensitive, as find's `name` filter), by name, [skip, skip + limit) of them, and how many match. */
export async function listFlows(
  snapshot: Snapshot,
  flow: Flow,
  query: { name: string | undefined; skip: number; limit: number },
): Promise<{ total: number; points: ApiObjectRef[] }> {
  const all = flow.points(await snapshot.section("FLOW"));
  // The points whose name matches, found as a find's name filter finds them (key pages, trigrams):
  // no name of a point is read but those the page lists.
  const matching = query.name
    ? await matchRanksWithin(
        await fieldIndex(snapshot, "KNAM", "contains"),
        "contains",
        [query.name],
        snapshot.meta.counts.objects,
        all,
      )
    : all;
  const page = matching.subarray(query.skip, query.skip + query.limit);
  const points: ApiObjectRef[] = [];
  // Ranks ascend in name order: the page comes out sorted.
  for await (const batch of summaryBatches(snapshot, page))
    for (const { id, name, fullName, type, typeId } of batch) points.push({ id, name, fullName, type, typeId });
  return { total: matching.length, points };
}

/**
 * Breadth-first from the point `id` along `flow`, not past a point of the other role; `budget`: link
 * entries examined at most (tests make it small). The graph's size was counted at compile time, so
 * the walk goes only as deep as the first `limit` nodes need; for a point left uncounted, the walk
 * goes on to count them all, within the budget.
 */
export async function flowGraph(
  snapshot: Snapshot,
  flow: Flow,
  id: string,
  limit: number,
  { budget = WALK_BUDGET, signal }: { budget?: number; signal?: AbortSignal } = {},
): Promise<GraphAnswer> {
  const [origin, flows] = await Promise.all([lookUp(snapshot, id), snapshot.section("FLOW")]);
  const rows = origin < 0 ? null : await linkRows(snapshot, [origin]);
  if (!rows || !(rows.flagsOf(origin) & flow.role))
    throw new ApiError(
      flow.notFound,
      `object ${id} of application "${snapshot.meta.application}" is not ${flow.what}`,
      { parameter: "id" },
    );
  const size = flow.size(flows, origin);
  const w = await walk(snapshot, origin, {
    direction: flow.direction,
    hops: Number.POSITIVE_INFINITY,
    types: null,
    stopAtFlowEnds: true,
    recordLinksUpTo: limit,
    budget,
    enough: size === null ? undefined : limit,
    signal,
  });
  return graphAnswer(snapshot, [w], limit, rows.linkTypes, true, size ?? undefined);
}
