// @module Tests of analysis validation (docs/analysis-format.md): one case per rule, in .json and .ndjson, with exact fault locations.

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ValidatedAnalysis } from "../../build/analysis/collector.ts";
import { validateDocument } from "../../build/analysis/document.ts";
import type { Fault } from "../../build/analysis/faults.ts";
import { AnalysisRefused, FAULT_CAP, formatFault } from "../../build/analysis/faults.ts";
import { readAnalysis } from "../../build/analysis/read.ts";
import { compileAnalysis } from "../../build/compile/compile.ts";

type Rec = Record<string, unknown>;
interface Doc {
  [field: string]: unknown;
  files?: Rec[];
  taxonomy?: Rec[];
  objects?: Rec[];
  links?: Rec[];
  postIts?: Rec[];
}
type ArrayName = "files" | "taxonomy" | "objects" | "links" | "postIts";
type Encoding = "json" | "ndjson";

const FORMAT = "appstruct.analysis/1";
/** Record arrays in the order the NDJSON writer below emits them, with their `kind`. */
const ARRAYS: [ArrayName, string][] = [
  ["files", "file"],
  ["taxonomy", "taxonomy"],
  ["objects", "object"],
  ["links", "link"],
  ["postIts", "postIt"],
];

function object(id: string, extra: Rec = {}): Rec {
  return { id, name: `name${id}`, fullName: `org.shop.name${id}`, type: "Java Method", typeId: "JV_METHOD", ...extra };
}

/** A valid analysis without taxonomy. objects[3] ("13") is referenced by nothing, so refusing it cascades nowhere. */
function baseDoc(): Doc {
  return {
    format: FORMAT,
    application: "Shop",
    analyzedAt: "2026-09-01T12:00:00Z",
    analyzer: { name: "test", version: "1" },
    files: [
      { id: "1", path: "src/A.java" },
      { id: "2", path: "src/B.java", language: "Java" },
    ],
    objects: [
      object("10"),
      object("11"),
      object("12", { parent: "10" }),
      object("13", { sourceLocations: [{ fileId: "1", startLine: 3, endLine: 9 }] }),
    ],
    links: [
      { from: "10", to: "11", type: "CALL" },
      { from: "11", to: "12", type: "USE", escalated: false },
    ],
    postIts: [{ object: "10", title: "note", text: "check" }],
  };
}

/** The base analysis with a five-level taxonomy; every object is in L5a (L5b is an unused leaf). */
function taxonomyDoc(): Doc {
  const d = baseDoc();
  d.taxonomy = [
    { key: "L1", level: 1, name: "One", parent: null },
    { key: "L2", level: 2, name: "Two", parent: "L1" },
    { key: "L3", level: 3, name: "Three", parent: "L2" },
    { key: "L4", level: 4, name: "Four", parent: "L3" },
    { key: "L5a", level: 5, name: "Five A", parent: "L4" },
    { key: "L5b", level: 5, name: "Five B", parent: "L4", fullName: "custom" },
  ];
  for (const o of d.objects!) o.level5 = "L5a";
  return d;
}

function toNdjson(d: Doc, eol = "\n"): string {
  const header: Rec = {};
  for (const [key, value] of Object.entries(d)) if (!ARRAYS.some(([array]) => array === key)) header[key] = value;
  const lines = [JSON.stringify(header)];
  for (const [array, kind] of ARRAYS)
    for (const record of d[array] ?? []) lines.push(JSON.stringify({ kind, ...record }));
  return lines.join(eol) + eol;
}

/** The NDJSON line `toNdjson` writes `d[array][index]` on. */
function lineOf(d: Doc, array: ArrayName, index: number): number {
  let line = 2;
  for (const [name] of ARRAYS) {
    if (name === array) return line + index;
    line += d[name]?.length ?? 0;
  }
  throw new Error(array);
}

let dir = "";
let counter = 0;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "appstruct-validate-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function writeInput(text: string, ext: string): Promise<string> {
  const path = join(dir, `input-${counter++}.${ext}`);
  await writeFile(path, text);
  return path;
}

async function read(d: Doc, encoding: Encoding): Promise<ValidatedAnalysis> {
  return readAnalysis(await writeInput(encoding === "json" ? JSON.stringify(d) : toNdjson(d), encoding));
}

/** The refusal `promise` ends in; fails the test when it resolves or throws anything else. */
async function refusal(promise: Promise<unknown>): Promise<{ faults: Fault[]; total: number }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AnalysisRefused) return { faults: error.faults.faults, total: error.faults.total };
    throw error;
  }
  throw new Error("the analysis was accepted, expected a refusal");
}

async function refusedText(text: string, ext: Encoding): Promise<{ faults: Fault[]; total: number }> {
  return refusal(readAnalysis(await writeInput(text, ext)));
}

type Locate = (array: ArrayName, index: number) => string;
type Where = "header" | [ArrayName, number];

interface RuleCase {
  name: string;
  start?: "taxonomy";
  mutate: (d: Doc) => void;
  where: Where;
  field: string | null;
  /** Fragments the message must contain: what was found and what is allowed. */
  says: (locate: Locate) => string[];
}

const at = (d: Doc, array: ArrayName, index: number) => (d[array] as Rec[])[index];

const RULES: RuleCase[] = [
  // format
  {
    name: "format missing",
    mutate: (d) => delete d.format,
    where: "header",
    field: "format",
    says: () => ["is required", `this build reads "${FORMAT}"`],
  },
  {
    name: "format of another version",
    mutate: (d) => (d.format = "appstruct.analysis/2"),
    where: "header",
    field: "format",
    says: () => ['is "appstruct.analysis/2"', `this build reads "${FORMAT}"`],
  },
  {
    name: "format not a string",
    mutate: (d) => (d.format = 1),
    where: "header",
    field: "format",
    says: () => ["is 1;", `this build reads "${FORMAT}"`],
  },
  // application
  {
    name: "application empty",
    mutate: (d) => (d.application = ""),
    where: "header",
    field: "application",
    says: () => ["must be 1 to 200 characters long (this one has 0)", 'found ""'],
  },
  {
    name: "application of 201 characters",
    mutate: (d) => (d.application = "x".repeat(201)),
    where: "header",
    field: "application",
    says: () => ["must be 1 to 200 characters long (this one has 201)"],
  },
  {
    name: "application of 201 astral characters",
    mutate: (d) => (d.application = "😀".repeat(201)),
    where: "header",
    field: "application",
    says: () => ["must be 1 to 200 characters long (this one has 201)"],
  },
  {
    name: "application of 151 astral characters (604 bytes: its manifest key would be too long for R2)",
    mutate: (d) => (d.application = "😀".repeat(151)),
    where: "header",
    field: "application",
    says: () => ["must take at most 600 bytes of UTF-8 (this one takes 604)"],
  },
  {
    name: "application with a back-quote",
    mutate: (d) => (d.application = "Shop`s"),
    where: "header",
    field: "application",
    says: () => ["must not contain a back-quote", 'found "Shop`s"'],
  },
  {
    name: "application with a control character",
    mutate: (d) => (d.application = "Shop\u0007"),
    where: "header",
    field: "application",
    says: () => ["must not contain the control character U+0007", 'found "Shop\\u0007"'],
  },
  {
    name: "application with DEL",
    mutate: (d) => (d.application = "Sh\u007fop"),
    where: "header",
    field: "application",
    says: () => ["must not contain the control character U+007F"],
  },
  {
    name: "application missing",
    mutate: (d) => delete d.application,
    where: "header",
    field: "application",
    says: () => ["is required"],
  },
  {
    name: "application not a string",
    mutate: (d) => (d.application = 42),
    where: "header",
    field: "application",
    says: () => ["must be a string", "found 42"],
  },
  // analyzedAt
  {
    name: "analyzedAt without zone",
    mutate: (d) => (d.analyzedAt = "2026-09-01T12:00:00"),
    where: "header",
    field: "analyzedAt",
    says: () => ["must be an RFC 3339 date-time with a zone", 'found "2026-09-01T12:00:00"'],
  },
  {
    name: "analyzedAt on 30 February",
    mutate: (d) => (d.analyzedAt = "2026-02-30T12:00:00Z"),
    where: "header",
    field: "analyzedAt",
    says: () => ["must be an RFC 3339 date-time with a zone", 'found "2026-02-30T12:00:00Z"'],
  },
  {
    name: "analyzedAt at hour 24",
    mutate: (d) => (d.analyzedAt = "2026-09-01T24:00:00Z"),
    where: "header",
    field: "analyzedAt",
    says: () => ["RFC 3339", 'found "2026-09-01T24:00:00Z"'],
  },
  {
    name: "analyzedAt garbage",
    mutate: (d) => (d.analyzedAt = "last tuesday"),
    where: "header",
    field: "analyzedAt",
    says: () => ["RFC 3339", 'found "last tuesday"'],
  },
  {
    name: "analyzedAt date only",
    mutate: (d) => (d.analyzedAt = "2026-09-01"),
    where: "header",
    field: "analyzedAt",
    says: () => ["RFC 3339", 'found "2026-09-01"'],
  },
  {
    name: "analyzedAt a number",
    mutate: (d) => (d.analyzedAt = 1788264000000),
    where: "header",
    field: "analyzedAt",
    says: () => ["RFC 3339", "found 1788264000000"],
  },
  {
    name: "analyzedAt missing",
    mutate: (d) => delete d.analyzedAt,
    where: "header",
    field: "analyzedAt",
    says: () => ["is required"],
  },
  {
    name: "analyzer without version",
    mutate: (d) => (d.analyzer = { name: "x" }),
    where: "header",
    field: "analyzer.version",
    says: () => ["is required"],
  },
  // object ids
  {
    name: "object id with a leading zero",
    mutate: (d) => (at(d, "objects", 3).id = "007"),
    where: ["objects", 3],
    field: "id",
    says: () => ["1 to 19 decimal digits without a leading zero", 'found "007"'],
  },
  {
    name: "object id of 20 digits",
    mutate: (d) => (at(d, "objects", 3).id = "12345678901234567890"),
    where: ["objects", 3],
    field: "id",
    says: () => ["1 to 19 decimal digits", 'found "12345678901234567890"'],
  },
  {
    name: "object id not digits",
    mutate: (d) => (at(d, "objects", 3).id = "abc"),
    where: ["objects", 3],
    field: "id",
    says: () => ["1 to 19 decimal digits", 'found "abc"'],
  },
  {
    name: "object id negative",
    mutate: (d) => (at(d, "objects", 3).id = "-13"),
    where: ["objects", 3],
    field: "id",
    says: () => ["1 to 19 decimal digits", 'found "-13"'],
  },
  {
    name: "object id empty",
    mutate: (d) => (at(d, "objects", 3).id = ""),
    where: ["objects", 3],
    field: "id",
    says: () => ["1 to 19 decimal digits", 'found ""'],
  },
  {
    name: "object id a number",
    mutate: (d) => (at(d, "objects", 3).id = 13),
    where: ["objects", 3],
    field: "id",
    says: () => ["must be a string of digits", "found 13"],
  },
  {
    name: "object id missing",
    mutate: (d) => delete at(d, "objects", 3).id,
    where: ["objects", 3],
    field: "id",
    says: () => ["is required"],
  },
  // uniqueness
  {
    name: "duplicate object id",
    mutate: (d) => (at(d, "objects", 3).id = "11"),
    where: ["objects", 3],
    field: "id",
    says: (loc) => [`duplicates object id "11" of ${loc("objects", 1)}`],
  },
  {
    name: "duplicate file id",
    mutate: (d) => d.files!.push({ id: "2", path: "src/C.java" }),
    where: ["files", 2],
    field: "id",
    says: (loc) => [`duplicates file id "2" of ${loc("files", 1)}`],
  },
  {
    name: "duplicate taxonomy key",
    start: "taxonomy",
    mutate: (d) => d.taxonomy!.push({ key: "L5b", level: 5, name: "again", parent: "L4" }),
    where: ["taxonomy", 6],
    field: "key",
    says: () => ['duplicates taxonomy key "L5b"'],
  },
  // required fields and types
  ...(["name", "fullName", "type", "typeId"] as const).map(
    (field): RuleCase => ({
      name: `object ${field} missing`,
      mutate: (d) => delete at(d, "objects", 3)[field],
      where: ["objects", 3],
      field,
      says: () => ["is required"],
    }),
  ),
  {
    name: "object name null",
    mutate: (d) => (at(d, "objects", 3).name = null),
    where: ["objects", 3],
    field: "name",
    says: () => ["must be a string", "found null"],
  },
  {
    name: "external not a boolean",
    mutate: (d) => (at(d, "objects", 3).external = "yes"),
    where: ["objects", 3],
    field: "external",
    says: () => ["must be true or false", 'found "yes"'],
  },
  {
    name: "tags null",
    mutate: (d) => (at(d, "objects", 3).tags = null),
    where: ["objects", 3],
    field: "tags",
    says: () => ["must be an array of strings", "found null"],
  },
  {
    name: "tags with a number",
    mutate: (d) => (at(d, "objects", 3).tags = ["a", 5]),
    where: ["objects", 3],
    field: "tags[1]",
    says: () => ["must be a string", "found 5"],
  },
  {
    name: "annotations with a number",
    mutate: (d) => (at(d, "objects", 3).annotations = ["@Override", 7]),
    where: ["objects", 3],
    field: "annotations[1]",
    says: () => ["must be a string", "found 7"],
  },
  {
    name: "annotations a string",
    mutate: (d) => (at(d, "objects", 3).annotations = "@Override"),
    where: ["objects", 3],
    field: "annotations",
    says: () => ["must be an array of strings or null", 'found "@Override"'],
  },
  {
    name: "language a number",
    mutate: (d) => (at(d, "objects", 3).language = 5),
    where: ["objects", 3],
    field: "language",
    says: () => ["must be a string or null", "found 5"],
  },
  {
    name: "mangling null",
    mutate: (d) => (at(d, "objects", 3).mangling = null),
    where: ["objects", 3],
    field: "mangling",
    says: () => ["must be a string", "found null"],
  },
  {
    name: "role out of enum",
    mutate: (d) => (at(d, "objects", 3).role = "middle"),
    where: ["objects", 3],
    field: "role",
    says: () => ['must be "start", "end" or null', 'found "middle"'],
  },
  {
    name: "status out of enum",
    mutate: (d) => (at(d, "objects", 3).status = "Deleted"),
    where: ["objects", 3],
    field: "status",
    says: () => ['must be "Added", "Modified", "Unchanged" or null', 'found "Deleted"'],
  },
  // parent
  {
    name: "parent to a missing object",
    mutate: (d) => (at(d, "objects", 2).parent = "55"),
    where: ["objects", 2],
    field: "parent",
    says: () => ["which the analysis does not define"],
  },
  {
    name: "parent not an object id",
    mutate: (d) => (at(d, "objects", 3).parent = "0x1"),
    where: ["objects", 3],
    field: "parent",
    says: () => ["1 to 19 decimal digits", 'found "0x1"'],
  },
  // level5
  {
    name: "level5 missing with a taxonomy",
    start: "taxonomy",
    mutate: (d) => delete at(d, "objects", 2).level5,
    where: ["objects", 2],
    field: "level5",
    says: () => ["is required when the analysis has a taxonomy"],
  },
  {
    name: "level5 on a level-4 node",
    start: "taxonomy",
    mutate: (d) => (at(d, "objects", 2).level5 = "L4"),
    where: ["objects", 2],
    field: "level5",
    says: () => ['must be a level-5 node, but "L4" is at level 4'],
  },
  {
    name: "level5 unknown key",
    start: "taxonomy",
    mutate: (d) => (at(d, "objects", 2).level5 = "nowhere"),
    where: ["objects", 2],
    field: "level5",
    says: () => ['refers to taxonomy key "nowhere", which the analysis does not define'],
  },
  {
    name: "level5 without taxonomy",
    mutate: (d) => (at(d, "objects", 2).level5 = "L5a"),
    where: ["objects", 2],
    field: "level5",
    says: () => ['refers to taxonomy key "L5a", but the analysis has no taxonomy'],
  },
  {
    name: "level5 not a string",
    start: "taxonomy",
    mutate: (d) => (at(d, "objects", 3).level5 = 5),
    where: ["objects", 3],
    field: "level5",
    says: () => ["must be a taxonomy key", "found 5"],
  },
  // taxonomy
  {
    name: "taxonomy parent two levels up",
    start: "taxonomy",
    mutate: (d) => (at(d, "taxonomy", 2).parent = "L1"),
    where: ["taxonomy", 2],
    field: "parent",
    says: () => ['must be a node one level up (level 2), but "L1" is at level 1'],
  },
  {
    name: "taxonomy parent one level down",
    start: "taxonomy",
    mutate: (d) => (at(d, "taxonomy", 1).parent = "L3"),
    where: ["taxonomy", 1],
    field: "parent",
    says: () => ['must be a node one level up (level 1), but "L3" is at level 3'],
  },
  {
    name: "taxonomy parent null above level 1",
    start: "taxonomy",
    mutate: (d) => (at(d, "taxonomy", 3).parent = null),
    where: ["taxonomy", 3],
    field: "parent",
    says: () => ["must be the key of a level-3 node at level 4, found null"],
  },
  {
    name: "taxonomy parent at level 1",
    start: "taxonomy",
    mutate: (d) => (at(d, "taxonomy", 0).parent = "L2"),
    where: ["taxonomy", 0],
    field: "parent",
    says: () => ['must be null at level 1, found "L2"'],
  },
  {
    name: "taxonomy parent unknown",
    start: "taxonomy",
    mutate: (d) => (at(d, "taxonomy", 4).parent = "ghost"),
    where: ["taxonomy", 4],
    field: "parent",
    says: () => ['refers to taxonomy key "ghost", which the analysis does not define'],
  },
  {
    name: "taxonomy level 6",
    start: "taxonomy",
    mutate: (d) => (at(d, "taxonomy", 5).level = 6),
    where: ["taxonomy", 5],
    field: "level",
    says: () => ["must be an integer from 1 to 5", "found 6"],
  },
  {
    name: "taxonomy level 0",
    start: "taxonomy",
    mutate: (d) => (at(d, "taxonomy", 5).level = 0),
    where: ["taxonomy", 5],
    field: "level",
    says: () => ["must be an integer from 1 to 5", "found 0"],
  },
  {
    name: "taxonomy level 4.5",
    start: "taxonomy",
    mutate: (d) => (at(d, "taxonomy", 5).level = 4.5),
    where: ["taxonomy", 5],
    field: "level",
    says: () => ["must be an integer from 1 to 5", "found 4.5"],
  },
  {
    name: "taxonomy parent missing",
    start: "taxonomy",
    mutate: (d) => delete at(d, "taxonomy", 5).parent,
    where: ["taxonomy", 5],
    field: "parent",
    says: () => ["is required"],
  },
  // source locations and files
  {
    name: "sourceLocation with an unknown fileId",
    mutate: (d) => (at(d, "objects", 3).sourceLocations = [{ fileId: "9", startLine: 3, endLine: 9 }]),
    where: ["objects", 3],
    field: "sourceLocations[0].fileId",
    says: () => ['refers to file "9", which the analysis does not define in files'],
  },
  {
    name: "sourceLocation with startLine > endLine",
    mutate: (d) => (at(d, "objects", 3).sourceLocations = [{ fileId: "1", startLine: 12, endLine: 9 }]),
    where: ["objects", 3],
    field: "sourceLocations[0].endLine",
    says: () => ["must not be less than startLine (12)", "found 9"],
  },
  {
    name: "sourceLocation with startLine 0",
    mutate: (d) => (at(d, "objects", 3).sourceLocations = [{ fileId: "1", startLine: 0, endLine: 9 }]),
    where: ["objects", 3],
    field: "sourceLocations[0].startLine",
    says: () => ["must be a whole number ≥ 1", "found 0"],
  },
  {
    name: "sourceLocation with a fractional line",
    mutate: (d) =>
      (at(d, "objects", 3).sourceLocations = [
        { fileId: "1", startLine: 3, endLine: 9 },
        { fileId: "2", startLine: 2.5, endLine: 9 },
      ]),
    where: ["objects", 3],
    field: "sourceLocations[1].startLine",
    says: () => ["must be a whole number ≥ 1", "found 2.5"],
  },
  {
    name: "sourceLocation with a string line",
    mutate: (d) => (at(d, "objects", 3).sourceLocations = [{ fileId: "1", startLine: 3, endLine: "9" }]),
    where: ["objects", 3],
    field: "sourceLocations[0].endLine",
    says: () => ["must be a whole number ≥ 1", 'found "9"'],
  },
  {
    name: "sourceLocation line past 2^32-1",
    mutate: (d) => (at(d, "objects", 3).sourceLocations = [{ fileId: "1", startLine: 3, endLine: 4294967296 }]),
    where: ["objects", 3],
    field: "sourceLocations[0].endLine",
    says: () => ["must be at most 4294967295", "found 4294967296"],
  },
  {
    name: "sourceLocations not an array",
    mutate: (d) => (at(d, "objects", 3).sourceLocations = { fileId: "1", startLine: 3, endLine: 9 }),
    where: ["objects", 3],
    field: "sourceLocations",
    says: () => ["must be an array of {fileId, startLine, endLine}", 'found {"fileId"'],
  },
  {
    name: "file id not an integer",
    mutate: (d) => (at(d, "files", 1).id = "1.5"),
    where: ["files", 1],
    field: "id",
    says: () => ["must be a string of an integer, optionally negative", 'found "1.5"'],
  },
  {
    name: "file path missing",
    mutate: (d) => delete at(d, "files", 1).path,
    where: ["files", 1],
    field: "path",
    says: () => ["is required"],
  },
  // links
  {
    name: "link from an unknown object",
    mutate: (d) => (at(d, "links", 1).from = "77"),
    where: ["links", 1],
    field: "from",
    says: () => ['refers to object "77", which the analysis does not define'],
  },
  {
    name: "link to an unknown object",
    mutate: (d) => (at(d, "links", 0).to = "78"),
    where: ["links", 0],
    field: "to",
    says: () => ['refers to object "78", which the analysis does not define'],
  },
  {
    name: "link from not an object id",
    mutate: (d) => (at(d, "links", 0).from = "x1"),
    where: ["links", 0],
    field: "from",
    says: () => ["1 to 19 decimal digits", 'found "x1"'],
  },
  {
    name: "link type with a space",
    mutate: (d) => (at(d, "links", 0).type = "CALL ME"),
    where: ["links", 0],
    field: "type",
    says: () => ["must be 1 to 64 letters, digits or _", 'found "CALL ME"'],
  },
  {
    name: "link type of 65 characters",
    mutate: (d) => (at(d, "links", 1).type = "A".repeat(65)),
    where: ["links", 1],
    field: "type",
    says: () => ["must be 1 to 64 letters, digits or _", `found "${"A".repeat(20)}`],
  },
  {
    name: "link type empty",
    mutate: (d) => (at(d, "links", 1).type = ""),
    where: ["links", 1],
    field: "type",
    says: () => ["must be 1 to 64 letters, digits or _", 'found ""'],
  },
  {
    name: "link type with a hyphen",
    mutate: (d) => (at(d, "links", 1).type = "RELY-ON"),
    where: ["links", 1],
    field: "type",
    says: () => ["letters, digits or _", 'found "RELY-ON"'],
  },
  {
    name: "link type missing",
    mutate: (d) => delete at(d, "links", 1).type,
    where: ["links", 1],
    field: "type",
    says: () => ["is required"],
  },
  {
    name: "escalated not a boolean",
    mutate: (d) => (at(d, "links", 1).escalated = "yes"),
    where: ["links", 1],
    field: "escalated",
    says: () => ["must be true or false", 'found "yes"'],
  },
  {
    name: "escalated null",
    mutate: (d) => (at(d, "links", 1).escalated = null),
    where: ["links", 1],
    field: "escalated",
    says: () => ["must be true or false", "found null"],
  },
  // post-its
  {
    name: "post-it on an unknown object",
    mutate: (d) => (at(d, "postIts", 0).object = "404"),
    where: ["postIts", 0],
    field: "object",
    says: () => ['refers to object "404", which the analysis does not define'],
  },
  {
    name: "post-it without title",
    mutate: (d) => delete at(d, "postIts", 0).title,
    where: ["postIts", 0],
    field: "title",
    says: () => ["is required"],
  },
  {
    name: "post-it text a number",
    mutate: (d) => (at(d, "postIts", 0).text = 3),
    where: ["postIts", 0],
    field: "text",
    says: () => ["must be a string", "found 3"],
  },
];

describe.each<Encoding>(["json", "ndjson"])("each rule of the format, in .%s", (encoding) => {
  it.each(RULES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const d = c.start === "taxonomy" ? taxonomyDoc() : baseDoc();
    await expect(read(d, encoding)).resolves.toBeDefined(); // the unmutated analysis is valid
    c.mutate(d);
    const locate: Locate =
      encoding === "json"
        ? (array, index) => `${array}[${index}]`
        : (array, index) => `line ${lineOf(d, array, index)}`;
    const where = c.where === "header" ? (encoding === "json" ? "document" : "line 1") : locate(...c.where);
    const { faults, total } = await refusal(read(d, encoding));
    expect(faults).toEqual([{ at: where, field: c.field, message: expect.any(String) }]);
    expect(total).toBe(1);
    for (const fragment of c.says(locate)) expect(faults[0].message).toContain(fragment);
  });
});

describe("a parent to an object mentioned nowhere else", () => {
  it.each<Encoding>(["json", "ndjson"])("names that id in the message (.%s)", async (encoding) => {
    const d = baseDoc();
    at(d, "objects", 2).parent = "55";
    const { faults } = await refusal(read(d, encoding));
    expect(faults[0].message).toBe('refers to object "55", which the analysis does not define');
  });
});

describe("a parent to a missing object", () => {
  it("names the id when another record mentions it", async () => {
    const d = baseDoc();
    at(d, "objects", 2).parent = "55";
    d.postIts!.push({ object: "55", title: "x" });
    const { faults } = await refusal(read(d, "json"));
    expect(faults).toEqual([
      { at: "objects[2]", field: "parent", message: 'refers to object "55", which the analysis does not define' },
      { at: "postIts[1]", field: "object", message: 'refers to object "55", which the analysis does not define' },
    ]);
  });
});

describe("document-level faults of .json", () => {
  async function jsonFaults(d: unknown) {
    return refusal(readAnalysis(await writeInput(JSON.stringify(d), "json")));
  }

  it("objects missing", async () => {
    const d = baseDoc();
    delete d.objects;
    delete d.links;
    delete d.postIts;
    expect(await jsonFaults(d)).toEqual({
      faults: [{ at: "document", field: "objects", message: "is required (an array, possibly empty)" }],
      total: 1,
    });
  });

  it.each([
    ["objects", "none", "string"],
    ["objects", null, "null"],
    ["links", { from: "10", to: "11", type: "CALL" }, "object"],
    ["files", 3, "number"],
    ["taxonomy", "L1", "string"],
    ["postIts", true, "boolean"],
  ] as const)("%s given as %j is not an array", async (field, value, found) => {
    const d = baseDoc();
    (d as Record<string, unknown>)[field] = value;
    if (field === "files") delete at(d, "objects", 3).sourceLocations;
    if (field === "objects") {
      delete d.links;
      delete d.postIts;
    }
    const { faults, total } = await jsonFaults(d);
    expect(faults).toEqual([{ at: "document", field, message: `must be an array, found ${found}` }]);
    expect(total).toBe(1);
  });

  it("a record that is not an object is reported at its index", async () => {
    const d = baseDoc();
    d.objects![3] = 5 as unknown as Rec;
    const { faults } = await jsonFaults(d);
    expect(faults).toEqual([{ at: "objects[3]", field: null, message: expect.stringContaining("found 5") }]);
  });

  it.each([[[]], [null], ["appstruct"]])("a document that is %j is refused as a whole", async (value) => {
    const { faults } = await jsonFaults(value);
    expect(faults).toEqual([
      { at: "document", field: null, message: "must be a JSON object with format, application and analyzedAt" },
    ]);
  });

  it("a file that is not JSON", async () => {
    const { faults } = await refusedText('{"format": "appstruct.analysis/1",', "json");
    expect(faults).toEqual([{ at: "document", field: null, message: expect.stringMatching(/^is not valid JSON: /) }]);
  });

  it("a file name that is neither .json nor .ndjson", async () => {
    const path = await writeInput(JSON.stringify(baseDoc()), "txt");
    const { faults } = await refusal(readAnalysis(path));
    expect(faults).toEqual([
      { at: "document", field: null, message: `${path}: the file name must end in .json or .ndjson` },
    ]);
  });

  it("validateDocument reports the same faults as reading the .json file", async () => {
    const d = baseDoc();
    at(d, "objects", 3).id = "011";
    at(d, "links", 1).to = "99";
    const fromFile = await jsonFaults(d);
    const direct = await refusal(Promise.resolve().then(() => validateDocument(d)));
    expect(direct).toEqual(fromFile);
    expect(direct.faults.map((f) => `${f.at} ${f.field}`)).toEqual(["objects[3] id", "links[1] to"]);
  });
});

describe("faults only .ndjson has", () => {
  const H = JSON.stringify({ format: FORMAT, application: "Shop", analyzedAt: "2026-09-01T12:00:00Z" });
  const O = (id: string, extra: Rec = {}) => JSON.stringify({ kind: "object", ...object(id, extra) });

  it("a line that is not JSON is reported by line and the other lines are still read", async () => {
    const { faults, total } = await refusedText([H, O("1"), "{oops", O("2"), O("02")].join("\n"), "ndjson");
    expect(faults).toEqual([
      { at: "line 3", field: null, message: expect.stringMatching(/^is not valid JSON: /) },
      { at: "line 5", field: "id", message: expect.stringContaining('found "02"') },
    ]);
    expect(total).toBe(2);
  });

  it("an unknown kind", async () => {
    const { faults } = await refusedText([H, O("1"), JSON.stringify({ kind: "widget", id: "3" })].join("\n"), "ndjson");
    expect(faults).toEqual([
      {
        at: "line 3",
        field: "kind",
        message: 'must be one of "file", "taxonomy", "object", "link", "postIt", found "widget"',
      },
    ]);
  });

  it("a record without kind", async () => {
    const { faults } = await refusedText([H, JSON.stringify(object("1"))].join("\n"), "ndjson");
    expect(faults).toEqual([
      {
        at: "line 2",
        field: "kind",
        message: 'must be one of "file", "taxonomy", "object", "link", "postIt", found none',
      },
    ]);
  });

  it("a kind that is not a string", async () => {
    const { faults } = await refusedText([H, JSON.stringify({ ...object("1"), kind: 4 })].join("\n"), "ndjson");
    expect(faults).toEqual([{ at: "line 2", field: "kind", message: expect.stringContaining("found 4") }]);
  });

  it("a record as the first line instead of the header", async () => {
    const { faults } = await refusedText([O("1"), O("2")].join("\n"), "ndjson");
    expect(faults[0]).toEqual({
      at: "line 1",
      field: "kind",
      message: "comes before the header: the first line must be the header (format, application, analyzedAt)",
    });
  });

  it("a header that is not an object", async () => {
    const { faults } = await refusedText(["[1, 2]", O("1")].join("\n"), "ndjson");
    expect(faults).toEqual([
      { at: "line 1", field: null, message: "must be a JSON object with format, application and analyzedAt" },
    ]);
  });

  it("an empty file", async () => {
    const { faults } = await refusedText("", "ndjson");
    expect(faults).toEqual([{ at: "document", field: null, message: "is empty: the first line must be the header" }]);
  });

  it("blank lines count in line numbers", async () => {
    const { faults } = await refusedText(`${[H, "", O("1"), "   ", O("007")].join("\n")}\n`, "ndjson");
    expect(faults).toEqual([{ at: "line 5", field: "id", message: expect.stringContaining('found "007"') }]);
  });

  it("CRLF line ends are read like LF", async () => {
    const d = baseDoc();
    at(d, "links", 1).to = "66";
    const { faults } = await refusedText(toNdjson(d, "\r\n"), "ndjson");
    expect(faults).toEqual([
      {
        at: `line ${lineOf(d, "links", 1)}`,
        field: "to",
        message: 'refers to object "66", which the analysis does not define',
      },
    ]);
  });

  it("a duplicate object id names the line of the first one", async () => {
    const { faults } = await refusedText([H, O("1"), O("2"), O("3"), O("2")].join("\n"), "ndjson");
    expect(faults).toEqual([{ at: "line 5", field: "id", message: 'duplicates object id "2" of line 3' }]);
  });

  it("records may come in any order after the header", async () => {
    const text = [
      H,
      JSON.stringify({ kind: "postIt", object: "2", title: "t" }),
      JSON.stringify({ kind: "link", from: "1", to: "2", type: "CALL" }),
      O("2", { sourceLocations: [{ fileId: "7", startLine: 1, endLine: 1 }], level5: "e", parent: "1" }),
      JSON.stringify({ kind: "taxonomy", key: "e", level: 5, name: "E", parent: "d" }),
      JSON.stringify({ kind: "taxonomy", key: "d", level: 4, name: "D", parent: "c" }),
      O("1", { level5: "e" }),
      JSON.stringify({ kind: "taxonomy", key: "c", level: 3, name: "C", parent: "b" }),
      JSON.stringify({ kind: "taxonomy", key: "b", level: 2, name: "B", parent: "a" }),
      JSON.stringify({ kind: "file", id: "7", path: "x" }),
      JSON.stringify({ kind: "taxonomy", key: "a", level: 1, name: "A", parent: null }),
    ].join("\n");
    const a = await readAnalysis(await writeInput(text, "ndjson"));
    expect(a.objects.map((o) => o.id)).toEqual(["2", "1"]);
    expect(Array.from(a.parentSlots)).toEqual([1, -1]);
    expect(a.links.from.length).toBe(1);
    expect(a.taxonomy?.map((n) => n.key)).toEqual(["e", "d", "c", "b", "a"]);
  });
});

describe("an analysis of another format version", () => {
  it.each<Encoding>(["json", "ndjson"])(
    "is refused for its format alone; the rest is not read (.%s)",
    async (encoding) => {
      const d = baseDoc();
      d.format = "appstruct.analysis/0";
      d.application = "";
      at(d, "objects", 3).id = "x";
      const { faults, total } = await refusal(read(d, encoding));
      expect(faults).toEqual([
        {
          at: encoding === "json" ? "document" : "line 1",
          field: "format",
          message: `is "appstruct.analysis/0"; this build reads "${FORMAT}"`,
        },
      ]);
      expect(total).toBe(1);
    },
  );
});

describe("several faults", () => {
  function faulty(): Doc {
    const d = taxonomyDoc();
    d.analyzedAt = "2026-13-01T00:00:00Z";
    d.files!.push({ id: "1", path: "again" });
    at(d, "taxonomy", 3).parent = "L2";
    d.objects!.push(object("14", { external: 1, level5: "L5a" }));
    at(d, "objects", 2).level5 = "L3";
    at(d, "objects", 3).id = "0013";
    at(d, "links", 0).to = "44";
    at(d, "postIts", 0).object = "45";
    return d;
  }

  it.each<Encoding>(["json", "ndjson"])("are all reported, each at its record (.%s)", async (encoding) => {
    const d = faulty();
    const loc = (array: ArrayName, index: number) =>
      encoding === "json" ? `${array}[${index}]` : `line ${lineOf(d, array, index)}`;
    const { faults, total } = await refusal(read(d, encoding));
    const expected = [
      [encoding === "json" ? "document" : "line 1", "analyzedAt"],
      [loc("files", 2), "id"],
      [loc("taxonomy", 3), "parent"],
      [loc("objects", 4), "external"],
      [loc("objects", 2), "level5"],
      [loc("objects", 3), "id"],
      [loc("links", 0), "to"],
      [loc("postIts", 0), "object"],
    ];
    expect(faults.map((f) => [f.at, f.field]).sort()).toEqual(expected.sort());
    expect(total).toBe(expected.length);
  });
});

describe("the fault cap", () => {
  const badObjects = (n: number) => Array.from({ length: n }, (_, i) => object(`0${i + 1}`));

  it.each([
    [99, 99],
    [100, 100],
    [101, 100],
    [150, 100],
  ])("%i faults in .json report %i of them and the total", async (n, kept) => {
    const d: Doc = { format: FORMAT, application: "Shop", analyzedAt: "2026-09-01T12:00:00Z", objects: badObjects(n) };
    const { faults, total } = await refusal(read(d, "json"));
    expect(FAULT_CAP).toBe(100);
    expect(total).toBe(n);
    expect(faults).toHaveLength(kept);
    expect(faults.map((f) => f.at)).toEqual(Array.from({ length: kept }, (_, i) => `objects[${i}]`));
  });

  it("150 faults in .ndjson report the first 100 lines and the total", async () => {
    const d: Doc = {
      format: FORMAT,
      application: "Shop",
      analyzedAt: "2026-09-01T12:00:00Z",
      objects: badObjects(150),
    };
    const { faults, total } = await refusal(read(d, "ndjson"));
    expect(total).toBe(150);
    expect(faults).toHaveLength(100);
    expect(faults[0]).toEqual({ at: "line 2", field: "id", message: expect.stringContaining('found "01"') });
    expect(faults[99]).toEqual({ at: "line 101", field: "id", message: expect.stringContaining('found "0100"') });
  });

  it("cross-reference faults count past the cap too", async () => {
    const d = baseDoc();
    d.links = Array.from({ length: 130 }, (_, i) => ({ from: "10", to: String(1000 + i), type: "CALL" }));
    const { faults, total } = await refusal(read(d, "json"));
    expect(total).toBe(130);
    expect(faults).toHaveLength(100);
    expect(faults[99]).toEqual({
      at: "links[99]",
      field: "to",
      message: 'refers to object "1099", which the analysis does not define',
    });
  });
});

describe("valid edge cases are accepted", () => {
  it.each<Encoding>(["json", "ndjson"])("empty objects (.%s)", async (encoding) => {
    const a = await read(
      { format: FORMAT, application: "Empty", analyzedAt: "2026-09-01T12:00:00Z", objects: [] },
      encoding,
    );
    expect(a.objects).toEqual([]);
    expect(a.taxonomy).toBeNull();
    expect(a.links.from.length).toBe(0);
    expect(a.header.application).toBe("Empty");
  });

  it.each<Encoding>(["json", "ndjson"])("no taxonomy: the build derives one (.%s)", async (encoding) => {
    const d = baseDoc();
    const a = await read(d, encoding);
    expect(a.taxonomy).toBeNull();
    const path = await writeInput(encoding === "json" ? JSON.stringify(d) : toNdjson(d), encoding);
    const compiled = await compileAnalysis(path, null);
    expect(compiled.meta.taxonomyDerived).toBe(true);
    expect(compiled.meta.counts.objects).toBe(4);
    expect(compiled.meta.counts.levels).toHaveLength(5);
    for (const count of compiled.meta.counts.levels) expect(count).toBeGreaterThan(0);
  });

  it.each<Encoding>(["json", "ndjson"])('negative fileId "-4" and object id "0" (.%s)', async (encoding) => {
    const d = baseDoc();
    d.files!.push({ id: "-4", path: "db/schema.sql" });
    d.objects!.push(object("0", { sourceLocations: [{ fileId: "-4", startLine: 1, endLine: 1 }] }));
    d.links!.push({ from: "0", to: "10", type: "USE" });
    const a = await read(d, encoding);
    expect(a.files.map((f) => f.id)).toEqual(["1", "2", "-4"]);
    expect(a.objects.find((o) => o.id === "0")?.sourceLocations).toEqual([{ fileId: "-4", startLine: 1, endLine: 1 }]);
  });

  it.each([
    ["2026-09-01T14:00:00.250+02:00", Date.UTC(2026, 8, 1, 12, 0, 0, 250)],
    ["2026-09-01T06:30:00.5-05:30", Date.UTC(2026, 8, 1, 12, 0, 0, 500)],
    ["2026-09-01t12:00:00z", Date.UTC(2026, 8, 1, 12, 0, 0)],
    ["2028-02-29T00:00:00Z", Date.UTC(2028, 1, 29)],
    ["2026-09-01T12:00:00.123456789Z", Date.UTC(2026, 8, 1, 12, 0, 0, 123)],
  ])("analyzedAt %s", async (analyzedAt, ms) => {
    const a = await read({ ...baseDoc(), analyzedAt }, "json");
    expect(a.analyzedAtMs).toBe(ms);
    expect(a.header.analyzedAt).toBe(analyzedAt);
  });

  it("duplicate links are accepted and count once in the snapshot", async () => {
    const d = baseDoc();
    d.links = [
      { from: "10", to: "11", type: "CALL" },
      { from: "10", to: "11", type: "CALL", escalated: false },
      { from: "10", to: "11", type: "CALL" },
      { from: "10", to: "11", type: "CALL", escalated: true },
      { from: "10", to: "11", type: "USE" },
    ];
    const a = await read(d, "ndjson");
    expect(a.links.from.length).toBe(5);
    const compiled = await compileAnalysis(await writeInput(JSON.stringify(d), "json"), null);
    expect(compiled.meta.counts.links).toBe(3);
  });

  it("boundaries: 200 characters, 600 bytes of UTF-8 (150 astral characters), 19-digit id, 64-character link type, startLine = endLine, nulls", async () => {
    const d = taxonomyDoc();
    d.application = "😀".repeat(150);
    d.objects!.push(
      object("9999999999999999999", {
        level5: "L5b",
        language: null,
        filePath: null,
        annotations: null,
        parent: null,
        role: null,
        status: null,
        tags: [],
        external: true,
        sourceLocations: [{ fileId: "2", startLine: 4294967295, endLine: 4294967295 }],
      }),
    );
    d.links!.push({ from: "9999999999999999999", to: "10", type: "A".repeat(64), escalated: true });
    for (const encoding of ["json", "ndjson"] as const) {
      const a = await read(d, encoding);
      expect(a.objects).toHaveLength(5);
      expect(a.links.types).toContain("A".repeat(64));
      expect(a.header.application).toBe("😀".repeat(150));
    }
  });

  it("the worked examples are valid", async () => {
    const a = await readAnalysis(join(import.meta.dirname, "../fixtures/examples/petstore-v1.json"));
    expect(a.header.application).toBe("Pet Store & Co");
    expect(a.objects).toHaveLength(13);
  });
});

describe("formatFault", () => {
  it("renders .json and .ndjson locations", () => {
    expect(formatFault({ at: "objects[17]", field: "parent", message: "x" })).toBe("objects[17].parent: x");
    expect(formatFault({ at: "objects[17]", field: null, message: "x" })).toBe("objects[17]: x");
    expect(formatFault({ at: "line 9", field: "parent", message: "x" })).toBe("line 9, parent: x");
    expect(formatFault({ at: "line 9", field: null, message: "x" })).toBe("line 9: x");
    expect(formatFault({ at: "document", field: "format", message: "x" })).toBe("document.format: x");
  });
});
