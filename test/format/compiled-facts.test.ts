// @module Compiled facts of a small analysis, worked out by hand: ranks, callees, callers, taxonomy, level graphs, search keys, statuses.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { loadStatusBase } from "../../build/compile/compile.ts";
import { compileDocument } from "../../build/compile/compile-document.ts";
import { decodeSnapshotModel } from "../../src/format/decode.ts";
import { memberPages } from "../../src/format/member-pages.ts";
import { memorySource, Snapshot } from "../../src/format/snapshot.ts";
import { fieldIndex } from "../../src/query/field-index.ts";
import { linkRows } from "../../src/query/link-rows.ts";
import { prefixRange, suffixKeys } from "../../src/query/search-keys.ts";

/*
 * Taxonomy: two nodes per level. Both level-3 nodes hang under one level-2 node, so the two
 * level-5 branches meet at level 2 (levels 1 and 2 each have an empty node and no graph links).
 *
 *   level 1  t1a "zeta"            t1b "Alpha"
 *   level 2  t2a "Services" (t1a)  t2b "Orphans" (t1b)
 *   level 3  t3a "web" (t2a)       t3b "Data" (t2a)
 *   level 4  t4a "JSP" (t3a)       t4b "sql" (t3b, fullName given: "custom/sql")
 *   level 5  t5a "page" (t4a)      t5b "Column" (t4b)
 *
 * Name order (volatile _id): level 1 [Alpha, zeta], 2 [Orphans, Services], 3 [Data, web],
 * 4 [JSP, sql], 5 [Column, page].
 */
const TAXONOMY = [
  { key: "t1a", level: 1, name: "zeta", parent: null },
  { key: "t1b", level: 1, name: "Alpha", parent: null },
  { key: "t2a", level: 2, name: "Services", parent: "t1a" },
  { key: "t2b", level: 2, name: "Orphans", parent: "t1b" },
  { key: "t3a", level: 3, name: "web", parent: "t2a" },
  { key: "t3b", level: 3, name: "Data", parent: "t2a" },
  { key: "t4a", level: 4, name: "JSP", parent: "t3a" },
  { key: "t4b", level: 4, name: "sql", parent: "t3b", fullName: "custom/sql" },
  { key: "t5a", level: 5, name: "page", parent: "t4a" },
  { key: "t5b", level: 5, name: "Column", parent: "t4b" },
];

const object = (id: string, name: string, level5: string, extra: Record<string, unknown> = {}) => ({
  id,
  name,
  fullName: `full.${name}`,
  type: "T",
  typeId: "T",
  level5,
  ...extra,
});

/*
 * Ranks (lower-cased name, then name, then id with shorter first):
 *   0 id 4 "_x"      ("_" U+005F sorts before "a")
 *   1 id 5 "apple"
 *   2 id 2 "Banana"  (ties "banana" lower-cased; "B" < "b")
 *   3 id 8 "banana"
 *   4 id 3 "Run"
 *   5 id 7 "run"     (ties id 10 exactly: "7" before "10")
 *   6 id 10 "run"
 *   7 id 1 "Zebra"
 *   8 id 9 "ärger"   (U+00E4, after every ASCII letter)
 *   9 id 6 "Éclair"  (lower-cased U+00E9, after U+00E4)
 */
const V2 = {
  format: "appstruct.analysis/1",
  application: "Facts",
  analyzedAt: "2026-03-01T00:00:00Z",
  taxonomy: TAXONOMY,
  objects: [
    object("7", "run", "t5a", { checksum: "c7", tags: ["Hot", "hot"], filePath: "A/b.jsp" }),
    object("10", "run", "t5a", { checksum: "new", filePath: "a/B.jsp" }),
    object("3", "Run", "t5b", { tags: ["HOT path"] }),
    object("5", "apple", "t5a", { checksum: "c5" }),
    object("2", "Banana", "t5b", { checksum: "c2" }),
    object("8", "banana", "t5a"),
    object("4", "_x", "t5b", { checksum: "a", status: "Unchanged" }),
    object("1", "Zebra", "t5b", { checksum: "c1" }),
    object("9", "ärger", "t5a", { checksum: "same", status: "Added" }),
    object("6", "Éclair", "t5b", { checksum: "" }),
  ],
  links: [
    { from: "7", to: "3", type: "CALL" },
    { from: "7", to: "3", type: "USE" }, // parallel link of another type
    { from: "7", to: "3", type: "CALL" }, // duplicate record
    { from: "7", to: "10", type: "CALL", escalated: true },
    { from: "7", to: "10", type: "CALL" }, // escalated + direct pair
    { from: "10", to: "10", type: "CALL" }, // self link
    { from: "2", to: "5", type: "USE", escalated: true }, // escalated only
    { from: "1", to: "7", type: "ACCESS" },
    { from: "4", to: "1", type: "CALL" },
    { from: "9", to: "2", type: "CALL" },
    { from: "5", to: "8", type: "call" }, // lower-case type sorts after every upper-case one
  ],
  postIts: [
    { object: "10", title: "Fix ME" },
    { object: "3", title: "fix me", text: "twice" },
  ],
};

/** The previous analysis statuses are computed against (no taxonomy: derived). Id 11 was deleted since. */
const V1 = {
  format: "appstruct.analysis/1",
  application: "Facts",
  analyzedAt: "2026-02-01T00:00:00Z",
  objects: [
    { id: "7", checksum: "c7" },
    { id: "10", checksum: "old" },
    { id: "3", checksum: "x" },
    { id: "5" },
    { id: "4", checksum: "b" },
    { id: "9", checksum: "same" },
    { id: "6", checksum: "" },
    { id: "1", checksum: "zz" },
    { id: "11", checksum: "gone" },
  ].map((o) => ({ ...o, name: `old${o.id}`, fullName: `old${o.id}`, type: "T", typeId: "T" })),
};

const RANKED_IDS = ["4", "5", "2", "8", "3", "7", "10", "1", "9", "6"];

async function compileAndOpen(document: unknown, previousBytes?: Uint8Array) {
  const previous = previousBytes ? await loadStatusBase(previousBytes) : null;
  const { bytes } = compileDocument(document, previous);
  const snapshot = await Snapshot.open(memorySource(bytes));
  return { bytes, snapshot, model: await decodeSnapshotModel(snapshot) };
}

const { snapshot, model } = await compileAndOpen(V2);
const idAt = (rank: number) => model.objects[rank].id;
const rankOf = (id: string) => RANKED_IDS.indexOf(id);

describe("compiled facts of a hand-worked analysis", () => {
  it("ranks objects in the name order of docs/api.md#order", () => {
    expect(model.objects.map((o) => o.id)).toEqual(RANKED_IDS);
    expect(model.objects.map((o) => o.name)).toEqual([
      "_x",
      "apple",
      "Banana",
      "banana",
      "Run",
      "run",
      "run",
      "Zebra",
      "ärger",
      "Éclair",
    ]);
  });

  it("counts distinct links (from, to, type, escalated)", () => {
    // 11 records; the duplicate 7→3 CALL counts once.
    expect(model.meta.counts).toEqual({ objects: 10, links: 10, files: 0, postIts: 2, levels: [2, 2, 2, 2, 2] });
  });

  /** The link pages of every object, flattened into CSR columns: callees (targets, types, kinds) and callers. */
  async function linkColumns() {
    const ranks = Array.from({ length: model.meta.counts.objects }, (_, r) => r);
    const links = await linkRows(snapshot, ranks);
    const rows = ranks.map((r) => links.row(r));
    const offsetsOf = (lengths: number[]) => [
      0,
      ...lengths.map((_, i) => lengths.slice(0, i + 1).reduce((x, y) => x + y)),
    ];
    return {
      linkTypes: links.linkTypes,
      offsets: offsetsOf(rows.map((row) => row.targets.length)),
      targets: rows.flatMap((row) => [...row.targets]),
      types: rows.flatMap((row) => [...row.types]),
      flags: rows.flatMap((row) => [...row.targetFlags].map((f) => f & 3)),
      callerOffsets: offsetsOf(rows.map((row) => row.callers.length)),
      callers: rows.flatMap((row) => [...row.callers]),
    };
  }

  it("builds the callee rows: one entry per (target, type), sorted by target rank then type, with flags", async () => {
    const cale = await linkColumns();
    expect(cale.linkTypes).toEqual(["ACCESS", "CALL", "USE", "call"]);
    expect(cale.offsets).toEqual([0, 1, 2, 3, 3, 3, 6, 7, 8, 9, 9]);
    expect(cale.targets).toEqual([7, 3, 1, 4, 4, 6, 6, 5, 2]);
    expect(cale.types).toEqual([1, 3, 2, 1, 2, 1, 1, 0, 1]);
    expect(cale.flags).toEqual([1, 1, 2, 1, 1, 3, 1, 1, 1]);
    // The same, read as ids.
    const calleesOf = (id: string) => {
      const r = rankOf(id);
      const out: [string, string, number][] = [];
      for (let i = cale.offsets[r]; i < cale.offsets[r + 1]; i++)
        out.push([idAt(cale.targets[i]), cale.linkTypes[cale.types[i]], cale.flags[i]]);
      return out;
    };
    expect(calleesOf("7")).toEqual([
      ["3", "CALL", 1],
      ["3", "USE", 1],
      ["10", "CALL", 3],
    ]);
    expect(calleesOf("10")).toEqual([["10", "CALL", 1]]);
    expect(calleesOf("2")).toEqual([["5", "USE", 2]]);
    expect(calleesOf("5")).toEqual([["8", "call", 1]]);
    expect(calleesOf("3")).toEqual([]);
    expect(calleesOf("6")).toEqual([]);
  });

  it("lists the distinct callers of each object, ascending by rank, escalated links included", async () => {
    const { callerOffsets, callers } = await linkColumns();
    expect(callerOffsets).toEqual([0, 0, 1, 2, 3, 4, 5, 7, 8, 8, 8]);
    expect(callers).toEqual([2, 8, 1, 5, 7, 5, 6, 0]);
    const callersOf = (id: string) => callers.slice(callerOffsets[rankOf(id)], callerOffsets[rankOf(id) + 1]).map(idAt);
    expect(callersOf("10")).toEqual(["7", "10"]);
    expect(callersOf("3")).toEqual(["7"]); // two callee entries, one caller
    expect(callersOf("5")).toEqual(["2"]); // escalated only
    expect(callersOf("4")).toEqual([]);
  });

  it("orders taxonomy nodes by name and derives fullNames from the parent's (possibly given) fullName", () => {
    expect(model.levels.map((nodes) => nodes.map((n) => [n.key, n.fullName, n.parent]))).toEqual([
      [
        ["t1b", "Alpha", 0xffffffff],
        ["t1a", "zeta", 0xffffffff],
      ],
      [
        ["t2b", "Alpha##Orphans", 0],
        ["t2a", "zeta##Services", 1],
      ],
      [
        ["t3b", "zeta##Services##Data", 1],
        ["t3a", "zeta##Services##web", 1],
      ],
      [
        ["t4a", "zeta##Services##web##JSP", 1],
        ["t4b", "custom/sql", 0],
      ],
      [
        ["t5b", "custom/sql##Column", 1],
        ["t5a", "zeta##Services##web##JSP##page", 0],
      ],
    ]);
  });

  it("lists the level-5 members in rank order and counts objects per node at every level", async () => {
    const taxo = await snapshot.section("TAXO");
    // Column (t5b): ids 4, 2, 3, 1, 6; page (t5a): ids 5, 8, 7, 10, 9.
    const members = async (node: number) => {
      const out: string[] = [];
      for await (const page of memberPages(snapshot, node)) out.push(...page.map((m) => `${m.id} ${m.name}`));
      return out;
    };
    expect(await members(0)).toEqual([0, 2, 4, 7, 9].map((r) => `${idAt(r)} ${model.objects[r].name}`));
    expect(await members(1)).toEqual([1, 3, 5, 6, 8].map((r) => `${idAt(r)} ${model.objects[r].name}`));
    expect((await members(0)).map((m) => m.split(" ")[0])).toEqual(["4", "2", "3", "1", "6"]);
    expect(taxo.levels.map((l) => Array.from(l.nbObjects))).toEqual([
      [0, 10], // Alpha, zeta
      [0, 10], // Orphans, Services
      [5, 5], // Data, web
      [5, 5], // JSP, sql
      [5, 5], // Column, page
    ]);
    expect(model.objects.map((o) => model.levels[4][o.level5].key)).toEqual([
      "t5b",
      "t5a",
      "t5b",
      "t5a",
      "t5b",
      "t5a",
      "t5a",
      "t5b",
      "t5a",
      "t5b",
    ]);
    expect(Array.from(taxo.children(1, 1))).toEqual([1]); // zeta → Services
    expect(Array.from(taxo.children(1, 0))).toEqual([0]); // Alpha → Orphans
    expect(Array.from(taxo.children(2, 1))).toEqual([0, 1]); // Services → Data, web
    expect(Array.from(taxo.children(2, 0))).toEqual([]); // Orphans has none
  });

  it("links level nodes where objects under them link, A ≠ B, once each, at every level", async () => {
    const lgra = await snapshot.section("LGRA");
    const names = (l: number) =>
      Array.from(lgra.origins[l], (o, i) => [model.levels[l][o].name, model.levels[l][lgra.targets[l][i]].name]);
    // Column → page: 2 → 5 (escalated only) and 1 → 7; page → Column: 7 → 3 and 9 → 2.
    // Links inside one node (4 → 1, 5 → 8, 7 → 10, 10 → 10) make none.
    expect(names(4)).toEqual([
      ["Column", "page"],
      ["page", "Column"],
    ]);
    expect(names(3)).toEqual([
      ["JSP", "sql"],
      ["sql", "JSP"],
    ]);
    expect(names(2)).toEqual([
      ["Data", "web"],
      ["web", "Data"],
    ]);
    expect(names(1)).toEqual([]);
    expect(names(0)).toEqual([]);
  });

  it("indexes lower-cased distinct values with postings in rank order", async () => {
    // Names have no search index: their keys and postings are in key pages (KNAM).
    const { keys, postings } = await fieldIndex(snapshot, "KNAM", "equals");
    const keyAt = async (ks: ArrayLike<number>) => keys.keysAt(ks);
    expect(await keyAt([0, 1, 2, 3, 4, 5, 6])).toEqual(["_x", "apple", "banana", "run", "zebra", "ärger", "éclair"]);
    expect(keys.length).toBe(7);
    expect((await postings.ranksOf([0, 1, 2, 3, 4, 5, 6])).map((ranks) => Array.from(ranks))).toEqual([
      [0],
      [1],
      [2, 3],
      [4, 5, 6],
      [7],
      [8],
      [9],
    ]);
    // Reversed keys: ananab, arbez, elppa, nur, regrä, rialcé, x_.
    expect(Array.from(await postings.byReversed())).toEqual([2, 4, 1, 3, 5, 6, 0]);
    expect(await keyAt(await suffixKeys(keys, postings, "na", true))).toEqual(["banana"]);
    expect(await prefixRange(keys, "r")).toEqual([3, 4]);

    const xtag = await snapshot.section("XTAG");
    expect(xtag.keys!.all()).toEqual(["hot", "hot path"]);
    expect(Array.from(xtag.posting(0))).toEqual([5]); // "Hot" and "hot" of id 7: one posting
    expect(Array.from(xtag.posting(1))).toEqual([4]);

    const xpth = await snapshot.section("XPTH");
    expect(xpth.keys!.all()).toEqual(["a/b.jsp"]);
    expect(Array.from(xpth.posting(0))).toEqual([5, 6]);

    const xpst = await snapshot.section("XPST");
    expect(xpst.keys!.all()).toEqual(["fix me"]);
    expect(Array.from(xpst.posting(0))).toEqual([4, 6]);

    const xann = await snapshot.section("XANN");
    expect(xann.keys!.length).toBe(0);
  });
});

describe("statuses against a previous analysis (docs/api.md#status)", () => {
  it("is Added for every object of a first analysis, unless the analysis says otherwise", () => {
    expect(Object.fromEntries(model.objects.map((o) => [o.id, o.status]))).toEqual({
      "1": "Added",
      "2": "Added",
      "3": "Added",
      "4": "Unchanged", // explicit
      "5": "Added",
      "6": "Added",
      "7": "Added",
      "8": "Added",
      "9": "Added", // explicit
      "10": "Added",
    });
    expect(model.meta.statusBase).toBeNull();
  });

  it("compares checksums by id with the previous snapshot; explicit statuses win", async () => {
    const v1 = compileDocument(V1).bytes;
    const { model: v2, bytes } = await compileAndOpen(V2, v1);
    expect(Object.fromEntries(v2.objects.map((o) => [o.id, o.status]))).toEqual({
      "7": "Unchanged", // c7 = c7
      "10": "Modified", // new ≠ old
      "3": null, // no checksum now
      "5": null, // no checksum before
      "2": "Added", // absent before, with a checksum
      "8": "Added", // absent before, without a checksum
      "4": "Unchanged", // explicit, though a ≠ b
      "9": "Added", // explicit, though same = same
      "1": "Modified", // c1 ≠ zz
      "6": "Unchanged", // "" = "": an empty checksum is still a checksum
    });
    expect(Object.fromEntries(v2.objects.map((o) => [o.id, o.explicitStatus]))).toEqual({
      "7": null,
      "10": null,
      "3": null,
      "5": null,
      "2": null,
      "8": null,
      "4": "Unchanged",
      "9": "Added",
      "1": null,
      "6": null,
    });
    expect(v2.meta.statusBase).toBe(createHash("sha256").update(v1).digest("hex"));
    // The computed status is stored: reading the snapshot alone gives it, without the previous one.
    const stat = await (await Snapshot.open(memorySource(bytes))).section("STAT");
    expect(stat.status(rankOf("10"))).toBe("Modified");
    expect(stat.status(rankOf("3"))).toBeNull();
  });

  it("reads the status base back from a snapshot: ids with their checksums, null where there is none", async () => {
    const base = await loadStatusBase(compileDocument(V1).bytes);
    expect(Object.fromEntries(base.checksums)).toEqual({
      "7": "c7",
      "10": "old",
      "3": "x",
      "5": null,
      "4": "b",
      "9": "same",
      "6": "",
      "1": "zz",
      "11": "gone",
    });
  });
});
