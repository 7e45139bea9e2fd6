// @module Tests of the appstruct command line run as a child process: exit codes, messages, atomic output, inspect, --previous, generate.

import { createHash } from "node:crypto";
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readWholeIdPages } from "../../src/format/id-pages.ts";
import { memorySource, Snapshot } from "../../src/format/snapshot.ts";
import { getU32, patchSection, setU32 } from "../format/snapshot-bytes.ts";
import { appstruct, type Run } from "../support/appstruct-cli.ts";

const ROOT = join(import.meta.dirname, "../..");
const EXAMPLES = join(ROOT, "test/fixtures/examples");
const PETSTORE_V1 = join(EXAMPLES, "petstore-v1.json");
const PETSTORE_V2 = join(EXAMPLES, "petstore-v2.json");

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

let root = "";
let fresh = 0;
/** A new empty folder for one test's files. */
async function folder(): Promise<string> {
  const path = join(root, `t${fresh++}`);
  await mkdir(path);
  return path;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "appstruct-cli-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

type Rec = Record<string, unknown>;
async function petstore(which: "v1" | "v2"): Promise<Rec & { files: Rec[]; objects: Rec[]; links: Rec[] }> {
  return JSON.parse(await readFile(which === "v1" ? PETSTORE_V1 : PETSTORE_V2, "utf8"));
}

/** petstore-v1 with three faults: a bad date, a duplicate file id, a link type with a space. */
async function invalidAnalysis(path: string): Promise<string[]> {
  const d = await petstore("v1");
  d.analyzedAt = "2026-02-30T00:00:00Z";
  d.files.push({ id: "1", path: "again.jsp" });
  d.links[0].type = "CALL ME";
  await writeFile(path, JSON.stringify(d));
  return [
    `${path}: document.analyzedAt: must be an RFC 3339 date-time with a zone, e.g. 2026-09-01T12:00:00Z, found "2026-02-30T00:00:00Z"`,
    `${path}: files[${d.files.length - 1}].id: duplicates file id "1" of files[0]`,
    `${path}: links[0].type: must be 1 to 64 letters, digits or _, found "CALL ME"`,
  ];
}

describe("compile", () => {
  it("compiles the worked example: exit 0, a one-line summary, a snapshot file and nothing else", async () => {
    const dir = await folder();
    const out = join(dir, "petstore.snap");
    const run = await appstruct("compile", PETSTORE_V1, "-o", out);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const bytes = new Uint8Array(await readFile(out));
    expect(Buffer.from(bytes.subarray(0, 8)).toString("latin1")).toBe("APPSTRCT");
    expect(run.stdout).toMatch(
      new RegExp(
        `^${out.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: Pet Store & Co @ 2026-09-01T12:00:00Z — 13 objects, 14 links, [0-9.]+ (B|KiB|MiB), sha256 [0-9a-f]{12}, [0-9.]+ s\\n$`,
      ),
    );
    expect(run.stdout).toContain(`sha256 ${sha256(bytes).slice(0, 12)},`);
    expect(await readdir(dir)).toEqual(["petstore.snap"]);
    const snapshot = await Snapshot.open(memorySource(bytes));
    expect(snapshot.meta.application).toBe("Pet Store & Co");
    expect(snapshot.meta.counts.objects).toBe(13);
    expect(snapshot.meta.statusBase).toBeNull();
  });

  it("is deterministic: the same analysis compiles to the same bytes", async () => {
    const dir = await folder();
    expect((await appstruct("compile", PETSTORE_V1, "-o", join(dir, "a.snap"))).code).toBe(0);
    expect((await appstruct("compile", PETSTORE_V1, "-o", join(dir, "b.snap"))).code).toBe(0);
    expect(sha256(await readFile(join(dir, "a.snap")))).toBe(sha256(await readFile(join(dir, "b.snap"))));
  });

  it("refuses an invalid .json analysis: exit 1, every fault with its location on stderr, nothing written", async () => {
    const input = join(await folder(), "bad.json");
    const expected = await invalidAnalysis(input);
    const outDir = await folder();
    const run = await appstruct("compile", input, "-o", join(outDir, "bad.snap"));
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr.split("\n")).toEqual([
      ...expected,
      `appstruct: ${input}: refused, 3 faults; nothing written`,
      "",
    ]);
    expect(await readdir(outDir)).toEqual([]);
  });

  it("refuses an invalid .ndjson analysis with line locations", async () => {
    const dir = await folder();
    const input = join(dir, "bad.ndjson");
    const lines = [
      { format: "appstruct.analysis/1", application: "Shop", analyzedAt: "2026-09-01T12:00:00Z" },
      { kind: "object", id: "1", name: "a", fullName: "a", type: "t", typeId: "T" },
      { kind: "link", from: "1", to: "2", type: "CALL" },
      { kind: "object", id: "01", name: "b", fullName: "b", type: "t", typeId: "T" },
    ];
    await writeFile(input, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
    const run = await appstruct("compile", input, "-o", join(dir, "bad.snap"));
    expect(run.code).toBe(1);
    expect(run.stderr.split("\n")).toEqual([
      `${input}: line 4, id: must be 1 to 19 decimal digits without a leading zero, found "01"`,
      `${input}: line 3, to: refers to object "2", which the analysis does not define`,
      `appstruct: ${input}: refused, 2 faults; nothing written`,
      "",
    ]);
    expect(await readdir(dir)).toEqual(["bad.ndjson"]);
  });

  it("leaves an existing output file untouched when the analysis is refused", async () => {
    const inputDir = await folder();
    const input = join(inputDir, "bad.json");
    await invalidAnalysis(input);
    const dir = await folder();
    const out = join(dir, "app.snap");
    expect((await appstruct("compile", PETSTORE_V1, "-o", out)).code).toBe(0);
    const before = await readFile(out);
    const run = await appstruct("compile", input, "-o", out);
    expect(run.code).toBe(1);
    expect((await readFile(out)).equals(before)).toBe(true);
    expect(await readdir(dir)).toEqual(["app.snap"]);
  });

  it("reports 100 faults and how many more", async () => {
    const dir = await folder();
    const input = join(dir, "many.json");
    const objects = Array.from({ length: 150 }, (_, i) => ({
      id: `0${i}`,
      name: "n",
      fullName: "n",
      type: "t",
      typeId: "T",
    }));
    await writeFile(
      input,
      JSON.stringify({
        format: "appstruct.analysis/1",
        application: "Shop",
        analyzedAt: "2026-09-01T12:00:00Z",
        objects,
      }),
    );
    const run = await appstruct("compile", input, "-o", join(dir, "many.snap"));
    expect(run.code).toBe(1);
    const lines = run.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(102);
    expect(lines[0]).toBe(`${input}: objects[0].id: must be 1 to 19 decimal digits without a leading zero, found "00"`);
    expect(lines[99]).toMatch(new RegExp(`^${input.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: objects\\[99\\]\\.id: `));
    expect(lines[100]).toBe(`${input}: ... and 50 more faults`);
    expect(lines[101]).toBe(`appstruct: ${input}: refused, 150 faults; nothing written`);
    expect(await readdir(dir)).toEqual(["many.json"]);
  });

  it("refuses an object larger than a snapshot holds, naming it: exit 1, nothing written", async () => {
    const dir = await folder();
    const input = join(dir, "huge.json");
    const analysis = await petstore("v1");
    const huge = analysis.objects[0];
    huge.annotations = Array.from({ length: 12_000 }, (_, i) => `@A${i}(${"x".repeat(100)})`);
    await writeFile(input, JSON.stringify(analysis));
    const run = await appstruct("compile", input, "-o", join(dir, "huge.snap"));
    expect(run.code).toBe(1);
    expect(run.stderr.trimEnd()).toMatch(
      new RegExp(
        `^appstruct: ${input.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: object ${huge.id} has \\d+ bytes of displayed fields as JSON \\(its names, type, file path, annotations and tags\\); a snapshot holds at most 1048576 for an object; nothing written$`,
      ),
    );
    expect(await readdir(dir)).toEqual(["huge.json"]);
  });

  it("refuses a --previous that is not a snapshot: exit 1, nothing written", async () => {
    const dir = await folder();
    const run = await appstruct("compile", PETSTORE_V2, "--previous", PETSTORE_V1, "-o", join(dir, "v2.snap"));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`appstruct: ${PETSTORE_V1}: not a usable snapshot: `);
    expect(await readdir(dir)).toEqual([]);
  });

  it("fails with exit 3 when the output folder does not exist, and writes nothing", async () => {
    const dir = await folder();
    const run = await appstruct("compile", PETSTORE_V1, "-o", join(dir, "missing", "x.snap"));
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(`appstruct: cannot write ${join(dir, "missing", "x.snap")}: its folder does not exist\n`);
    expect(await readdir(dir)).toEqual([]);
  });
});

describe("compile --previous", () => {
  it("computes status against the earlier snapshot of petstore", async () => {
    const dir = await folder();
    const v1 = join(dir, "v1.snap");
    const v2 = join(dir, "v2.snap");
    expect((await appstruct("compile", PETSTORE_V1, "-o", v1)).code).toBe(0);
    const run = await appstruct("compile", PETSTORE_V2, "--previous", v1, "-o", v2);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Pet Store & Co @ 2026-10-15T09:30:00+02:00 — 13 objects");

    const snapshot = await Snapshot.open(memorySource(new Uint8Array(await readFile(v2))));
    expect(snapshot.meta.statusBase).toBe(sha256(await readFile(v1)));
    const [order, stat] = await Promise.all([readWholeIdPages(snapshot), snapshot.section("STAT")]);
    const statuses: Record<string, string | null> = {};
    for (let i = 0; i < order.count; i++) statuses[order.id(i)] = stat.status(order.rank(i));
    expect(statuses).toEqual({
      "100": "Unchanged",
      "101": "Unchanged",
      "200": "Unchanged",
      "201": "Unchanged",
      "202": "Unchanged",
      "203": null, // no checksum
      "300": "Unchanged",
      "301": "Unchanged",
      "302": "Modified", // c3 → c3-changed
      "304": "Added", // new in v2
      "400": "Unchanged",
      "401": "Unchanged",
      "500": null, // no checksum
    });
  });

  it("without --previous every object is Added", async () => {
    const dir = await folder();
    const out = join(dir, "v2.snap");
    expect((await appstruct("compile", PETSTORE_V2, "-o", out)).code).toBe(0);
    const snapshot = await Snapshot.open(memorySource(new Uint8Array(await readFile(out))));
    const [core, stat] = await Promise.all([snapshot.section("OBJC"), snapshot.section("STAT")]);
    expect(core.count).toBe(13);
    for (let r = 0; r < core.count; r++) expect(stat.status(r)).toBe("Added");
    expect(snapshot.meta.statusBase).toBeNull();
  });
});

describe("validate", () => {
  it("accepts a valid analysis: exit 0 and a summary", async () => {
    const run = await appstruct("validate", PETSTORE_V1);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      `${PETSTORE_V1}: valid — Pet Store & Co @ 2026-09-01T12:00:00Z, 13 objects, 14 link records\n`,
    );
  });

  it("refuses an invalid analysis: exit 1 listing every fault", async () => {
    const input = join(await folder(), "bad.json");
    const expected = await invalidAnalysis(input);
    const run = await appstruct("validate", input);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr.split("\n")).toEqual([
      ...expected,
      `appstruct: ${input}: refused, 3 faults; nothing written`,
      "",
    ]);
  });

  it("refuses a file that is neither .json nor .ndjson with exit 1", async () => {
    const input = join(await folder(), "analysis.txt");
    await writeFile(input, "{}");
    const run = await appstruct("validate", input);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("the file name must end in .json or .ndjson");
  });

  it("a missing file is another failure: exit 3", async () => {
    const input = join(await folder(), "absent.json");
    const run = await appstruct("validate", input);
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(`appstruct: no such file: ${input}\n`);
  });
});

describe("inspect", () => {
  let snap = "";
  beforeAll(async () => {
    snap = join(await folder(), "petstore.snap");
    const run = await appstruct("compile", PETSTORE_V1, "-o", snap);
    if (run.code !== 0) throw new Error(`compile failed: ${run.stderr}`);
  });

  interface Report {
    ok: boolean;
    size: number;
    sha256: string;
    sections: { tag: string; offset: number; length: number; checksum: string }[];
    meta: { application: string; counts: { objects: number; links: number } } | null;
  }

  async function report(file: string): Promise<{ run: Run; report: Report }> {
    const run = await appstruct("inspect", "--json", file);
    return { run, report: JSON.parse(run.stdout) as Report };
  }

  it("prints the header, metadata and every section", async () => {
    const run = await appstruct("inspect", snap);
    expect(run.code).toBe(0);
    const text = run.stdout;
    expect(text.startsWith(`${snap}: appstruct snapshot, format version `)).toBe(true);
    expect(text).toContain("application  Pet Store & Co\n");
    expect(text).toContain("analyzedAt   2026-09-01T12:00:00Z\n");
    expect(text).toContain("counts       13 objects, 14 links, 5 files, 1 post-its\n");
    expect(text).toContain(`sha256       ${sha256(await readFile(snap))}\n`);
    expect(text).toContain("verified     every section decoded and cross-checked, as publishing checks it\n");
    expect(text.trimEnd().endsWith("verdict      ok")).toBe(true);
    const { report: json } = await report(snap);
    expect(json.sections.length).toBeGreaterThan(5);
    for (const s of json.sections) expect(text).toMatch(new RegExp(`\\n  ${s.tag} .* at +${s.offset}  checksum ok`));
  });

  it("--json parses, with ok: true and the counts", async () => {
    const { run, report: json } = await report(snap);
    expect(run.code).toBe(0);
    const bytes = await readFile(snap);
    expect(json.ok).toBe(true);
    expect(json.size).toBe(bytes.length);
    expect(json.sha256).toBe(sha256(bytes));
    expect(json.meta?.application).toBe("Pet Store & Co");
    expect(json.meta?.counts.objects).toBe(13);
    expect(json.meta?.counts.links).toBe(14);
    expect(json.sections.map((s) => s.tag)).toEqual(expect.arrayContaining(["META", "OBJC", "STAT"]));
    for (const s of json.sections) expect(s.checksum).toBe("ok");
  });

  it("a byte flipped inside a section: exit 1, CHECKSUM MISMATCH on that section, verdict CORRUPT", async () => {
    const { report: good } = await report(snap);
    const objc = good.sections.find((s) => s.tag === "OBJC")!;
    const bad = join(await folder(), "flipped.snap");
    const bytes = new Uint8Array(await readFile(snap));
    bytes[objc.offset + Math.floor(objc.length / 2)] ^= 0x40;
    await writeFile(bad, bytes);

    const run = await appstruct("inspect", bad);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/\n {2}OBJC .*CHECKSUM MISMATCH/);
    expect(run.stdout).toContain("verdict      CORRUPT");
    expect(run.stderr).toBe(`appstruct: ${bad}: corrupt snapshot\n`);

    const { run: jsonRun, report: json } = await report(bad);
    expect(jsonRun.code).toBe(1);
    expect(json.ok).toBe(false);
    expect(json.sections.filter((s) => s.checksum !== "ok")).toEqual([
      expect.objectContaining({ tag: "OBJC", checksum: "mismatch" }),
    ]);
  });

  it("sections that disagree under valid checksums (what publishing refuses): exit 1, verified FAILED with the reason", async () => {
    const bad = join(await folder(), "disagreeing.snap");
    // Level-5 node 0 counts one object more than OBJC places there, node 1 one less (TAXO block 39), the checksums rewritten.
    await writeFile(
      bad,
      patchSection(new Uint8Array(await readFile(snap)), "TAXO", (body) => {
        setU32(body, 39, 0, getU32(body, 39, 0) + 1);
        setU32(body, 39, 1, getU32(body, 39, 1) - 1);
      }),
    );
    const run = await appstruct("inspect", bad);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /\nverified {5}FAILED: TAXO: level-5 node 0 counts \d+ objects, OBJC places \d+ there\n/,
    );
    expect(run.stdout).not.toContain("CHECKSUM");
    expect(run.stdout).toContain("verdict      CORRUPT");
    const { report: json } = await report(bad);
    expect(json.ok).toBe(false);
  });

  it("a byte flipped in the file header: exit 1 with the reason", async () => {
    const bad = join(await folder(), "header.snap");
    const bytes = new Uint8Array(await readFile(snap));
    bytes[20] ^= 0x01;
    await writeFile(bad, bytes);
    const run = await appstruct("inspect", bad);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      new RegExp(`^appstruct: ${bad.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: .*(mismatch|corrupt|checksum)`, "i"),
    );
  });

  it("a truncated snapshot: exit 1", async () => {
    const bad = join(await folder(), "short.snap");
    const bytes = await readFile(snap);
    await writeFile(bad, bytes.subarray(0, bytes.length - 16));
    const run = await appstruct("inspect", bad);
    expect(run.code).toBe(1);
  });

  it("a file that is not a snapshot: exit 1", async () => {
    const run = await appstruct("inspect", PETSTORE_V1);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`appstruct: ${PETSTORE_V1}: `);
  });

  it("a snapshot whose sections are corrupt is refused as --previous: exit 1, nothing written", async () => {
    const dir = await folder();
    const bad = join(dir, "flipped.snap");
    const { report: good } = await report(snap);
    const stat = good.sections.find((s) => s.tag === "STAT")!;
    await copyFile(snap, bad);
    const bytes = new Uint8Array(await readFile(bad));
    bytes[stat.offset + 1] ^= 0x10;
    await writeFile(bad, bytes);
    const run = await appstruct("compile", PETSTORE_V2, "--previous", bad, "-o", join(dir, "v2.snap"));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${bad}: not a usable snapshot`);
    expect(await readdir(dir)).toEqual(["flipped.snap"]);
  });
});

describe("usage errors exit 2", () => {
  it.each([
    ["compile without -o", ["compile", "x.json"], /required option '-o, --out <file>'/],
    ["compile without analysis", ["compile", "-o", "x.snap"], /missing required argument 'analysis'/],
    ["validate without analysis", ["validate"], /missing required argument 'analysis'/],
    ["inspect without snapshot", ["inspect"], /missing required argument 'snapshot'/],
    ["generate without --objects", ["generate", "-o", "x.ndjson"], /required option '--objects <n>'/],
    ["generate --objects 0", ["generate", "--objects", "0", "-o", "x.ndjson"], /must be a whole number ≥ 1/],
    [
      "generate --seed abc",
      ["generate", "--objects", "5", "--seed", "abc", "-o", "x.ndjson"],
      /must be a whole number ≥ 1/,
    ],
    ["an unknown command", ["frobnicate"], /unknown command 'frobnicate'/],
    ["an unknown option", ["validate", "--strict", "x.json"], /unknown option '--strict'/],
  ])("%s", async (_name, args, message) => {
    const run = await appstruct(...(args as string[]));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message as RegExp);
    expect(run.stdout).toBe("");
  });

  it("nothing is written by a usage error", async () => {
    const dir = await folder();
    expect((await appstruct("generate", "--objects", "0", "-o", join(dir, "x.ndjson"))).code).toBe(2);
    expect(await readdir(dir)).toEqual([]);
  });
});

describe("generate", () => {
  it("writes a deterministic analysis that compiles", async () => {
    const dir = await folder();
    const x = join(dir, "x.ndjson");
    const gen = await appstruct("generate", "--objects", "500", "--seed", "3", "-o", x);
    expect(gen.code).toBe(0);
    expect(gen.stdout).toMatch(
      new RegExp(
        `^${x.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: 500 objects, \\d+ links, \\d+ files, \\d+ taxonomy nodes, \\d+ post-its\\n$`,
      ),
    );

    const validate = await appstruct("validate", x);
    expect(validate.code).toBe(0);
    expect(validate.stdout).toContain(": valid — Synthetic Enterprise @ 2026-01-01T00:00:00Z, 500 objects, ");

    const compile = await appstruct("compile", x, "-o", join(dir, "x.snap"));
    expect(compile.stderr).toBe("");
    expect(compile.code).toBe(0);
    expect(compile.stdout).toContain("Synthetic Enterprise @ 2026-01-01T00:00:00Z — 500 objects, ");

    expect((await appstruct("generate", "--objects", "500", "--seed", "3", "-o", join(dir, "y.ndjson"))).code).toBe(0);
    expect((await appstruct("generate", "--objects", "500", "--seed", "4", "-o", join(dir, "z.ndjson"))).code).toBe(0);
    const [bx, by, bz] = await Promise.all(["x", "y", "z"].map((n) => readFile(join(dir, `${n}.ndjson`))));
    expect(bx.equals(by)).toBe(true);
    expect(bx.equals(bz)).toBe(false);
    expect((await readdir(dir)).sort()).toEqual(["x.ndjson", "x.snap", "y.ndjson", "z.ndjson"]);
  });
});
