// @module The row store (ROWP pages + ROWD directory): rows hold what the columns and the encoder's model hold, damaged pages are refused, and answers read pages rather than whole columns.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { compileDocument } from "../../build/compile/compile-document.ts";
import { crc32 } from "../../src/format/crc32.ts";
import { decodeSnapshotModel } from "../../src/format/decode.ts";
import { CorruptSnapshotError, SnapshotLimitError } from "../../src/format/errors.ts";
import { NONE, type ObjectRecord } from "../../src/format/model.ts";
import { MAX_RAW_PAGE, MAX_STORED_PAGE, ROW_PAGE_BYTES, rowJson } from "../../src/format/object-rows.ts";
import { holdsPage, loadPages, readsToLoad } from "../../src/format/page-loads.ts";
import { SectionCache } from "../../src/format/section-cache.ts";
import { countingSource, delayedSource, memorySource, Snapshot } from "../../src/format/snapshot.ts";
import { StorageMeter } from "../../src/format/storage-meter.ts";
import { lowerNeedle } from "../../src/format/string-list.ts";
import { objectCallees } from "../../src/query/callees.ts";
import { fieldIndex } from "../../src/query/field-index.ts";
import { findObjects } from "../../src/query/find-objects.ts";
import {
  type ObjectRow,
  objectRowBatches,
  objectRows,
  ranksPassing,
  summaryBatches,
} from "../../src/query/object-rows.ts";
import type { PagedKeys } from "../../src/query/search-keys.ts";
import { collect, StreamedList } from "../../src/query/streamed-list.ts";
import petstoreV1 from "../fixtures/examples/petstore-v1.json";
import { turnsDuring } from "../support/event-loop-turns.ts";
import { expectedRow } from "../support/expected-row.ts";
import { generatedSnapshot } from "../support/generated-snapshot.ts";
import { patchSection, rawSections, setU32 } from "./snapshot-bytes.ts";

const OBJECTS = 20_000;
let bytes: Uint8Array;

beforeAll(async () => {
  bytes = await generatedSnapshot(OBJECTS, 7);
}, 120_000);

describe("row store", () => {
  it("holds, for every object, exactly the fields of the columns, across page boundaries", async () => {
    const snapshot = await Snapshot.open(memorySource(bytes));
    const model = await decodeSnapshotModel(snapshot);
    const directory = await snapshot.section("ROWD");
    expect(directory.pageCount).toBeGreaterThan(OBJECTS / 100); // pages of ~4 KiB, tens of rows each
    const ranks = Array.from({ length: OBJECTS }, (_, r) => r).filter(
      (r) => r % 7 === 0 || directory.firstRanks.includes(r) || directory.firstRanks.includes(r + 1),
    );
    const paged = await objectRows(snapshot, ranks.slice(0, 1200));
    expect(paged).toEqual(ranks.slice(0, 1200).map((r) => expectedRow(model.objects[r])));
    expect(paged.some((row) => row.parent !== NONE)).toBe(true);
    // The texts as written, which only the rows hold, lower-case to the keys the key pages hold.
    const names = await fieldIndex(snapshot, "KNAM", "equals");
    const keys = await names.keys.keysAt(await (names.keys as PagedKeys).keysOfRanks(ranks.slice(0, 1200)));
    expect(paged.map((row) => row.name.toLowerCase())).toEqual(keys);
  });

  it("cuts pages once their rows' JSON reaches ROW_PAGE_BYTES, and codes rows to under a third of it", async () => {
    const snapshot = await Snapshot.open(memorySource(bytes));
    const model = await decodeSnapshotModel(snapshot);
    const directory = await snapshot.section("ROWD");
    // What the writer counts of a page: each row's JSON and its length's LEB128 bytes.
    const json = model.objects.map((o) => new TextEncoder().encode(rowJson(o)).length);
    const raw = (p: number) => {
      let sum = 0;
      for (let rank = directory.firstRanks[p]; rank < directory.endOf(p); rank++)
        sum += json[rank] + (json[rank] < 128 ? 1 : 2);
      return sum;
    };
    for (let p = 0; p + 1 < directory.pageCount; p++) {
      expect(raw(p)).toBeGreaterThanOrEqual(ROW_PAGE_BYTES);
      expect(raw(p) - json[directory.endOf(p) - 1] - 2).toBeLessThan(ROW_PAGE_BYTES);
    }
    const stored = directory.offsets[directory.pageCount];
    expect(stored * 3).toBeLessThan(json.reduce((sum, n) => sum + n, 0));
  });

  it("refuses a damaged page (checksum), and a page whose checksum was forged over bad rows", async () => {
    const rowp = rawSections(bytes).find((s) => s.tag === "ROWP")!;
    const flipped = bytes.slice();
    flipped[rowp.offset + 16 + 10] ^= 0x20; // inside page 0, after the 16-byte block table
    const damaged = await Snapshot.open(memorySource(flipped));
    await expect(objectRows(damaged, [0])).rejects.toThrow(
      new CorruptSnapshotError("row pages: page 0 checksum mismatch"),
    );
    expect((await objectRows(damaged, [OBJECTS - 1]))[0].id).toBeTruthy(); // other pages still answer

    const snapshot = await Snapshot.open(memorySource(bytes));
    const directory = await snapshot.section("ROWD");
    const badRows = bytes.slice();
    const page0 = badRows.subarray(rowp.offset + 16, rowp.offset + 16 + directory.offsets[1]);
    page0[1] ^= 0x02; // row 1's coded length: the page's rows no longer end where it does
    // The page's checksum in ROWD rewritten to match (and ROWD resealed): only the row checks can catch it.
    const forged = patchSection(badRows, "ROWD", (body) => setU32(body, 2, 0, crc32(page0)));
    await expect(objectRows(await Snapshot.open(memorySource(forged)), [0])).rejects.toThrow(CorruptSnapshotError);
  });

  it("lets a find and a callee list read a few pages, not whole columns", async () => {
    const source = countingSource(memorySource(bytes, "counted"));
    // A budget the id pages take more than a quarter of: they are read page by page, as at scale.
    const idPagesBytes = (await Snapshot.open(memorySource(bytes))).toc.get("IDXP")!.length;
    const snapshot = await Snapshot.open(source, { sections: new SectionCache(2 * idPagesBytes) });
    const opened = source.bytesRead;
    const found = await findObjects(snapshot, {
      filters: { name: ["get"] },
      operator: "startswith",
      searchtype: "all",
      skip: 0,
      limit: 50,
    }).then(collect);
    expect(found.objects).toHaveLength(50);
    const sizeOf = (tag: string) => snapshot.toc.get(tag as never)!.length;
    const index = sizeOf("DNAM") + 16 * 1024; // the prefix search: the key directory and a few key pages
    const rowBytes = source.bytesRead - opened - index - sizeOf("ROWD");
    expect(rowBytes).toBeLessThanOrEqual(16 * 1024 + 2 * ROW_PAGE_BYTES); // 50 neighbours in name order: a few pages
    const columns = ["TYPE", "TYID", "FPTH", "ANNO", "TAGS", "LANG", "STAT"].reduce((sum, tag) => sum + sizeOf(tag), 0);
    expect(rowBytes * 20).toBeLessThan(columns);

    const before = source.bytesRead;
    const id = found.objects[0].id;
    await objectCallees(snapshot, id, { includeEscalated: true, withParent: true }).then(collect);
    // The id and the links come from their pages too (test/format/link-pages.test.ts).
    const pagesRead = source.bytesRead - before - sizeOf("LNKD") - sizeOf("IDXD");
    expect(pagesRead).toBeGreaterThan(0);
    expect(pagesRead).toBeLessThan(columns / 10);
  });
});

describe("rows checked against a filter", () => {
  it("let the event loop turn every so many pages they decode rows of, and pass the same ranks", async () => {
    const snapshot = await Snapshot.open(memorySource(bytes));
    const model = await decodeSnapshotModel(snapshot);
    const candidates = Uint32Array.from({ length: OBJECTS / 2 }, (_, i) => 2 * i);
    const tests = [{ needles: [lowerNeedle("e")], passes: (row: ObjectRow) => row.name.toLowerCase().includes("e") }];
    // With every page held, the check awaits no storage: no turn of its own.
    const checked = async (pagesATurn: number) => {
      const fresh = await Snapshot.open(memorySource(bytes));
      await objectRows(fresh, Array.from(candidates));
      const { value: passing, turns } = await turnsDuring(() => ranksPassing(fresh, candidates, tests, pagesATurn));
      return { passing, turns };
    };
    const without = await checked(Number.POSITIVE_INFINITY);
    const every = await checked(4);
    expect(Array.from(without.passing)).toEqual(
      Array.from(candidates).filter((r) => model.objects[r].name.toLowerCase().includes("e")),
    );
    expect(every.passing).toEqual(without.passing);
    expect(without.turns).toBe(0);
    expect(every.turns).toBeGreaterThan(10);
  });
});

describe("rows ruled out on their bytes, undecoded", () => {
  /** Pieces whose lower case changes length or script (İ, K for Kelvin), of 2–4 UTF-8 bytes, upper-case ASCII; then those JSON escapes (quote, backslash, control characters), in some objects only. */
  const PLAIN = ["get", "Acme", "İ", "\u212a", "é", "\u{1F408}", "K", "i", "x"];
  const PIECES = [...PLAIN, '"q', "b\\s", "t\tab", "\u0001"];
  const text = (parts: number[], separator: string, escaped: boolean) =>
    parts.map((p) => (escaped ? PIECES[p % PIECES.length] : PLAIN[p % PLAIN.length])).join(separator);
  const analyses = fc
    .array(
      fc.record({
        name: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
        fullName: fc.array(fc.nat(), { minLength: 1, maxLength: 5 }),
        filePath: fc.option(fc.array(fc.nat(), { minLength: 1, maxLength: 3 }), { nil: undefined }),
        escaped: fc.nat({ max: 3 }).map((n) => n === 0),
      }),
      { minLength: 1, maxLength: 120 },
    )
    .map((specs) => ({
      format: "appstruct.analysis/1",
      application: "Rows",
      analyzedAt: "2026-05-05T10:00:00Z",
      files: [],
      objects: specs.map((s, i) => ({
        id: String(i + 1),
        name: text(s.name, "", s.escaped),
        fullName: text(s.fullName, ".", s.escaped),
        type: "Java Method",
        typeId: "JV_METHOD",
        ...(s.filePath ? { filePath: text(s.filePath, "/", s.escaped) } : {}),
      })),
      links: [],
      postIts: [],
    }));

  it("keep every row holding a needle in a string, in any case, whatever its characters (property)", async () => {
    const cases = analyses.chain((analysis) => {
      const texts = analysis.objects.flatMap((o) => [o.name, o.fullName, o.filePath ?? "x"]);
      const needle = fc
        .record({ text: fc.constantFrom(...texts), from: fc.nat(), length: fc.integer({ min: 0, max: 6 }) })
        .map(({ text, from, length }) => {
          const units = Array.from(text);
          return units.slice(from % units.length, (from % units.length) + length).join("");
        });
      return fc.tuple(
        fc.constant(analysis),
        fc.array(fc.oneof(needle, fc.constantFrom(...PIECES)), { minLength: 1, maxLength: 3 }),
      );
    });
    await fc.assert(
      fc.asyncProperty(cases, async ([analysis, values]) => {
        const snapshot = await Snapshot.open(memorySource(compileDocument(analysis).bytes));
        const wanted = values.map((v) => v.toLowerCase());
        const all = Uint32Array.from(analysis.objects, (_, r) => r);
        const kept = await ranksPassing(snapshot, all, [{ needles: wanted.map(lowerNeedle), passes: () => true }]);
        const rows = await objectRows(snapshot, Array.from(all));
        const holding = (row: ObjectRow) =>
          [row.id, row.name, row.fullName, row.type, row.typeId, row.filePath ?? "", row.mangling].some((field) =>
            wanted.some((w) => field.toLowerCase().includes(w)),
          );
        for (const [rank, row] of rows.entries()) if (holding(row)) expect(kept, JSON.stringify(row)).toContain(rank);
        // The test the caller gives still decides the rows kept.
        const named = await ranksPassing(snapshot, all, [
          { needles: wanted.map(lowerNeedle), passes: (row) => wanted.some((w) => row.name.toLowerCase().includes(w)) },
        ]);
        expect(Array.from(named)).toEqual(
          rows.flatMap((row, rank) => (wanted.some((w) => row.name.toLowerCase().includes(w)) ? [rank] : [])),
        );
      }),
      { numRuns: 60 },
    );
  });

  it("rule out a row of ASCII bytes without the needle, and never one whose JSON holds an escape", async () => {
    const objects = ["getAcme", "getIt", 'say"hi"', "K\u212a"].map((name, i) => ({
      id: String(i + 1),
      name,
      fullName: `com.${name}`,
      type: "T",
      typeId: "T",
    }));
    const analysis = {
      format: "appstruct.analysis/1",
      application: "R",
      analyzedAt: "2026-05-05T10:00:00Z",
      files: [],
      objects,
      links: [],
      postIts: [],
    };
    const bytes = compileDocument(analysis).bytes;
    const decoded: number[] = [];
    // A snapshot of its own each time: rows kept decoded by one call would be tested as decoded by the next.
    const keptFor = async (needle: string) =>
      ranksPassing(await Snapshot.open(memorySource(bytes)), Uint32Array.from([0, 1, 2, 3]), [
        {
          needles: [lowerNeedle(needle)],
          passes: (row) => (decoded.push(objects.findIndex((o) => o.name === row.name)), true),
        },
      ]).then((kept) => Array.from(kept));
    // Ranks follow lower-cased names: getacme, getit, k\u212a, say"hi".
    expect(await keptFor("acme")).toEqual([0, 2, 3]); // the Kelvin sign's row is not all ASCII, the quote's escaped
    expect(decoded).toEqual([0, 3, 2]);
    expect(await keptFor("kk")).toEqual([2, 3]);
  });
});

describe("rows too large or too repetitive", () => {
  /** petstore-v1 with its first object given `annotations`. */
  const withAnnotations = (annotations: string[]) => ({
    ...petstoreV1,
    objects: petstoreV1.objects.map((o, i) => (i === 0 ? { ...o, annotations } : o)),
  });

  it("the writer codes a row of 180 KB repeating itself in a page of a few KB, and it reads back", async () => {
    const annotations = Array.from({ length: 4000 }, () => '@Deprecated(since = "2.0", forRemoval = true)');
    const { bytes: compiled, model } = compileDocument(withAnnotations(annotations));
    const snapshot = await Snapshot.open(memorySource(compiled));
    const directory = await snapshot.section("ROWD");
    const rank = model.objects.findIndex((o) => o.annotations?.length === 4000);
    const p = directory.pageOf(rank);
    expect(rowJson(model.objects[rank]).length).toBeGreaterThan(180_000);
    // A match's length is counted in bytes of 255: some 700 of them for the row's repeats.
    expect(directory.offsets[p + 1] - directory.offsets[p]).toBeLessThan(4_000);
    expect((await objectRows(snapshot, [rank]))[0].annotations).toEqual(annotations);
  });

  it("the writer codes a row of nearly 1 MiB that does not compress, a page a little over 1 MiB stored, and it reads back", async () => {
    // One annotation of random characters: coding lengthens it by a count byte every 255 literals.
    let seed = 7;
    const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/";
    const random = Array.from({ length: 1_046_600 }, () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return letters[seed >>> 26];
    }).join("");
    const { bytes: compiled, model } = compileDocument(withAnnotations([random]));
    const snapshot = await Snapshot.open(memorySource(compiled));
    const directory = await snapshot.section("ROWD");
    const rank = model.objects.findIndex((o) => o.annotations?.[0] === random);
    const p = directory.pageOf(rank);
    const stored = directory.offsets[p + 1] - directory.offsets[p];
    expect(stored).toBeGreaterThan(MAX_RAW_PAGE);
    expect(stored).toBeLessThanOrEqual(MAX_STORED_PAGE);
    expect((await objectRows(snapshot, [rank]))[0].annotations).toEqual([random]);
  });

  it("the writer refuses an object whose row alone exceeds 1 MiB of JSON, naming it, as the analysis's fault", () => {
    const annotations = Array.from({ length: 12_000 }, (_, i) => `@A${i}(${"x".repeat(100)})`);
    const compile = () => compileDocument(withAnnotations(annotations));
    expect(compile).toThrow(SnapshotLimitError);
    expect(compile).toThrow(
      new RegExp(
        `^object ${petstoreV1.objects[0].id} has \\d+ bytes of displayed fields as JSON \\(its names, type, file path, annotations and tags\\); a snapshot holds at most 1048576 for an object$`,
      ),
    );
  });
});

describe("the filter plan at 20k objects (a selective filter first, broad ones checked on its candidates)", () => {
  type Filters = Partial<Record<"name" | "fullname" | "type" | "filepath" | "annotation" | "tag", string[]>>;
  const cases: [string, Filters, "contains" | "equals" | "startswith" | "endswith"][] = [
    ["rare name, every fullName", { name: ["weelt"], fullname: ["."] }, "contains"],
    [
      "rare name, broad type, file and annotations",
      { name: ["tostring"], type: ["java", "sql"], filepath: ["/"], annotation: ["over"] },
      "contains",
    ],
    ["rare name and a rare tag", { name: ["e"], tag: ["deprecated", "todo"] }, "contains"],
    ["prefix with a broad type", { name: ["get"], type: ["java"] }, "startswith"],
    ["suffix with a broad fullName", { name: ["result"], fullname: ["e", "t", "r", "n", "s", "d"] }, "endswith"],
    ["a broad name, a broad fullName", { name: ["e"], fullname: ["a", "o"] }, "contains"],
    ["a medium name, a narrow fullName", { name: ["get"], fullname: ["service"] }, "contains"],
  ];
  /**
   * The same queries under a section budget twice the name filter's sections: the fullName filter's
   * (DFUL, TFUL: larger) are then "large", checked last on the candidates' rows (up to 256) or
   * through its key pages, its trigram lists read by range.
   */
  const underBudget = async () => {
    const plain = await Snapshot.open(memorySource(bytes));
    const size = (tag: string) => plain.toc.get(tag as never)!.length;
    expect(size("DFUL") + size("TFUL")).toBeGreaterThan(size("DNAM") + size("TNAM"));
    return Snapshot.open(memorySource(bytes, "budgeted"), {
      sections: new SectionCache(2 * (size("DNAM") + size("TNAM"))),
    });
  };

  /** The ids of the objects matching every filter, as a plain scan of the model finds them. */
  const expectedIds = async (snapshot: Snapshot, filters: Filters, operator: (typeof cases)[number][2]) => {
    const model = await decodeSnapshotModel(snapshot);
    const valuesOf = {
      name: (o: ObjectRecord) => [o.name],
      fullname: (o: ObjectRecord) => [o.fullName],
      type: (o: ObjectRecord) => [o.type],
      filepath: (o: ObjectRecord) => (o.filePath === null ? [] : [o.filePath]),
      annotation: (o: ObjectRecord) => o.annotations ?? [],
      tag: (o: ObjectRecord) => o.tags,
    };
    // tag always matches by substring (docs/api.md#text-matching).
    const test = (field: string, value: string, wanted: string) =>
      field === "tag" || operator === "contains"
        ? value.includes(wanted)
        : operator === "equals"
          ? value === wanted
          : operator === "startswith"
            ? value.startsWith(wanted)
            : value.endsWith(wanted);
    return model.objects
      .filter((o) =>
        Object.entries(filters).every(([field, wanted]) =>
          valuesOf[field as keyof Filters](o).some((v) =>
            wanted!.some((w) => test(field, v.toLowerCase(), w.toLowerCase())),
          ),
        ),
      )
      .map((o) => o.id);
  };

  /** The answer's first 1,000 ids and its total, as they must be. */
  const expectAnswer = async (snapshot: Snapshot, filters: Filters, operator: (typeof cases)[number][2]) => {
    const expected = await expectedIds(snapshot, filters, operator);
    const answer = await findObjects(snapshot, { filters, operator, searchtype: "all", skip: 0, limit: 1000 }).then(
      collect,
    );
    expect(answer.totalObjects).toBe(expected.length);
    expect(answer.objects.map((o) => o.id)).toEqual(expected.slice(0, 1000));
    return expected;
  };

  it.each(cases)("%s: the answer of a plain filter over every object", async (_label, filters, operator) => {
    const snapshot = await Snapshot.open(memorySource(bytes));
    expect(await expectedIds(snapshot, filters, operator), "the case must match something").not.toEqual([]);
    for (const s of [snapshot, await underBudget()]) await expectAnswer(s, filters, operator);
  });

  it("checks many candidates beside a fullName by the keys they hold (OFUL) first, then the rows those keys leave", async () => {
    const plain = await Snapshot.open(memorySource(bytes));
    const { objects } = await decodeSnapshotModel(plain);
    const candidates = objects.flatMap((o, rank) => (o.name.toLowerCase().includes("get") ? [rank] : []));
    expect(candidates.length, "more candidates than are always checked on their rows").toBeGreaterThan(256);
    const rowPages = await plain.section("ROWD");
    const theirRowPages = new Set(candidates.map((r) => rowPages.pageOf(r)));
    /** The pages of `tag` an answer of `get` candidates beside `fullname` read, its answer checked. */
    const pagesRead = async (fullname: string, tag: "KFUL" | "ROWP") => {
      const sections = new SectionCache(1 << 30);
      const snapshot = await Snapshot.open(memorySource(bytes, fullname), { sections });
      await expectAnswer(snapshot, { name: ["get"], fullname: [fullname] }, "contains");
      return sections
        .holdings()
        .filter((h) => new RegExp(`^${tag}#\\d+$`).test(h.tag))
        .map((h) => Number(h.tag.slice(tag.length + 1)));
    };
    // One letter has no trigram: every candidate is checked on its row.
    expect(new Set(await pagesRead("e", "ROWP"))).toEqual(theirRowPages);
    // Its trigrams leave some 4,000 keys, more than the name matches: only the candidates holding one are checked.
    const narrowed = await pagesRead("service.", "ROWP");
    expect(narrowed.length).toBeGreaterThan(0);
    expect(narrowed.filter((p) => !theirRowPages.has(p))).toEqual([]);
    expect(narrowed.length).toBeLessThan(theirRowPages.size / 2);
    // No key page is read to check a candidate: the key of each object names its key.
    for (const fullname of ["e", "service."]) expect(await pagesRead(fullname, "KFUL")).toEqual([]);
  });
});

describe("answers about many objects: rows read a round of pages at a time, rounds ahead of the writing", () => {
  it("give every object's fields, in the order asked with repeats, loading no column", async () => {
    const model = await decodeSnapshotModel(await Snapshot.open(memorySource(bytes)));
    const cache = new SectionCache(1 << 30);
    const snapshot = await Snapshot.open(memorySource(bytes), { sections: cache });
    const ranks = [...Array.from({ length: OBJECTS }, (_, i) => OBJECTS - 1 - i), 5, 5, 0];
    expect(await objectRows(snapshot, ranks)).toEqual(ranks.map((r) => expectedRow(model.objects[r])));
    for (const tag of ["OBJC", "TYPE", "TYID", "FPTH", "STAT"])
      expect(cache.peek(snapshot.source.key, tag), `${tag} loaded`).toBeUndefined();
  });

  it("come batch by batch, as the whole read gives them, for any non-decreasing ranks under any budget (property)", async () => {
    const model = await decodeSnapshotModel(await Snapshot.open(memorySource(bytes)));
    const all = Array.from({ length: OBJECTS }, (_, r) => r);
    const ranksOf = (raw: number[], repeats: number[]) =>
      [...raw, ...repeats.map((i) => raw[i % Math.max(1, raw.length)] ?? 0)].sort((a, b) => a - b);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uniqueArray(fc.nat({ max: OBJECTS - 1 }), { maxLength: 300 }),
          fc.constant(all),
          fc.integer({ min: 1, max: 97 }).map((step) => all.filter((r) => r % step === 0)),
        ),
        fc.array(fc.nat(), { maxLength: 20 }),
        fc.constantFrom(64 * 1024, 1 << 20, 1 << 30),
        async (raw, repeats, budget) => {
          const ranks = ranksOf(raw, repeats);
          const snapshot = await Snapshot.open(memorySource(bytes), { sections: new SectionCache(budget) });
          // Twice: the second time, the rows the first kept decoded come without their pages.
          for (let pass = 0; pass < 2; pass++) {
            const batches: ObjectRow[][] = [];
            for await (const batch of objectRowBatches(snapshot, ranks)) batches.push(batch);
            expect(batches.every((b) => b.length > 0 && b.length <= 256)).toBe(true);
            expect(batches.flat()).toEqual(ranks.map((r) => expectedRow(model.objects[r])));
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it("read the pages of many rows in rounds, the next rounds' reads out before a round's rows are written", async () => {
    const source = countingSource(memorySource(bytes));
    const snapshot = await Snapshot.open(source, { sections: new SectionCache(1 << 30) });
    const directory = await snapshot.section("ROWD");
    // Every row of every other page: each page a read of its own (its neighbours are not asked for).
    const ranks = Array.from({ length: OBJECTS }, (_, r) => r).filter((r) => directory.pageOf(r) % 2 === 0);
    const readsFor = (some: number[]) => new Set(some.map((r) => directory.pageOf(r))).size;
    expect(ranks.length).toBeGreaterThan(3 * 2048);
    const before = source.reads;
    const iterator = objectRowBatches(snapshot, ranks)[Symbol.asyncIterator]();
    const first = await iterator.next();
    // Before the first batch is handed out, the reads of three rounds of 2,048 rows (this one and two ahead) went out.
    expect(source.reads - before).toBe(readsFor(ranks.slice(0, 3 * 2048)));
    let rows = first.done ? 0 : first.value.length;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) rows += next.value.length;
    expect(rows).toBe(ranks.length);
    expect(source.reads - before).toBe(readsFor(ranks));
  });

  it("read pages a few KiB apart together when there are more reads than the source lets wait at once (R2: six)", async () => {
    const reference = await Snapshot.open(memorySource(bytes));
    const directory = await reference.section("ROWD");
    // The first row of every other page of the first 60: 30 runs a page apart.
    const ranks = Array.from({ length: 30 }, (_, i) => directory.firstRanks[2 * i]);
    const expected = await objectRows(reference, ranks);
    const readsOf = async (source: ReturnType<typeof countingSource>) => {
      const snapshot = await Snapshot.open(source, { sections: new SectionCache(1 << 30) });
      await snapshot.section("ROWD");
      const before = source.reads;
      expect(await objectRows(snapshot, ranks)).toEqual(expected);
      return source.reads - before;
    };
    // A local file or memory: each page its own read, nothing read between them.
    expect(await readsOf(countingSource(memorySource(bytes, "unlimited")))).toBe(30);
    // Six waiting at once (delayedSource, as R2 behind a Worker): six reads, each of the pages and those between them.
    const late = countingSource(delayedSource(memorySource(bytes, "six"), 1));
    expect(late.connections).toBe(6);
    expect(await readsOf(late)).toBe(6);
    // Far apart (more than 64 KiB between them), pages are read apart whatever the limit.
    const far: number[] = [];
    for (let p = 0; p < directory.pageCount && far.length < 8; p++)
      if (far.length === 0 || directory.offsets[p] - directory.offsets[directory.pageOf(far.at(-1)!) + 1] > 64 * 1024)
        far.push(directory.firstRanks[p]);
    expect(far.length).toBe(8);
    const farSource = countingSource(delayedSource(memorySource(bytes, "far"), 1));
    const snapshot = await Snapshot.open(farSource, { sections: new SectionCache(1 << 30) });
    await snapshot.section("ROWD");
    const before = farSource.reads;
    expect(await objectRows(snapshot, far)).toEqual(await objectRows(reference, far));
    expect(farSource.reads - before).toBe(8);
  });

  it("swept, are read up to 256 KiB apart together, the pages between kept or dropped as asked, where a plain load reads them apart and keeps only those asked for", async () => {
    const reference = await Snapshot.open(memorySource(bytes));
    const directory = await reference.section("ROWD");
    const { offsets } = directory;
    // Pages more than 80 KiB apart: farther than a plain load joins, nearer than a sweep does.
    const pages: number[] = [];
    for (let p = 0; p < directory.pageCount && pages.length < 8; p++)
      if (pages.length === 0 || offsets[p] - offsets[pages.at(-1)! + 1] > 80 * 1024) pages.push(p);
    expect(pages.length).toBe(8);
    expect(offsets[pages[1]] - offsets[pages[0] + 1]).toBeLessThan(256 * 1024);
    const expected = await loadPages(reference, "ROWP", directory, pages);
    const between = Array.from({ length: pages[7] - pages[0] + 1 }, (_, i) => pages[0] + i).filter(
      (p) => !pages.includes(p),
    );
    // A page in the nearest gap (joined first) is damaged: the sweep reading it keeps the others, and answers what it was asked.
    const nearest = Array.from({ length: pages.length - 1 }, (_, i) => i).sort(
      (a, b) => offsets[pages[a + 1]] - offsets[pages[a] + 1] - (offsets[pages[b + 1]] - offsets[pages[b] + 1]),
    )[0];
    const damaged = (pages[nearest] + pages[nearest + 1]) >> 1;
    expect(damaged).toBeGreaterThan(pages[nearest]);
    const rowp = rawSections(bytes).find((s) => s.tag === "ROWP")!;
    const broken = bytes.slice();
    broken[rowp.offset + reference.pagesBlock("ROWP", offsets[directory.pageCount]).start + offsets[damaged] + 3] ^=
      0xff;
    for (const sweeping of [undefined, "keep", "drop"] as const) {
      const source = countingSource(delayedSource(memorySource(broken, `sweeping ${sweeping}`), 1));
      const snapshot = await Snapshot.open(source, { sections: new SectionCache(1 << 30) });
      await snapshot.section("ROWD");
      const before = source.reads;
      expect(await loadPages(snapshot, "ROWP", directory, pages, undefined, { sweeping })).toEqual(expected);
      const reads = source.reads - before;
      // The pages between are decoded once the read is in, nothing waiting for them.
      await new Promise((settled) => setTimeout(settled, 10));
      const held = between.filter((p) => holdsPage(snapshot, "ROWP", p));
      if (sweeping === "drop") {
        // Joined as a sweep joins them, and nothing kept but what was asked for.
        expect(reads).toBe(6);
        expect(held).toEqual([]);
      } else if (sweeping === "keep") {
        // Eight runs joined nearest first into six reads: two gaps read, their pages kept whole.
        expect(reads).toBe(6);
        const gaps = pages.slice(1).map((to, i) => between.filter((p) => p > pages[i] && p < to && p !== damaged));
        const kept = gaps.filter((gap) => gap.length > 0 && gap.every((p) => held.includes(p)));
        expect(kept.length).toBe(2);
        expect(held).toEqual(kept.flat());
        // Asked for later, they are not read again.
        const after = source.reads;
        await loadPages(snapshot, "ROWP", directory, held);
        expect(source.reads).toBe(after);
      } else {
        expect(reads).toBe(8);
        expect(held).toEqual([]);
      }
    }
  });

  it("are counted before they are read as loadPages reads them (readsToLoad), with and without a limit", async () => {
    const directory = await (await Snapshot.open(memorySource(bytes))).section("ROWD");
    const pageSets = [
      [0],
      Array.from({ length: 30 }, (_, i) => 2 * i),
      Array.from({ length: 12 }, (_, i) => i * Math.floor(directory.pageCount / 12)),
      Array.from({ length: directory.pageCount }, (_, p) => p).filter((p) => p % 7 === 3),
    ];
    for (const late of [false, true])
      for (const pages of pageSets) {
        const source = countingSource(late ? delayedSource(memorySource(bytes), 1) : memorySource(bytes));
        const snapshot = await Snapshot.open(source, { sections: new SectionCache(1 << 30) });
        await snapshot.section("ROWD");
        // Some of them held already: those are neither counted nor read.
        await loadPages(snapshot, "ROWP", directory, pages.slice(0, 2));
        const counted = readsToLoad(snapshot, "ROWP", directory, pages);
        const before = source.reads;
        await loadPages(snapshot, "ROWP", directory, pages);
        expect(counted, `${pages.length} pages, ${late ? "six at once" : "no limit"}`).toBe(source.reads - before);
      }
  });

  it("keep the rows of short lists decoded, two MiB, those two requests listed through a scan: asked again, they read no page", async () => {
    const source = countingSource(memorySource(bytes));
    const snapshot = await Snapshot.open(source, { sections: new SectionCache(1 << 30) });
    const directory = await snapshot.section("ROWD");
    const empty = directory.byteSize;
    const asked = (ranks: number[]) => new StorageMeter().measure(() => objectRows(snapshot, ranks));
    const some = Array.from({ length: 50 }, (_, i) => i * 397);
    const rows = await asked(some);
    const before = source.reads;
    expect(await asked(some)).toEqual(rows);
    expect(source.reads, "no page read for rows kept decoded").toBe(before);
    expect(directory.byteSize).toBeGreaterThan(empty);
    // Every row, 2,048 at a time: more than the rows kept may weigh. Rows listed once leave first.
    for (let from = 0; from < OBJECTS; from += 2048)
      await asked(Array.from({ length: Math.min(2048, OBJECTS - from) }, (_, i) => from + i));
    expect(directory.byteSize - empty).toBeLessThanOrEqual(2 * 1024 * 1024);
    expect(directory.keptRow(1)).toBeUndefined();
    expect(directory.keptRow(OBJECTS - 1)).toBeDefined();
    const kept = source.reads;
    expect(await asked(some)).toEqual(rows);
    expect(source.reads, "the rows two requests listed outlast the scan").toBe(kept);
    // A long list's rows are decoded for it alone: none of them is kept.
    const fresh = await Snapshot.open(memorySource(bytes), { sections: new SectionCache(1 << 30) });
    const all = Array.from({ length: OBJECTS }, (_, r) => r);
    for await (const _ of objectRowBatches(fresh, all));
    expect((await fresh.section("ROWD")).keptRow(OBJECTS - 1)).toBeUndefined();
  });

  it("summarize a level-5 node's members as their rows do", async () => {
    const snapshot = await Snapshot.open(memorySource(bytes));
    const model = await decodeSnapshotModel(snapshot);
    const { level5 } = await snapshot.section("OBJC");
    const taxonomy = await snapshot.taxonomy();
    const l5 = taxonomy.levels[4];
    let biggest = 0;
    for (let i = 0; i < l5.count; i++) if (l5.nbObjects[i] > l5.nbObjects[biggest]) biggest = i;
    const members = Array.from(level5.keys()).filter((r) => level5[r] === biggest);
    expect(members.length).toBeGreaterThan(2048);
    const summaries = await collect(new StreamedList(() => summaryBatches(snapshot, members)));
    expect(summaries).toEqual(
      members.map((r) => {
        const { id, name, fullName, type, typeId } = model.objects[r];
        return { id, name, fullName, type, typeId };
      }),
    );
  });

  it("refuse a damaged row page in a long list when its round comes", async () => {
    const rowp = rawSections(bytes).find((s) => s.tag === "ROWP")!;
    const flipped = bytes.slice();
    flipped[rowp.offset + rowp.length - 20] ^= 0x01; // in the last page
    const snapshot = await Snapshot.open(memorySource(flipped));
    const { pageCount } = await snapshot.section("ROWD");
    const all = Array.from({ length: OBJECTS }, (_, r) => r);
    const written: number[] = [];
    const reading = (async () => {
      for await (const batch of objectRowBatches(snapshot, all)) written.push(batch.length);
    })();
    await expect(reading).rejects.toThrow(
      new CorruptSnapshotError(`row pages: page ${pageCount - 1} checksum mismatch`),
    );
    expect(written.length).toBeGreaterThan(0); // the rounds before it were written
  });
});
