// @module firstFailing and firstFailingWide: the first index failing a test true for a prefix of a range, as a linear scan finds it; the wide search in about log_width(n) reads (property).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { firstFailing, firstFailingWide } from "../../src/format/page-directory.ts";

/** A range [lo, hi) and the index from which a test fails (passing below it): anywhere in it, or past its end. */
const searches = fc
  .tuple(fc.nat(50), fc.nat(5000), fc.double({ min: 0, max: 1.2, noNaN: true }))
  .map(([lo, span, at]) => ({ lo, hi: lo + span, failsFrom: lo + Math.floor(span * at) }));

describe("first failing index", () => {
  it("binary and wide searches agree with a linear scan; the wide one reads about log_width(n) times", async () => {
    await fc.assert(
      fc.asyncProperty(
        searches,
        fc.integer({ min: 2, max: 40 }),
        fc.constantFrom(0, 0.5, 1),
        fc.nat(1000),
        async ({ lo, hi, failsFrom }, width, atHand, seed) => {
          const test = (i: number) => i < failsFrom;
          let expected = lo;
          while (expected < hi && test(expected)) expected++;
          expect(firstFailing(lo, hi, test)).toBe(expected);

          // Values at hand (a share of the indices, spread by a hash): tested at once, never read.
          const held = (i: number) => ((i * 2654435761 + seed) >>> 0) / 2 ** 32 < atHand;
          const reads: number[][] = [];
          const found = await firstFailingWide(
            lo,
            hi,
            width,
            (i) => (held(i) ? test(i) : undefined),
            async (indices) => {
              reads.push(indices);
              return (i) => {
                // Only what was read may be tested.
                expect(indices).toContain(i);
                return test(i);
              };
            },
          );
          expect(found).toBe(expected);
          for (const indices of reads) {
            expect(indices.length).toBeLessThanOrEqual(width);
            expect(indices.every((i) => i >= lo && i < hi)).toBe(true);
          }
          if (atHand === 1) expect(reads).toEqual([]);
          // Each read but the last leaves at most a width-th of the range (rounded up), the last reads what is left.
          const span = hi - lo;
          if (atHand === 0)
            expect(reads.length).toBeLessThanOrEqual(span === 0 ? 0 : Math.ceil(Math.log(span) / Math.log(width)) + 1);
        },
      ),
      { numRuns: 500 },
    );
  });
});
