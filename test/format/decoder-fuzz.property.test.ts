// @module Decoder fuzzing on Node: corrupted snapshots (flipped, cut, spliced, or patched and re-sealed so the decoders see them) either answer or throw CorruptSnapshotError — never another error, a hang or a huge allocation.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileDocument } from "../../build/compile/compile-document.ts";
import { ApiError } from "../../src/contract/errors.ts";
import type { FilterName } from "../../src/contract/params.ts";
import { decodeSnapshotModel } from "../../src/format/decode.ts";
import { CorruptSnapshotError } from "../../src/format/errors.ts";
import { SECTIONS, type SectionTag } from "../../src/format/sections.ts";
import { memorySource, Snapshot } from "../../src/format/snapshot.ts";
import { objectCallees } from "../../src/query/callees.ts";
import { objectCharacteristics } from "../../src/query/characteristics.ts";
import { FILTER_INDEX, findObjects } from "../../src/query/find-objects.ts";
import { levelGraph, levelNodes } from "../../src/query/levels.ts";
import { startEndPoints } from "../../src/query/points.ts";
import { objectLocations } from "../../src/query/source-locator.ts";
import { collect } from "../../src/query/streamed-list.ts";
import { type Analysis, arbitraryAnalysis } from "../support/arbitrary-analysis.ts";
import { ENTRY, HEADER, patchSection, rawSections, resealHeader } from "./snapshot-bytes.ts";

const TAGS = Object.keys(SECTIONS) as SectionTag[];
/** Time one case (open, every section, every query) may take on a snapshot of at most 10 objects. */
const CASE_MS = 5_000;
/** What the whole run may add to the heap and to array buffers. */
const MEMORY_BUDGET = 500 * 1024 * 1024;

// ---- corruptions -------------------------------------------------------------------------------------

type Corruption =
  | { kind: "flip"; at: number[]; xor: number[] }
  | { kind: "truncate"; at: number }
  | { kind: "splice"; at: number; remove: number; insert: Uint8Array }
  | { kind: "section"; section: number; at: number[]; xor: number[] }
  | { kind: "section-u32"; section: number; word: number; value: number }
  | { kind: "toc"; entry: number; field: number; value: number }
  | { kind: "header"; field: 12 | 16 | 24 | 32; value: number };

/** Values that break counts, offsets and lengths in interesting ways. */
const interesting = fc.oneof(
  fc.constantFrom(
    0,
    1,
    2,
    3,
    7,
    8,
    0xff,
    0x100,
    0xffff,
    0x10000,
    0x7fffffff,
    0x80000000,
    0xfffffffe,
    0xffffffff,
    1_000_000,
    100_000_000,
  ),
  fc.nat({ max: 0xffffffff }),
);
const positions = fc.array(fc.nat(), { minLength: 1, maxLength: 8 });
const xors = fc.array(fc.integer({ min: 1, max: 255 }), { minLength: 8, maxLength: 8 });

const corruption: fc.Arbitrary<Corruption> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("flip" as const), at: positions, xor: xors }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("splice" as const),
      at: fc.nat(),
      remove: fc.nat({ max: 16 }),
      insert: fc.uint8Array({ maxLength: 16 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant("section" as const), section: fc.nat(), at: positions, xor: xors }),
  },
  // Words near the start of a body are its block table (count, offsets, lengths): favour them.
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("section-u32" as const),
      section: fc.nat(),
      word: fc.oneof(fc.nat({ max: 24 }), fc.nat()),
      value: interesting,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("toc" as const),
      entry: fc.nat(),
      field: fc.constantFrom(0, 4, 8, 16),
      value: interesting,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("header" as const),
      field: fc.constantFrom(12 as const, 16 as const, 24 as const, 32 as const),
      value: interesting,
    }),
  },
);

/** `bytes` with `c` applied; the "section", "toc" and "header" kinds re-seal every checksum so only the decoders can object. */
function corrupt(bytes: Uint8Array, c: Corruption): Uint8Array {
  switch (c.kind) {
    case "flip": {
      const out = bytes.slice();
      c.at.forEach((p, i) => (out[p % out.length] ^= c.xor[i]));
      return out;
    }
    case "truncate":
      return bytes.slice(0, c.at % bytes.length);
    case "splice": {
      const at = c.at % (bytes.length + 1);
      const out = new Uint8Array(bytes.length - Math.min(c.remove, bytes.length - at) + c.insert.length);
      out.set(bytes.subarray(0, at));
      out.set(c.insert, at);
      out.set(bytes.subarray(at + c.remove), at + c.insert.length);
      return out;
    }
    case "section": {
      const sections = rawSections(bytes).filter((s) => s.length > 0);
      const s = sections[c.section % sections.length];
      return patchSection(bytes, s.tag, (body) => c.at.forEach((p, i) => (body[p % body.length] ^= c.xor[i])));
    }
    case "section-u32": {
      const sections = rawSections(bytes).filter((s) => s.length >= 4);
      const s = sections[c.section % sections.length];
      return patchSection(bytes, s.tag, (body, view) =>
        view.setUint32((c.word % Math.floor(body.length / 4)) * 4, c.value, true),
      );
    }
    case "toc": {
      const out = bytes.slice();
      const view = new DataView(out.buffer);
      const count = view.getUint32(12, true);
      const at = HEADER + (c.entry % count) * ENTRY + c.field;
      if (c.field === 0) view.setUint32(at, c.value, true);
      else if (c.field === 4) view.setUint32(at, c.value, true);
      else view.setBigUint64(at, BigInt(c.value), true);
      resealHeader(out);
      return out;
    }
    case "header": {
      const out = bytes.slice();
      const view = new DataView(out.buffer);
      if (c.field === 16 || c.field === 32) view.setBigUint64(c.field, BigInt(c.value), true);
      else view.setUint32(c.field, c.value, true);
      // A TOC offset or length the reseal cannot read is itself a refusal of the reader, so only reseal when it can.
      try {
        resealHeader(out);
      } catch {
        // keep the stale checksums
      }
      return out;
    }
  }
}

// ---- exercising the reader --------------------------------------------------------------------------------

interface Tally {
  /** Cases where every operation answered. */
  clean: number;
  /** Cases refused by the container only (checksums, header, table of contents), and cases a section decoder refused. */
  checksum: number;
  decoder: number;
}

/** Runs `operation`; a CorruptSnapshotError or object_not_found is an answer, anything else fails the test. */
async function attempt(what: string, operation: () => Promise<unknown>, refusals: string[]): Promise<void> {
  try {
    await operation();
  } catch (error) {
    if (error instanceof CorruptSnapshotError) {
      refusals.push(error.message);
      return;
    }
    if (error instanceof ApiError && error.code === "object_not_found") return;
    throw new Error(`${what} threw ${(error as Error)?.name}: ${(error as Error)?.message}`, { cause: error });
  }
}

const FILTERS: [FilterName, string][] = (Object.keys(FILTER_INDEX) as FilterName[]).map((name) => [name, "a"]);

/** Opens `bytes` and reads everything the API can read; returns the CorruptSnapshotError messages seen. */
async function readEverything(bytes: Uint8Array, ids: string[]): Promise<string[]> {
  const refusals: string[] = [];
  let snapshot: Snapshot | undefined;
  await attempt("Snapshot.open", async () => (snapshot = await Snapshot.open(memorySource(bytes))), refusals);
  if (!snapshot) return refusals;
  const s = snapshot;
  for (const tag of TAGS) await attempt(`section ${tag}`, () => s.section(tag), refusals);
  await attempt("decodeSnapshotModel", () => decodeSnapshotModel(s), refusals);
  await attempt(
    "source locations",
    async () => {
      await objectLocations(
        s,
        Array.from({ length: s.meta.counts.objects }, (_, r) => r),
      );
    },
    refusals,
  );
  const find = (
    filters: Partial<Record<FilterName, string[]>>,
    extra: Partial<Parameters<typeof findObjects>[1]> = {},
  ) =>
    attempt(
      `findObjects ${JSON.stringify(filters)}`,
      () =>
        findObjects(s, { filters, operator: "contains", searchtype: "all", skip: 0, limit: 20, ...extra }).then(
          collect,
        ),
      refusals,
    );
  await find({});
  await find({}, { searchtype: "external", skip: 1, limit: 3 });
  for (const [name, value] of FILTERS) await find({ [name]: [value, ""] });
  await find({ name: ["a"], type: ["java"] }, { operator: "equals" });
  await find({ fullname: ["."] }, { operator: "startswith", searchtype: "internal" });
  const previous = { key: "previous", open: async () => s };
  for (const id of ids) {
    await attempt(`objectCharacteristics ${id}`, () => objectCharacteristics(s, id, null), refusals);
    await attempt(
      `objectCharacteristics ${id} with a previous version`,
      () => objectCharacteristics(s, id, previous),
      refusals,
    );
    await attempt(
      `objectCallees ${id}`,
      () => objectCallees(s, id, { includeEscalated: true, withParent: true }).then(collect),
      refusals,
    );
    await attempt(
      `objectCallees ${id} direct`,
      () => objectCallees(s, id, { includeEscalated: false, withParent: false }).then(collect),
      refusals,
    );
    await attempt(`startEndPoints ${id}`, () => startEndPoints(s, id, 3).then(collect), refusals);
  }
  for (let level = 2; level <= 5; level++) {
    await attempt(`levelNodes ${level} by name`, () => levelNodes(s, level, { name: "a" }).then(collect), refusals);
    await attempt(`levelNodes ${level} by _id`, () => levelNodes(s, level, { id: 0 }).then(collect), refusals);
    await attempt(
      `levelNodes ${level} by name and _id`,
      () => levelNodes(s, level, { name: "", id: 1 }).then(collect),
      refusals,
    );
  }
  for (let level = 1; level <= 5; level++) await attempt(`levelGraph ${level}`, () => levelGraph(s, level), refusals);
  return refusals;
}

/** Refusals of the container (header, table of contents, checksums) rather than of a section decoder. */
const CONTAINER =
  /checksum mismatch|snapshot header|table of contents|truncated|bad magic|format version|of the file|aligned|overlaps|appears twice|too short/;

const memory = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

describe("corrupted snapshots", () => {
  it("the exercise reads a healthy snapshot without any refusal", async () => {
    const analysis = fc.sample(
      arbitraryAnalysis({ maxObjects: 10, withTaxonomy: true }).filter(
        (a) => a.objects.length >= 3 && a.links.length > 0,
      ),
      { numRuns: 1, seed: 7 },
    )[0];
    const { bytes } = compileDocument(analysis);
    expect(
      await readEverything(
        bytes,
        analysis.objects.map((o) => o.id as string),
      ),
    ).toEqual([]);
  });

  it("answer or throw CorruptSnapshotError, within bounds of time and memory", async () => {
    const tally: Tally = { clean: 0, checksum: 0, decoder: 0 };
    const start = memory();
    let peak = 0;
    await fc.assert(
      fc.asyncProperty(
        arbitraryAnalysis({ maxObjects: 10 }),
        fc.array(corruption, { minLength: 1, maxLength: 2 }),
        async (analysis: Analysis, corruptions) => {
          const { bytes } = compileDocument(analysis);
          let broken = bytes;
          for (const c of corruptions)
            try {
              if (broken.length > 0) broken = corrupt(broken, c);
            } catch {
              // A first corruption left no table of contents the test helpers can follow: keep those bytes.
            }
          const ids = [...analysis.objects.slice(0, 3).map((o) => o.id as string), "1", "9999999999999999999"];
          const began = performance.now();
          const refusals = await readEverything(broken, ids);
          const took = performance.now() - began;
          expect(took, `one case took ${Math.round(took)} ms`).toBeLessThan(CASE_MS);
          const used = memory() - start;
          peak = Math.max(peak, used);
          expect(used, `memory grew by ${Math.round(used / 2 ** 20)} MB`).toBeLessThan(MEMORY_BUDGET);
          if (refusals.length === 0) tally.clean++;
          else if (refusals.every((m) => CONTAINER.test(m))) tally.checksum++;
          else tally.decoder++;
        },
      ),
      { numRuns: 1000, interruptAfterTimeLimit: 30_000 },
    );
    // The re-sealed corruptions did reach the decoders, and some corruptions were harmless.
    expect(tally.decoder, JSON.stringify(tally)).toBeGreaterThan(50);
    expect(tally.checksum, JSON.stringify(tally)).toBeGreaterThan(10);
    expect(tally.clean, JSON.stringify(tally)).toBeGreaterThan(0);
    expect(peak).toBeLessThan(MEMORY_BUDGET);
  });
});
