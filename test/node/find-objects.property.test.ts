// @module findObjects on compiled random analyses against the reference (a plain scan), asked twice so kept posting lists answer the second time.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileDocument } from "../../build/compile/compile-document.ts";
import { decodeSnapshotModel } from "../../src/format/decode.ts";
import { SectionCache } from "../../src/format/section-cache.ts";
import { memorySource, Snapshot } from "../../src/format/snapshot.ts";
import { fieldIndex } from "../../src/query/field-index.ts";
import { type ColumnField, fieldMatcher, PAGE_KEYED } from "../../src/query/field-values.ts";
import { FILTER_INDEX, findObjects } from "../../src/query/find-objects.ts";
import { collect } from "../../src/query/streamed-list.ts";
import { distinctLower, matchRanksWithin } from "../../src/query/text-match.ts";
import { type Analysis, arbitraryAnalysis } from "../support/arbitrary-analysis.ts";
import {
  type FindQuery,
  type Operator,
  objectMatches,
  type RefAnalysis,
  type RefObject,
  findObjects as referenceFind,
  type SearchType,
  TEXT_FILTERS,
} from "../support/reference/reference.ts";

/** Whether each object matches a filter of a field whose keys are paged, as checking candidates finds it: through the index, within every object. */
async function pagedMatcher(
  snapshot: Snapshot,
  field: keyof typeof FILTER_INDEX,
  operator: Operator,
  wanted: string[],
  objects: number,
): Promise<(rank: number) => boolean> {
  const index = await fieldIndex(snapshot, FILTER_INDEX[field], operator);
  const all = Uint32Array.from({ length: objects }, (_, r) => r);
  const matched = new Set(await matchRanksWithin(index, operator, wanted, objects, all));
  return (rank) => matched.has(rank);
}

/** Texts a filter might look for: the values of its own field (so it often matches), and one unrelated text. */
function textsOf(a: Analysis, filter: (typeof TEXT_FILTERS)[number]): string[] {
  const field = {
    name: "name",
    fullname: "fullName",
    type: "type",
    filepath: "filePath",
    mangling: "mangling",
    annotation: "annotations",
    tag: "tags",
    "post-it": "",
  }[filter];
  const texts = new Set<string>(["x"]);
  for (const o of a.objects) {
    const v = o[field];
    if (typeof v === "string") texts.add(v);
    else if (Array.isArray(v)) for (const t of v as string[]) texts.add(t);
  }
  if (filter === "post-it") for (const p of a.postIts) texts.add(p.title);
  return [...texts];
}

/** A substring (by code points, mostly short so that it matches often) of one of `texts`, in its own, lower or upper case. */
const substringOf = (texts: string[]) =>
  fc
    .record({
      text: fc.constantFrom(...texts),
      from: fc.nat(),
      length: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.nat({ max: 9 })),
      upper: fc.boolean(),
    })
    .map(({ text, from, length, upper }) => {
      const points = Array.from(text);
      const start = from % (points.length + 1);
      const value = points.slice(start, start + length).join("");
      return upper ? value.toUpperCase() : value;
    });

const filterOf = (analysis: Analysis) =>
  fc
    .constantFrom(...TEXT_FILTERS)
    .chain((f) =>
      fc.array(substringOf(textsOf(analysis, f)), { minLength: 1, maxLength: 2 }).map((values) => [f, values] as const),
    );

/** Queries, mostly of one filter over every object (answered from the filter's keys alone), some of several. */
const withQuery = (analysis: Analysis) =>
  fc.record({
    filters: fc.oneof(
      { weight: 3, arbitrary: filterOf(analysis).map((f) => [f]) },
      { weight: 2, arbitrary: fc.uniqueArray(filterOf(analysis), { selector: ([f]) => f, maxLength: 3 }) },
    ),
    operator: fc.constantFrom<Operator>("contains", "contains", "equals", "startswith", "endswith"),
    searchtype: fc.constantFrom<SearchType>("all", "all", "all", "internal", "external"),
    skip: fc.oneof(fc.nat({ max: 3 }), fc.nat({ max: analysis.objects.length + 1 })),
    limit: fc.integer({ min: 1, max: 12 }),
  });

describe("findObjects", () => {
  it("answers as a scan of the analysis does: totals and pages, one filter or several, any operator (property)", async () => {
    // Every third object takes the previous one's name in upper case: keys with several postings, so pages start inside a key.
    const analyses = arbitraryAnalysis({ maxObjects: 40, withTaxonomy: false }).map((a) => ({
      ...a,
      objects: a.objects.map((o, i) => (i % 3 === 2 ? { ...o, name: String(a.objects[i - 1].name).toUpperCase() } : o)),
    }));
    // Budgets of a few KiB make some filters' sections "large" beside others': those are checked last, on rows when few candidates are left.
    const budgets = fc.oneof(fc.constant(1 << 20), fc.integer({ min: 0, max: 16384 }));
    const cases = analyses.chain((analysis) =>
      fc.tuple(fc.constant(analysis), fc.array(withQuery(analysis), { minLength: 1, maxLength: 6 }), budgets),
    );
    await fc.assert(
      fc.asyncProperty(cases, async ([analysis, queries, budget]) => {
        const snapshot = await Snapshot.open(memorySource(compileDocument(analysis).bytes), {
          sections: new SectionCache(budget),
        });
        for (const q of queries) {
          const filters = Object.fromEntries(q.filters.map(([f, values]) => [f, [...values]]));
          const query: FindQuery = {
            filters,
            operator: q.operator,
            searchtype: q.searchtype,
            skip: q.skip,
            limit: q.limit,
          };
          const expected = referenceFind(analysis as unknown as RefAnalysis, query);
          for (let ask = 0; ask < 2; ask++) {
            const ours = await findObjects(snapshot, {
              filters,
              operator: q.operator,
              searchtype: q.searchtype,
              skip: q.skip,
              limit: q.limit,
            });
            expect(
              JSON.parse(JSON.stringify({ totalObjects: ours.totalObjects, objects: await collect(ours.objects) })),
              JSON.stringify(query),
            ).toStrictEqual(expected);
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it("checks one object's values of any field as the reference matches them (property): the multi-filter path on few candidates, on the column or through paged keys", async () => {
    const cases = arbitraryAnalysis({ maxObjects: 20, withTaxonomy: false }).chain((analysis) =>
      fc.tuple(fc.constant(analysis), fc.array(withQuery(analysis), { minLength: 1, maxLength: 4 })),
    );
    await fc.assert(
      fc.asyncProperty(cases, async ([analysis, queries]) => {
        const snapshot = await Snapshot.open(memorySource(compileDocument(analysis).bytes));
        const { objects } = await decodeSnapshotModel(snapshot);
        const byId = new Map((analysis.objects as unknown as RefObject[]).map((o) => [o.id, o]));
        for (const q of queries)
          for (const [field, values] of q.filters) {
            const operator = field === "tag" || field === "post-it" ? "contains" : q.operator;
            const wanted = distinctLower(values);
            const matches = PAGE_KEYED.has(field)
              ? await pagedMatcher(snapshot, field, operator, wanted, objects.length)
              : await fieldMatcher(snapshot, field as ColumnField, operator, wanted);
            objects.forEach((o, rank) => {
              const expected = objectMatches(analysis as unknown as RefAnalysis, byId.get(o.id)!, {
                filters: { [field]: [...values] },
                operator,
                limit: 1,
              });
              expect(matches(rank), `${field} ${operator} ${JSON.stringify(values)} on ${o.id}`).toBe(expected);
            });
          }
      }),
      { numRuns: 100 },
    );
  });
});
