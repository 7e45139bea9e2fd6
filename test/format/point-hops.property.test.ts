// @module HOPS: the fewest links to and from the points, worked out by hand on small graphs and against a search from every object alone (property), and what a walk may skip by it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Blocks, encodeBlocks } from "../../src/format/blocks.ts";
import { END, START } from "../../src/format/object-core.ts";
import { PointHops, pointHops, reversedGraph } from "../../src/format/point-hops.ts";
import { graphOf } from "../support/csr-graph.ts";

function hopsOf(flags: number[], n: number, links: readonly (readonly [number, number])[]) {
  const callees = graphOf(n, links);
  const bytes = pointHops(Uint8Array.from(flags), callees, reversedGraph(callees));
  return { bytes, down: [...bytes].map((b) => b & 15), up: [...bytes].map((b) => b >> 4) };
}

/** The reference: from each object alone, breadth-first along `next`, the fewest links (one or more) to an object of `flag`. */
function fewestLinks(flags: number[], next: (r: number) => number[], flag: number, from: number): number {
  let frontier = next(from);
  const seen = new Set<number>();
  for (let links = 1; frontier.length > 0; links++) {
    if (frontier.some((r) => flags[r] & flag)) return links;
    const after: number[] = [];
    for (const r of frontier) if (!seen.has(r)) seen.add(r), after.push(...next(r));
    frontier = after;
  }
  return Infinity;
}

describe("HOPS", () => {
  it("gives each object its fewest links to an end point and from a start point, less one", () => {
    // 0 (start) → 1 → 2 (end) → 3 → 4 (end); 5 → 5 (a loop, no point); 6 alone; 3 → 1.
    const flags = [START, 0, END, 0, END, 0, 0];
    const { down, up } = hopsOf(flags, 7, [
      [0, 1],
      [1, 2],
      [2, 3],
      [3, 4],
      [5, 5],
      [3, 1],
    ]);
    // Down: 0 is two links from 2; 1 one; 2, an end point itself, is two from 4 (through 3); 3 one from 4.
    expect(down).toEqual([1, 0, 1, 0, 15, 15, 15]);
    // Up: 1 is one link from 0; 2 two; 3 three; 4 four; and 1 again through 3 does not make it nearer.
    expect(up).toEqual([15, 0, 1, 2, 3, 15, 15]);
  });

  it("tells 15 links apart and gives 15 to 16 links and more", () => {
    // A chain 0 → 1 → … → 20, the last an end point.
    const n = 21;
    const flags = Array.from({ length: n }, (_, r) => (r === n - 1 ? END : 0));
    const { down } = hopsOf(
      flags,
      n,
      Array.from({ length: n - 1 }, (_, r) => [r, r + 1] as const),
    );
    // Rank r is 20 − r links from the end: nibble 19 − r, at most 15.
    expect(down).toEqual(Array.from({ length: n }, (_, r) => (r === n - 1 ? 15 : Math.min(19 - r, 15))));
    const hops = new PointHops(new Blocks(encodeBlocks([Uint8Array.from(down)]), "HOPS"), n);
    // 15 links exactly (rank 5): a walk with 15 left expands it, with 14 does not.
    expect([hops.leadsOn(5, "down", 15), hops.leadsOn(5, "down", 14)]).toEqual([true, false]);
    // 16 links and more (rank 4, 0): only a walk with 16 left or more expands them.
    expect([hops.leadsOn(4, "down", 15), hops.leadsOn(4, "down", 16), hops.leadsOn(0, "down", 16)]).toEqual([
      false,
      true,
      true,
    ]);
  });

  it("equals a search from every object alone (property)", () => {
    const graphs = fc
      .integer({ min: 1, max: 40 })
      .chain((n) =>
        fc.tuple(
          fc.constant(n),
          fc.array(fc.constantFrom(0, 0, 0, START, END, START | END), { minLength: n, maxLength: n }),
          fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1)), { maxLength: 3 * n }),
        ),
      );
    fc.assert(
      fc.property(graphs, ([n, flags, links]) => {
        const { down, up } = hopsOf(flags, n, links);
        const callees = (r: number) => links.filter(([from]) => from === r).map(([, to]) => to);
        const callers = (r: number) => links.filter(([, to]) => to === r).map(([from]) => from);
        const nibble = (links: number) => Math.min(links, 16) - 1;
        for (let r = 0; r < n; r++) {
          expect(down[r]).toBe(nibble(fewestLinks(flags, callees, END, r)));
          expect(up[r]).toBe(nibble(fewestLinks(flags, callers, START, r)));
        }
      }),
      { numRuns: 400 },
    );
  });

  it("refuses a block that is not one byte an object", () => {
    expect(() => new PointHops(new Blocks(encodeBlocks([new Uint8Array(3)]), "HOPS"), 4)).toThrow(
      "HOPS: 3 bytes for 4 objects",
    );
  });
});
