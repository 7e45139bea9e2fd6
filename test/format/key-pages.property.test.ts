// @module Key pages against plain arrays of sorted keys: any keys (non-ASCII, astral, long shared prefixes, one longer than a call's argument limit), many pages, any candidates searched.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Blocks, encodeBlocks } from "../../src/format/blocks.ts";
import { encodeKeyDirectory, encodeKeyPages, KeyDirectory, type KeyPage } from "../../src/format/key-pages.ts";

/** The keys among `wanted` (indices into `page`) that hold `needle`, as the page's search writes them. */
function searched(page: KeyPage, wanted: number[], needle: string): number[] {
  const out = new Uint32Array(wanted.length);
  return [...out.subarray(0, page.including(wanted, 0, wanted.length, 0, new TextEncoder().encode(needle), out, 0))];
}

const utf8 = new TextEncoder();

/** The directory of `keys` (sorted, distinct) and every page decoded, with the keys each holds. */
function paged(keys: readonly string[]) {
  // One posting a key, its rank its position.
  const pages = encodeKeyPages(keys, {
    offsets: Uint32Array.from({ length: keys.length + 1 }, (_, k) => k),
    ranks: null,
  });
  const directory = new KeyDirectory(
    new Blocks(encodeBlocks(encodeKeyDirectory(pages)), "DTST", 6),
    "test keys",
    keys.length,
    false,
  );
  return Array.from({ length: directory.pageCount }, (_, p) => ({
    page: directory.decodePage(p, pages.pages.subarray(pages.offsets[p], pages.offsets[p + 1])),
    keys: keys.slice(directory.firstKeys[p], directory.firstKeys[p + 1]),
  }));
}

/** Units that make neighbours share long prefixes, split characters of 2, 3 and 4 UTF-8 bytes, and repeat the needles' letters. */
const unit = fc.constantFrom(
  "a",
  "b",
  "ab",
  "ba",
  "aab",
  ".",
  "é",
  "ß",
  "\u212a",
  "\uE000",
  "\u{1F408}",
  "\u{1F409}",
  "x".repeat(30),
);
const key = fc.string({ unit, minLength: 1, maxLength: 30 });

describe("key pages (property)", () => {
  it("search the wanted keys of every page as String.includes does, whatever keys are wanted", () => {
    const cases = fc.record({
      raw: fc.uniqueArray(key, { minLength: 1, maxLength: 700, size: "max" }),
      needles: fc.array(fc.string({ unit, minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 }),
      // Which keys are wanted: a share of them, picked by a seed (dense, sparse, or one in 16).
      share: fc.constantFrom(1, 0.9, 0.5, 0.05, 1 / 16),
      seed: fc.nat(),
    });
    let pagesSeen = 0;
    fc.assert(
      fc.property(cases, ({ raw, needles, share, seed }) => {
        const keys = [...raw].sort();
        const decoded = paged(keys);
        pagesSeen = Math.max(pagesSeen, decoded.length);
        let state = seed;
        const random = () => (state = (state * 1103515245 + 12345) & 0x7fffffff) / 0x80000000;
        for (const { page, keys: held } of decoded) {
          expect(page.keys()).toEqual(held);
          expect(held.map((_, i) => page.keyAt(i))).toEqual(held);
          // Needles taken from the keys too, so that most match, some within shared prefixes, some
          // across a prefix and the suffix after it.
          const probes = [
            ...needles,
            ...held.filter((_, i) => i % 7 === 0).map((k) => Array.from(k).slice(1, 4).join("")),
            ...held.filter((_, i) => i % 11 === 3).map((k) => Array.from(k).slice(2, 14).join("")),
          ].filter((n) => n.length > 0);
          for (const needle of probes) {
            // As a list of candidates across pages gives them: key indices from `base`, among others.
            const base = Math.floor(random() * 1000);
            const wanted = held.flatMap((_, i) => (random() < share ? [base + i] : []));
            const before = [7, 7, 7];
            const list = [...before, ...wanted, 9];
            const out = new Uint32Array(before.length + wanted.length);
            const end = page.including(list, before.length, list.length - 1, base, utf8.encode(needle), out, 2);
            expect([...out.subarray(2, end)], needle).toEqual(wanted.filter((k) => held[k - base].includes(needle)));
          }
        }
      }),
      { numRuns: 150 },
    );
    expect(pagesSeen).toBeGreaterThan(1);
  });

  it("decode and search a page holding a key longer than a call's argument limit (200,000 ASCII bytes)", () => {
    const long = `com.acme.${"x".repeat(200_000)}`;
    const keys = [long, `${long}y`, "com.acme.z"];
    const decoded = paged(keys);
    // Each long key fills a page of its own; compared by equality, so that a failure does not print them.
    expect(decoded.flatMap(({ page }) => page.keys()).map((k, i) => k === keys[i])).toEqual([true, true, true]);
    expect(decoded.map(({ page }) => searched(page, [0], "xy"))).toEqual([[], [0], []]);
  });
});
