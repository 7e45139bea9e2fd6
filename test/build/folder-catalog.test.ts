// @module loadFolderCatalog (appstruct serve): snapshot files read by range under a section budget, analyses compiled in memory with statuses against them.
import { copyFile, mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compileAnalysisToFile } from "../../build/compile/compile.ts";
import { loadFolderCatalog } from "../../build/folder-catalog.ts";
import { SectionCache } from "../../src/format/section-cache.ts";
import { lookUp } from "../../src/query/lookup.ts";

const EXAMPLES = join(import.meta.dirname, "../fixtures/examples");
const folders: string[] = [];
afterAll(() => Promise.all(folders.map((f) => rm(f, { recursive: true, force: true }))));

describe("loadFolderCatalog", () => {
  it("serves v1 as a snapshot file and v2 as an analysis compiled against it, decoded sections under the budget given", async () => {
    const folder = await mkdtemp(join(tmpdir(), "appstruct-folder-"));
    folders.push(folder);
    const v1 = await compileAnalysisToFile(join(EXAMPLES, "petstore-v1.json"), join(folder, "petstore-v1.snap"), null);
    await copyFile(join(EXAMPLES, "petstore-v2.json"), join(folder, "petstore-v2.json"));
    const sections = new SectionCache(1024 * 1024);
    const catalog = await loadFolderCatalog(folder, () => {}, { sections });

    expect(await catalog.applications()).toEqual(["Pet Store & Co"]);
    const versions = (await catalog.versions("Pet Store & Co"))!;
    expect(versions.map((v) => v.analyzedAt)).toEqual(["2026-09-01T12:00:00Z", "2026-10-15T09:30:00+02:00"]);
    // The snapshot file keeps its content address and size; nothing was recompiled.
    expect(versions[0]).toMatchObject({ sha256: v1.sha256, size: (await stat(join(folder, "petstore-v1.snap"))).size });

    // v2's statuses were computed against v1, read back from its file.
    const v2 = await catalog.open(versions[1]);
    const status = await v2.section("STAT");
    const of = async (id: string) => status.status(await lookUp(v2, id));
    expect(await Promise.all([of("302"), of("304"), of("301"), of("203")])).toEqual([
      "Modified",
      "Added",
      "Unchanged",
      null,
    ]);

    // Sections of both versions go to the one cache given, keyed by content address.
    const opened = await catalog.open(versions[0]);
    expect(await catalog.open(versions[0])).toBe(opened);
    await opened.section("TYPE");
    expect(await opened.loadedBytes()).toBeGreaterThan(0);
    expect(sections.bytesOf(v1.sha256)).toBe(await opened.loadedBytes());
    expect(sections.bytesOf(versions[1].sha256)).toBeGreaterThan(0);
  });
});
