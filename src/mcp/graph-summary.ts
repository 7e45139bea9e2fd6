// @module A level graph cut down for an agent: the biggest nodes by object count and the links among them, with what was left out.
import type { ApiLevelGraph } from "../contract/api-schemas.ts";

export interface GraphSummary extends ApiLevelGraph {
  /** Present only when nodes were left out. */
  omitted?: { nodes: number; links: number; nbObjects: number; note: string };
}

/**
 * Keeps the `maxNodes` nodes with the most objects (ties: the earlier in the graph's name order) and
 * the links between kept nodes, both in the graph's own order. A graph within the bound is returned as is.
 */
export function summarizeGraph(graph: ApiLevelGraph, maxNodes: number): GraphSummary {
  if (graph.nodes.length <= maxNodes) return graph;
  const biggest = graph.nodes
    .map((node, index) => ({ node, index }))
    .sort((a, b) => b.node.nbObjects - a.node.nbObjects || a.index - b.index)
    .slice(0, maxNodes);
  const keptIds = new Set(biggest.map((b) => b.node._id));
  const nodes = graph.nodes.filter((n) => keptIds.has(n._id));
  const links = graph.links.filter((l) => keptIds.has(l.origin._id) && keptIds.has(l.target._id));
  const omittedNodes = graph.nodes.length - nodes.length;
  const omittedLinks = graph.links.length - links.length;
  const omittedObjects = graph.nodes.reduce((sum, n) => sum + (keptIds.has(n._id) ? 0 : n.nbObjects), 0);
  return {
    nodes,
    links,
    omitted: {
      nodes: omittedNodes,
      links: omittedLinks,
      nbObjects: omittedObjects,
      note: `Shown: the ${nodes.length} of ${graph.nodes.length} nodes with the most objects and the ${links.length} links among them. Left out: ${omittedNodes} smaller nodes (${omittedObjects} objects in all) and the ${omittedLinks} links touching them. Call again with full: true for the whole graph, or raise maxNodes.`,
    },
  };
}
