// @module Tests of the synthetic analysis generator (build/generate.ts): determinism, NDJSON shape, referential integrity

import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import type { GenerateResult } from "../../build/generate.ts";
import { generateAnalysis } from "../../build/generate.ts";

interface Run {
  text: string;
  result: GenerateResult;
  progress: [number, number][];
}

/** Collects the output in memory; a tiny highWaterMark and async callbacks force the backpressure path. */
async function run(objects: number, seed?: number): Promise<Run> {
  const chunks: Buffer[] = [];
  const out = new Writable({
    highWaterMark: 1024,
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      setImmediate(callback);
    },
  });
  const progress: [number, number][] = [];
  const result = await generateAnalysis(out, { objects, seed }, (done, total) => progress.push([done, total]));
  await new Promise<void>((resolve) => out.end(resolve));
  return { text: Buffer.concat(chunks).toString("utf8"), result, progress };
}

type Rec = Record<string, unknown>;

function parse(text: string): { header: Rec; records: Rec[] } {
  expect(text.endsWith("\n")).toBe(true);
  const lines = text.slice(0, -1).split("\n");
  const parsed = lines.map((line, i) => {
    try {
      return JSON.parse(line) as Rec;
    } catch (e) {
      throw new Error(`line ${i + 1} is not JSON: ${String(e)}: ${line.slice(0, 200)}`);
    }
  });
  return { header: parsed[0], records: parsed.slice(1) };
}

const ID = /^(0|[1-9][0-9]{0,18})$/;

/** Checks every rule of the format the generator is meant to satisfy; returns the records by kind. */
function checkIntegrity(text: string) {
  const { header, records } = parse(text);
  expect(header).toEqual({
    format: "appstruct.analysis/1",
    application: "Synthetic Enterprise",
    analyzedAt: "2026-01-01T00:00:00Z",
    analyzer: { name: "appstruct generate", version: "1" },
  });
  const byKind = new Map<string, Rec[]>();
  for (const r of records) {
    expect(["file", "taxonomy", "object", "link", "postIt"]).toContain(r.kind);
    const list = byKind.get(r.kind as string) ?? [];
    list.push(r);
    byKind.set(r.kind as string, list);
  }
  const files = byKind.get("file") ?? [];
  const taxonomy = byKind.get("taxonomy") ?? [];
  const objects = byKind.get("object") ?? [];
  const links = byKind.get("link") ?? [];
  const postIts = byKind.get("postIt") ?? [];

  const fileIds = new Set<string>();
  for (const f of files) {
    expect(f.id).toMatch(/^-?[1-9][0-9]*$/);
    expect(fileIds.has(f.id as string)).toBe(false);
    fileIds.add(f.id as string);
    expect(typeof f.path).toBe("string");
  }

  const nodes = new Map<string, Rec>();
  for (const t of taxonomy) {
    expect(nodes.has(t.key as string)).toBe(false);
    nodes.set(t.key as string, t);
  }
  for (const t of taxonomy) {
    expect(t.level).toBeGreaterThanOrEqual(1);
    expect(t.level).toBeLessThanOrEqual(5);
    expect(t.fullName).toBeUndefined();
    if (t.level === 1) expect(t.parent).toBeNull();
    else expect(nodes.get(t.parent as string)?.level, `parent of ${t.key as string}`).toBe((t.level as number) - 1);
  }

  const objectIds = new Set<string>();
  for (const o of objects) {
    expect(o.id).toMatch(ID);
    expect(objectIds.has(o.id as string), `duplicate id ${o.id as string}`).toBe(false);
    objectIds.add(o.id as string);
    for (const field of ["name", "fullName", "type", "typeId"]) expect(typeof o[field]).toBe("string");
  }
  for (const o of objects) {
    if (o.parent !== undefined && o.parent !== null)
      expect(objectIds.has(o.parent as string), `parent of ${o.id as string}`).toBe(true);
    expect(nodes.get(o.level5 as string)?.level, `level5 of ${o.id as string}`).toBe(5);
    for (const loc of (o.sourceLocations ?? []) as Rec[]) {
      expect(fileIds.has(loc.fileId as string), `fileId of ${o.id as string}`).toBe(true);
      expect(loc.startLine as number).toBeGreaterThanOrEqual(1);
      expect(loc.startLine as number).toBeLessThanOrEqual(loc.endLine as number);
    }
    if (o.role !== undefined) expect(["start", "end", null]).toContain(o.role);
  }
  for (const l of links) {
    expect(objectIds.has(l.from as string), `link from ${l.from as string}`).toBe(true);
    expect(objectIds.has(l.to as string), `link to ${l.to as string}`).toBe(true);
    expect(l.type).toMatch(/^[A-Za-z0-9_]{1,64}$/);
  }
  for (const p of postIts) {
    expect(objectIds.has(p.object as string), `post-it on ${p.object as string}`).toBe(true);
    expect(typeof p.title).toBe("string");
  }
  return { files, taxonomy, objects, links, postIts };
}

const base = run(2000);

describe("generateAnalysis", () => {
  it("is deterministic: the same seed gives identical bytes, another seed different ones", async () => {
    const [a, b, c] = await Promise.all([base, run(2000, 1), run(2000, 2)]);
    expect(a.text.length).toBeGreaterThan(0);
    expect(b.text === a.text).toBe(true);
    expect(c.text === a.text).toBe(false);
  });

  it("writes one JSON record per line and only references existing records", async () => {
    const { text, result } = await base;
    const r = checkIntegrity(text);
    expect(r.objects).toHaveLength(2000);
    expect(result).toEqual({
      objects: 2000,
      links: r.links.length,
      files: r.files.length,
      taxonomyNodes: r.taxonomy.length,
      postIts: r.postIts.length,
    });
    expect(r.postIts.length).toBeGreaterThan(0);
  });

  it("averages 3 to 7 links per object, with escalated links and the main link types", async () => {
    const { result, text } = await base;
    const avg = result.links / result.objects;
    expect(avg).toBeGreaterThanOrEqual(3);
    expect(avg).toBeLessThanOrEqual(7);
    const links = parse(text).records.filter((r) => r.kind === "link");
    const types = new Set(links.map((l) => l.type));
    for (const t of ["CALL", "USE", "ACCESS", "INHERIT"]) expect(types.has(t)).toBe(true);
    expect(links.some((l) => l.escalated === true)).toBe(true);
  });

  it("has start and end points and a realistic type mix", async () => {
    const { text } = await base;
    const objects = parse(text).records.filter((r) => r.kind === "object");
    const roles = new Set(objects.map((o) => o.role));
    expect(roles.has("start")).toBe(true);
    expect(roles.has("end")).toBe(true);
    const typeIds = new Set(objects.map((o) => o.typeId));
    for (const t of ["JV_CLASS", "JV_METHOD", "JV_FIELD", "JSP_PAGE", "ORA_TABLE", "ORA_COLUMN"])
      expect(typeIds.has(t)).toBe(true);
    expect(objects.some((o) => o.external === true)).toBe(true);
    expect(objects.filter((o) => o.typeId === "ORA_COLUMN").every((o) => o.filePath === null)).toBe(true);
  });

  it("reports progress up to its total", async () => {
    const { progress } = await base;
    expect(progress.at(-1)).toEqual([4000, 4000]);
  });

  it("stays consistent for tiny sizes", async () => {
    for (const n of [0, 1, 7, 60]) {
      const { text, result } = await run(n, 3);
      const r = checkIntegrity(text);
      expect(r.objects).toHaveLength(n);
      expect(result.objects).toBe(n);
    }
  });

  it("refuses a bad object count", async () => {
    await expect(run(-1)).rejects.toThrow(RangeError);
  });
});
