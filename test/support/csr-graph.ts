// @module graphOf: a CSR graph over ranks from a list of links, as the walks and their indexes take it.
import type { WalkGraph } from "../../src/format/flow-points.ts";

/** A CSR graph of `n` objects from a list of edges, each object's targets in the edges' order. */
export function graphOf(n: number, edges: readonly (readonly [number, number])[]): WalkGraph {
  const offsets = new Uint32Array(n + 1);
  for (const [from] of edges) offsets[from + 1]++;
  for (let v = 0; v < n; v++) offsets[v + 1] += offsets[v];
  const next = offsets.slice(0, n);
  const targets = new Uint32Array(edges.length);
  for (const [from, to] of edges) targets[next[from]++] = to;
  return { offsets, targets };
}
