// @module Taxonomy routes: the nodes of a level with their children, and a level's graph.
import type { Snapshot } from "../format/snapshot.ts";

export interface ApiLevelChild {
  _id: number;
  name: string;
  level: number;
}
export interface ApiLevelObject {
  id: string;
  name: string;
  fullName: string;
  type: string;
  typeId: string;
}
export interface ApiLevelNode {
  _id: number;
  name: string;
  fullName: string;
  level: number;
  children: ApiLevelChild[] | ApiLevelObject[];
}
export interface ApiNodeRef {
  _id: number;
  name: string;
  fullName: string;
}
export interface ApiLevelGraph {
  nodes: (ApiNodeRef & { nbObjects: number })[];
  links: { origin: ApiNodeRef; target: ApiNodeRef }[];
}

/** Nodes of `level` (2–5) whose name contains `name` (case-insensitive) and/or whose `_id` is `id`, in name order. */
export async function levelNodes(snapshot: Snapshot, level: number, filter: { name?: string; id?: number }): Promise<ApiLevelNode[]> {
  const taxonomy = await snapshot.taxonomy();
  const nodes = taxonomy.levels[level - 1];
  const wanted = filter.name?.toLowerCase();
  const out: ApiLevelNode[] = [];
  for (let i = 0; i < nodes.count; i++) {
    if (filter.id !== undefined && filter.id !== i) continue;
    if (wanted !== undefined && !nodes.names.get(i).toLowerCase().includes(wanted)) continue;
    out.push({ _id: i, name: nodes.names.get(i), fullName: nodes.fullNames.get(i), level, children: [] });
  }
  if (level < 5) {
    const below = taxonomy.levels[level];
    for (const node of out) node.children = Array.from(taxonomy.children(level, node._id), (c) => ({ _id: c, name: below.names.get(c), level: level + 1 }));
  } else if (out.length > 0) {
    const [core, name, full, type, typeId] = await Promise.all([snapshot.section("OBJC"), snapshot.section("NAME"), snapshot.section("FULL"), snapshot.section("TYPE"), snapshot.section("TYID")]);
    for (const node of out)
      node.children = Array.from(taxonomy.members(node._id), (r) => ({ id: core.id(r), name: name.get(r), fullName: full.get(r), type: type.get(r) ?? "", typeId: typeId.get(r) ?? "" }));
  }
  return out;
}

export async function levelGraph(snapshot: Snapshot, level: number): Promise<ApiLevelGraph> {
  const [taxonomy, graphs] = await Promise.all([snapshot.taxonomy(), snapshot.section("LGRA")]);
  const nodes = taxonomy.levels[level - 1];
  const ref = (i: number): ApiNodeRef => ({ _id: i, name: nodes.names.get(i), fullName: nodes.fullNames.get(i) });
  const origins = graphs.origins[level - 1];
  const targets = graphs.targets[level - 1];
  return {
    nodes: Array.from({ length: nodes.count }, (_, i) => ({ ...ref(i), nbObjects: nodes.nbObjects[i] })),
    links: Array.from(origins, (o, k) => ({ origin: ref(o), target: ref(targets[k]) })),
  };
}
