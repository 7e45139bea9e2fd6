// @module Key pages (KFUL/DFUL) with their postings, and trigram chunks (CFUL): hand-worked bytes, round trips, paged keys against keys in memory, reads by range at scale, and corrupt parts refused.
import fc from "fast-check";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { Blocks, encodeBlocks } from "../../src/format/blocks.ts";
import { crc32 } from "../../src/format/crc32.ts";
import { decodeSnapshotModel } from "../../src/format/decode.ts";
import { CorruptSnapshotError } from "../../src/format/errors.ts";
import {
  encodeKeyDirectory,
  encodeKeyPages,
  KEY_RESTART,
  KeyDirectory,
  KeyPage,
  narrowest,
  type Postings,
} from "../../src/format/key-pages.ts";
import type { KeyList } from "../../src/format/search-index.ts";
import { SectionCache } from "../../src/format/section-cache.ts";
import { type ByteSource, countingSource, delayedSource, memorySource, Snapshot } from "../../src/format/snapshot.ts";
import { lowerNeedle } from "../../src/format/string-list.ts";
import { TrigramIndex, trigramAt } from "../../src/format/trigram-index.ts";
import { fieldIndex } from "../../src/query/field-index.ts";
import { type FindObjectsQuery, findObjects } from "../../src/query/find-objects.ts";
import { equalRange, memoryKeys, prefixRange, type SearchKeys, suffixKeys } from "../../src/query/search-keys.ts";
import { collect } from "../../src/query/streamed-list.ts";
import { generatedSnapshot } from "../support/generated-snapshot.ts";
import { block, getU32, patchSection, rawSection } from "./snapshot-bytes.ts";

/** The keys among `wanted` (indices into `page`) that hold `needle`, as the page's search writes them. */
function searched(page: KeyPage, wanted: number[], needle: string): number[] {
  const out = new Uint32Array(wanted.length);
  return [...out.subarray(0, page.including(wanted, 0, wanted.length, 0, new TextEncoder().encode(needle), out, 0))];
}

/** One posting a key, its rank its position (as names: ranks follow keys), or the `ranks` of each key, stored. */
const postingsOf = (keys: readonly string[], ranks?: readonly number[][]): Postings =>
  ranks
    ? {
        offsets: Uint32Array.from([0, ...ranks.map((_, k) => ranks.slice(0, k + 1).flat().length)]),
        ranks: Uint32Array.from(ranks.flat()),
      }
    : { offsets: Uint32Array.from({ length: keys.length + 1 }, (_, k) => k), ranks: null };
const directoryOf = (keys: readonly string[], ranks?: readonly number[][], rows = keys.length) => {
  const pages = encodeKeyPages(keys, postingsOf(keys, ranks));
  return {
    pages,
    directory: new KeyDirectory(
      new Blocks(encodeBlocks(encodeKeyDirectory(pages)), "DTST", 6),
      "test keys",
      rows,
      ranks !== undefined,
    ),
  };
};
const pageBytes = (pages: ReturnType<typeof encodeKeyPages>, p: number) =>
  pages.pages.subarray(pages.offsets[p], pages.offsets[p + 1]);
const decodeAll = (keys: readonly string[]) => {
  const { pages, directory } = directoryOf(keys);
  return Array.from({ length: directory.pageCount }, (_, p) =>
    directory.decodePage(p, pageBytes(pages, p)).keys(),
  ).flat();
};
/** Keys held in a plain array: the reference the paged keys must agree with. */
const arrayKeys = (keys: readonly string[]): KeyList => ({
  length: keys.length,
  get: (k) => keys[k],
  all: () => keys,
  includes: (k, needle) => keys[k].includes(needle.text),
  including: (candidates, needle) => candidates.filter((k) => keys[k].includes(needle.text)),
});

describe("key pages", () => {
  it("front-codes a page as worked out by hand: count, (shared, suffix length, postings) in UTF-8 bytes per key, then the suffixes", () => {
    const { pages, directory } = directoryOf(["com.acme.a", "com.acme.b", "com.acme.bc", "org.é"]);
    expect(directory.pageCount).toBe(1);
    const head = [4, 0, 10, 1, 9, 1, 1, 10, 1, 1, 0, 6, 1]; // "org.é" is 6 bytes
    expect(Array.from(pageBytes(pages, 0))).toEqual([...head, ...new TextEncoder().encode("com.acme.abcorg.é")]);
    expect(directory.decodePage(0, pageBytes(pages, 0)).keys()).toEqual([
      "com.acme.a",
      "com.acme.b",
      "com.acme.bc",
      "org.é",
    ]);
    expect(Array.from(directory.decodePage(0, pageBytes(pages, 0)).ranksOf(3))).toEqual([3]);
  });

  it("stores each key's ranks after the suffixes when they are not its postings' positions: the first, then gaps minus one", () => {
    const { pages, directory } = directoryOf(["a", "b"], [[0, 2], [1]], 3);
    expect(Array.from(directory.firstPostings)).toEqual([0, 3]);
    // 2 keys; "a": shares 0, 1 byte, 2 postings; "b": 0, 1, 1; "ab"; ranks 0, 2 − 0 − 1, then 1.
    expect(Array.from(pageBytes(pages, 0))).toEqual([2, 0, 1, 2, 0, 1, 1, 0x61, 0x62, 0, 1, 1]);
    const page = directory.decodePage(0, pageBytes(pages, 0));
    expect([Array.from(page.ranksOf(0)), Array.from(page.ranksOf(1))]).toEqual([[0, 2], [1]]);
    // A rank past the objects is refused.
    const past = directoryOf(["a", "b"], [[0, 3], [1]], 3);
    expect(() => past.directory.decodePage(0, pageBytes(past.pages, 0))).toThrow(
      "test keys: page 0 key 0 holds rank 3, past the objects",
    );
  });

  it("never splits a character between the shared prefix and the suffix", () => {
    const keys = ["aé", "aê", "a\u{1F408}", "a\u{1F409}", "a\u{1F409}x"]; // in code-unit order: U+00E9 < U+00EA < U+D83D
    const { pages } = directoryOf(keys);
    // é C3 A9 and ê C3 AA share "a" only; 🐈 F0 9F 90 88 and 🐉 F0 9F 90 89 too; a🐉x all 5 bytes of a🐉.
    expect(Array.from(pageBytes(pages, 0).subarray(0, 16))).toEqual([5, 0, 3, 1, 1, 2, 1, 1, 4, 1, 1, 4, 1, 5, 1, 1]);
    expect(decodeAll(keys)).toEqual(keys);
  });

  it("stores every sixteenth key whole (a restart), so a key is rebuilt from at most 15 before it", () => {
    const keys = Array.from({ length: 20 }, (_, i) => `key.${String(i).padStart(2, "0")}`);
    const { pages, directory } = directoryOf(keys);
    const page = pageBytes(pages, 0);
    expect(Array.from(page.subarray(1 + 3 * 15, 1 + 3 * 18))).toEqual([5, 1, 1, 0, 6, 1, 5, 1, 1]); // key.15 shares "key.1"; key.16 nothing; key.17 "key.1"
    const decoded = directory.decodePage(0, page);
    expect(searched(decoded, [17], "y.17")).toEqual([17]);
    expect(searched(decoded, [3, 16, 19], ".1")).toEqual([16, 19]);
    expect([0, 15, 16, 17, 19].map((i) => decoded.keyAt(i))).toEqual([
      "key.00",
      "key.15",
      "key.16",
      "key.17",
      "key.19",
    ]);
  });

  it("round-trips any sorted distinct keys, across pages, with first keys in the directory (property)", () => {
    const key = fc.string({ unit: fc.constantFrom("a", "b", "com.", "é", "\u{1F408}", "x".repeat(40)), maxLength: 12 });
    fc.assert(
      fc.property(fc.uniqueArray(key, { maxLength: 600 }), (raw) => {
        const keys = [...raw].sort();
        const { directory } = directoryOf(keys);
        expect(decodeAll(keys)).toEqual(keys);
        expect(directory.keyCount).toBe(keys.length);
        for (let p = 0; p < directory.pageCount; p++)
          expect(directory.firstKeyOf(p)).toBe(keys[directory.firstKeys[p]]);
        // With ranks stored: two postings for even keys, one for odd ones, ranks numbered from the last key back.
        const counts = keys.map((_, k) => (k % 2 === 0 ? 2 : 1));
        const total = counts.reduce((a, b) => a + b, 0);
        let at = total;
        const ranks = counts
          .map((c) => Array.from({ length: c }, (_, i) => at - c + i))
          .map((r) => ((at -= r.length), r));
        const stored = directoryOf(keys, ranks, total);
        const decoded: number[][] = [];
        for (let p = 0; p < stored.directory.pageCount; p++) {
          const page = stored.directory.decodePage(p, pageBytes(stored.pages, p));
          expect(page.keys()).toEqual(keys.slice(stored.directory.firstKeys[p], stored.directory.firstKeys[p + 1]));
          for (let i = 0; i < page.count; i++) decoded.push(Array.from(page.ranksOf(i)));
        }
        expect(decoded).toEqual(ranks.filter((_, k) => k < keys.length));
      }),
      { numRuns: 200 },
    );
  });

  it("refuses a page whose count, order or text disagrees with its directory (checksums recomputed)", () => {
    const keys = ["alpha", "beta", "gamma"];
    const { pages, directory } = directoryOf(keys);
    const bytes = pageBytes(pages, 0).slice();
    const resealed = (mutate: (b: Uint8Array) => void) => {
      const b = bytes.slice();
      mutate(b);
      // The directory's CRC is made to match, so only the structural checks can refuse.
      const d = encodeKeyDirectory({ ...pages, crcs: Uint32Array.of(crc32(b)) });
      return () => new KeyDirectory(new Blocks(encodeBlocks(d), "DTST", 6), "test keys", 3, false).decodePage(0, b);
    };
    expect(() =>
      directory.decodePage(
        0,
        bytes.map((x, i) => (i === bytes.length - 1 ? x ^ 1 : x)),
      ),
    ).toThrow("test keys: page 0 checksum mismatch");
    expect(resealed((b) => (b[0] = 2))).toThrow("test keys: page 0 holds 2 keys, its directory says 3");
    // "beta" → "aeta": below "alpha".
    expect(resealed((b) => (b[b.length - 9] = 0x61))).toThrow("test keys: page 0 key 1 is out of order");
  });

  it("holds its lengths and counts in the narrowest arrays, whatever their size: keys past 255 and 65,535 bytes, a key of 70,000 postings", () => {
    expect(narrowest(Uint32Array.of(0, 255))).toBeInstanceOf(Uint8Array);
    expect(narrowest(Uint32Array.of(3, 256))).toBeInstanceOf(Uint16Array);
    expect(narrowest(Uint32Array.of(65_536, 1))).toBeInstanceOf(Uint32Array);
    expect(Array.from(narrowest(Uint32Array.of(7, 65_535, 0)))).toEqual([7, 65_535, 0]);
    const keys = ["a", `b${"x".repeat(300)}`, `c${"y".repeat(70_000)}`, "d"];
    const many = Array.from({ length: 70_000 }, (_, i) => i + 3);
    const ranks = [[0], [1], many, [2]];
    const { pages, directory } = directoryOf(keys, ranks, 70_003);
    const decoded = Array.from({ length: directory.pageCount }, (_, p) => directory.decodePage(p, pageBytes(pages, p)));
    expect(decoded.flatMap((page) => page.keys())).toEqual(keys);
    const all = decoded.flatMap((page) => Array.from({ length: page.count }, (_, i) => Array.from(page.ranksOf(i))));
    expect(all).toEqual(ranks);
    expect(decoded.flatMap((page) => Array.from({ length: page.count }, (_, i) => page.keyAt(i)))).toEqual(keys);
  });

  it("finds the first key not above the one before it as string comparison does, however much each key shares (property)", () => {
    const encoder = new TextEncoder();
    // ASCII pages are compared by their bytes; "é", "\ue000" and "😀" (above U+FFFF: UTF-8 order
    // differs from code-unit order against U+E000) send a page to strings.
    const ascii = fc.constantFrom("a", "b", "c", "\u0000", "~", "\u007f");
    const any = fc.constantFrom("a", "b", "c", "~", "\u007f", "é", "\ue000", "😀");
    const keysOf = (character: fc.Arbitrary<string>) =>
      fc.array(
        fc.array(character, { maxLength: 6 }).map((cs) => cs.join("")),
        { minLength: 1, maxLength: 60 },
      );
    // Most real pages ascend: sorted and distinct, then one key moved, repeated or left as it is.
    const pages = fc
      .tuple(fc.oneof(keysOf(ascii), keysOf(any)), fc.constantFrom("as drawn", "ascending", "repeat", "swap"), fc.nat())
      .map(([drawn, shape, at]) => {
        if (shape === "as drawn") return drawn;
        const keys = [...new Set(drawn)].sort();
        const i = at % keys.length;
        if (shape === "repeat") keys.splice(i, 0, keys[i]);
        if (shape === "swap" && i + 1 < keys.length) [keys[i], keys[i + 1]] = [keys[i + 1], keys[i]];
        return keys;
      });
    fc.assert(
      fc.property(pages, fc.array(fc.nat(), { minLength: 60, maxLength: 60 }), (keys, draws) => {
        const bytes = keys.map((k) => encoder.encode(k));
        // A key shares with the one before it any number of bytes up to their common prefix (none at restarts).
        const shared = bytes.map((b, i) => {
          if (i % KEY_RESTART === 0) return 0;
          let common = 0;
          while (common < b.length && common < bytes[i - 1].length && b[common] === bytes[i - 1][common]) common++;
          return draws[i] % (common + 1);
        });
        const suffixes = bytes.map((b, i) => b.subarray(shared[i]));
        const text = new Uint8Array(suffixes.reduce((n, b) => n + b.length, 0));
        suffixes.reduce((at, b) => (text.set(b, at), at + b.length), 0);
        const page = new KeyPage(
          text,
          keys.length,
          Uint32Array.from(shared),
          Uint32Array.from(suffixes, (b) => b.length),
          {
            starts: Uint32Array.from({ length: keys.length + 1 }, (_, i) => i),
            ranks: null,
            first: 0,
          },
        );
        const expected = keys.findIndex((k, i) => i > 0 && !(keys[i - 1] < k));
        expect(page.firstOutOfOrder()).toBe(expected);
      }),
      { numRuns: 1000 },
    );
  });

  it("checks a page's keys the first time it is read: read again, the same page is trusted, a refused one refused again", () => {
    const keys = ["alpha", "beta", "gamma"];
    const { pages, directory } = directoryOf(keys);
    const bytes = pageBytes(pages, 0).slice();
    for (let read = 0; read < 3; read++) expect(directory.decodePage(0, bytes).keys()).toEqual(keys);
    // "beta" → "aeta", its checksum in a directory of its own: refused at every read.
    const forged = bytes.slice();
    forged[forged.length - 9] = 0x61;
    const d = encodeKeyDirectory({ ...pages, crcs: Uint32Array.of(crc32(forged)) });
    const forgedDirectory = new KeyDirectory(new Blocks(encodeBlocks(d), "DTST", 6), "test keys", 3, false);
    for (let read = 0; read < 2; read++)
      expect(() => forgedDirectory.decodePage(0, forged)).toThrow("test keys: page 0 key 1 is out of order");
  });
});

describe("a 20k-object snapshot: fullName keys in pages, its trigram lists read by range", () => {
  let bytes: Uint8Array;
  let fullNames: string[];
  beforeAll(async () => {
    bytes = await generatedSnapshot(20_000, 11);
    const model = await decodeSnapshotModel(await Snapshot.open(memorySource(bytes)));
    fullNames = [...new Set(model.objects.map((o) => o.fullName.toLowerCase()))].sort();
  }, 120_000);

  it("the paged keys answer every search as keys in memory do", async () => {
    const snapshot = await Snapshot.open(memorySource(bytes), { sections: new SectionCache(1 << 20) });
    const field = await fieldIndex(snapshot, "KFUL", "contains");
    expect(field.index).toBeNull(); // keys and postings in pages
    const paged: SearchKeys = field.keys;
    const reference = memoryKeys(arrayKeys(fullNames));
    expect(paged.length).toBe(fullNames.length);
    expect(((await snapshot.section("DFUL")) as KeyDirectory).pageCount).toBeGreaterThan(50);
    // Probes: every 97th key, its prefixes and substrings, and values between and beyond the keys.
    const probes = new Set(["", "a", "zzzz", "~", "com.", "\u{1F408}"]);
    for (let k = 0; k < fullNames.length; k += 97) {
      const key = fullNames[k];
      probes
        .add(key)
        .add(key.slice(0, 7))
        .add(key.slice(0, key.length - 1))
        .add(`${key}!`)
        .add(key.slice(3, 9))
        .add(key.slice(-6));
    }
    for (const probe of probes) {
      expect(await paged.lowerBound(probe), probe).toBe(await reference.lowerBound(probe));
      expect(await prefixRange(paged, probe), probe).toEqual(await prefixRange(reference, probe));
      expect(await equalRange(paged, probe), probe).toEqual(await equalRange(reference, probe));
      expect(Array.from(await suffixKeys(paged, field.postings, probe, probe.length % 2 === 0)), probe).toEqual(
        Array.from(await suffixKeys(reference, field.postings, probe, false)),
      );
    }
    const every = Uint32Array.from(fullNames.keys());
    for (const needle of ["service", "get", ".v", "zq"])
      expect(Array.from(await paged.including(every, lowerNeedle(needle)))).toEqual(
        Array.from(await reference.including(every, lowerNeedle(needle))),
      );
    for (const needle of ["ice.", "s", "\u00e9"])
      expect(Array.from(await paged.including(null, lowerNeedle(needle)))).toEqual(
        fullNames.flatMap((key, k) => (key.includes(needle) ? [k] : [])),
      );
    const sparse = Uint32Array.from(fullNames.keys()).filter((k) => k % 7 === 3 || k % 500 === 0);
    expect(Array.from(await paged.including(sparse, lowerNeedle("con")))).toEqual(
      Array.from(sparse).filter((k) => fullNames[k].includes("con")),
    );
    expect(await paged.keysAt([0, fullNames.length - 1, 5000])).toEqual([
      fullNames[0],
      fullNames[fullNames.length - 1],
      fullNames[5000],
    ]);
  });

  /** The first 10 objects whose fullName contains `needle`. */
  const fullNameContains = (needle: string): FindObjectsQuery => ({
    filters: { fullname: [needle] },
    operator: "contains",
    searchtype: "all",
    skip: 0,
    limit: 10,
  });

  it("a fullname filter reads a few pages and lists, not KFUL and TFUL whole, when TFUL outweighs an eighth of the budget", async () => {
    const source = countingSource(memorySource(bytes));
    const budget = 2 << 20;
    expect(rawSection(bytes, "TFUL").length).toBeGreaterThan(budget / 8);
    const snapshot = await Snapshot.open(source, { sections: new SectionCache(budget) });
    const whole = rawSection(bytes, "KFUL").length + rawSection(bytes, "TFUL").length;
    const before = source.bytesRead;
    const needle = fullNames[12_345].slice(-12);
    const query = fullNameContains(needle);
    const answer = await findObjects(snapshot, query).then(collect);
    expect(answer.totalObjects).toBeGreaterThan(0);
    for (const o of answer.objects) expect(o.fullName.toLowerCase()).toContain(needle);
    // The key directory is read whole; the key pages and TFUL are not.
    expect(source.bytesRead - before).toBeLessThan(rawSection(bytes, "DFUL").length + whole / 4);
    expect(await snapshot.loadedBytes()).toBeLessThan(rawSection(bytes, "DFUL").length + whole / 4);
  });

  it("reads at most six trigram lists of a long fullName through a source that lets six reads wait at once, with the same answer", async () => {
    const needle = fullNames[12_345];
    expect(needle.length).toBeGreaterThan(30);
    const query = fullNameContains(needle);
    /** The answer through `source` (TFUL read by range under a 2 MiB budget), and the most lists one call asked for. */
    const answered = async (source: ByteSource) => {
      const asked: number[] = [];
      const original = TrigramIndex.prototype.lists;
      const lists = vi.spyOn(TrigramIndex.prototype, "lists").mockImplementation(function (this: TrigramIndex, slots) {
        asked.push(new Set(slots).size);
        return original.call(this, slots);
      });
      try {
        const snapshot = await Snapshot.open(source, { sections: new SectionCache(2 << 20) });
        return { answer: await findObjects(snapshot, query).then(collect), most: Math.max(...asked) };
      } finally {
        lists.mockRestore();
      }
    };
    const unlimited = await answered(memorySource(bytes, "long needle"));
    const six = await answered(delayedSource(memorySource(bytes, "long needle, six at once"), 1));
    expect(six.answer).toEqual(unlimited.answer);
    expect(six.answer.objects.map((o) => o.fullName.toLowerCase())).toContain(needle);
    expect(unlimited.most).toBeGreaterThan(6);
    expect(six.most).toBeLessThanOrEqual(6);
  });

  it("refuses a key page, a trigram chunk or a trigram head that does not match its checksum", async () => {
    // A budget of 1 MiB: TFUL (over 128 KiB) is read by range.
    const query =
      (filters: FindObjectsQuery["filters"], operator: FindObjectsQuery["operator"]) => async (b: Uint8Array) =>
        findObjects(await Snapshot.open(memorySource(b), { sections: new SectionCache(1 << 20) }), {
          filters,
          operator,
          searchtype: "all",
          skip: 0,
          limit: 10,
        }).then(collect);
    const flipped = (tag: string, at: (body: Uint8Array) => number) =>
      patchSection(bytes, tag, (body) => void (body[at(body)] ^= 0x20));
    const refusal = async (run: Promise<unknown>) =>
      run.then(
        () => null,
        (e: unknown) => e,
      );

    const keyPage = await refusal(
      query({ fullname: [fullNames[0]] }, "equals")(flipped("KFUL", (body) => block(body, 0).offset + 3)),
    );
    expect(keyPage).toBeInstanceOf(CorruptSnapshotError);
    expect((keyPage as Error).message).toBe("KFUL directory: page 0 checksum mismatch");

    // The first byte of the list of the first key's first trigram.
    const trigram = fullNames[0].slice(0, 3);
    const tful = rawSection(bytes, "TFUL");
    const body = bytes.subarray(tful.offset, tful.offset + tful.length);
    const codes = Array.from({ length: block(body, 0).length / 4 }, (_, i) => getU32(body, 0, i));
    const listStart = block(body, 3).offset + getU32(body, 2, codes.indexOf(trigramAt(trigram, 0)));
    const chunk = await refusal(query({ fullname: [trigram] }, "contains")(flipped("TFUL", () => listStart)));
    expect(chunk).toBeInstanceOf(CorruptSnapshotError);
    expect((chunk as Error).message).toMatch(/^TFUL chunk directory: page [0-9]+ checksum mismatch$/);

    const head = await refusal(
      query({ fullname: [trigram] }, "contains")(flipped("TFUL", (body) => block(body, 0).offset)),
    );
    expect(head).toBeInstanceOf(CorruptSnapshotError);
    expect((head as Error).message).toBe("TFUL: its head does not match its chunk directory's checksum");
  });
});
