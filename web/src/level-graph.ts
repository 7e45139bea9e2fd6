// @module What of a level graph is drawn: the nodes in scope (a drilled node's children), filtered by name, the top N by nbObjects, the links among them, and the largest neighbours outside the scope; the rest is counted, never silently dropped.
import type { ApiLevelGraph } from "../../src/contract/api-schemas.ts";

export type GraphNode = ApiLevelGraph["nodes"][number];

export interface DrawnNode extends GraphNode {
  /** Links of the whole level from / to this node (drawn or not). */
  linksOut: number;
  linksIn: number;
}

export interface DrawnGraph {
  /** Drawn nodes, most objects first (then by name). */
  nodes: DrawnNode[];
  /** Links whose two ends are drawn, by `_id` (at most `maxLinks`: those between the largest nodes). */
  links: { origin: number; target: number }[];
  /** Links whose two ends are drawn, before `maxLinks`. */
  linksAmongDrawn: number;
  /** Nodes in scope and matching the filter. */
  matchingNodes: number;
  /** Links among the nodes in scope (drawn or not). */
  linksInScope: number;
  /** Nodes outside the scope linked to a drawn node (at most `maxOutside`, the largest), to be drawn apart. */
  outside: DrawnNode[];
  /** Links between a drawn node and an `outside` one, either way. */
  outsideLinks: { origin: number; target: number }[];
  /** Nodes outside the scope linked to a drawn node, before `maxOutside`. */
  outsideNeighbours: number;
}

export interface DrawOptions {
  /** `_id`s of the nodes in scope; null: the whole level. */
  scope: ReadonlySet<number> | null;
  /** Case-insensitive substring of the node name; "" keeps every node. */
  nameFilter: string;
  /** At most this many nodes are drawn (the largest by nbObjects). */
  topN: number;
  /** At most this many links are drawn: those whose smaller end is largest (default: no bound). */
  maxLinks?: number;
  /** At most this many neighbours outside the scope are drawn, the largest (default: none). */
  maxOutside?: number;
}

export function drawableGraph(graph: ApiLevelGraph, options: DrawOptions): DrawnGraph {
  const needle = options.nameFilter.toLowerCase();
  const inScope = (id: number) => options.scope === null || options.scope.has(id);
  const linksOut = new Map<number, number>();
  const linksIn = new Map<number, number>();
  let linksInScope = 0;
  for (const { origin, target } of graph.links) {
    linksOut.set(origin._id, (linksOut.get(origin._id) ?? 0) + 1);
    linksIn.set(target._id, (linksIn.get(target._id) ?? 0) + 1);
    if (inScope(origin._id) && inScope(target._id)) linksInScope++;
  }
  const matching = graph.nodes.filter((n) => inScope(n._id) && n.name.toLowerCase().includes(needle));
  const byObjects = [...matching].sort(byObjectsThenName);
  const nodes = byObjects
    .slice(0, Math.max(0, options.topN))
    .map((n) => ({ ...n, linksOut: linksOut.get(n._id) ?? 0, linksIn: linksIn.get(n._id) ?? 0 }));
  const rank = new Map(nodes.map((n, i) => [n._id, i]));
  const among = graph.links
    .filter((l) => rank.has(l.origin._id) && rank.has(l.target._id))
    .map((l) => ({ origin: l.origin._id, target: l.target._id }));
  const maxLinks = options.maxLinks ?? Infinity;
  // Beyond the bound, a link counts by its smaller end (its larger rank): the links among the largest nodes stay.
  const weakerEnd = (l: { origin: number; target: number }) => Math.max(rank.get(l.origin)!, rank.get(l.target)!);
  const links =
    among.length <= maxLinks
      ? among
      : among
          .map((l, i) => ({ l, i, w: weakerEnd(l) }))
          .sort((a, b) => a.w - b.w || a.i - b.i)
          .slice(0, maxLinks)
          .sort((a, b) => a.i - b.i)
          .map((x) => x.l);
  const neighbours = new Set<number>();
  for (const { origin, target } of graph.links) {
    if (rank.has(origin._id) && !inScope(target._id)) neighbours.add(target._id);
    if (rank.has(target._id) && !inScope(origin._id)) neighbours.add(origin._id);
  }
  const outside = graph.nodes
    .filter((n) => neighbours.has(n._id))
    .sort(byObjectsThenName)
    .slice(0, Math.max(0, options.maxOutside ?? 0))
    .map((n) => ({ ...n, linksOut: linksOut.get(n._id) ?? 0, linksIn: linksIn.get(n._id) ?? 0 }));
  const outsideIds = new Set(outside.map((n) => n._id));
  const outsideLinks = graph.links
    .filter(
      (l) =>
        (rank.has(l.origin._id) && outsideIds.has(l.target._id)) ||
        (outsideIds.has(l.origin._id) && rank.has(l.target._id)),
    )
    .map((l) => ({ origin: l.origin._id, target: l.target._id }));
  return {
    nodes,
    links,
    linksAmongDrawn: among.length,
    matchingNodes: matching.length,
    linksInScope,
    outside,
    outsideLinks,
    outsideNeighbours: neighbours.size,
  };
}

function byObjectsThenName(a: GraphNode, b: GraphNode): number {
  return b.nbObjects - a.nbObjects || (a.name < b.name ? -1 : a.name > b.name ? 1 : a._id - b._id);
}

/**
 * The level-2 nodes under a level-1 node. The API has no nodes route for level 1, so this follows
 * the default taxonomy's naming (a child's fullName is its parent's fullName + "##" + its name);
 * null when no node is named that way (a taxonomy with other fullNames): the caller shows the whole level.
 */
export function level2ChildrenByName(level2: ApiLevelGraph, parentFullName: string): Set<number> | null {
  const ids = level2.nodes.filter((n) => n.fullName === `${parentFullName}##${n.name}`).map((n) => n._id);
  return ids.length ? new Set(ids) : null;
}
