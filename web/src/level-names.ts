// @module Names read from the taxonomy: the distinct names of a level (level 4 names technologies, level 5 object types, as analyzers write them) and a node's name with the context that tells it apart.
import type { ApiLevelGraph } from "../../src/contract/api-schemas.ts";

type LevelNode = ApiLevelGraph["nodes"][number];

export interface NamedCount {
  name: string;
  nbObjects: number;
}

/** The distinct node names of a level with the objects under all nodes of that name, sorted by name (case-insensitive). */
export function distinctNames(graph: ApiLevelGraph): NamedCount[] {
  const counts = new Map<string, number>();
  for (const n of graph.nodes) counts.set(n.name, (counts.get(n.name) ?? 0) + n.nbObjects);
  return [...counts]
    .map(([name, nbObjects]) => ({ name, nbObjects }))
    .sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || (a.name < b.name ? -1 : 1));
}

/** `fullName`'s parts, from level 1 to the node (a fullName is its parent's, `##`, then the name). */
export const pathOfNames = (fullName: string): string[] => fullName.split("##");

/**
 * The node's name, preceded by the nearest ancestor that says something the name does not: level 5
 * of `Services##Logic##Domain Model##Java##Java Method` is `Domain Model › Java Method` (`Java` is
 * in the name already). A name that is unique in its level needs no context and is returned alone.
 */
export function contextName(node: LevelNode, sameName: number): string {
  if (sameName <= 1) return node.name || "(empty name)";
  const ancestors = pathOfNames(node.fullName).slice(0, -1).reverse();
  const name = node.name.toLowerCase();
  const context = ancestors.find((a) => a !== "" && !name.includes(a.toLowerCase()));
  return context === undefined ? node.name : `${context} › ${node.name}`;
}

/** How many nodes of the level bear each name. */
export function nameCounts(nodes: readonly LevelNode[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const n of nodes) counts.set(n.name, (counts.get(n.name) ?? 0) + 1);
  return counts;
}
