// @module matchRanksWithin against matchRanks ∩ candidates, on every text field's index: the keys narrowed from the candidates' side (keys holding one, then every trigram list) or from the rarest trigram's.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileDocument } from "../../build/compile/compile-document.ts";
import { memorySource, Snapshot } from "../../src/format/snapshot.ts";
import { fieldIndex } from "../../src/query/field-index.ts";
import { FILTER_INDEX } from "../../src/query/find-objects.ts";
import { matchRanks, matchRanksWithin } from "../../src/query/text-match.ts";
import { type Analysis, arbitraryAnalysis } from "../support/arbitrary-analysis.ts";
import { TEXT_FILTERS } from "../support/reference/reference.ts";

/** Every value of the field in the analysis, so substrings of them match often. */
function valuesOf(a: Analysis, filter: (typeof TEXT_FILTERS)[number]): string[] {
  const key = { name: "name", fullname: "fullName", type: "type", filepath: "filePath", mangling: "mangling" }[
    filter as string
  ];
  const out = new Set<string>(["xyz"]);
  for (const o of a.objects) {
    const v = key ? o[key] : filter === "annotation" ? o.annotations : filter === "tag" ? o.tags : undefined;
    if (typeof v === "string") out.add(v);
    else if (Array.isArray(v)) for (const t of v as string[]) out.add(t);
  }
  if (filter === "post-it") for (const p of a.postIts) out.add(p.title);
  return [...out];
}

describe("matchRanksWithin", () => {
  it("is matchRanks ∩ the candidates, for contains of 3+ units on every field, few candidates or many (property)", async () => {
    const cases = arbitraryAnalysis({ maxObjects: 40, withTaxonomy: false }).chain((analysis) =>
      fc.tuple(
        fc.constant(analysis),
        fc.constantFrom(...TEXT_FILTERS).chain((filter) =>
          fc.tuple(
            fc.constant(filter),
            fc.array(
              fc
                .record({ text: fc.constantFrom(...valuesOf(analysis, filter)), from: fc.nat(), length: fc.nat(6) })
                .map(({ text, from, length }) => text.slice(from % (text.length + 1)).slice(0, 3 + length)),
              { minLength: 1, maxLength: 2 },
            ),
          ),
        ),
        // Which objects are candidates: each rank in with this probability.
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer(),
      ),
    );
    await fc.assert(
      fc.asyncProperty(cases, async ([analysis, [filter, values], share, seed]) => {
        const snapshot = await Snapshot.open(memorySource(compileDocument(analysis).bytes));
        const universe = snapshot.meta.counts.objects;
        let state = seed >>> 0;
        const within = Uint32Array.from(
          Array.from({ length: universe }, (_, r) => r).filter(() => {
            state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
            return state / 2 ** 32 < share;
          }),
        );
        const field = await fieldIndex(snapshot, FILTER_INDEX[filter], "contains");
        const all = await matchRanks(field, "contains", values, universe);
        const inWithin = new Set(within);
        const expected = Array.from(all).filter((r) => inWithin.has(r));
        // Twice: the second time from kept lists.
        for (let ask = 0; ask < 2; ask++)
          expect(Array.from(await matchRanksWithin(field, "contains", values, universe, within))).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
