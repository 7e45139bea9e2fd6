// @module Property test of summarizeGraph (src/mcp/graph-summary.ts): on random level graphs, the biggest nodes are kept, ties by graph order, with exactly the links among them and a true account of the rest.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ApiLevelGraph } from "../../src/contract/api-schemas.ts";
import { summarizeGraph } from "../../src/mcp/graph-summary.ts";

/** A graph of up to 40 nodes (small object counts, so ties are common) and links between distinct nodes. */
const graphs = fc
  .array(fc.nat(6), { maxLength: 40 })
  .chain((counts) =>
    fc.record({
      counts: fc.constant(counts),
      pairs:
        counts.length < 2
          ? fc.constant([] as [number, number][])
          : fc.uniqueArray(
              fc.tuple(fc.nat(counts.length - 1), fc.nat(counts.length - 1)).filter(([a, b]) => a !== b),
              { maxLength: 80, selector: ([a, b]) => `${a}-${b}` },
            ),
    }),
  )
  .map(({ counts, pairs }): ApiLevelGraph => {
    const nodes = counts.map((nbObjects, i) => ({
      _id: 100 + i,
      name: `n${String(i).padStart(2, "0")}`,
      fullName: `L##n${i}`,
      nbObjects,
    }));
    const ref = (i: number) => ({ _id: nodes[i]._id, name: nodes[i].name, fullName: nodes[i].fullName });
    return { nodes, links: pairs.map(([a, b]) => ({ origin: ref(a), target: ref(b) })) };
  });

describe("summarizeGraph", () => {
  it("returns a graph within the bound as it is", () => {
    fc.assert(
      fc.property(graphs, fc.integer({ min: 1, max: 60 }), (graph, max) => {
        fc.pre(graph.nodes.length <= max);
        expect(summarizeGraph(graph, max)).toBe(graph);
      }),
    );
  });

  it("keeps the max biggest nodes, earlier first among equals, the links among them, and counts what it leaves out", () => {
    fc.assert(
      fc.property(graphs, fc.integer({ min: 1, max: 40 }), (graph, max) => {
        fc.pre(graph.nodes.length > max);
        const summary = summarizeGraph(graph, max);
        const kept = new Set(summary.nodes.map((n) => n._id));
        expect(summary.nodes).toHaveLength(max);
        // Kept nodes in the graph's order, untouched.
        expect(summary.nodes).toEqual(graph.nodes.filter((n) => kept.has(n._id)));
        // No left-out node is bigger than a kept one, nor as big and earlier.
        graph.nodes.forEach((out, i) => {
          if (kept.has(out._id)) return;
          graph.nodes.forEach((k, j) => {
            if (kept.has(k._id))
              expect(out.nbObjects < k.nbObjects || (out.nbObjects === k.nbObjects && i > j)).toBe(true);
          });
        });
        expect(summary.links).toEqual(graph.links.filter((l) => kept.has(l.origin._id) && kept.has(l.target._id)));
        const objects = (nodes: typeof graph.nodes) => nodes.reduce((s, n) => s + n.nbObjects, 0);
        expect(summary.omitted).toMatchObject({
          nodes: graph.nodes.length - max,
          links: graph.links.length - summary.links.length,
          nbObjects: objects(graph.nodes) - objects(summary.nodes),
        });
      }),
    );
  });
});
