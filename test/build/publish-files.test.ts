// @module publishFiles: a batch is compiled and verified before anything is published, in analyzedAt order.
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AnalysisRefused } from "../../build/analysis/faults.ts";
import { InputRefused, publishFiles } from "../../build/publish.ts";
import { readWholeIdPages } from "../../src/format/id-pages.ts";
import { memorySource, Snapshot } from "../../src/format/snapshot.ts";
import { snapshotKey } from "../../src/storage/manifest.ts";
import { readManifest } from "../../src/storage/publish.ts";
import { MemoryStore } from "../support/memory-store.ts";

const EXAMPLES = join(import.meta.dirname, "../fixtures/examples");
const V1 = join(EXAMPLES, "petstore-v1.json");
const V2 = join(EXAMPLES, "petstore-v2.json");

async function statuses(store: MemoryStore, sha256: string): Promise<Record<string, string | null>> {
  const snapshot = await Snapshot.open(memorySource((await store.get(snapshotKey(sha256)))!.bytes));
  const [order, stat] = await Promise.all([readWholeIdPages(snapshot), snapshot.section("STAT")]);
  return Object.fromEntries(Array.from({ length: order.count }, (_, i) => [order.id(i), stat.status(order.rank(i))]));
}

describe("publishFiles", () => {
  it("publishes a batch given newest first in analyzedAt order, v2's statuses against v1 of the same batch", async () => {
    const store = new MemoryStore();
    const results = await publishFiles(store, [V2, V1], () => {});
    expect(results.map((r) => r.path)).toEqual([V1, V2]);
    const manifest = (await readManifest(store, "Pet Store & Co"))!;
    expect(manifest.versions.map((v) => v.analyzedAt)).toEqual(["2026-09-01T12:00:00Z", "2026-10-15T09:30:00+02:00"]);
    const v2 = await statuses(store, manifest.versions[1].sha256);
    expect([v2["302"], v2["304"], v2["301"], v2["203"]]).toEqual(["Modified", "Added", "Unchanged", null]);
    // Again: the same content, nothing changes.
    const again = await publishFiles(store, [V1, V2], () => {});
    expect(again.map((r) => r.outcome)).toEqual(["unchanged", "unchanged"]);
  });

  it("publishes nothing when one input of the batch is refused, and says which", async () => {
    const store = new MemoryStore();
    const folder = await mkdtemp(join(tmpdir(), "appstruct-publish-"));
    const broken = join(folder, "broken.json");
    await writeFile(
      broken,
      JSON.stringify({
        format: "appstruct.analysis/1",
        application: "Pet Store & Co",
        analyzedAt: "2026-12-01T00:00:00Z",
        objects: [{ id: "1" }],
      }),
    );
    const error = await publishFiles(store, [V1, broken], () => {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputRefused);
    expect((error as InputRefused).path).toBe(broken);
    expect((error as InputRefused).cause).toBeInstanceOf(AnalysisRefused);
    expect(store.objects.size).toBe(0);
  });
});
