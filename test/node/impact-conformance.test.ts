// @module The impact routes answer as a plain reading of their spec does (scripts/conformance), in process over two generated versions.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { text } from "node:stream/consumers";
import { afterAll, beforeAll, expect, it } from "vitest";
import { loadFolderCatalog } from "../../build/folder-catalog.ts";
import { generateAnalysis } from "../../build/generate.ts";
import { checkImpact } from "../../scripts/conformance/check.ts";
import { readAnalysis } from "../../scripts/conformance/impact-reference.ts";
import { createApp } from "../../src/app.ts";
import { SectionCache } from "../../src/format/section-cache.ts";
import { SnapshotSourceLocator } from "../../src/query/source-locator.ts";

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "appstruct-impact-conformance-"));
  const generated = async (objects: number) => {
    const out = new PassThrough();
    const written = text(out);
    await generateAnalysis(out, { objects, seed: 7, application: "gen" });
    out.end();
    return (await written).split("\n").filter((line) => line !== "");
  };
  await writeFile(join(folder, "old.ndjson"), `${(await generated(400)).join("\n")}\n`);
  // The newer version: more objects, some changed, a zone offset kept as written, and source text on most files
  // (empty, ending without a line feed, or not at all).
  const newer = (await generated(450)).map((line, index) => {
    const record = JSON.parse(line);
    if (index === 0) record.analyzedAt = "2026-03-01T10:00:00+02:00";
    if (record.kind === "object" && record.checksum && Number(record.id) % 7 === 0) record.checksum += "x";
    if (record.kind === "file" && Number(record.id) % 4 !== 0) {
      const lines = Array.from({ length: Number(record.id) % 5 }, (_, k) => `line ${k + 1}\r\n`);
      record.text = lines.join("") + (Number(record.id) % 2 ? "last" : "");
    }
    return JSON.stringify(record);
  });
  await writeFile(join(folder, "new.ndjson"), `${newer.join("\n")}\n`);
}, 20_000);
afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

it("every answer of the impact routes equals the evaluator's, over two versions", async () => {
  const catalog = await loadFolderCatalog(folder, () => {}, { sections: new SectionCache(64 * 1024 * 1024) });
  const app = createApp(() => ({ catalog, sources: new SnapshotSourceLocator(catalog), access: null }));
  const versions = ["old.ndjson", "new.ndjson"].map((file) => readAnalysis(join(folder, file)));
  expect(versions[1].files.some((f) => f.text === "")).toBe(true);
  const result = await checkImpact(
    async (path) => {
      const response = await app.fetch(new Request(`http://local${path}`));
      return { status: response.status, body: await response.json() };
    },
    "gen",
    versions,
    { objectsPerVersion: 25 },
  );
  expect(result.differences).toEqual([]);
  expect(result.requests).toBeGreaterThan(500);
}, 20_000);
