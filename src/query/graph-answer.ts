// @module graphAnswer: the nodes and links of one or two walks as the call hierarchy and the transaction and data graphs answer them, cut to a limit.

import type { ApiGraphLink } from "../contract/api-schemas.ts";
import { END, START } from "../format/object-core.ts";
import type { Snapshot } from "../format/snapshot.ts";
import { linkRows } from "./link-rows.ts";
import type { Walk } from "./link-walk.ts";
import { type ObjectSummary, summaryBatches } from "./object-rows.ts";

export interface GraphNode extends ObjectSummary {
  depth: number;
  role?: "start" | "end" | null;
}

export interface GraphAnswer {
  totalNodes: number;
  truncated: boolean;
  nodes: GraphNode[];
  links: ApiGraphLink[];
}

/** Numeric order of two object ids written in decimal without leading zeros. */
export const byNumericId = (a: string, b: string): number => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

/**
 * The union of `walks`: each node at its smallest depth, sorted by depth then name (rank order is
 * name order), the first `limit` kept; the links between kept nodes, each (from, to, type) once,
 * sorted by from and to (numeric id order), then link type. `withRole` adds each node's role.
 */
export async function graphAnswer(
  snapshot: Snapshot,
  walks: readonly Walk[],
  limit: number,
  linkTypes: readonly string[],
  withRole: boolean,
): Promise<GraphAnswer> {
  const depth = new Map<number, number>();
  for (const w of walks)
    for (const [rank, d] of w.depth) {
      const known = depth.get(rank);
      if (known === undefined || d < known) depth.set(rank, d);
    }
  // Sorted as one number each, depth·2^32 + rank: a comparator looking both depths up in the map
  // took longer than the rest of the answer over a transaction's ~17k nodes.
  // Exact below 2^53: a walk within its budget of link entries is far less than 2^21 deep.
  const keys = new Float64Array(depth.size);
  let k = 0;
  for (const [rank, d] of depth) keys[k++] = d * 2 ** 32 + rank;
  const order = Array.from(keys.sort(), (key) => key % 2 ** 32);
  const kept = order.slice(0, limit);
  const ascending = Uint32Array.from(kept).sort();
  const summaries = await summariesOf(snapshot, ascending);
  const roles = withRole ? await linkRows(snapshot, ascending) : null;
  const nodes = kept.map((rank): GraphNode => {
    const { id, name, fullName, type, typeId } = summaries.get(rank)!;
    const node: GraphNode = { id, name, fullName, type, typeId, depth: depth.get(rank)! };
    if (roles) {
      const flags = roles.flagsOf(rank);
      node.role = flags & START ? "start" : flags & END ? "end" : null;
    }
    return node;
  });
  const links: ApiGraphLink[] = [];
  for (const w of walks)
    for (let i = 0; i < w.from.length; i++) {
      const from = summaries.get(w.from[i]);
      const to = summaries.get(w.to[i]);
      if (from && to) links.push({ from: from.id, to: to.id, linkType: linkTypes[w.type[i]] });
    }
  links.sort(
    (a, b) =>
      byNumericId(a.from, b.from) ||
      byNumericId(a.to, b.to) ||
      (a.linkType < b.linkType ? -1 : a.linkType > b.linkType ? 1 : 0),
  );
  const distinct = links.filter(
    (l, i) =>
      i === 0 || l.from !== links[i - 1].from || l.to !== links[i - 1].to || l.linkType !== links[i - 1].linkType,
  );
  return {
    totalNodes: order.length,
    truncated: order.length > limit || walks.some((w) => w.truncated),
    nodes,
    links: distinct,
  };
}

/** The summaries of `ranks` (ascending), by rank. */
export async function summariesOf(snapshot: Snapshot, ranks: Uint32Array): Promise<Map<number, ObjectSummary>> {
  const summaries = new Map<number, ObjectSummary>();
  let k = 0;
  for await (const batch of summaryBatches(snapshot, ranks.length)(ranks))
    for (const s of batch) summaries.set(ranks[k++], s);
  return summaries;
}
