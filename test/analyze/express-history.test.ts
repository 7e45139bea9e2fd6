// @module The Express fixture through the command line: routes → services → SQL client with start/end points, and a re-analysis compiled with --previous.

import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memorySource, Snapshot } from "../../src/format/snapshot.ts";
import { changes } from "../../src/query/changes.ts";
import { objectCharacteristics } from "../../src/query/characteristics.ts";
import { startEndPoints } from "../../src/query/points.ts";
import { fileText } from "../../src/query/source-file.ts";
import { collect } from "../../src/query/streamed-list.ts";
import { appstruct } from "../support/appstruct-cli.ts";
import { referenceChanges } from "../support/reference/history.ts";
import { type Analysis, FIXTURES, levelNames, linkLines, object, objectLines } from "./fixture-project.ts";

let dir = "";
let v1: Analysis;
let v2: Analysis;
let snapshot: Snapshot;

const status = async (fullName: string, d = v2) =>
  (
    await objectCharacteristics(snapshot, object(d, fullName).id, {
      key: snapshot.meta.statusBase!,
      open: async () => snapshot,
    })
  ).object.status;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "appstruct-analyze-"));
  const project = join(dir, "owners-api");
  await cp(join(FIXTURES, "express"), project, { recursive: true });
  const run1 = await appstruct("analyze", project, "-o", join(dir, "v1.json"), "--analyzed-at", "2026-11-01T00:00:00Z");
  expect(run1.stderr).toBe("");
  expect(run1.code).toBe(0);
  expect((await appstruct("compile", join(dir, "v1.json"), "-o", join(dir, "v1.snap"))).code).toBe(0);

  // The change: findOwner's query changes, deleteOwner is added before createOwner (whose lines move but whose text does not).
  const service = join(project, "src/services/owner-service.ts");
  const source = await readFile(service, "utf8");
  await writeFile(
    service,
    source
      .replace(
        "select id, name from owners where id = $1",
        "select id, name from owners where id = $1 and deleted = false",
      )
      .replace(
        "export async function createOwner",
        'export async function deleteOwner(id: number): Promise<void> {\n  await query("update owners set deleted = true where id = $1", [id]);\n}\n\nexport async function createOwner',
      ),
  );
  expect(
    (await appstruct("analyze", project, "-o", join(dir, "v2.json"), "--analyzed-at", "2026-11-02T00:00:00Z")).code,
  ).toBe(0);
  const run = await appstruct(
    "compile",
    join(dir, "v2.json"),
    "--previous",
    join(dir, "v1.snap"),
    "-o",
    join(dir, "v2.snap"),
  );
  expect(run.code).toBe(0);
  [v1, v2] = [
    JSON.parse(await readFile(join(dir, "v1.json"), "utf8")),
    JSON.parse(await readFile(join(dir, "v2.json"), "utf8")),
  ];
  snapshot = await Snapshot.open(memorySource(new Uint8Array(await readFile(join(dir, "v2.snap")))));
}, 120_000);

afterAll(() => rm(dir, { recursive: true, force: true }));

describe("analyze an Express app without node_modules", () => {
  it("finds routes, services and the SQL client; express and pg are external packages", () => {
    expect(v1.application).toBe("owners-api");
    expect(objectLines(v1)).toEqual([
      'TypeScript Function | "src/db/client".query | src/db/client.ts:5-8',
      'TypeScript Variable | "src/routes/owners".ownersRouter | src/routes/owners.ts:4-4',
      'TypeScript Route Handler | "src/routes/owners".GET /owners/:id | src/routes/owners.ts:6-9',
      'TypeScript Function | "src/routes/owners".createOwnerHandler | src/routes/owners.ts:13-15',
      'TypeScript Function | "src/server".start | src/server.ts:4-9',
      'TypeScript Interface | "src/services/owner-service".Owner | src/services/owner-service.ts:3-6',
      'TypeScript Function | "src/services/owner-service".findOwner | src/services/owner-service.ts:8-11',
      'TypeScript Function | "src/services/owner-service".createOwner | src/services/owner-service.ts:13-16',
      "SQL Table | owners | (no file)",
    ]);
    expect(linkLines(v1, ["CALL"]).filter((l) => !l.includes("ECMAScript"))).toEqual([
      'CALL "src/db/client".query -> pg.Pool.query',
      'CALL "src/routes/owners".GET /owners/:id -> "src/services/owner-service".findOwner',
      'CALL "src/routes/owners".createOwnerHandler -> "src/services/owner-service".createOwner',
      'CALL "src/routes/owners".createOwnerHandler -> express.Response.status',
      'CALL "src/routes/owners".createOwnerHandler -> express.Response.status.json',
      'CALL "src/routes/owners".ownersRouter -> express.Router',
      'CALL "src/server".start -> express',
      'CALL "src/server".start -> express.json',
      'CALL "src/server".start -> express.listen',
      'CALL "src/server".start -> express.use',
      'CALL "src/services/owner-service".createOwner -> "src/db/client".query',
      'CALL "src/services/owner-service".findOwner -> "src/db/client".query',
      "CALL src/db/client.ts -> pg.Pool",
      "CALL src/routes/owners.ts -> express.Router.get",
      "CALL src/routes/owners.ts -> express.Router.post",
    ]);
    expect(object(v1, "pg")).toEqual({
      id: expect.any(String),
      name: "pg",
      fullName: "pg",
      type: "npm Package",
      typeId: "NPM_PACKAGE",
      external: true,
      level5: expect.any(String),
      checksum: expect.any(String),
    });
    expect(object(v1, "pg.Pool.query")).toMatchObject({
      external: true,
      parent: object(v1, "pg").id,
      role: "end",
      tags: ["data store"],
    });
    expect(v1.objects.filter((o) => o.role === "start").map((o) => o.fullName)).toEqual([
      '"src/routes/owners".GET /owners/:id',
      '"src/routes/owners".createOwnerHandler',
      '"src/server".start',
    ]);
    expect(levelNames(v1, object(v1, '"src/routes/owners".GET /owners/:id'))).toEqual([
      "Application Services",
      "API Services",
      "routes",
      "Express",
      "TypeScript Route Handler",
    ]);
    expect(levelNames(v1, object(v1, '"src/db/client".query'))).toEqual([
      "Application Services",
      "Data Services",
      "db",
      "TypeScript",
      "TypeScript Function",
    ]);
    expect(levelNames(v1, object(v1, "pg.Pool.query"))).toEqual([
      "External Services",
      "Libraries",
      "pg",
      "npm",
      "External Member",
    ]);
  });

  it("start and end points through the compiled snapshot: route handler → service → pg and the owners table", async () => {
    const points = await startEndPoints(snapshot, object(v2, '"src/services/owner-service".findOwner').id, 5).then(
      collect,
    );
    expect(points.startPoints.map((p) => p.fullName)).toEqual(['"src/routes/owners".GET /owners/:id']);
    expect(points.endPoints.map((p) => p.fullName)).toEqual(["owners", "pg.Pool.query"]);
  });

  it("a re-analysis keeps ids and gives Added, Modified and Unchanged by checksum", async () => {
    expect(object(v2, '"src/services/owner-service".createOwner').id).toBe(
      object(v1, '"src/services/owner-service".createOwner').id,
    );
    expect(object(v2, '"src/services/owner-service".createOwner').sourceLocations).toEqual([
      { fileId: "4", startLine: 17, endLine: 20 },
    ]);
    expect(await status('"src/services/owner-service".findOwner')).toEqual({ id: "Modified" });
    expect(await status('"src/services/owner-service".deleteOwner')).toEqual({ id: "Added" });
    expect(await status('"src/services/owner-service".createOwner')).toEqual({ id: "Unchanged" });
    expect(await status("src/services/owner-service.ts")).toEqual({ id: "Modified" });
    expect(await status('"src/db/client".query')).toEqual({ id: "Unchanged" });
    expect(await status("pg.Pool.query")).toEqual({ id: "Unchanged" });
  });
});

describe("source text and changes through analyze and compile", () => {
  it("keeps each file's text as read; the snapshot serves an object's lines as its location gives them", async () => {
    const project = join(dir, "owners-api");
    for (const file of v2.files) expect(file.text, file.path).toBe(await readFile(join(project, file.path), "utf8"));
    const [location] = object(v2, '"src/services/owner-service".createOwner').sourceLocations!;
    const served = await fileText(snapshot, location.fileId, location);
    const lines = (await readFile(join(project, "src/services/owner-service.ts"), "utf8")).split("\n");
    expect(served).toEqual({
      fileId: location.fileId,
      path: "src/services/owner-service.ts",
      startLine: location.startLine,
      endLine: location.endLine,
      totalLines: lines.length - 1,
      text: `${lines.slice(location.startLine - 1, location.endLine).join("\n")}\n`,
    });
    expect(served!.text).toMatch(/^export async function createOwner/);
  });

  it("--no-source leaves the text out: the snapshot lists the files but serves no code", async () => {
    const out = join(dir, "no-source.json");
    const run = await appstruct("analyze", join(dir, "owners-api"), "-o", out, "--no-source");
    expect([run.code, run.stderr]).toEqual([0, ""]);
    const analysis = JSON.parse(await readFile(out, "utf8")) as Analysis;
    expect(analysis.files.map((f) => f.path)).toEqual(v2.files.map((f) => f.path));
    expect(analysis.files.filter((f) => "text" in f)).toEqual([]);
    expect((await appstruct("compile", out, "-o", join(dir, "no-source.snap"))).code).toBe(0);
    const bare = await Snapshot.open(memorySource(new Uint8Array(await readFile(join(dir, "no-source.snap")))));
    expect(await fileText(bare, "4", {})).toBeNull();
  });

  it("changes from the first analysis to the second are the reference's: the query changed, deleteOwner came", async () => {
    // Changes are kept by the snapshots' keys (content addresses when published): these need keys of their own.
    const open = async (name: string) =>
      Snapshot.open(memorySource(new Uint8Array(await readFile(join(dir, `${name}.snap`))), name));
    const [first, second] = await Promise.all([open("v1"), open("v2")]);
    const all = { statuses: ["added", "deleted", "modified"] as const, skip: 0, limit: 10000 };
    const { from: _from, to: _to, ...expected } = referenceChanges(v1, v2, { limit: all.limit });
    expect(await changes(first, second, all)).toEqual(expected);
    expect(expected.objects.map((o) => [o.fullName, o.status])).toContainEqual([
      '"src/services/owner-service".deleteOwner',
      "Added",
    ]);
    expect(expected.totals.modified).toBeGreaterThan(0);
  });
});

describe("appstruct analyze refuses bad input with exit 2 and writes nothing", () => {
  it("a folder that does not exist, a folder without sources, a bad rules file, a bad date or name", async () => {
    const out = join(dir, "refused.json");
    const missing = await appstruct("analyze", join(dir, "nowhere"), "-o", out);
    expect([missing.code, missing.stderr]).toEqual([2, `appstruct: ${join(dir, "nowhere")}: not a folder\n`]);
    const empty = join(dir, "empty");
    await cp(join(FIXTURES, "express", "package.json"), join(empty, "package.json"), { recursive: true });
    const none = await appstruct("analyze", empty, "-o", out);
    expect([none.code, none.stderr]).toEqual([
      2,
      `appstruct: ${empty}: no TypeScript or JavaScript source file to analyse\n`,
    ]);
    await writeFile(join(dir, "rules.json"), JSON.stringify({ services: [{ name: "x", path: "(" }] }));
    const rules = await appstruct("analyze", join(FIXTURES, "express"), "-o", out, "--rules", join(dir, "rules.json"));
    expect([rules.code, rules.stderr]).toEqual([
      2,
      `appstruct: ${join(dir, "rules.json")}: services.0.path must be a valid JavaScript regular expression\n`,
    ]);
    const date = await appstruct("analyze", join(FIXTURES, "express"), "-o", out, "--analyzed-at", "yesterday");
    expect([date.code, date.stderr]).toEqual([
      2,
      "appstruct: --analyzed-at yesterday: must be an RFC 3339 date-time with a zone, e.g. 2026-09-01T12:00:00Z\n",
    ]);
    const name = await appstruct("analyze", join(FIXTURES, "express"), "-o", out, "--name", "a`b");
    expect(name.code).toBe(2);
    expect(name.stderr).toMatch(/^appstruct: --name: the application name must/);
    await expect(readFile(out)).rejects.toThrow(/ENOENT/);
  });
});
