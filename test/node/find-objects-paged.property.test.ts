// @module Keys and trigram lists read by range against the same file without its trigram chunk directories, keys held in memory and a scan: key pages (PagedKeys), trigram lists read by chunk, and findObjects with queries at once under small budgets (property).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileDocument } from "../../build/compile/compile-document.ts";
import { decodeSnapshotModel } from "../../src/format/decode.ts";
import type { ObjectRecord } from "../../src/format/model.ts";
import { SectionCache } from "../../src/format/section-cache.ts";
import { CHUNKS_OF, KEY_PAGES_OF, TRIGRAMS_OF } from "../../src/format/sections.ts";
import { memorySource, Snapshot } from "../../src/format/snapshot.ts";
import { lowerNeedle } from "../../src/format/string-list.ts";
import { TRIGRAM_SPACE } from "../../src/format/trigram-index.ts";
import { fieldIndex } from "../../src/query/field-index.ts";
import { type FindObjectsQuery, findObjects } from "../../src/query/find-objects.ts";
import {
  equalRange,
  memoryKeys,
  PagedKeys,
  prefixRange,
  type SearchKeys,
  suffixKeys,
} from "../../src/query/search-keys.ts";
import { collect } from "../../src/query/streamed-list.ts";
import { matchRanks, matchRanksWithin } from "../../src/query/text-match.ts";
import { assemble, sectionSpecs } from "../format/snapshot-bytes.ts";
import { type FindQuery, type RefAnalysis, findObjects as referenceFind } from "../support/reference/reference.ts";

/** The trigram chunk directories (SNAPSHOT-FORMAT.md §8.18), optional: without them trigram indexes are read whole. */
const CHUNK_DIRECTORIES = new Set<string>(Object.values(CHUNKS_OF));

/** Words that share prefixes and trigrams, with characters of 2, 3 and 4 UTF-8 bytes and letters whose lower case changes length or script (İ, K for Kelvin). */
const WORDS = [
  "com",
  "acme",
  "billing",
  "Service",
  "get",
  "ab",
  "ba",
  "aab",
  "É",
  "ß",
  "naïve",
  "\u212a",
  "İ",
  "\u{1F408}",
  "\uE000",
  "x",
];

const text = (parts: number[], separator: string) => parts.map((p) => WORDS[p % WORDS.length]).join(separator);
/** An analysis of 800–1,500 objects: fullNames and manglings spread over several key pages and trigram chunks. */
const analyses = fc
  .array(
    fc.record({
      name: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
      fullName: fc.array(fc.nat(), { minLength: 2, maxLength: 9 }),
      mangling: fc.option(fc.array(fc.nat(), { minLength: 1, maxLength: 6 }), { nil: undefined }),
    }),
    { minLength: 800, maxLength: 1500 },
  )
  .map((specs) => ({
    format: "appstruct.analysis/1",
    application: "Paged",
    analyzedAt: "2026-05-05T10:00:00Z",
    files: [],
    objects: specs.map((s, i) => ({
      id: String(i + 1),
      name: text(s.name, ""),
      fullName: text(s.fullName, "."),
      type: "Java Method",
      typeId: "JV_METHOD",
      ...(s.mangling ? { mangling: text(s.mangling, "_") } : {}),
    })),
    links: [],
    postIts: [],
  }));

/** The file, and the same file without its trigram chunk directories. */
function withAndWithoutChunks(analysis: unknown): [Uint8Array, Uint8Array] {
  const bytes = compileDocument(analysis).bytes;
  return [bytes, assemble(sectionSpecs(bytes).filter((s) => !CHUNK_DIRECTORIES.has(s.tag)))];
}

/** The keys of a field in key pages, held in memory: each object's value of the field, lower-cased, distinct, sorted; with the ranks holding each. */
async function keysInMemory(
  snapshot: Snapshot,
  tag: "KNAM" | "KFUL" | "KMNG",
): Promise<{ keys: SearchKeys; ranks: number[][] }> {
  const { objects } = await decodeSnapshotModel(snapshot);
  const pick = {
    KNAM: (o: ObjectRecord) => o.name,
    KFUL: (o: ObjectRecord) => o.fullName,
    KMNG: (o: ObjectRecord) => o.mangling,
  }[tag];
  const keys = [...new Set(objects.map((o) => pick(o).toLowerCase()))].sort();
  const ranks = keys.map((key) => objects.flatMap((o, rank) => (pick(o).toLowerCase() === key ? [rank] : [])));
  const list = memoryKeys({
    length: keys.length,
    get: (k) => keys[k],
    all: () => keys,
    includes: (k, needle) => keys[k].includes(needle.text),
    including: (candidates, needle) => candidates.filter((k) => keys[k].includes(needle.text)),
  });
  return { keys: list, ranks };
}

/** Values a filter may look for: substrings (by code point) of the analysis's own texts, in any case, and words. */
function valuesOf(analysis: { objects: { name: string; fullName: string; mangling?: string }[] }) {
  const texts = analysis.objects.flatMap((o) => [o.name, o.fullName, o.mangling ?? "x"]);
  const substring = fc
    .record({
      text: fc.constantFrom(...texts),
      from: fc.nat(),
      length: fc.integer({ min: 1, max: 12 }),
      upper: fc.boolean(),
    })
    .map(({ text, from, length, upper }) => {
      const points = Array.from(text);
      const start = from % points.length;
      const value = points.slice(start, start + length).join("");
      return upper ? value.toUpperCase() : value;
    });
  return fc.oneof({ weight: 4, arbitrary: substring }, { weight: 1, arbitrary: fc.constantFrom(...WORDS, ...texts) });
}

describe("keys and trigram lists read by range", () => {
  it("answers find objects as the file without its trigram chunk directories and as a scan do, queries at once, any budget (property)", async () => {
    const cases = analyses.chain((analysis) => {
      const filter = fc
        .constantFrom("fullname", "mangling", "name")
        .chain((f) =>
          fc.array(valuesOf(analysis), { minLength: 1, maxLength: 2 }).map((values) => [f, values] as const),
        );
      const query = fc.record({
        filters: fc.uniqueArray(filter, { selector: ([f]) => f, minLength: 1, maxLength: 3 }),
        operator: fc.constantFrom<FindObjectsQuery["operator"]>(
          "contains",
          "contains",
          "equals",
          "startswith",
          "endswith",
        ),
        skip: fc.nat({ max: 4 }),
        limit: fc.integer({ min: 1, max: 15 }),
      });
      // Budgets: everything kept, nothing kept, and a few pages' worth (entries evicted while others load).
      return fc.tuple(
        fc.constant(analysis),
        fc.array(query, { minLength: 2, maxLength: 6 }),
        fc.constantFrom(1 << 30, 0, 16_384, 65_536),
      );
    });
    await fc.assert(
      fc.asyncProperty(cases, async ([analysis, queries, budget]) => {
        const [bytes, withoutChunks] = withAndWithoutChunks(analysis);
        const paged = await Snapshot.open(memorySource(bytes), { sections: new SectionCache(budget) });
        const whole = await Snapshot.open(memorySource(withoutChunks), { sections: new SectionCache(budget) });
        const asked = queries.map(
          (q): FindObjectsQuery => ({
            filters: Object.fromEntries(q.filters.map(([f, values]) => [f, [...values]])),
            operator: q.operator,
            searchtype: "all",
            skip: q.skip,
            limit: q.limit,
          }),
        );
        const answer = async (a: Awaited<ReturnType<typeof findObjects>>) =>
          JSON.parse(JSON.stringify({ totalObjects: a.totalObjects, objects: await collect(a.objects) }));
        // At once: the queries share the cached trigram table, key directory and pages as they load.
        const [ours, theirs] = await Promise.all([
          Promise.all(asked.map((q) => findObjects(paged, q))),
          Promise.all(asked.map((q) => findObjects(whole, q))),
        ]);
        for (const [i, q] of asked.entries()) {
          const expected = referenceFind(analysis as unknown as RefAnalysis, q as FindQuery);
          expect(await answer(ours[i]), JSON.stringify(q)).toStrictEqual(expected);
          expect(await answer(theirs[i]), JSON.stringify(q)).toStrictEqual(expected);
        }
        // Asked again, one at a time: from the matches the first answers kept, where the budget holds them.
        for (const q of asked)
          expect(await answer(await findObjects(paged, q)), JSON.stringify(q)).toStrictEqual(
            referenceFind(analysis as unknown as RefAnalysis, q as FindQuery),
          );
      }),
      // No shrinking: each step compiles an analysis of a thousand objects; the seed and counterexample are reported.
      { numRuns: 25, endOnFailure: true },
    );
  });

  it("matches a value holding a lone surrogate by UTF-16 code units (docs/api.md#text-matching), as keys held in memory do", async () => {
    // Not sent by the API (invalid UTF-8 is refused, MCP arguments pass through URLSearchParams), but keys in pages must answer as any SearchKeys.
    const fullNames = ["com.a\u{1F408}", "com.b\u{1F408}\u{1F408}", "com.c", "org.\u{1F409}a"];
    const analysis = {
      format: "appstruct.analysis/1",
      application: "Lone",
      analyzedAt: "2026-05-05T10:00:00Z",
      files: [],
      objects: fullNames.map((fullName, i) => ({ id: String(i + 1), name: `n${i}`, fullName, type: "T", typeId: "T" })),
      links: [],
      postIts: [],
    };
    for (const file of withAndWithoutChunks(analysis)) {
      const snapshot = await Snapshot.open(memorySource(file));
      const fullNamesMatching = async (value: string) =>
        (
          await collect(
            (
              await findObjects(snapshot, {
                filters: { fullname: [value] },
                operator: "contains",
                searchtype: "all",
                skip: 0,
                limit: 10,
              })
            ).objects,
          )
        ).map((o) => o.fullName);
      expect(await fullNamesMatching("\uD83D")).toEqual(fullNames.filter((f) => f.includes("\uD83D")));
      expect(await fullNamesMatching("a\uD83D")).toEqual(["com.a\u{1F408}"]);
      expect(await fullNamesMatching("\uDC09a")).toEqual(["org.\u{1F409}a"]);
    }
  });

  it("key pages hold the keys in memory hold, and trigram lists read by range what the file without chunk directories holds (property)", async () => {
    let pagesSeen = 0;
    let chunksSeen = 0;
    const cases = analyses.chain((analysis) =>
      fc.tuple(fc.constant(analysis), fc.array(valuesOf(analysis), { minLength: 5, maxLength: 20 })),
    );
    await fc.assert(
      fc.asyncProperty(cases, async ([analysis, values]) => {
        const [bytes, withoutChunks] = withAndWithoutChunks(analysis);
        const paged = await Snapshot.open(memorySource(bytes), { sections: new SectionCache(32_768) });
        const whole = await Snapshot.open(memorySource(withoutChunks));
        for (const tag of ["KNAM", "KFUL", "KMNG"] as const) {
          const [ours, held] = await Promise.all([
            fieldIndex(paged, tag, "contains"),
            fieldIndex(whole, tag, "contains"),
          ]);
          const inMemory = await keysInMemory(whole, tag);
          const theirs = { keys: inMemory.keys, postings: held.postings, trigrams: held.trigrams };
          expect(ours.keys).toBeInstanceOf(PagedKeys);
          pagesSeen = Math.max(pagesSeen, (await paged.section(KEY_PAGES_OF[tag].directory)).pageCount);
          chunksSeen = Math.max(chunksSeen, (await paged.section(CHUNKS_OF[TRIGRAMS_OF[tag]])).pageCount);
          const all = Uint32Array.from({ length: theirs.keys.length }, (_, k) => k);
          expect(ours.keys.length).toBe(theirs.keys.length);
          expect(await ours.keys.keysAt(all)).toEqual(await theirs.keys.keysAt(all));
          expect((await ours.postings.ranksOf(all)).map((r) => Array.from(r))).toEqual(inMemory.ranks);
          for (const k of all.filter((k) => k % 13 === 0))
            expect(await ours.postings.before(k)).toBe(inMemory.ranks.slice(0, k).flat().length);
          for (const value of values.map((v) => v.toLowerCase())) {
            expect(await ours.keys.lowerBound(value), value).toBe(await theirs.keys.lowerBound(value));
            expect(await prefixRange(ours.keys, value), value).toEqual(await prefixRange(theirs.keys, value));
            expect(await equalRange(ours.keys, value), value).toEqual(await equalRange(theirs.keys, value));
            expect(Array.from(await suffixKeys(ours.keys, ours.postings, value, true)), value).toEqual(
              Array.from(await suffixKeys(theirs.keys, theirs.postings, value, false)),
            );
            const needle = lowerNeedle(value);
            expect(Array.from(await ours.keys.including(null, needle)), value).toEqual(
              Array.from(await theirs.keys.including(null, needle)),
            );
            const sparse = all.filter((k) => (k * 7 + value.length) % 5 === 0);
            expect(Array.from(await ours.keys.including(sparse, needle)), value).toEqual(
              Array.from(await theirs.keys.including(sparse, needle)),
            );
          }
          // Every list, in one read and one at a time: the same keys as the whole index, a bitmap's by its bits too.
          const slots = Array.from({ length: ours.trigrams!.slotRange(0, TRIGRAM_SPACE)[1] }, (_, s) => s);
          const [ranged, read] = await Promise.all([ours.trigrams!.lists(slots), theirs.trigrams!.lists(slots)]);
          for (const slot of slots) {
            expect(Array.from(ranged.keys(slot)), `slot ${slot}`).toEqual(Array.from(read.keys(slot)));
            if (ours.trigrams!.isBitmap(slot)) {
              expect(Array.from(ranged.keysHeld(slot, all)), `slot ${slot}`).toEqual(Array.from(read.keys(slot)));
              expect(Array.from(read.keysHeld(slot, all)), `slot ${slot}`).toEqual(Array.from(read.keys(slot)));
            }
          }
          for (const slot of slots.filter((s) => s % 11 === 0))
            expect(Array.from((await ours.trigrams!.lists([slot])).keys(slot))).toEqual(Array.from(read.keys(slot)));
        }
      }),
      { numRuns: 10, endOnFailure: true },
    );
    expect(pagesSeen).toBeGreaterThan(2);
    expect(chunksSeen).toBeGreaterThan(2);
  });

  it("matches candidates through the key of each object as the filter alone does, within them, in key pages, any operator (property)", async () => {
    const cases = analyses.chain((analysis) => {
      const filter = fc.tuple(
        fc.constantFrom("KNAM", "KFUL", "KMNG"),
        fc.constantFrom<FindObjectsQuery["operator"]>("contains", "contains", "equals", "startswith", "endswith"),
        fc.array(valuesOf(analysis), { minLength: 1, maxLength: 2 }),
        // Candidates: any subset of the objects, from none to all.
        fc.array(fc.boolean(), { minLength: analysis.objects.length, maxLength: analysis.objects.length }),
      );
      return fc.tuple(fc.constant(analysis), fc.array(filter, { minLength: 4, maxLength: 12 }));
    });
    let kept = 0;
    await fc.assert(
      fc.asyncProperty(cases, async ([analysis, filters]) => {
        const snapshot = await Snapshot.open(memorySource(compileDocument(analysis).bytes));
        const universe = snapshot.meta.counts.objects;
        for (const [tag, operator, values, chosen] of filters) {
          const within = Uint32Array.from(chosen.flatMap((c, rank) => (c ? [rank] : [])));
          const field = await fieldIndex(snapshot, tag, operator);
          const alone = new Set(await matchRanks(field, operator, values, universe));
          const expected = within.filter((rank) => alone.has(rank));
          const got = await matchRanksWithin(field, operator, values, universe, within);
          expect(Array.from(got), `${tag} ${operator} ${JSON.stringify(values)}`).toEqual(Array.from(expected));
          kept += got.length;
        }
      }),
      { numRuns: 15, endOnFailure: true },
    );
    expect(kept).toBeGreaterThan(0);
  });
});
