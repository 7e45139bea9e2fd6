// @module Taxonomy routes: the nodes of a level with their children, and a level's graph.

import type {
  ApiLevel5Node,
  ApiLevelChild,
  ApiLevelGraph,
  ApiLevelNode,
  ApiLevelObject,
  ApiNodeRef,
} from "../contract/api-schemas.ts";
import { memberPageJson, memberPages } from "../format/member-pages.ts";
import type { Snapshot } from "../format/snapshot.ts";
import { StreamedList } from "./streamed-list.ts";

export type { ApiLevel5Node, ApiLevelChild, ApiLevelGraph, ApiLevelNode, ApiLevelObject, ApiNodeRef };

/** A level-5 node whose children (objects: up to most of the application) are read as they are written. */
export type StreamedLevel5Node = Omit<ApiLevel5Node, "children"> & { children: StreamedList<ApiLevelObject> };

/**
 * Nodes of `level` (2–5) whose name contains `name` (case-insensitive) and/or whose `_id` is `id`,
 * in name order. Children of level-5 nodes (their member pages) are read when the answer is written, one node after the other.
 */
export async function levelNodes(
  snapshot: Snapshot,
  level: number,
  filter: { name?: string; id?: number },
): Promise<(ApiLevelNode | StreamedLevel5Node)[]> {
  const taxonomy = await snapshot.taxonomy();
  const nodes = taxonomy.levels[level - 1];
  const wanted = filter.name?.toLowerCase();
  const matches: number[] = [];
  for (let i = 0; i < nodes.count; i++) {
    if (filter.id !== undefined && filter.id !== i) continue;
    if (wanted !== undefined && !nodes.names.get(i).toLowerCase().includes(wanted)) continue;
    matches.push(i);
  }
  const node = (i: number) => ({ _id: i, name: nodes.names.get(i), fullName: nodes.fullNames.get(i) });
  if (level < 5) {
    const below = taxonomy.levels[level];
    return matches.map((i) => ({
      ...node(i),
      level,
      children: Array.from(
        taxonomy.children(level, i),
        (c): ApiLevelChild => ({ _id: c, name: below.names.get(c), level: level + 1 }),
      ),
    }));
  }
  // Each node's children are its member pages, read by range as the answer is written (not cached).
  return matches.map((i) => ({
    ...node(i),
    level: 5 as const,
    children: new StreamedList(
      () => memberPages(snapshot, i),
      () => memberPageJson(snapshot, i),
    ),
  }));
}

/**
 * The JSON text of `level`'s graph in UTF-8, as JSON.stringify writes levelGraph's answer: made once
 * per snapshot and level, then kept in the section cache and weighed there like a section. A graph
 * never changes within a snapshot, and its text is large (at 1M objects level 5 draws 186 nodes and
 * 3,317 links: 785 KB made in 3 ms, each time, for a page the explorer opens first). Kept encoded:
 * an answer then sends it as it is, where a string is encoded again for every answer.
 */
export function levelGraphJson(snapshot: Snapshot, level: number): Promise<Uint8Array<ArrayBuffer>> {
  return snapshot
    .remember(`level ${level} graph JSON`, async () => {
      // encode() makes a buffer of its own: the runtimes' types say only ArrayBufferLike.
      const bytes = new TextEncoder().encode(
        JSON.stringify(await levelGraph(snapshot, level)),
      ) as Uint8Array<ArrayBuffer>;
      return { bytes, byteSize: bytes.byteLength };
    })
    .then(({ bytes }) => bytes);
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
