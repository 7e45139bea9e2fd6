// @module HOPS: the fewest links to and from the points and the points one link away, worked out by hand on small graphs and against a search from every object alone (property), what a walk may skip by it, and lists a reader refuses.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Block, Blocks, encodeBlocks } from "../../src/format/blocks.ts";
import { CorruptSnapshotError } from "../../src/format/errors.ts";
import { END, START } from "../../src/format/object-core.ts";
import { encodePointHops, PointHops, pointHops, reversedGraph } from "../../src/format/point-hops.ts";
import { graphOf } from "../support/csr-graph.ts";

function hopsOf(flags: number[], n: number, links: readonly (readonly [number, number])[]) {
  const callees = graphOf(n, links);
  const bytes = pointHops(Uint8Array.from(flags), callees, reversedGraph(callees));
  return { bytes, down: [...bytes].map((b) => b & 15), up: [...bytes].map((b) => b >> 4) };
}

/** HOPS as written for `flags` and `links`, its blocks and decoded; and FLOW's lists of start and end points. */
function sectionOf(flags: number[], n: number, links: readonly (readonly [number, number])[]) {
  const callees = graphOf(n, links);
  const blocks = encodePointHops(Uint8Array.from(flags), callees, reversedGraph(callees));
  const ranksWith = (flag: number) => Uint32Array.from(flags.flatMap((f, r) => (f & flag ? [r] : [])));
  return {
    blocks,
    hops: new PointHops(new Blocks(encodeBlocks(blocks), "HOPS"), n),
    starts: ranksWith(START),
    ends: ranksWith(END),
  };
}

/** The points one link `direction` of `rank` as `hops` lists them. */
function adjacent(hops: PointHops, rank: number, direction: "down" | "up", points: Uint32Array): number[] {
  const out: number[] = [];
  const count = hops.forEachAdjacentPoint(rank, direction, points, (p) => out.push(p));
  expect(count).toBe(out.length);
  return out;
}

/** Graphs of 1 to `most` objects, each with flags drawn from `flags`, and up to three links an object. */
const graphs = (most: number, flags: readonly number[]) =>
  fc
    .integer({ min: 1, max: most })
    .chain((n) =>
      fc.tuple(
        fc.constant(n),
        fc.array(fc.constantFrom(...flags), { minLength: n, maxLength: n }),
        fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1)), { maxLength: 3 * n }),
      ),
    );

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
    const { hops } = sectionOf(
      flags,
      n,
      Array.from({ length: n - 1 }, (_, r) => [r, r + 1] as const),
    );
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
    fc.assert(
      fc.property(graphs(40, [0, 0, 0, START, END, START | END]), ([n, flags, links]) => {
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

  it("lists the points one link away, as distinct indexes in FLOW's lists, by hand", () => {
    // 0 (start) → 1 → 2 (end) → 3 → 4 (end); 3 → 1; 6 → 2 twice (two link types) and → 4; 5 alone.
    const flags = [START, 0, END, 0, END, 0, 0];
    const { blocks, hops, starts, ends } = sectionOf(flags, 7, [
      [0, 1],
      [1, 2],
      [2, 3],
      [3, 4],
      [3, 1],
      [6, 2],
      [6, 4],
      [6, 2],
    ]);
    expect([starts, ends]).toEqual([Uint32Array.of(0), Uint32Array.of(2, 4)]);
    // Down: 1 calls end point 2 (index 0); 3 calls 4 (index 1); 6 calls both: count 2, 0, then 1 − 0 − 1.
    expect(blocks[2]).toEqual(Uint8Array.of(1, 0, 1, 1, 2, 0, 0));
    expect(blocks[1]).toEqual(Uint32Array.of(0, 7));
    // Up: 1 is called by start point 0 (index 0); no other object is.
    expect(blocks[4]).toEqual(Uint8Array.of(1, 0));
    expect(blocks[3]).toEqual(Uint32Array.of(0, 2));
    expect([1, 3, 6, 0, 2, 5].map((r) => adjacent(hops, r, "down", ends))).toEqual([[2], [4], [2, 4], [], [], []]);
    expect([1, 0, 3].map((r) => adjacent(hops, r, "up", starts))).toEqual([[0], [], []]);
  });

  it("lists, for every object one link from a point, exactly its distinct neighbours of that role (property)", () => {
    // Up to 200 objects: several groups of 64 ranks, some without a list.
    fc.assert(
      fc.property(graphs(200, [0, 0, 0, 0, START, END]), ([n, flags, links]) => {
        const { hops, starts, ends } = sectionOf(flags, n, links);
        const distinct = (ranks: number[]) => [...new Set(ranks)].sort((a, b) => a - b);
        for (let r = 0; r < n; r++) {
          const down = distinct(links.filter(([from, to]) => from === r && flags[to] & END).map(([, to]) => to));
          const up = distinct(links.filter(([from, to]) => to === r && flags[from] & START).map(([from]) => from));
          expect(adjacent(hops, r, "down", ends)).toEqual(down);
          expect(adjacent(hops, r, "up", starts)).toEqual(up);
          expect(hops.leadsOn(r, "down", 1)).toBe(down.length > 0);
          expect(hops.leadsOn(r, "up", 1)).toBe(up.length > 0);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("refuses a block that is not one byte an object", () => {
    expect(() => new PointHops(new Blocks(encodeBlocks([new Uint8Array(3)]), "HOPS"), 4)).toThrow(
      "HOPS: 3 bytes for 4 objects",
    );
  });

  describe("refuses lists that do not hold together", () => {
    // 0 → 1 (end): rank 0 lists end point index 0; 70 objects, two groups.
    const n = 70;
    const good = sectionOf(
      Array.from({ length: n }, (_, r) => (r === 1 ? END : 0)),
      n,
      [[0, 1]],
    );
    const damaged = (change: (blocks: Block[]) => void) => {
      const blocks = good.blocks.map((b) => b.slice());
      change(blocks);
      return () => new PointHops(new Blocks(encodeBlocks(blocks), "HOPS"), n);
    };
    const readDown = (hops: PointHops, points = good.ends) => hops.forEachAdjacentPoint(0, "down", points, () => {});

    it("offsets that do not span the lists, or are not one a group of 64 and one more", () => {
      expect(damaged((b) => (b[1] = Uint32Array.of(0, 2)))).toThrow(
        new CorruptSnapshotError("HOPS end points one link down: 2 offsets for 2 rows"),
      );
      expect(damaged((b) => (b[3] = Uint32Array.of(0, 0, 1)))).toThrow(
        new CorruptSnapshotError("HOPS start points one link up: offsets do not span the 0 entries"),
      );
    });

    it("any lists at all: each lookup answers or throws CorruptSnapshotError (property)", () => {
      fc.assert(
        fc.property(
          // Nibbles mostly 0 (a list to read), and lists of any bytes, cut anywhere between the two groups.
          fc.array(fc.constantFrom(0x00, 0x00, 0x0f, 0xf0, 0x11), { minLength: n, maxLength: n }),
          fc.uint8Array({ maxLength: 40 }),
          fc.uint8Array({ maxLength: 40 }),
          fc.nat({ max: 40 }),
          fc.nat({ max: 40 }),
          (nibbles, down, up, downCut, upCut) => {
            const hops = damaged((b) => {
              b[0] = Uint8Array.from(nibbles);
              b[2] = down;
              b[4] = up;
              b[1] = Uint32Array.of(0, Math.min(downCut, down.length), down.length);
              b[3] = Uint32Array.of(0, Math.min(upCut, up.length), up.length);
            })();
            for (let r = 0; r < n; r++)
              for (const [direction, points] of [
                ["down", good.ends],
                ["up", good.starts],
              ] as const)
                try {
                  hops.forEachAdjacentPoint(r, direction, points, (p) => expect(points).toContain(p));
                } catch (error) {
                  expect(error).toBeInstanceOf(CorruptSnapshotError);
                }
          },
        ),
        { numRuns: 300 },
      );
    });

    it("a count of 0, an index past FLOW's list, or a group whose lists do not end where the next starts", () => {
      const zero = damaged((b) => (b[2] = Uint8Array.of(0, 0)))();
      expect(() => readDown(zero)).toThrow(
        new CorruptSnapshotError("HOPS end points one link down: object 0 lists no point"),
      );
      expect(() => readDown(damaged(() => {})(), new Uint32Array(0))).toThrow(
        new CorruptSnapshotError("HOPS end points one link down: object 0 lists point 0 of 0"),
      );
      const longer = damaged((b) => {
        b[2] = Uint8Array.of(1, 0, 0);
        b[1] = Uint32Array.of(0, 3, 3);
      })();
      expect(() => readDown(longer)).toThrow(
        new CorruptSnapshotError(
          "HOPS end points one link down: the lists of ranks 0 to 63 do not end at the next group",
        ),
      );
      // A list cut short runs past its group's end.
      const shorter = damaged((b) => {
        b[2] = Uint8Array.of(2, 0);
        b[1] = Uint32Array.of(0, 2, 2);
      })();
      expect(() => readDown(shorter)).toThrow(CorruptSnapshotError);
    });
  });
});
