// @module Round-trip tests of the snapshot format: a hand-written analysis of edge cases, and random analyses (fast-check).
import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AnalysisRefused } from "../../build/analysis/faults.ts";
import { loadStatusBase } from "../../build/compile/compile.ts";
import { compileDocument } from "../../build/compile/compile-document.ts";
import { decodeSnapshotModel } from "../../src/format/decode.ts";
import { LINK_DIRECT, LINK_ESCALATED, NONE } from "../../src/format/model.ts";
import { memorySource, Snapshot } from "../../src/format/snapshot.ts";
import { lookUp } from "../../src/query/lookup.ts";
import { objectLocations } from "../../src/query/source-locator.ts";
import { arbitraryAnalysis } from "../support/arbitrary-analysis.ts";

const BIG = "9999999999999999999"; // 19 digits, above 2^63 and below 2^64
const TWO_63 = "9223372036854775808"; // 2^63 exactly: the first id that does not fit a signed 64-bit integer

type Obj = Record<string, unknown> & { id: string };

/** Every optional feature of the analysis format, with the awkward values each field can take. */
const ANALYSIS = {
  format: "appstruct.analysis/1",
  application: "Café ☕ / ü & co",
  analyzedAt: "2026-02-03T04:05:06.789+05:30",
  analyzer: { name: "händ", version: "" },
  files: [
    { id: "0", path: "src/Zero.java", language: "Java" },
    { id: "-7", path: "db/Straße.sql" },
    { id: "-9223372036854775808", path: "🐈/cat.sql", language: "SQL" },
    { id: "12", path: "", language: "" },
  ],
  taxonomy: [
    { key: "root", level: 1, name: "Système 🛰", parent: null },
    { key: "", level: 1, name: "", parent: null },
    { key: "r2", level: 2, name: "Straße", parent: "root" },
    { key: "k2e", level: 2, name: "x", parent: "" },
    { key: "r3", level: 3, name: "\uFEFFBOM", parent: "r2", fullName: "explicit/full" },
    { key: "e3", level: 3, name: "e", parent: "k2e" },
    { key: "r4", level: 4, name: "four", parent: "r3" },
    { key: "e4", level: 4, name: "", parent: "e3" },
    { key: "r5", level: 5, name: "five", parent: "r4" },
    { key: "e5", level: 5, name: "leaf", parent: "e4" },
  ],
  objects: [
    {
      id: BIG,
      name: "🐈 cat",
      fullName: "zoo.🐈 cat",
      type: "Java Class",
      typeId: "JV_CLASS",
      language: "Java",
      filePath: "src/Zero.java",
      mangling: "m(🐈)",
      external: false,
      annotations: ["@Ä", ""],
      tags: [],
      parent: null,
      level5: "r5",
      role: "start",
      checksum: "sha:🐈",
      status: "Modified",
      sourceLocations: [
        { fileId: "0", startLine: 1, endLine: 4294967295 },
        { fileId: "-7", startLine: 3, endLine: 3 },
      ],
    },
    {
      id: TWO_63,
      name: "Straße",
      fullName: "Straße",
      type: "Table",
      typeId: "T",
      language: null,
      filePath: null,
      annotations: null,
      parent: BIG,
      level5: "e5",
      role: "end",
      checksum: "",
    },
    {
      id: "1",
      name: "",
      fullName: "",
      type: "",
      typeId: "",
      mangling: "",
      external: true,
      annotations: [],
      tags: ["", "ß"],
      role: null,
      level5: "r5",
      status: "Unchanged",
      sourceLocations: [],
    },
    {
      id: "0",
      name: "\uFEFFbom",
      fullName: "\uFEFF",
      type: "Java Class",
      typeId: "JV_CLASS",
      language: "",
      filePath: "",
      parent: "1",
      level5: "e5",
      annotations: ["a", "a"],
      tags: ["x", "X", "x"],
    },
    {
      id: "42",
      name: "straße",
      fullName: "ns.straße",
      type: "Table",
      typeId: "T",
      level5: "e5",
      status: "Added",
      checksum: "abc",
      parent: "42",
      sourceLocations: [
        { fileId: "-9223372036854775808", startLine: 7, endLine: 9 },
        { fileId: "12", startLine: 2, endLine: 2 },
        { fileId: "-9223372036854775808", startLine: 1, endLine: 1 },
      ],
    },
  ] as Obj[],
  links: [
    { from: BIG, to: TWO_63, type: "CALL" },
    { from: BIG, to: TWO_63, type: "CALL", escalated: true },
    { from: BIG, to: TWO_63, type: "CALL", escalated: false },
    { from: "1", to: "1", type: "USE", escalated: true },
    { from: "0", to: "42", type: "call" },
    { from: "42", to: "0", type: "Z_9" },
  ],
  postIts: [
    { object: "42", title: "Note 📌", text: "multi\nline" },
    { object: "1", title: "only a title" },
    { object: "42", title: "" },
    { object: "42", title: "third", text: "" },
  ],
};

async function open(bytes: Uint8Array): Promise<Snapshot> {
  return Snapshot.open(memorySource(bytes));
}

const snapshot = await open(compileDocument(ANALYSIS).bytes);
const model = await decodeSnapshotModel(snapshot);
const byId = new Map(model.objects.map((o, rank) => [o.id, { o, rank }]));

describe("round trip of a hand-written analysis", () => {
  it("keeps the metadata", () => {
    expect(model.meta).toEqual({
      application: "Café ☕ / ü & co",
      analyzedAt: "2026-02-03T04:05:06.789+05:30",
      analyzedAtMs: Date.UTC(2026, 1, 2, 22, 35, 6, 789),
      analyzer: { name: "händ", version: "" },
      statusBase: null,
      taxonomyDerived: false,
      // Links: the three BIG→2^63 CALL records are two distinct (from, to, type, escalated).
      counts: { objects: 5, links: 5, files: 4, postIts: 4, levels: [2, 2, 2, 2, 2] },
    });
  });

  it("orders objects by lower-cased name, then name, by UTF-16 code units", () => {
    // "" < "straße" ("Straße" before "straße") < "🐈 cat" (U+D83D) < "\uFEFFbom" (U+FEFF).
    expect(model.objects.map((o) => o.id)).toEqual(["1", TWO_63, "42", BIG, "0"]);
  });

  it("reads every field of every object back as written, with the format's defaults", () => {
    expect(model.objects).toHaveLength(ANALYSIS.objects.length);
    for (const input of ANALYSIS.objects) {
      const entry = byId.get(input.id);
      expect(entry, `object ${input.id}`).toBeDefined();
      const { o } = entry!;
      const locations =
        (input.sourceLocations as { fileId: string; startLine: number; endLine: number }[] | undefined) ?? [];
      expect(
        {
          id: o.id,
          name: o.name,
          fullName: o.fullName,
          type: o.type,
          typeId: o.typeId,
          language: o.language,
          filePath: o.filePath,
          mangling: o.mangling,
          external: o.external,
          annotations: o.annotations,
          tags: o.tags,
          parent: o.parent === NONE ? null : model.objects[o.parent].id,
          level5: model.levels[4][o.level5].key,
          role: o.role,
          checksum: o.checksum,
          explicitStatus: o.explicitStatus,
          sourceLocations: o.sourceLocations.map((l) => ({
            fileId: model.files[l.file].id,
            startLine: l.startLine,
            endLine: l.endLine,
          })),
          postIts: o.postIts,
        },
        `object ${input.id}`,
      ).toEqual({
        id: input.id,
        name: input.name,
        fullName: input.fullName,
        type: input.type,
        typeId: input.typeId,
        language: input.language ?? null,
        filePath: input.filePath ?? null,
        mangling: input.mangling ?? "",
        external: input.external ?? false,
        annotations: input.annotations ?? null,
        tags: input.tags ?? [],
        parent: input.parent ?? null,
        level5: input.level5,
        role: input.role ?? null,
        checksum: input.checksum ?? null,
        explicitStatus: input.status ?? null,
        sourceLocations: locations,
        postIts: ANALYSIS.postIts
          .filter((p) => p.object === input.id)
          .map((p) => ({ title: p.title, text: p.text ?? null })),
      });
    }
  });

  it("keeps the distinctions between null, absent, empty and duplicate values", () => {
    const o = (id: string) => byId.get(id)!.o;
    expect(o(TWO_63).annotations).toBeNull();
    expect(o("1").annotations).toEqual([]);
    expect(o("42").annotations).toBeNull(); // absent: null
    expect(o(TWO_63).tags).toEqual([]); // absent: []
    expect(o(BIG).tags).toEqual([]);
    expect(o("0").tags).toEqual(["x", "X", "x"]);
    expect(o("0").annotations).toEqual(["a", "a"]);
    expect(o(TWO_63).checksum).toBe("");
    expect(o("1").checksum).toBeNull();
    expect(o("0").language).toBe("");
    expect(o(TWO_63).language).toBeNull();
    expect(o("0").filePath).toBe("");
    expect(o(TWO_63).filePath).toBeNull();
    expect(o("0").name.charCodeAt(0)).toBe(0xfeff);
    expect(o("0").fullName).toBe("\uFEFF");
    expect(o("42").postIts).toEqual([
      { title: "Note 📌", text: "multi\nline" },
      { title: "", text: null },
      { title: "third", text: "" },
    ]);
    expect(o("42").parent).toBe(byId.get("42")!.rank); // its own parent
  });

  it("serves the explicit status, else Added for a first analysis", () => {
    const status = Object.fromEntries(model.objects.map((o) => [o.id, [o.explicitStatus, o.status]]));
    expect(status).toEqual({
      [BIG]: ["Modified", "Modified"],
      [TWO_63]: [null, "Added"],
      "1": ["Unchanged", "Unchanged"],
      "0": [null, "Added"],
      "42": ["Added", "Added"],
    });
  });

  it("keeps the files in id order (the shorter first, then by code unit), negative and zero ids included", () => {
    expect(model.files).toEqual([
      { id: "0", path: "src/Zero.java", language: "Java" },
      { id: "-7", path: "db/Straße.sql", language: null },
      { id: "12", path: "", language: "" },
      { id: "-9223372036854775808", path: "🐈/cat.sql", language: "SQL" },
    ]);
  });

  it("orders taxonomy nodes by name per level and derives fullNames as parent##name unless given", () => {
    const levels = model.levels.map((nodes, l) =>
      nodes.map((n) => ({
        key: n.key,
        name: n.name,
        fullName: n.fullName,
        parent: l === 0 ? n.parent : model.levels[l - 1][n.parent].key,
      })),
    );
    expect(levels).toEqual([
      [
        { key: "", name: "", fullName: "", parent: NONE },
        { key: "root", name: "Système 🛰", fullName: "Système 🛰", parent: NONE },
      ],
      [
        { key: "r2", name: "Straße", fullName: "Système 🛰##Straße", parent: "root" },
        { key: "k2e", name: "x", fullName: "##x", parent: "" },
      ],
      [
        { key: "e3", name: "e", fullName: "##x##e", parent: "k2e" },
        { key: "r3", name: "\uFEFFBOM", fullName: "explicit/full", parent: "r2" },
      ],
      [
        { key: "e4", name: "", fullName: "##x##e##", parent: "e3" },
        { key: "r4", name: "four", fullName: "explicit/full##four", parent: "r3" },
      ],
      [
        { key: "r5", name: "five", fullName: "explicit/full##four##five", parent: "r4" },
        { key: "e5", name: "leaf", fullName: "##x##e####leaf", parent: "e4" },
      ],
    ]);
  });

  it("merges link records into one callee entry per (target, type) with direct/escalated flags", () => {
    const { callees } = model;
    expect(callees.linkTypes).toEqual(["CALL", "USE", "Z_9", "call"]);
    const out: Record<string, [string, string, number][]> = {};
    model.objects.forEach((o, rank) => {
      const row: [string, string, number][] = [];
      for (let i = callees.offsets[rank]; i < callees.offsets[rank + 1]; i++)
        row.push([model.objects[callees.targets[i]].id, callees.linkTypes[callees.types[i]], callees.flags[i]]);
      if (row.length) out[o.id] = row;
    });
    expect(out).toEqual({
      [BIG]: [[TWO_63, "CALL", LINK_DIRECT | LINK_ESCALATED]],
      "1": [["1", "USE", LINK_ESCALATED]],
      "0": [["42", "call", LINK_DIRECT]],
      "42": [["0", "Z_9", LINK_DIRECT]],
    });
  });

  it("finds each object by id through the id index, up to 19-digit ids above 2^63", async () => {
    for (const [id, { rank }] of byId) expect(await lookUp(snapshot, id), id).toBe(rank);
    expect(await lookUp(snapshot, "9999999999999999998")).toBe(-1);
    expect(await lookUp(snapshot, "18446744073709551615")).toBe(-1);
    expect(await lookUp(snapshot, "2")).toBe(-1);
  });

  it("keeps source locations for the source service in the wire form", async () => {
    const [of42, of1, ofTwo63] = await objectLocations(snapshot, [
      byId.get("42")!.rank,
      byId.get("1")!.rank,
      byId.get(TWO_63)!.rank,
    ]);
    expect(of42).toEqual([
      { fileId: "-9223372036854775808", startLine: 7, endLine: 9 },
      { fileId: "12", startLine: 2, endLine: 2 },
      { fileId: "-9223372036854775808", startLine: 1, endLine: 1 },
    ]);
    expect(of1).toBeNull(); // [] in the analysis: omitted
    expect(ofTwo63).toBeNull(); // absent
  });

  it("decodes to the model the compiler encoded", () => {
    expect(model).toStrictEqual(compileDocument(ANALYSIS).model);
  });

  it("does not accept a 20-digit id such as 2^64-1 (the format holds at most 19 digits)", () => {
    const document = {
      ...ANALYSIS,
      objects: [{ id: "18446744073709551615", name: "n", fullName: "n", type: "t", typeId: "t", level5: "r5" }],
      links: [],
      postIts: [],
    };
    expect(() => compileDocument(document)).toThrow(/refused/);
  });

  // A lone surrogate cannot be stored as UTF-8 (TextEncoder would silently turn it into U+FFFD, and the
  // snapshot would answer a name the analysis never gave): it must be refused, or else kept exactly.
  it("refuses or keeps a name holding a lone surrogate (it must not change it silently)", async () => {
    const document = {
      ...ANALYSIS,
      objects: [{ id: "5", name: "a\uD800b", fullName: "f", type: "t", typeId: "t", level5: "r5" }],
      links: [],
      postIts: [],
    };
    let compiled: Uint8Array;
    try {
      compiled = compileDocument(document).bytes;
    } catch (error) {
      // Refused: acceptable, when it is refused for that name and nothing else.
      expect(error).toBeInstanceOf(AnalysisRefused);
      expect((error as AnalysisRefused).faults.faults.map((f) => [f.at, f.field])).toEqual([["objects[0]", "name"]]);
      return;
    }
    const decoded = await decodeSnapshotModel(await open(compiled));
    expect(decoded.objects[0].name).toBe("a\uD800b");
  });
});

describe("round trip of random analyses", () => {
  it("decodes every compiled snapshot to the model it was encoded from, and compiles deterministically", async () => {
    await fc.assert(
      fc.asyncProperty(arbitraryAnalysis(), async (analysis) => {
        const first = compileDocument(analysis);
        const decoded = await decodeSnapshotModel(await open(first.bytes));
        expect(decoded).toStrictEqual(first.model);
        const second = compileDocument(structuredClone(analysis));
        expect(Buffer.from(second.bytes).equals(Buffer.from(first.bytes))).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it("serves statuses by docs/api.md#status against a previous analysis, and round-trips them", async () => {
    const STATUS = ["Added", "Modified", "Unchanged"] as const;
    await fc.assert(
      fc.asyncProperty(
        arbitraryAnalysis(),
        fc.array(fc.nat(), { minLength: 16, maxLength: 16 }),
        async (random, choice) => {
          // Some objects state their status; the previous analysis lacks some objects, and for the others has
          // the same checksum, another one, or none — so every branch of the status rule is taken.
          const now = {
            ...random,
            objects: random.objects.map((o, i) => (choice[i] % 5 === 0 ? { ...o, status: STATUS[choice[i] % 3] } : o)),
          };
          const before = {
            format: "appstruct.analysis/1",
            application: now.application,
            analyzedAt: "2026-01-01T00:00:00Z",
            objects: now.objects.flatMap((o, i) => {
              const kind = (choice[(i + 10) % 16] >> 2) % 4;
              if (kind === 0) return [];
              const checksum =
                kind === 1 ? o.checksum : kind === 2 ? `${(o.checksum as string | undefined) ?? ""}~` : undefined;
              return [
                {
                  id: o.id,
                  name: "p",
                  fullName: "p",
                  type: "t",
                  typeId: "t",
                  ...(checksum === undefined ? {} : { checksum }),
                },
              ];
            }),
          };
          const previousBytes = compileDocument(before).bytes;
          const compiled = compileDocument(now, await loadStatusBase(previousBytes));
          const decoded = await decodeSnapshotModel(await open(compiled.bytes));
          expect(decoded).toStrictEqual(compiled.model);
          expect(decoded.meta.statusBase).toBe(createHash("sha256").update(previousBytes).digest("hex"));
          const checksumBefore = new Map(
            before.objects.map((o) => [o.id as string, (o.checksum as string | undefined) ?? null]),
          );
          for (const o of decoded.objects) {
            const input = now.objects.find((x) => x.id === o.id)!;
            const checksum = (input.checksum as string | undefined) ?? null;
            const previous = checksumBefore.get(o.id);
            const computed =
              previous === undefined
                ? "Added"
                : checksum === null || previous === null
                  ? null
                  : checksum === previous
                    ? "Unchanged"
                    : "Modified";
            expect(o.status, `object ${o.id}`).toBe((input.status as string | undefined) ?? computed);
            expect(o.explicitStatus).toBe((input.status as string | undefined) ?? null);
            expect(o.checksum).toBe(checksum);
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it("compiles the same bytes whatever the order of objects, links and taxonomy nodes", () => {
    fc.assert(
      fc.property(arbitraryAnalysis(), fc.func(fc.integer()), (analysis, rank) => {
        const shuffle = <T>(list: readonly T[]) =>
          list
            .map((item, i) => ({ item, key: rank(i) }))
            .sort((a, b) => a.key - b.key)
            .map((e) => e.item);
        const permuted = {
          ...analysis,
          objects: shuffle(analysis.objects),
          links: shuffle(analysis.links),
          ...(analysis.taxonomy ? { taxonomy: shuffle(analysis.taxonomy) } : {}),
        };
        const a = compileDocument(analysis).bytes;
        const b = compileDocument(permuted).bytes;
        expect(Buffer.from(b).equals(Buffer.from(a))).toBe(true);
      }),
      { numRuns: 100 },
    );
  });
});
