// @module docs/analysis-format.md against the validator: its field tables name exactly the schemas' fields, and its two examples are valid and the same analysis.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { readAnalysis } from "../../build/analysis/read.ts";
import {
  FileSchema,
  HeaderSchema,
  LinkSchema,
  ObjectSchema,
  PostItSchema,
  TaxonomyNodeSchema,
} from "../../build/analysis/schema.ts";
import { compileAnalysis } from "../../build/compile/compile.ts";
import { fences, sections, tables } from "../support/markdown.ts";

const DOC = await readFile(resolve(import.meta.dirname, "../../docs/analysis-format.md"), "utf8");

/** The heading each schema's fields are documented under. */
const DOCUMENTED: [string, z.ZodObject][] = [
  ["Header", HeaderSchema],
  ["File", FileSchema],
  ["Taxonomy node", TaxonomyNodeSchema],
  ["Object", ObjectSchema],
  ["Link", LinkSchema],
  ["Post-it", PostItSchema],
];

describe("docs/analysis-format.md's field tables", () => {
  it.each(DOCUMENTED)("%s: every field of the schema, and no other, required as the schema says", (title, schema) => {
    const [section, ...more] = sections(DOC, (h) => h.text === title);
    expect(more, `one heading "${title}"`).toEqual([]);
    const [table, ...others] = tables(section.lines).filter((t) => t.header[0] === "Field");
    expect(others).toEqual([]);
    expect(table.header[2]).toBe("Required");
    const documented = table.rows.map(([field, , required]) => [field.replace(/^`|`$/g, ""), required === "yes"]);
    const expected = Object.entries(schema.shape).map(([field, value]) => [
      field,
      !(value as z.ZodType).safeParse(undefined).success,
    ]);
    expect(documented.sort()).toEqual(expected.sort());
  });
});

describe("docs/analysis-format.md's examples", () => {
  const [example] = sections(DOC, (h) => h.text === "Example");
  const blocks = fences(example.lines.join("\n"));
  const json = blocks.filter((b) => b.lang === "json");
  const ndjson = blocks.filter((b) => b.lang === "ndjson");
  let dir = "";
  const paths = { json: "", ndjson: "" };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "appstruct-format-doc-"));
    paths.json = join(dir, "example.json");
    paths.ndjson = join(dir, "example.ndjson");
    await writeFile(paths.json, json[0].body);
    await writeFile(paths.ndjson, `${ndjson[0].body}\n`);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("are one .json and one .ndjson block", () => {
    expect([json.length, ndjson.length]).toEqual([1, 1]);
  });

  it("are valid, and read as the same analysis", async () => {
    const fromJson = await readAnalysis(paths.json);
    const fromNdjson = await readAnalysis(paths.ndjson);
    expect(fromNdjson).toEqual(fromJson);
    expect(fromJson.header).toEqual({
      format: "appstruct.analysis/1",
      application: "Clinic",
      analyzedAt: "2026-09-01T12:00:00Z",
      analyzer: { name: "example", version: "1" },
    });
    expect(fromJson.objects.map((o) => o.id)).toEqual(["10", "11", "12", "20", "30", "90"]);
    expect(fromJson.links.from).toHaveLength(5);
    expect(fromJson.taxonomy).toHaveLength(19);
  });

  it("compile to the same snapshot, byte for byte, with the taxonomy they give", async () => {
    const [a, b] = await Promise.all([compileAnalysis(paths.json, null), compileAnalysis(paths.ndjson, null)]);
    expect(b.sha256).toBe(a.sha256);
    expect(a.meta.taxonomyDerived).toBe(false);
    expect(a.meta.counts.objects).toBe(6);
    expect(a.meta.counts.links).toBe(5);
  });
});
