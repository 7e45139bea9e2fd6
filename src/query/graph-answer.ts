// @module graphAnswer: the nodes and links of one or two walks as the call hierarchy and the transaction and data graphs answer them, cut to a limit.

import type { ApiGraphLink } from "../contract/api-schemas.ts";
import { END, START } from "../format/object-core.ts";
import type { Snapshot } from "../format/snapshot.ts";
import { linkRows } from "./link-rows.ts";
import { expand, type Walk } from "./link-walk.ts";
import { type ObjectSummary, summaryBatches } from "./object-rows.ts";
import { unionRanks } from "./rank-set.ts";

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
 * Only the levels up to the cut are ordered and described; the rest are only counted, and the
 * links are read again for the kept nodes rather than recorded for every node a walk expands.
 * `size`: the nodes of the whole walk, when known beforehand (the walk then went only as far as
 * the first `limit` nodes).
 */
export async function graphAnswer(
  snapshot: Snapshot,
  walks: readonly Walk[],
  limit: number,
  linkTypes: readonly string[],
  withRole: boolean,
  size?: number,
): Promise<GraphAnswer> {
  const { kept, depths } = firstNodes(walks, limit, snapshot.meta.counts.objects);
  const ascending = Uint32Array.from(kept).sort();
  const summaries = await summariesOf(snapshot, ascending);
  // One read of the kept nodes' links serves their roles and the links read again below.
  const rows = withRole || walks.some((w) => !w.links) ? await linkRows(snapshot, ascending) : null;
  const roles = withRole ? rows : null;
  const nodes = kept.map((rank, i): GraphNode => {
    const { id, name, fullName, type, typeId } = summaries.get(rank)!;
    const node: GraphNode = { id, name, fullName, type, typeId, depth: depths[i] };
    if (roles) {
      const flags = roles.flagsOf(rank);
      node.role = flags & START ? "start" : flags & END ? "end" : null;
    }
    return node;
  });
  const links: ApiGraphLink[] = [];
  const link = (from: number, to: number, type: number) => {
    const [a, b] = [summaries.get(from), summaries.get(to)];
    if (a && b) links.push({ from: a.id, to: b.id, linkType: linkTypes[type] });
  };
  for (const w of walks) {
    const forward = w.direction === "forward";
    if (w.links) {
      const { from, to, type } = w.links;
      for (let i = 0; i < from.length; i++) link(from[i], to[i], type[i]);
      continue;
    }
    const visit = (rank: number, neighbour: number, type: number) => {
      if (forward) link(rank, neighbour, type);
      else link(neighbour, rank, type);
    };
    await expand(snapshot, ascending.filter(w.expanded), w.direction, w.types, visit, { loaded: rows ?? undefined });
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
  const totalNodes = size ?? unionSize(walks);
  return {
    totalNodes,
    truncated: totalNodes > limit || walks.some((w) => w.truncated),
    nodes,
    links: distinct,
  };
}

/**
 * The first `limit` nodes of the union of `walks` in node order, with their depths: level by level,
 * each level the union of the walks' levels at that depth less the nodes a lower level already
 * holds (all kept: a level is read only when every lower one was kept whole).
 */
function firstNodes(walks: readonly Walk[], limit: number, objects: number): { kept: number[]; depths: number[] } {
  const kept: number[] = [];
  const depths: number[] = [];
  const shallower = new Set<number>();
  for (let d = 0; kept.length < limit; d++) {
    const parts = walks.map((w) => w.levels[d]).filter((level) => level !== undefined);
    if (parts.length === 0) break;
    const level = unionRanks(parts, objects);
    const first = kept.length;
    for (let i = 0; i < level.length && kept.length < limit; i++) {
      if (walks.length > 1 && shallower.has(level[i])) continue;
      kept.push(level[i]);
      depths.push(d);
    }
    if (walks.length > 1) for (let i = first; i < kept.length; i++) shallower.add(kept[i]);
  }
  return { kept, depths };
}

/** How many objects one walk or another reached. */
function unionSize(walks: readonly Walk[]): number {
  let size = 0;
  walks.forEach((w, i) => {
    size += w.reachedCount;
    const earlier = walks.slice(0, i);
    if (earlier.length === 0) return;
    for (const level of w.levels)
      for (let k = 0; k < level.length; k++) if (earlier.some((e) => e.reached(level[k]))) size--;
  });
  return size;
}

/**
 * The summaries of `ranks` (ascending), by rank. A graph's nodes lie far apart in the name order, up
 * to a thousand of them: their pages are read as a sweep joins them, and only they are kept.
 */
export async function summariesOf(snapshot: Snapshot, ranks: Uint32Array): Promise<Map<number, ObjectSummary>> {
  const summaries = new Map<number, ObjectSummary>();
  let k = 0;
  for await (const batch of summaryBatches(snapshot, ranks, { sweeping: "drop" }))
    for (const s of batch) summaries.set(ranks[k++], s);
  return summaries;
}
