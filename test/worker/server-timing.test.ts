// @module Server-Timing in the worker: a cold answer reports exactly the range reads it made of R2, a warm one none; concurrent answers share loads without counting a byte twice; a prefetch is reported apart and outlives its answer; CORS exposes the header.
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app.ts";
import { SectionCache } from "../../src/format/section-cache.ts";
import { readServerTiming, type StorageTiming } from "../../src/http/server-timing.ts";
import { StoreCatalog } from "../../src/storage/catalog.ts";
import { R2Store } from "../../src/storage/r2-store.ts";
import petstoreV1 from "../fixtures/examples/petstore-v1.json";
import { meshAnalysis } from "../support/mesh-analysis.ts";
import { appPath, call, publishHistory, testEnv } from "./harness.ts";

/** An R2Store that counts the reads an answer makes (the manifest, the snapshot's first bytes, its ranges) and their bytes. */
class CountingR2Store extends R2Store {
  reads = 0;
  bytes = 0;
  override async get(key: string): Promise<{ bytes: Uint8Array; etag: string } | null> {
    const object = await super.get(key);
    this.reads++;
    this.bytes += object?.bytes.length ?? 0;
    return object;
  }
  override async getFirst(key: string, length: number) {
    const first = await super.getFirst(key, length);
    this.reads++;
    this.bytes += first?.bytes.length ?? 0;
    return first;
  }
  override getRange(key: string, offset: number, length: number, etag: string): Promise<Uint8Array> {
    this.reads++;
    this.bytes += length;
    return super.getRange(key, offset, length, etag);
  }
}

function timingOf(headers: Headers): StorageTiming {
  const timing = readServerTiming(headers.get("Server-Timing"));
  expect(timing, headers.get("Server-Timing") ?? "no Server-Timing").not.toBeNull();
  return timing!;
}

/** A fresh application (its own snapshot, so cold in this isolate) published under `application`. */
async function publishAs(application: string): Promise<void> {
  const { results } = await publishHistory([{ ...petstoreV1, application }]);
  expect(results[0].outcome).toBe("published");
}

/** `path` answered by an app of its own over the bucket, counting its range reads at the store. */
async function countedAnswer(path: string): Promise<{ body: unknown; reads: number; bytes: number }> {
  const store = new CountingR2Store(testEnv.SNAPSHOTS);
  const catalog = new StoreCatalog(store, { sections: new SectionCache(64 * 1024 * 1024) });
  const app = createApp(() => ({ catalog, sources: null, access: null }));
  const { body } = await call(path, undefined, async (request) => app.fetch(request));
  return { body, reads: store.reads, bytes: store.bytes };
}

describe("Server-Timing", () => {
  it("a cold answer reports the range reads it made, a warm one reads nothing", async () => {
    const path = `${appPath("Timed Store")}/objects?name=owner&limit=5`;
    await publishAs("Timed Store");
    const cold = await call(path);
    const warm = await call(path);
    const counted = await countedAnswer(path);

    expect(cold.status).toBe(200);
    expect(counted.body).toEqual(cold.body);
    expect(counted.reads).toBeGreaterThan(1);
    expect(timingOf(cold.headers)).toMatchObject({ reads: counted.reads, bytes: counted.bytes });
    // The storage entry first, in the form a client parses without knowing the others.
    const { reads, bytes } = timingOf(cold.headers);
    expect(cold.headers.get("Server-Timing")).toMatch(
      new RegExp(`^storage;dur=\\d+(\\.\\d+)?;desc="${reads} reads, ${bytes} bytes", `),
    );
    expect(timingOf(cold.headers).misses).toBeGreaterThan(0);
    // The manifest (with the snapshot's opening bytes); then the sections and directories, together; then pages.
    expect(timingOf(cold.headers).rounds).toBeGreaterThanOrEqual(2);
    expect(timingOf(cold.headers).rounds).toBeLessThanOrEqual(3);

    expect(warm.body).toEqual(cold.body);
    const again = timingOf(warm.headers);
    expect(again).toEqual({
      storageMs: 0,
      reads: 0,
      rounds: 0,
      bytes: 0,
      hits: again.hits,
      misses: 0,
      prefetches: 0,
      prefetchedBytes: 0,
    });
    expect(again.hits).toBeGreaterThan(0);
  });

  it("concurrent cold answers share the loads: every byte is counted once, by the answer that read it", async () => {
    const path = `${appPath("Timed Store Together")}/objects?name=pet&limit=5`;
    await publishAs("Timed Store Together");
    const answers = await Promise.all([call(path), call(path), call(path)]);
    const counted = await countedAnswer(path);
    const timings = answers.map((a) => timingOf(a.headers));
    for (const a of answers) expect(a.body).toEqual(counted.body);
    expect(timings.reduce((sum, t) => sum + t.reads, 0)).toBe(counted.reads);
    expect(timings.reduce((sum, t) => sum + t.bytes, 0)).toBe(counted.bytes);
  });

  it("reports an object's link page, prefetched past the answer, apart: its callees then read only their rows", async () => {
    const application = "Timed Mesh";
    await publishHistory([meshAnalysis(4000, application)]);
    // A find opens the snapshot; then the object's characteristics, which prefetch its link pages.
    expect((await call(`${appPath(application)}/objects?name=Step1&limit=1`)).status).toBe(200);
    const object = await call(`${appPath(application)}/objects/3210`);
    expect(object.status).toBe(200);
    const read = timingOf(object.headers);
    expect(read.prefetches).toBe(1);
    expect(read.prefetchedBytes).toBeGreaterThan(4096);
    // Its wait is its own rounds': the prefetch, left to run past the answer, is in none of them.
    expect(read.rounds).toBeLessThanOrEqual(2);

    const callees = await call(`${appPath(application)}/objects/3210/callees`);
    expect((callees.body as { id: string }[]).map((c) => c.id).sort()).toEqual(["3211", "4473", "1735"].sort());
    const timing = timingOf(callees.headers);
    // The callees' rows at most: the link pages read before are held (a window of them weighs more).
    expect(timing.rounds).toBeLessThanOrEqual(1);
    expect(timing.bytes).toBeLessThan(read.prefetchedBytes);
    expect(timing.prefetches).toBe(0);
  });

  it("is on error answers too, and exposed to cross-origin readers", async () => {
    await publishAs("Timed Store Errors");
    const missing = await call(`${appPath("Timed Store Errors")}/objects/424242`);
    expect(missing.status).toBe(404);
    expect(timingOf(missing.headers).reads).toBeGreaterThan(0);
    expect(missing.headers.get("Access-Control-Expose-Headers")).toBe("ETag, Server-Timing");

    const ready = await call("/rest/ready");
    expect(timingOf(ready.headers)).toEqual({
      storageMs: 0,
      reads: 0,
      rounds: 0,
      bytes: 0,
      hits: 0,
      misses: 0,
      prefetches: 0,
      prefetchedBytes: 0,
    });
    expect(ready.headers.get("Access-Control-Expose-Headers")).toBe("ETag, Server-Timing");
    const preflight = await call(`${appPath("Timed Store Errors")}/objects`, {
      method: "OPTIONS",
      headers: { Origin: "https://example.org", "Access-Control-Request-Method": "GET" },
    });
    expect(preflight.headers.get("Access-Control-Expose-Headers")).toBe("ETag,Server-Timing");
  });
});
