// @module Rank sets against plain Set arithmetic (property): merge and galloping intersections, sorted and bitmap unions, differences and complement pages, bitmaps reused.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  complementPage,
  distinctAscending,
  intersectRanks,
  intersectTwo,
  mapRanks,
  RankBitmap,
  rangeOf,
  ranksOfBitmap,
  unionRanks,
  withoutRanks,
} from "../../src/query/rank-set.ts";

/** An ascending list without repeats, below `universe`, with runs, gaps and ends (0, universe − 1) likely. */
const rankList = (universe: number, maxLength: number) =>
  fc
    .uniqueArray(
      fc.oneof(
        fc.nat({ max: universe - 1 }),
        fc.constantFrom(0, 1, universe - 2, universe - 1).filter((r) => r >= 0),
      ),
      { maxLength, size: "max" },
    )
    .map((l) => Uint32Array.from(l.sort((a, b) => a - b)));

const ascendingDistinct = (values: Iterable<number>) => [...new Set(values)].sort((a, b) => a - b);

describe("rank sets", () => {
  it("intersect two lists as sets do, merging similar lengths and galloping through a much longer one (property)", () => {
    const universe = fc.integer({ min: 1, max: 3000 });
    // A short list against one up to 100 times longer: both the merge and the galloping path.
    const pair = universe.chain((u) => fc.tuple(rankList(u, 20), rankList(u, 2000)));
    fc.assert(
      fc.property(pair, ([a, b]) => {
        const inB = new Set(b);
        const expected = Array.from(a).filter((r) => inB.has(r));
        expect(Array.from(intersectTwo(a, b))).toEqual(expected);
        expect(Array.from(intersectTwo(b, a))).toEqual(expected);
        expect(Array.from(intersectRanks([b, a]))).toEqual(expected);
      }),
      { numRuns: 400 },
    );
  });

  it("intersect many lists, whatever their order (property)", () => {
    const lists = fc
      .integer({ min: 1, max: 500 })
      .chain((u) => fc.array(rankList(u, 300), { minLength: 1, maxLength: 5 }));
    fc.assert(
      fc.property(lists, (ls) => {
        const expected = Array.from(ls[0]).filter((r) => ls.every((l) => l.includes(r)));
        expect(Array.from(intersectRanks(ls))).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it("unite lists by sorting few values and through a bitmap for many (property)", () => {
    const lists = fc
      .integer({ min: 1, max: 2000 })
      .chain((u) => fc.tuple(fc.constant(u), fc.array(rankList(u, 400), { maxLength: 6 })));
    fc.assert(
      fc.property(lists, ([universe, ls]) => {
        const expected = ascendingDistinct(ls.flatMap((l) => Array.from(l)));
        expect(Array.from(unionRanks(ls, universe))).toEqual(expected);
        const shuffled = Uint32Array.from(ls.flatMap((l) => Array.from(l)).reverse());
        expect(Array.from(distinctAscending(shuffled, universe))).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it("map ranks and list a range as plain arrays do, empty ranges included (property)", () => {
    const cases = fc.record({ ranks: rankList(5000, 300), from: fc.nat({ max: 400 }), to: fc.nat({ max: 400 }) });
    fc.assert(
      fc.property(cases, ({ ranks, from, to }) => {
        const plain = Array.from(ranks, (r, i) => (r * 7 + i) % 4999);
        expect([...mapRanks(ranks, (r, i) => (r * 7 + i) % 4999)]).toEqual(plain);
        expect([...mapRanks([...ranks], (r, i) => (r * 7 + i) % 4999)]).toEqual(plain);
        expect([...rangeOf(from, to)]).toEqual(Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i));
      }),
    );
  });

  it("lists the set bits of a bitmap in order, bit 31 of a word included (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 0xffffffff }), { maxLength: 40 }), (raw) => {
        const words = Uint32Array.from(raw);
        const expected: number[] = [];
        raw.forEach((word, w) => {
          for (let bit = 0; bit < 32; bit++) if ((word >>> bit) & 1) expected.push(w * 32 + bit);
        });
        expect(Array.from(ranksOfBitmap(words))).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it("hold what was added and nothing else, on words given back by earlier bitmaps cleared (property)", () => {
    // Few ranks (their words cleared one by one) and many (the bitmap cleared whole) alike.
    const cases = fc
      .integer({ min: 1, max: 2000 })
      .chain((u) => fc.tuple(fc.constant(u), fc.array(fc.oneof(rankList(u, 6), rankList(u, 300)))));
    fc.assert(
      fc.property(cases, ([universe, sets]) => {
        // Each bitmap is made after the one before gave its words back, so it reuses them.
        for (const ranks of sets) {
          const bitmap = new RankBitmap(universe);
          const added = new Set<number>();
          for (let i = 0; i < ranks.length; i += 2) bitmap.add(ranks[i]), added.add(ranks[i]);
          const wrong: number[] = [];
          for (let r = 0; r < universe; r++) if (bitmap.has(r) !== added.has(r)) wrong.push(r);
          expect(wrong).toEqual([]);
          bitmap.release();
        }
      }),
      { numRuns: 300 },
    );
  });

  it("remove excluded ranks, and page the complement of a set without listing it (property)", () => {
    const cases = fc
      .integer({ min: 1, max: 2000 })
      .chain((u) =>
        fc.tuple(fc.constant(u), rankList(u, 400), rankList(u, 400), fc.nat({ max: u + 5 }), fc.nat({ max: 60 })),
      );
    fc.assert(
      fc.property(cases, ([universe, ranks, all, skip, limit]) => {
        const excluded = all.filter((r) => r < universe); // rankList's edge constants may pass a tiny universe
        const out = new Set(excluded);
        expect(Array.from(withoutRanks(ranks, excluded))).toEqual(Array.from(ranks).filter((r) => !out.has(r)));
        const complement = Array.from({ length: universe }, (_, r) => r).filter((r) => !out.has(r));
        expect(complementPage(excluded, universe, skip, limit)).toEqual({
          total: complement.length,
          page: complement.slice(skip, skip + limit),
        });
      }),
      { numRuns: 500 },
    );
  });
});
