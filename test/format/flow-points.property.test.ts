// @module reachCounts against a walk of each source alone, on random graphs with and without large cycles.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { reachCounts, type WalkGraph } from "../../src/format/flow-points.ts";
import { NONE } from "../../src/format/model.ts";
import { graphOf } from "../support/csr-graph.ts";

/** The reference: a breadth-first walk of its own from `source`. */
function reachOf(graph: WalkGraph, source: number): number {
  const seen = new Set([source]);
  const queue = [source];
  for (let head = 0; head < queue.length; head++)
    for (let i = graph.offsets[queue[head]]; i < graph.offsets[queue[head] + 1]; i++)
      if (!seen.has(graph.targets[i])) seen.add(graph.targets[i]), queue.push(graph.targets[i]);
  return seen.size;
}

/**
 * Random graphs of up to 600 objects: sparse random links, and up to three planted cycles of 64 to
 * 200 objects (components large enough to be hubs) with links into and out of them.
 */
const graphs = fc
  .integer({ min: 1, max: 600 })
  .chain((n) =>
    fc.record({
      n: fc.constant(n),
      edges: fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1)), { maxLength: n * 2 }),
      cycles: fc.array(fc.tuple(fc.nat(n - 1), fc.integer({ min: 64, max: 200 }), fc.nat(1000)), { maxLength: 3 }),
      sources: fc.uniqueArray(fc.nat(n - 1), { minLength: 1, maxLength: 150 }),
    }),
  )
  .map(({ n, edges, cycles, sources }) => {
    const all = [...edges] as [number, number][];
    for (const [start, length, stride] of cycles)
      for (let k = 0; k < length; k++) all.push([(start + k * (stride + 1)) % n, (start + (k + 1) * (stride + 1)) % n]);
    return { graph: graphOf(n, all), sources: Uint32Array.from(sources.sort((a, b) => a - b)) };
  });

describe("reachCounts", () => {
  it("counts what a walk of each source alone reaches, the source included", () => {
    fc.assert(
      fc.property(graphs, ({ graph, sources }) => {
        const counts = reachCounts(graph, sources, Number.POSITIVE_INFINITY);
        expect(Array.from(counts)).toEqual(Array.from(sources, (s) => reachOf(graph, s)));
      }),
      { numRuns: 300 },
    );
  });

  it("past its spend leaves sources uncounted (NONE), and counts the others exactly", () => {
    fc.assert(
      fc.property(graphs, fc.nat(400), ({ graph, sources }, spend) => {
        const counts = reachCounts(graph, sources, spend);
        counts.forEach((count, k) => count === NONE || expect(count).toBe(reachOf(graph, sources[k])));
      }),
      { numRuns: 200 },
    );
  });

  it("a source in a large cycle reaches the cycle and what it reaches", () => {
    // 0 → 1 → … → 99 → 0, and 50 → 100 → 101; 102 calls into the cycle; 103 alone.
    const edges: [number, number][] = [];
    for (let k = 0; k < 100; k++) edges.push([k, (k + 1) % 100]);
    edges.push([50, 100], [100, 101], [102, 7]);
    const counts = reachCounts(graphOf(104, edges), Uint32Array.of(3, 100, 102, 103), Number.POSITIVE_INFINITY);
    expect(Array.from(counts)).toEqual([102, 2, 103, 1]);
  });

  it("an object two hubs reach, walked before the second hub is met, is counted once", () => {
    // Cycles A (0–63) and B (64–127); A → 200 → B (70); B (80) → 201. The source 300 calls 200 and
    // 201, both reached by A, which it never meets: it walks them, then meets B through 200, and B
    // reaches 201. Its graph: 300, 200, and B with 201: 67 objects.
    const edges: [number, number][] = [];
    for (let k = 0; k < 64; k++) edges.push([k, (k + 1) % 64], [64 + k, 64 + ((k + 1) % 64)]);
    edges.push([10, 200], [200, 70], [80, 201], [300, 200], [300, 201]);
    const graph = graphOf(301, edges);
    expect(Array.from(reachCounts(graph, Uint32Array.of(300), Number.POSITIVE_INFINITY))).toEqual([67]);
    expect(reachOf(graph, 300)).toBe(67);
  });
});
