// @module TrigramIndex: hand-worked lists, the candidate property against a plain scan, contains through trigrams equal to contains by scan, corrupt lists refused.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Blocks, encodeBlocks } from "../../src/format/blocks.ts";
import { CorruptSnapshotError } from "../../src/format/errors.ts";
import { encodeSearchIndex, SearchIndex } from "../../src/format/search-index.ts";
import { encodeStringList, lowerNeedle, StringList } from "../../src/format/string-list.ts";
import { encodeTrigramIndex, TrigramIndex, trigramAt, trigramsOf } from "../../src/format/trigram-index.ts";
import { memoryKeys, storedPostings } from "../../src/query/search-keys.ts";
import { estimateMatches, matchRanks } from "../../src/query/text-match.ts";

const decode = (keys: readonly string[]) =>
  TrigramIndex.whole(new Blocks(encodeBlocks(encodeTrigramIndex(keys)), "TEST", 4), keys.length, "test");
const keysWith = async (index: TrigramIndex, trigram: string) => {
  const slot = index.slot(trigramAt(trigram, 0));
  return slot < 0 ? [] : Array.from((await index.lists([slot])).keys(slot));
};

describe("TrigramIndex", () => {
  const keys = ["ab", "abcd", "bcde", "findbyid", "xyzabc", "été"]; // sorted, distinct, lower-case

  it("lists, per trigram, the keys containing it (worked by hand)", async () => {
    const index = decode(keys);
    expect(await keysWith(index, "abc")).toEqual([1, 4]); // abcd, xyzabc
    expect(await keysWith(index, "bcd")).toEqual([1, 2]);
    expect(await keysWith(index, "byi")).toEqual([3]);
    expect(await keysWith(index, "été")).toEqual([5]);
    expect(await keysWith(index, "zzz")).toEqual([]);
    expect(index.count(index.slot(trigramAt("abc", 0)))).toBe(2);
  });

  it("stores a list in most keys as a bitmap (one bit per key), and decodes it to the same keys", async () => {
    const keys = Array.from({ length: 40 }, (_, i) => `com.${String.fromCharCode(97 + (i % 26))}${i}`).sort();
    const blocks = encodeTrigramIndex(keys);
    const [codes, counts, offsets] = blocks as Uint32Array[];
    const com = codes.indexOf(trigramAt("com", 0));
    expect(counts[com]).toBe(0x80000000 + 40); // bitmap flag, 40 keys
    expect(offsets[com + 1] - offsets[com]).toBe(5); // 40 bits, where varints take 40 bytes
    expect(await keysWith(decode(keys), "com")).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(await keysWith(decode(keys), "m.a")).toEqual(keys.flatMap((k, i) => (k.startsWith("com.a") ? [i] : [])));
  });

  it("codes ASCII trigrams exactly and never confuses them with hashed ones", () => {
    expect(trigramAt("abc", 0)).toBe((97 << 14) | (98 << 7) | 99);
    expect(trigramAt("été", 0)).toBeGreaterThanOrEqual(1 << 21);
    expect(trigramsOf("aaaa")).toEqual([trigramAt("aaa", 0)]);
    expect(trigramsOf("ab")).toEqual([]);
  });

  it("gives, for every query trigram, a superset of the keys containing the query (property)", async () => {
    const key = fc.string({ unit: fc.constantFrom("a", "b", "c", "é", "\u{1F408}", "."), maxLength: 9 });
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(key, { maxLength: 40 }), key, async (raw, query) => {
        const sorted = [...raw].sort();
        const index = decode(sorted);
        for (const code of trigramsOf(query)) {
          const slot = index.slot(code);
          const listed = slot < 0 ? [] : Array.from((await index.lists([slot])).keys(slot));
          const containing = sorted.flatMap((k, i) => (k.includes(query) ? [i] : []));
          for (const k of containing) expect(listed).toContain(k);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("keeps decoded lists for later queries, counted in its byteSize, up to half its posting bytes (64 KiB to 256 KiB)", async () => {
    const letters = "abcdefghij";
    const keys = Array.from(
      { length: 20000 },
      (_, i) => `${letters[i % 10]}${letters[(i >> 3) % 10]}${letters[(i >> 6) % 10]}${i.toString(36)}`,
    );
    const sorted = [...new Set(keys)].sort();
    const blocks = encodeTrigramIndex(sorted);
    const index = TrigramIndex.whole(new Blocks(encodeBlocks(blocks), "TEST", 4), sorted.length, "test");
    const stored = index.byteSize;
    const budget = Math.max(64 * 1024, Math.min(256 * 1024, (blocks[3] as Uint8Array).byteLength / 2));
    const slots = (blocks[0] as Uint32Array).length;
    const lists = await index.lists(Array.from({ length: slots }, (_, s) => s));
    const first = Array.from({ length: slots }, (_, s) => Array.from(lists.keys(s)));
    expect(index.byteSize).toBeGreaterThan(stored);
    expect(index.byteSize - stored).toBeLessThanOrEqual(budget);
    // Kept or decoded again, every list reads the same, and matches the keys holding its trigram.
    for (let s = slots - 1; s >= 0; s--) expect(Array.from(lists.keys(s))).toEqual(first[s]);
    const code = (blocks[0] as Uint32Array)[0];
    expect(first[0]).toEqual(sorted.flatMap((k, i) => (trigramsOf(k).includes(code) ? [i] : [])));
  });

  it("refuses a posting list that names a key out of range or holds extra bytes", async () => {
    const blocks = encodeTrigramIndex(["abc", "abd"]);
    const oneKey = await TrigramIndex.whole(new Blocks(encodeBlocks(blocks), "TEST", 4), 1, "test").lists([0, 1]);
    expect(Array.from(oneKey.keys(0))).toEqual([0]); // "abc" is in key 0
    expect(() => oneKey.keys(1)).toThrow(CorruptSnapshotError); // "abd" names key 1 of 1
    const bytes = blocks[3] as Uint8Array;
    bytes[bytes.length - 1] = 0x80; // a varint that never ends
    const index = await TrigramIndex.whole(new Blocks(encodeBlocks(blocks), "TEST", 4), 2, "test").lists([0, 1, 2]);
    expect(() => {
      for (let s = 0; s < 3; s++) index.keys(s);
    }).toThrow(CorruptSnapshotError);
  });
});

describe("contains through trigrams", () => {
  const field = (values: (string | string[] | null)[], withTrigrams: boolean) => {
    let keys: readonly string[] = [];
    const index = new SearchIndex(
      new Blocks(
        encodeBlocks(
          encodeSearchIndex(
            values.length,
            (r) => values[r],
            (k) => (keys = k),
          ),
        ),
        "X",
        5,
      ),
      values.length,
      "test",
    );
    return {
      index,
      keys: memoryKeys(index.keys),
      postings: storedPostings(index),
      trigrams: withTrigrams ? decode(keys) : null,
      // Nothing kept: each match is made again.
      remember: <T>(_: string, make: () => Promise<T>) => make(),
    };
  };

  it("finds a two-letter value through trigrams around it: xq? and ?xq, non-ASCII neighbours, the two-letter key itself", async () => {
    const values = ["ab", "axqb", "xq", "éxq", "xqé", "XQ!", "x-q", "q"];
    expect(Array.from(await matchRanks(field(values, true), "contains", ["xq"], values.length))).toEqual([
      1, 2, 3, 4, 5,
    ]);
    expect(Array.from(await matchRanks(field(values, true), "contains", ["q"], values.length))).toEqual([
      1, 2, 3, 4, 5, 6, 7,
    ]); // one letter: a scan
  });

  it("matches exactly what a scan of the keys matches, for every operator (property)", async () => {
    const text = fc.string({ unit: fc.constantFrom("a", "B", "c", "É", "é", "-", "\u{1F408}"), maxLength: 8 });
    const value = fc.oneof(text, fc.array(text, { maxLength: 3 }), fc.constant(null));
    await fc.assert(
      fc.asyncProperty(
        fc.array(value, { maxLength: 60 }),
        fc.array(text, { minLength: 1, maxLength: 3 }),
        fc.constantFrom("contains", "equals", "startswith", "endswith"),
        async (values, query, operator) => {
          const universe = values.length;
          const viaTrigrams = await matchRanks(field(values, true), operator, query, universe);
          const byScan = await matchRanks(field(values, false), operator, query, universe);
          expect(Array.from(viaTrigrams)).toEqual(Array.from(byScan));
          const reference = values.flatMap((v, r) => {
            const all = v === null ? [] : typeof v === "string" ? [v] : v;
            const lower = all.map((s) => s.toLowerCase());
            const hit = query.some((q) =>
              lower.some((s) =>
                operator === "contains"
                  ? s.includes(q.toLowerCase())
                  : operator === "equals"
                    ? s === q.toLowerCase()
                    : operator === "startswith"
                      ? s.startsWith(q.toLowerCase())
                      : s.endsWith(q.toLowerCase()),
              ),
            );
            return hit ? [r] : [];
          });
          expect(Array.from(viaTrigrams)).toEqual(reference);
          // Estimates never undercount an exact operator and stay within the universe.
          const estimate = await estimateMatches(field(values, true), operator, query, universe);
          expect(estimate).toBeLessThanOrEqual(universe);
          if (operator === "equals") expect(estimate).toBeGreaterThanOrEqual(reference.length);
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe("StringList.lowerIncludes (verifying candidates without building strings)", () => {
  it("agrees with lower-casing then includes, for ASCII and non-ASCII strings and needles (property)", () => {
    const unit = fc.constantFrom("a", "B", "k", "K", "\u212a", "\u0130", "i", "é", "É", "-", "\u{1F408}", "Z", "z");
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit, maxLength: 10 }), { minLength: 1, maxLength: 20 }),
        fc.string({ unit, maxLength: 6 }),
        (strings, raw) => {
          const list = new StringList(new Blocks(encodeBlocks(encodeStringList(strings)), "S", 2), 0, "strings");
          const needle = lowerNeedle(raw.toLowerCase());
          strings.forEach((s, i) =>
            expect(list.lowerIncludes(i, needle), `${s} ∋ ${needle.text}`).toBe(s.toLowerCase().includes(needle.text)),
          );
          // Many at once, some twice and out of order: the same answers.
          const indices = Uint32Array.from([...strings.keys()].reverse().concat([0]));
          expect(Array.from(list.lowerIncludesEach(indices, needle))).toEqual(
            Array.from(indices, (i) => (strings[i].toLowerCase().includes(needle.text) ? 1 : 0)),
          );
        },
      ),
      { numRuns: 500 },
    );
  });
});
