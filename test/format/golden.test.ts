// @module Golden snapshot files: committed bytes decode to the committed model, hand-checked answers, and the current compiler still writes the same bytes.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FORMAT_MINOR, FORMAT_VERSION } from "../../src/format/container.ts";
import { NONE, type ObjectRecord, type SnapshotModel } from "../../src/format/model.ts";
import { memorySource, Snapshot } from "../../src/format/snapshot.ts";
import { type FindObjectsQuery, findObjects } from "../../src/query/find-objects.ts";
import { collect } from "../../src/query/streamed-list.ts";
import { compileGolden, decodeBytes, GOLDEN_ROOT, modelJson, versionFolder } from "../fixtures/golden/make-golden.ts";
import { rawSections } from "./snapshot-bytes.ts";

const SNAPS = ["petstore-v1", "petstore-v2"] as const;
const folders = readdirSync(GOLDEN_ROOT)
  .map((f) => ({ f, m: /^v([0-9]+)(?:\.([0-9]+))?$/.exec(f) }))
  .filter(({ m }) => m)
  .map(({ f, m }) => ({ name: f, version: Number(m![1]), minor: Number(m![2] ?? 0), path: join(GOLDEN_ROOT, f) }))
  .sort((a, b) => a.version - b.version || a.minor - b.minor);
const read = (folder: string, file: string) => new Uint8Array(readFileSync(join(folder, file)));
const current = versionFolder(FORMAT_VERSION, FORMAT_MINOR);
const currentName = `v${FORMAT_VERSION}${FORMAT_MINOR ? `.${FORMAT_MINOR}` : ""}`;

/** Where two byte arrays first differ, and which section of `bytes` holds that offset. */
function firstDifference(bytes: Uint8Array, other: Uint8Array): string {
  let at = 0;
  while (at < bytes.length && at < other.length && bytes[at] === other[at]) at++;
  const section =
    at < 64
      ? "the header"
      : (rawSections(bytes).find((s) => at >= s.offset && at < s.offset + s.length + 8)?.tag ??
        "the table of contents");
  return `first difference at byte ${at} (in ${section}); sizes ${bytes.length} and ${other.length}`;
}

describe("golden folders", () => {
  it(`include one for the current format version (${currentName})`, () => {
    expect(
      folders.map((f) => f.name),
      `test/fixtures/golden/${currentName}/ is missing: run \`npx node test/fixtures/golden/make-golden.ts\` and commit it`,
    ).toContain(currentName);
  });

  it("hold no folder of another version: its readers refuse those files (reader-refuses.test.ts checks the message)", () => {
    expect(
      folders.filter((f) => f.version !== FORMAT_VERSION).map((f) => f.name),
      "remove the folders of earlier versions once the version is bumped (SNAPSHOT-FORMAT.md §14)",
    ).toEqual([]);
  });

  it.each(folders.flatMap((f) => SNAPS.map((s) => [f.name, s, f] as const)))(
    "%s/%s.snap is a snapshot of that version",
    (_n, snap, folder) => {
      const bytes = read(folder.path, `${snap}.snap`);
      expect(new TextDecoder().decode(bytes.subarray(0, 8))).toBe("APPSTRCT");
      expect(new DataView(bytes.buffer).getUint16(8, true)).toBe(folder.version);
      expect(new DataView(bytes.buffer).getUint16(10, true)).toBe(folder.minor);
    },
  );

  it.each(folders.flatMap((f) => SNAPS.map((s) => [f.name, s, f] as const)))(
    "%s/%s.snap decodes to exactly its committed .model.json",
    async (_n, snap, folder) => {
      const committed = JSON.parse(readFileSync(join(folder.path, `${snap}.model.json`), "utf8")) as unknown;
      const decoded = await decodeBytes(read(folder.path, `${snap}.snap`));
      expect(JSON.parse(modelJson(decoded))).toEqual(committed);
    },
  );
});

describe(`format version ${currentName}: the compiler still writes the committed bytes`, () => {
  it.each(SNAPS)("%s.snap", async (snap) => {
    const compiled = await compileGolden(current);
    const bytes = compiled[snap === "petstore-v1" ? "v1" : "v2"];
    const committed = read(current, `${snap}.snap`);
    const same = Buffer.from(bytes).equals(Buffer.from(committed));
    expect(
      same,
      `Compiling test/fixtures/golden/${currentName}/${snap}.json today does not give the committed ${snap}.snap (${firstDifference(committed, bytes)}). ` +
        `The snapshot format changed: do NOT regenerate these golden files. Bump FORMAT_VERSION in src/format/container.ts ` +
        `(with its line in SNAPSHOT-FORMAT.md §13), then run \`npx node test/fixtures/golden/make-golden.ts\` ` +
        `to write test/fixtures/golden/v${FORMAT_VERSION + 1}/, and remove ${currentName}/, whose files the reader then refuses (a section every reader of this version skips correctly may instead bump FORMAT_MINOR).`,
    ).toBe(true);
  });
});

describe(`golden ${currentName}: answers worked out by hand from the Pet Store example`, () => {
  it(`${currentName}/petstore-v1.snap starts with the header SNAPSHOT-FORMAT.md §3.1 shows for this example`, () => {
    const header = [
      "41 50 50 53 54 52 43 54", // magic "APPSTRCT"
      "05 00 00 00 3f 00 00 00", // version 5, minor 0, tocCount 63
      "40 00 00 00 00 00 00 00", // tocOffset 64
      "e0 07 00 00 51 f5 63 f1", // tocLength 2016, tocCrc 0xf163f551
      "28 48 00 00 00 00 00 00", // fileLength 18472
      "11 9a d2 53 00 00 00 00", // headerCrc 0x53d29a11, reserved
      "00 00 00 00 00 00 00 00",
      "00 00 00 00 00 00 00 00",
    ].join(" ");
    const bytes = read(current, "petstore-v1.snap");
    expect(
      Buffer.from(bytes.subarray(0, 64))
        .toString("hex")
        .replace(/(..)(?!$)/g, "$1 "),
    ).toBe(header);
    expect(bytes.length).toBe(18472);
  });

  const load = async (snap: string) => decodeBytes(read(current, `${snap}.snap`));
  const byId = (model: SnapshotModel) => new Map(model.objects.map((o, rank) => [o.id, { ...o, rank }]));
  const calleesOf = (model: SnapshotModel, id: string) => {
    const { callees } = model;
    const r = model.objects.findIndex((o) => o.id === id);
    const out: [string, string, number][] = [];
    for (let i = callees.offsets[r]; i < callees.offsets[r + 1]; i++)
      out.push([model.objects[callees.targets[i]].id, callees.linkTypes[callees.types[i]], callees.flags[i]]);
    return out;
  };

  it("v2 statuses against v1: 302 Modified (c3 → c3-changed), 304 Added, no checksum null, the rest Unchanged", async () => {
    const v2 = byId(await load("petstore-v2"));
    expect(v2.get("302")!.status).toBe("Modified");
    expect(v2.get("304")!.status).toBe("Added");
    expect(v2.get("203")!.status).toBeNull(); // no checksum in either analysis
    expect(v2.get("500")!.status).toBeNull();
    for (const id of ["100", "101", "200", "201", "202", "300", "301", "400", "401"])
      expect(v2.get(id)!.status, id).toBe("Unchanged");
    expect(v2.has("303")).toBe(false); // deleted in v2
  });

  it("v1 is a first analysis: every object with or without checksum is Added", async () => {
    const v1 = await load("petstore-v1");
    expect(new Set(v1.objects.map((o) => o.status))).toEqual(new Set(["Added"]));
    expect(v1.meta.statusBase).toBeNull();
  });

  it("v2 names v1 as its status base by content address", async () => {
    const v2 = await load("petstore-v2");
    expect(v2.meta.statusBase).toBe(createHash("sha256").update(read(current, "petstore-v1.snap")).digest("hex"));
  });

  it("rank 0 is the first name in name order: FINDBYID in v1 ('F' < 'f' among the findbyid tie), countOwners in v2", async () => {
    const v1 = await load("petstore-v1");
    const v2 = await load("petstore-v2");
    expect(v1.objects[0].name).toBe("FINDBYID");
    expect(v1.objects[1].name).toBe("findById");
    expect(v2.objects[0].name).toBe("countOwners");
    expect(v2.objects.map((o) => o.id)).toEqual([
      "304",
      "301",
      "302",
      "202",
      "101",
      "500",
      "203",
      "200",
      "300",
      "400",
      "100",
      "401",
      "201",
    ]);
  });

  it("counts: 13 objects each; 14 and 15 distinct links; levels 2, 4, 4, 4, 5", async () => {
    const v1 = await load("petstore-v1");
    const v2 = await load("petstore-v2");
    expect(v1.meta.counts).toEqual({ objects: 13, links: 14, files: 5, postIts: 1, levels: [2, 4, 4, 4, 5] });
    expect(v2.meta.counts).toEqual({ objects: 13, links: 15, files: 5, postIts: 1, levels: [2, 4, 4, 4, 5] });
  });

  it("callees of showOwner (201): escalated-only, direct and both, in callee name order", async () => {
    expect(calleesOf(await load("petstore-v1"), "201")).toEqual([
      ["303", "CALL", 2], // FINDBYID, escalated only
      ["301", "CALL", 1], // findById
      ["300", "USE", 3], // OwnerRepository, direct and escalated
    ]);
    expect(calleesOf(await load("petstore-v2"), "201")).toEqual([
      ["301", "CALL", 1],
      ["300", "USE", 3],
    ]);
    expect(calleesOf(await load("petstore-v2"), "202")).toEqual([
      ["304", "CALL", 1], // countOwners
      ["302", "CALL", 1], // findByLastName
      ["302", "USE", 1],
      ["202", "CALL", 1], // self link
      ["500", "CALL", 1], // format
    ]);
  });

  it("level 5 in name order: the two 'Java Method' nodes ordered by fullName (External… before Services…)", async () => {
    const v2 = await load("petstore-v2");
    expect(v2.levels[4].map((n) => [n.key, n.fullName])).toEqual([
      ["cls", "Services##Logic Services##Business Logic##Java##Java Class"],
      ["ext", "External##Libraries##Java Runtime##Java##Java Method"],
      ["meth", "Services##Logic Services##Business Logic##Java##Java Method"],
      ["page", "Services##User Interaction Services##Web Pages##JSP##JSP Page"],
      ["table", "Services##Database Services##Data Persistence##PostgreSQL##PostgreSQL Table"],
    ]);
    const members = v2.levels[4].map((_, i) => v2.objects.filter((o) => o.level5 === i).map((o) => o.id));
    expect(members).toEqual([
      ["200", "300"],
      ["500"],
      ["304", "301", "302", "202", "203", "201"],
      ["101", "100"],
      ["400", "401"],
    ]);
    expect(v2.levels[0].map((n) => [n.name, n.parent])).toEqual([
      ["External", NONE],
      ["Services", NONE],
    ]);
  });

  it("post-it and source locations of 302, the negative file id of the tables", async () => {
    const v2 = await load("petstore-v2");
    const o = byId(v2).get("302")!;
    expect(o.postIts).toEqual([{ title: "Slow on large & old databases", text: null }]);
    expect(o.sourceLocations.map((l) => [v2.files[l.file].id, l.startLine, l.endLine])).toEqual([["3", 24, 40]]);
    const table = byId(v2).get("401")!;
    expect(table.sourceLocations.map((l) => [v2.files[l.file].id, l.startLine, l.endLine])).toEqual([["-4", 11, 20]]);
    expect(table.role).toBe("end");
    expect(byId(v2).get("500")!.external).toBe(true);
  });
});

describe("every golden folder of this version answers find objects as a plain filter over its objects does", () => {
  const QUERIES: FindObjectsQuery[] = [
    { filters: { name: ["own"] }, operator: "contains", searchtype: "all", skip: 0, limit: 50 },
    {
      filters: { name: ["owner"], fullname: ["petclinic"] },
      operator: "contains",
      searchtype: "all",
      skip: 0,
      limit: 50,
    },
    { filters: { name: ["id"] }, operator: "contains", searchtype: "all", skip: 0, limit: 50 },
    {
      filters: { fullname: ["ory.find", "ler.find"] },
      operator: "contains",
      searchtype: "internal",
      skip: 1,
      limit: 2,
    }, // 3 matches: the 2nd and 3rd
    { filters: { type: ["java"], name: ["find"] }, operator: "startswith", searchtype: "all", skip: 0, limit: 50 },
    { filters: { name: ["owner", "byid"] }, operator: "endswith", searchtype: "all", skip: 0, limit: 50 },
  ];

  it.each(QUERIES.map((q) => [JSON.stringify(q.filters), q] as const))("%s", async (_label, query) => {
    const answers = await Promise.all(
      folders.map(async (f) =>
        findObjects(await Snapshot.open(memorySource(read(f.path, "petstore-v2.snap"))), query).then(collect),
      ),
    );
    const model = await decodeBytes(read(current, "petstore-v2.snap"));
    // The reference: a plain filter over the decoded objects (OR within a filter, AND across, lower-cased).
    const op = query.operator;
    const test = (value: string, wanted: string) =>
      op === "contains"
        ? value.includes(wanted)
        : op === "equals"
          ? value === wanted
          : op === "startswith"
            ? value.startsWith(wanted)
            : value.endsWith(wanted);
    const fields = {
      name: (o: ObjectRecord) => [o.name],
      fullname: (o: ObjectRecord) => [o.fullName],
      type: (o: ObjectRecord) => [o.type],
    };
    const expected = model.objects
      .filter((o) =>
        Object.entries(query.filters).every(([f, values]) =>
          fields[f as keyof typeof fields](o).some((v) => values!.some((w) => test(v.toLowerCase(), w.toLowerCase()))),
        ),
      )
      .filter((o) => query.searchtype === "all" || o.external === (query.searchtype === "external"))
      .map((o) => o.id);
    for (const answer of answers) {
      expect(answer.totalObjects).toBe(expected.length);
      expect(answer.objects.map((o) => o.id)).toEqual(expected.slice(query.skip, query.skip + query.limit));
    }
  });
});
