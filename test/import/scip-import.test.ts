// @module `appstruct import` on SCIP indexes made during the test by scip-typescript and scip-python over fixture projects, on a hand-built index, and on bad inputs.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { create, toBinary } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ScipSchema } from "../../build/import/scip-schema.ts";
import { type Analysis, levelNames, linkLines, object, objectLines } from "../analyze/fixture-project.ts";
import { appstruct, PROJECT_ROOT } from "../support/appstruct-cli.ts";

const FIXTURES = join(import.meta.dirname, "../fixtures/scip");
const SCIP_TYPESCRIPT = join(PROJECT_ROOT, "node_modules/@sourcegraph/scip-typescript/dist/src/main.js");
const SCIP_PYTHON = join(PROJECT_ROOT, "node_modules/@sourcegraph/scip-python/index.js");
const AT = "2026-11-01T00:00:00Z";

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "appstruct-scip-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Imports an index through the command line, then validates and compiles the analysis it wrote. */
async function importIndex(index: string, name: string): Promise<Analysis> {
  const out = join(work, `${name}.json`);
  const run = await appstruct("import", index, "-o", out, "--analyzed-at", AT);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  expect((await appstruct("validate", out)).code).toBe(0);
  const compiled = await appstruct("compile", out, "-o", join(work, `${name}.snapshot`));
  expect(compiled.stderr).toBe("");
  expect(compiled.code).toBe(0);
  return JSON.parse(await readFile(out, "utf8"));
}

describe("appstruct import of a scip-typescript index", () => {
  let d: Analysis;
  beforeAll(async () => {
    const index = join(work, "ts-shop.scip");
    execFileSync(process.execPath, [SCIP_TYPESCRIPT, "index", "--output", index], {
      cwd: join(FIXTURES, "ts-shop"),
      stdio: "ignore",
    });
    d = await importIndex(index, "ts-shop");
  }, 120_000);

  it("makes an object of each definition, typed by its descriptor, in its enclosing range", () => {
    expect(objectLines(d).sort()).toEqual([
      'TypeScript Class | "src/report.ts".Report | src/report.ts:7-28',
      'TypeScript Class | "src/shapes.ts".Base | src/shapes.ts:5-10',
      'TypeScript Class | "src/shapes.ts".Square | src/shapes.ts:12-19',
      'TypeScript Constructor | "src/shapes.ts".Square.constructor | src/shapes.ts:13-15',
      'TypeScript Function | "src/index.ts".describeAll | src/index.ts:14-16',
      'TypeScript Function | "src/index.ts".describeOne | src/index.ts:10-12',
      'TypeScript Function | "src/index.ts".main | src/index.ts:4-8',
      'TypeScript Function | "src/report.ts".Report.add | src/report.ts:10-12',
      'TypeScript Function | "src/report.ts".Report.format | src/report.ts:15-17',
      'TypeScript Function | "src/report.ts".Report.render.join | src/report.ts:25-25',
      'TypeScript Function | "src/report.ts".label | src/report.ts:30-32',
      'TypeScript Function | "src/store.ts".round | src/store.ts:4-4',
      'TypeScript Function | "src/store.ts".save | src/store.ts:6-9',
      'TypeScript Getter | "src/report.ts".Report.count | src/report.ts:20-22',
      'TypeScript Interface Method | "src/report.ts".Formatter.format | src/report.ts:4-4',
      'TypeScript Interface Method | "src/shapes.ts".Shape.area | src/shapes.ts:2-2',
      'TypeScript Interface | "src/report.ts".Formatter | src/report.ts:3-5',
      'TypeScript Interface | "src/shapes.ts".Shape | src/shapes.ts:1-3',
      'TypeScript Method | "src/report.ts".Report.render | src/report.ts:24-27',
      'TypeScript Method | "src/shapes.ts".Base.area | src/shapes.ts:6-6',
      'TypeScript Method | "src/shapes.ts".Base.describe | src/shapes.ts:7-9',
      'TypeScript Method | "src/shapes.ts".Square.area | src/shapes.ts:16-18',
    ]);
    expect(object(d, '"src/shapes.ts".Square.area')).toMatchObject({
      typeId: "TS_METHOD",
      language: "TypeScript",
      parent: object(d, '"src/shapes.ts".Square').id,
    });
    expect(object(d, '"src/shapes.ts".Square').parent).toBe(object(d, "src/shapes.ts").id);
    // Exports from the source: `export function`, `export { describeOne }`; `round` and `label` are module-private.
    expect(object(d, '"src/store.ts".save').tags).toEqual(["exported"]);
    expect(object(d, '"src/index.ts".describeOne').tags).toEqual(["exported"]);
    expect(object(d, '"src/store.ts".round').tags).toBeUndefined();
    expect(object(d, '"src/report.ts".label').tags).toBeUndefined();
    // Bodies scip-typescript gives no range, from the parser: a class-property arrow function, a getter
    // (`<get>count().`), a method of an object literal typed by its context, a local function (the last two
    // have no global symbol).
    expect(object(d, '"src/report.ts".Report.add')).toMatchObject({ parent: object(d, '"src/report.ts".Report').id });
    expect(object(d, '"src/report.ts".Report.count').typeId).toBe("TS_GETTER");
    expect(object(d, '"src/report.ts".Report.format').tags).toEqual(["local"]);
    expect(object(d, '"src/report.ts".Report.render.join')).toMatchObject({
      parent: object(d, '"src/report.ts".Report.render').id,
      tags: ["local"],
    });
  });

  it("links calls, arguments, types, imports and overrides, and no import or export as a call", () => {
    expect(linkLines(d, ["CALL", "REFER", "USE", "INCLUDE", "INHERIT", "DISPATCH"])).toEqual([
      'CALL "src/index.ts".describeAll -> ECMAScript.Array.map',
      'CALL "src/index.ts".describeOne -> "src/shapes.ts".Base.describe',
      'CALL "src/index.ts".main -> "src/shapes.ts".Square.constructor',
      'CALL "src/index.ts".main -> "src/store.ts".save',
      'CALL "src/report.ts".Report.add -> "src/report.ts".Formatter.format',
      'CALL "src/report.ts".Report.add -> ECMAScript.Array.push',
      'CALL "src/report.ts".Report.count -> "src/report.ts".label',
      'CALL "src/report.ts".Report.format -> "src/report.ts".label',
      'CALL "src/report.ts".Report.format -> "src/shapes.ts".Shape.area',
      'CALL "src/report.ts".Report.render -> "src/report.ts".Report.render.join',
      'CALL "src/report.ts".Report.render.join -> ECMAScript.Array.join',
      'CALL "src/shapes.ts".Base.describe -> "src/shapes.ts".Base.area',
      'CALL "src/store.ts".round -> ECMAScript.Math.round',
      'CALL "src/store.ts".save -> "src/shapes.ts".Shape.area',
      'CALL "src/store.ts".save -> "src/store.ts".round',
      'CALL "src/store.ts".save -> ECMAScript.Array.map',
      'CALL "src/store.ts".save -> ECMAScript.Array.reduce',
      'CALL "src/store.ts".save -> ECMAScript.JSON.stringify',
      'CALL "src/store.ts".save -> fs.writeFileSync',
      'DISPATCH "src/shapes.ts".Base.area -> "src/shapes.ts".Square.area',
      'DISPATCH "src/shapes.ts".Shape.area -> "src/shapes.ts".Base.area',
      'DISPATCH "src/shapes.ts".Shape.area -> "src/shapes.ts".Square.area',
      "INCLUDE src/index.ts -> src/shapes.ts",
      "INCLUDE src/index.ts -> src/store.ts",
      "INCLUDE src/report.ts -> src/shapes.ts",
      "INCLUDE src/store.ts -> fs",
      "INCLUDE src/store.ts -> src/shapes.ts",
      'INHERIT "src/shapes.ts".Base -> "src/shapes.ts".Shape',
      'INHERIT "src/shapes.ts".Base.area -> "src/shapes.ts".Shape.area',
      'INHERIT "src/shapes.ts".Square -> "src/shapes.ts".Base',
      'INHERIT "src/shapes.ts".Square -> "src/shapes.ts".Shape',
      'INHERIT "src/shapes.ts".Square.area -> "src/shapes.ts".Base.area',
      'INHERIT "src/shapes.ts".Square.area -> "src/shapes.ts".Shape.area',
      'REFER "src/index.ts".describeAll -> "src/index.ts".describeOne',
      'USE "src/index.ts".describeAll -> "src/shapes.ts".Shape',
      'USE "src/index.ts".describeOne -> "src/shapes.ts".Base',
      'USE "src/index.ts".describeOne -> "src/shapes.ts".Shape',
      'USE "src/report.ts".Formatter -> "src/shapes.ts".Shape',
      'USE "src/report.ts".Report -> "src/report.ts".Formatter',
      'USE "src/report.ts".Report.add -> "src/shapes.ts".Shape',
      'USE "src/shapes.ts".Base -> "src/shapes.ts".Shape',
      'USE "src/shapes.ts".Square -> "src/shapes.ts".Base',
      'USE "src/store.ts".save -> "src/shapes.ts".Shape',
    ]);
  });

  it("names externals as analyze does, so the same rules make end points; package.json main makes start points", () => {
    expect(object(d, "fs.writeFileSync")).toMatchObject({
      type: "External Function",
      role: "end",
      tags: ["file write"],
    });
    expect(object(d, "fs").type).toBe("Node.js Built-in Module");
    expect(d.objects.filter((o) => o.role === "start").map((o) => o.fullName)).toEqual([
      '"src/index.ts".main',
      '"src/index.ts".describeOne',
      '"src/index.ts".describeAll',
    ]);
    // store.ts is a Data Services file by the default rules' path pattern; it imports node:fs, so Node.js.
    expect(levelNames(d, object(d, '"src/store.ts".save'))).toEqual([
      "Application Services",
      "Data Services",
      "(root)",
      "Node.js",
      "TypeScript Function",
    ]);
    expect(d.analyzer).toEqual({ name: "appstruct import", version: "0.1.0 (scip-typescript 0.4.0)" });
    expect(d.application).toBe("ts-shop");
  });
});

describe("appstruct import of a scip-python index", () => {
  let d: Analysis;
  beforeAll(async () => {
    const index = join(work, "py-shop.scip");
    // The environment file lists the installed packages, so the indexer asks pip nothing.
    execFileSync(
      process.execPath,
      [SCIP_PYTHON, "index", "--quiet", "--project-name", "py-shop", "--project-version", "1.0.0"].concat([
        "--environment",
        "environment.json",
        "--output",
        index,
        ".",
      ]),
      { cwd: join(FIXTURES, "py-shop"), stdio: "ignore" },
    );
    d = await importIndex(index, "py-shop");
  }, 120_000);

  it("makes Python objects with their classes as parents", () => {
    expect(objectLines(d).sort()).toEqual([
      'Python Class | "shop.shapes".Circle | shop/shapes.py:12-17',
      'Python Class | "shop.shapes".Shape | shop/shapes.py:4-9',
      'Python Constructor | "shop.shapes".Circle.__init__ | shop/shapes.py:13-14',
      'Python Function | "shop.main".main | shop/main.py:5-8',
      'Python Function | "shop.store".save | shop/store.py:9-11',
      'Python Function | "shop.store".total | shop/store.py:5-6',
      'Python Method | "shop.shapes".Circle.area | shop/shapes.py:16-17',
      'Python Method | "shop.shapes".Shape.area | shop/shapes.py:5-6',
      'Python Method | "shop.shapes".Shape.describe | shop/shapes.py:8-9',
    ]);
    expect(object(d, '"shop.shapes".Circle.area')).toMatchObject({ typeId: "PY_METHOD", language: "Python" });
  });

  it("links calls (a class called is its constructor called), module imports and overrides", () => {
    expect(linkLines(d, ["CALL", "REFER", "USE", "INCLUDE", "INHERIT", "DISPATCH"])).toEqual([
      'CALL "shop.main".main -> "shop.shapes".Circle.__init__',
      'CALL "shop.main".main -> "shop.store".save',
      'CALL "shop.shapes".Shape.describe -> "shop.shapes".Shape.area',
      'CALL "shop.store".save -> "shop.store".total',
      'CALL "shop.store".save -> python-stdlib.builtins.open',
      'CALL "shop.store".save -> python-stdlib.json.dump',
      'CALL "shop.store".total -> "shop.shapes".Shape.area',
      'CALL "shop.store".total -> python-stdlib.builtins.sum',
      'CALL shop/main.py -> "shop.main".main',
      'DISPATCH "shop.shapes".Shape.area -> "shop.shapes".Circle.area',
      "INCLUDE shop/main.py -> shop/shapes.py",
      "INCLUDE shop/main.py -> shop/store.py",
      "INCLUDE shop/shapes.py -> python-stdlib",
      "INCLUDE shop/store.py -> python-stdlib",
      "INCLUDE shop/store.py -> shop/shapes.py",
      'INHERIT "shop.shapes".Circle -> "shop.shapes".Shape',
      'INHERIT "shop.shapes".Circle.area -> "shop.shapes".Shape.area',
      'USE "shop.shapes".Circle -> "shop.shapes".Shape',
      'USE "shop.store".save -> "shop.shapes".Shape',
      'USE "shop.store".total -> "shop.shapes".Shape',
    ]);
    expect(levelNames(d, object(d, "python-stdlib.json.dump"))).toEqual([
      "External Services",
      "Libraries",
      "python-stdlib",
      "Package",
      "External Function",
    ]);
  });
});

type IndexInit = Parameters<typeof create<typeof ScipSchema.Index>>[1];
const indexBytes = (init: IndexInit) => toBinary(ScipSchema.Index, create(ScipSchema.Index, init));
const JAVA = "semanticdb maven com.example:shop 1.0";

describe("appstruct import of a hand-built index (kinds and enclosing symbols given, as scip-java gives them)", () => {
  it("types objects by SymbolInformation.kind and parents them by enclosing_symbol", async () => {
    const index = join(work, "java.scip");
    await writeFile(
      index,
      indexBytes({
        metadata: { toolInfo: { name: "scip-java", version: "0.10.0" }, projectRoot: "file:///ci/shop" },
        documents: [
          {
            relativePath: "src/main/java/com/example/Repo.java",
            language: "Java",
            symbols: [
              { symbol: `${JAVA} com/example/Repo#`, kind: 21 },
              { symbol: `${JAVA} com/example/Repo#find().`, kind: 66, enclosingSymbol: `${JAVA} com/example/Repo#` },
            ],
            occurrences: [
              { range: [2, 17, 21], symbol: `${JAVA} com/example/Repo#`, symbolRoles: 1, enclosingRange: [2, 0, 4, 1] },
              { range: [3, 9, 13], symbol: `${JAVA} com/example/Repo#find().`, symbolRoles: 1 },
            ],
          },
          {
            relativePath: "src/main/java/com/example/SqlRepo.java",
            language: "Java",
            symbols: [
              {
                symbol: `${JAVA} com/example/SqlRepo#`,
                kind: 7,
                relationships: [{ symbol: `${JAVA} com/example/Repo#`, isImplementation: true }],
              },
              {
                symbol: `${JAVA} com/example/SqlRepo#find().`,
                kind: 26,
                relationships: [{ symbol: `${JAVA} com/example/Repo#find().`, isImplementation: true }],
              },
            ],
            occurrences: [
              {
                range: [2, 13, 20],
                symbol: `${JAVA} com/example/SqlRepo#`,
                symbolRoles: 1,
                enclosingRange: [2, 0, 8, 1],
              },
              { range: [2, 32, 36], symbol: `${JAVA} com/example/Repo#` },
              {
                range: [3, 16, 20],
                symbol: `${JAVA} com/example/SqlRepo#find().`,
                symbolRoles: 1,
                enclosingRange: [3, 2, 7, 3],
              },
              {
                range: [5, 11, 18],
                symbol: "semanticdb maven maven/org.jdbi/jdbi3-core 3.45.0 org/jdbi/v3/core/Handle#execute().",
              },
            ],
          },
        ],
      }),
    );
    const d = await importIndex(index, "java");
    expect(objectLines(d)).toEqual([
      'Java Interface | "com/example".Repo | src/main/java/com/example/Repo.java:3-5',
      'Java Interface Method | "com/example".Repo.find | src/main/java/com/example/Repo.java:4-4',
      'Java Class | "com/example".SqlRepo | src/main/java/com/example/SqlRepo.java:3-9',
      'Java Method | "com/example".SqlRepo.find | src/main/java/com/example/SqlRepo.java:4-8',
    ]);
    expect(object(d, '"com/example".SqlRepo.find').typeId).toBe("JV_METHOD");
    expect(linkLines(d, ["CALL", "USE", "INHERIT", "DISPATCH"])).toEqual([
      'CALL "com/example".SqlRepo.find -> maven/org.jdbi/jdbi3-core.org.jdbi.v3.core.Handle.execute',
      'DISPATCH "com/example".Repo.find -> "com/example".SqlRepo.find',
      'INHERIT "com/example".SqlRepo -> "com/example".Repo',
      'INHERIT "com/example".SqlRepo.find -> "com/example".Repo.find',
      'USE "com/example".SqlRepo -> "com/example".Repo',
    ]);
    expect(d.application).toBe("com.example:shop");
  });
});

describe("appstruct import refuses bad input with a clear error and writes nothing", () => {
  const refuses = async (name: string, bytes: Uint8Array | string, message: RegExp | string) => {
    const index = join(work, name);
    const out = join(work, `${name}.json`);
    await writeFile(index, bytes);
    const run = await appstruct("import", index, "-o", out);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(existsSync(out)).toBe(false);
  };
  const oneDocument = (occurrences: { range: number[]; symbol: string; symbolRoles?: number }[]) =>
    indexBytes({
      metadata: { toolInfo: { name: "hand", version: "1" }, projectRoot: "file:///nowhere" },
      documents: [{ relativePath: "a.ts", occurrences }],
    });

  it("a file that is not protobuf", () =>
    refuses(
      "analysis.json",
      '{"format":"appstruct.analysis/1"}',
      /analysis\.json: not a SCIP index: its bytes are not/,
    ));

  it("a truncated index", () => {
    const whole = oneDocument([
      { range: [0, 0, 3], symbol: "scip-typescript npm pkg 1.0.0 a.ts/f().", symbolRoles: 1 },
    ]);
    return refuses(
      "truncated.scip",
      whole.subarray(0, whole.length - 5),
      /not a SCIP index: its bytes .*premature EOF/,
    );
  });

  it("an empty file", () => refuses("empty.scip", "", /not a SCIP index: no metadata naming the indexer/));

  it("a symbol outside SCIP's grammar", () =>
    refuses(
      "symbol.scip",
      oneDocument([{ range: [0, 0, 3], symbol: "scip-typescript npm pkg 1.0.0 src/a.ts/f(", symbolRoles: 1 }]),
      /a\.ts:1: symbol "scip-typescript npm pkg 1\.0\.0 src\/a\.ts\/f\(" is not a SCIP symbol: "\)\." expected/,
    ));

  it("a symbol without descriptors", () =>
    refuses(
      "short.scip",
      oneDocument([{ range: [0, 0, 3], symbol: "scip-typescript npm pkg", symbolRoles: 1 }]),
      /is not a SCIP symbol: a symbol that ends before its descriptors/,
    ));

  it("a range of two numbers", () =>
    refuses(
      "range.scip",
      oneDocument([{ range: [0, 1], symbol: "scip-typescript npm pkg 1.0.0 a.ts/f()." }]),
      /a\.ts:1: occurrence range \[0,1\] is not 3 or 4 numbers/,
    ));

  it("an output that is not .json", async () => {
    const run = await appstruct("import", join(work, "ts-shop.scip"), "-o", join(work, "out.ndjson"));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--out .*out\.ndjson: must end in \.json/);
  });
});
