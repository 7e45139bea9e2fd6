// @module EdgeCacheStore in workerd, over the real caches.default and R2: a cold isolate finds in the data centre's cache the ranges another isolate read, reading only the manifest and the snapshot's first bytes from R2; a range is cached under its ETag, manifests never; the worker wires it unless EDGE_CACHE is "off".
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app.ts";
import { SectionCache } from "../../src/format/section-cache.ts";
import type { BlobStore } from "../../src/storage/blob-store.ts";
import { SnapshotCache, StoreCatalog } from "../../src/storage/catalog.ts";
import { EdgeCacheStore } from "../../src/storage/edge-cache-store.ts";
import { isSnapshotKey, snapshotKey } from "../../src/storage/manifest.ts";
import { R2Store } from "../../src/storage/r2-store.ts";
import { runWithWaitUntil } from "../../src/wait-until.ts";
import worker, { type Env } from "../../src/worker.ts";
import petstoreV1 from "../fixtures/examples/petstore-v1.json";
import petstoreV2 from "../fixtures/examples/petstore-v2.json";
import { appPath, BASE, call, publishHistory, testEnv } from "./harness.ts";

/** R2 with every call counted by kind. */
class CountedR2 extends R2Store {
  readonly calls = { get: 0, getFirst: 0, getRange: 0 };
  override get(key: string) {
    this.calls.get++;
    return super.get(key);
  }
  override getFirst(key: string, length: number) {
    this.calls.getFirst++;
    return super.getFirst(key, length);
  }
  override getRange(key: string, offset: number, length: number, etag: string) {
    this.calls.getRange++;
    return super.getRange(key, offset, length, etag);
  }
}

/**
 * `path` answered by a fresh isolate's worth of state (catalog, section cache) over `store`,
 * waiting afterwards for what the answer left running (its cache puts), as the runtime does.
 */
async function coldAnswer(store: BlobStore, path: string): Promise<{ status: number; text: string }> {
  const catalog = new StoreCatalog(store, { snapshots: new SnapshotCache(), sections: new SectionCache(64 << 20) });
  const app = createApp(() => ({ catalog, sources: null, access: null }));
  const background: Promise<unknown>[] = [];
  const answer = await runWithWaitUntil(
    (work) => background.push(work),
    () => call(path, undefined, async (request) => app.fetch(request)),
  );
  await Promise.all(background);
  return { status: answer.status, text: answer.text };
}

const edgeOver = (r2: BlobStore) => new EdgeCacheStore(r2, caches.default, isSnapshotKey);

async function publishAs(application: string, documents: object[] = [petstoreV1]) {
  const { bytes, results } = await publishHistory(documents.map((d) => ({ ...d, application })));
  for (const r of results) expect(r.outcome).toBe("published");
  return { bytes, results };
}

describe("EdgeCacheStore", () => {
  it("a cold isolate reads from the data centre's cache what another read from R2: only the manifest goes to R2", async () => {
    await publishAs("Edge Cached");
    const path = `${appPath("Edge Cached")}/objects?name=pet&limit=5`;
    const [first, second, uncached] = [
      new CountedR2(testEnv.SNAPSHOTS),
      new CountedR2(testEnv.SNAPSHOTS),
      new CountedR2(testEnv.SNAPSHOTS),
    ];

    const warming = await coldAnswer(edgeOver(first), path);
    expect(warming.status).toBe(200);
    expect(first.calls.getRange).toBeGreaterThan(0);

    const served = await coldAnswer(edgeOver(second), path);
    expect(served.text).toBe(warming.text);
    // The manifest brings the snapshot's opening bytes: every range comes from the cache.
    expect(second.calls).toEqual({ get: 1, getFirst: 0, getRange: 0 });

    // Without the cache in front, the same cold answer reads its ranges from R2.
    const direct = await coldAnswer(uncached, path);
    expect(direct.text).toBe(warming.text);
    expect(uncached.calls.getRange).toBe(first.calls.getRange);
  });

  it("keeps a range under the object's ETag: asked under another, it goes to R2, which refuses", async () => {
    const { results } = await publishAs("Edge Cached ETag");
    const key = snapshotKey(results[0].version.sha256);
    const r2 = new CountedR2(testEnv.SNAPSHOTS);
    const { etag } = (await r2.head(key))!;
    const background: Promise<unknown>[] = [];
    const bytes = await runWithWaitUntil(
      (work) => background.push(work),
      () => edgeOver(r2).getRange(key, 64, 100, etag),
    );
    await Promise.all(background);
    expect(await caches.default.match(EdgeCacheStore.keyOf(key, etag, 64, 100))).toBeDefined();

    const again = new CountedR2(testEnv.SNAPSHOTS);
    expect(await edgeOver(again).getRange(key, 64, 100, etag)).toEqual(bytes);
    expect(again.calls.getRange).toBe(0);
    await expect(edgeOver(again).getRange(key, 64, 100, `${etag}-other`)).rejects.toThrow(/changed while being read/);
    expect(again.calls.getRange).toBe(1);
  });

  it("never caches a manifest: a version published after a read is seen by the next cold isolate", async () => {
    await publishAs("Edge Cached Manifest");
    const path = `${appPath("Edge Cached Manifest")}/objects?limit=50`;
    const before = await coldAnswer(edgeOver(new R2Store(testEnv.SNAPSHOTS)), path);
    expect(before.status).toBe(200);
    await publishAs("Edge Cached Manifest", [{ ...petstoreV2, analyzedAt: "2030-01-01T00:00:00Z" }]);
    const after = await coldAnswer(edgeOver(new R2Store(testEnv.SNAPSHOTS)), path);
    expect(after.text).not.toBe(before.text);
    expect(after.text).toBe((await coldAnswer(new R2Store(testEnv.SNAPSHOTS), path)).text);
  });
});

describe("the worker's data centre cache (EDGE_CACHE)", () => {
  /** `path` through the worker's own fetch handler with `env`, its waitUntil work awaited. */
  async function throughWorker(env: Env, path: string): Promise<number> {
    const background: Promise<unknown>[] = [];
    const ctx = {
      waitUntil: (work: Promise<unknown>) => background.push(work),
      passThroughOnException() {},
      props: {},
    };
    const response = await worker.fetch(new Request(BASE + path), env, ctx as unknown as ExecutionContext);
    await response.arrayBuffer();
    await Promise.all(background);
    return response.status;
  }

  for (const [setting, kept] of [
    [undefined, true],
    ["off", false],
  ] as const)
    it(`EDGE_CACHE ${setting ?? "unset"}: the ranges a worker read are ${kept ? "" : "not "}in caches.default afterwards`, async () => {
      const application = `Edge Cached Worker ${setting ?? "unset"}`;
      await publishAs(application);
      const path = `${appPath(application)}/objects?name=pet&limit=5`;
      expect(await throughWorker({ ...testEnv, EDGE_CACHE: setting }, path)).toBe(200);
      const r2 = new CountedR2(testEnv.SNAPSHOTS);
      await coldAnswer(new EdgeCacheStore(r2, caches.default, () => false), path);
      const ranges = r2.calls.getRange;
      const next = new CountedR2(testEnv.SNAPSHOTS);
      await coldAnswer(edgeOver(next), path);
      expect(next.calls.getRange).toBe(kept ? 0 : ranges);
    });

  it("refuses an EDGE_CACHE that is neither on nor off: every request fails, the log saying what is allowed", async () => {
    const response = await worker.fetch(new Request(`${BASE}/rest/applications`), { ...testEnv, EDGE_CACHE: "yes" }, {
      waitUntil() {},
      passThroughOnException() {},
      props: {},
    } as unknown as ExecutionContext);
    expect(response.status).toBe(500);
  });
});
