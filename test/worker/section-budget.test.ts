// @module The worker under a tiny SECTION_CACHE_MB (0.001): every worked example of test/fixtures/examples answers as with the default budget, and so does an answer that reads storage while it streams.
import { beforeAll, describe, expect, it } from "vitest";
import { memorySource, Snapshot } from "../../src/format/snapshot.ts";
import { levelNodes } from "../../src/query/levels.ts";
import { collect } from "../../src/query/streamed-list.ts";
import { DEFAULT_SECTION_CACHE_MB, isolateCaches, sectionBudgetBytes } from "../../src/storage/isolate-caches.ts";
import workerModule, { type Env } from "../../src/worker.ts";
import petstoreV1 from "../fixtures/examples/petstore-v1.json";
import petstoreV2 from "../fixtures/examples/petstore-v2.json";
import petstoreRequests from "../fixtures/examples/requests.json";
import { largeAnalysis } from "../support/large-analysis.ts";
import { type RequestCase, runCase } from "../support/request-cases.ts";
import { BASE, publishHistory, testEnv } from "./harness.ts";

// About 1 KB: both petstore snapshots decode to about 9.5 KB of sections, so they evict each other constantly.
const tinyEnv = { ...testEnv, SECTION_CACHE_MB: "0.001" } as Env;
const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
const fetchTiny = (request: Request) =>
  Promise.resolve(workerModule.fetch!(request as Request<unknown, IncomingRequestCfProperties>, tinyEnv, ctx));
const tiny = isolateCaches(sectionBudgetBytes("0.001")).sections;

beforeAll(async () => {
  const { results } = await publishHistory([petstoreV1, petstoreV2]);
  expect(results.map((r) => r.outcome)).toEqual(["published", "published"]);
});

describe("SECTION_CACHE_MB", () => {
  it("is megabytes of 2^20 bytes, 64 by default; anything but a number ≥ 0 is refused", () => {
    expect(testEnv.SECTION_CACHE_MB).toBe(String(DEFAULT_SECTION_CACHE_MB));
    expect(sectionBudgetBytes(undefined)).toBe(64 * 1024 * 1024);
    expect(sectionBudgetBytes("")).toBe(64 * 1024 * 1024);
    expect(sectionBudgetBytes("0.01")).toBe(10485);
    expect(sectionBudgetBytes("0")).toBe(0);
    for (const bad of ["-1", "lots", "Infinity"]) expect(() => sectionBudgetBytes(bad)).toThrow("SECTION_CACHE_MB");
  });

  it("gives each distinct budget caches of its own", () => {
    expect(tiny.budgetBytes).toBe(1048);
    expect(isolateCaches(sectionBudgetBytes(testEnv.SECTION_CACHE_MB)).sections.budgetBytes).toBe(64 * 1024 * 1024);
    expect(isolateCaches(1048).sections).toBe(tiny);
  });
});

describe("test/fixtures/examples/requests.json with SECTION_CACHE_MB = 0.001", () => {
  const cases = petstoreRequests as RequestCase[];
  it("has cases", () => expect(cases.length).toBeGreaterThan(30));
  for (const c of cases)
    it(c.request, async () => {
      const outcome = await runCase(fetchTiny, BASE, c);
      expect(outcome.problems).toEqual([]);
    });

  it("ran under the tiny budget: sections were loaded, evicted and loaded again", async () => {
    for (const c of cases) await runCase(fetchTiny, BASE, c);
    const stats = tiny.stats();
    expect(stats.budgetBytes).toBe(1048);
    expect(stats.misses).toBeGreaterThan(100);
    expect(stats.evictions).toBeGreaterThan(100);
    // Within budget, but for the last section handed out (with what it depends on), which may exceed it alone.
    expect(stats.bytes).toBeLessThan(4 * 1048);
  });
});

describe("an answer written as it is read, under the tiny budget", () => {
  // 1200 objects of long names spread over the five level-5 nodes: each node's children (its member
  // pages, never cached) are read from storage as the answer reaches it.
  const application = "Spread & Co";
  const nodes = petstoreV1.taxonomy.filter((t) => t.level === 5).map((t) => t.key);
  const large = largeAnalysis(application, "2026-03-01T00:00:00Z", 1200);
  const document = {
    ...large,
    objects: large.objects.map((o, i) =>
      i < petstoreV1.objects.length ? o : { ...o, level5: nodes[i % nodes.length] },
    ),
  };

  it("reads the snapshot after its first bytes are sent, inside the request, and sends the whole answer", async () => {
    const { bytes } = await publishHistory([document]);
    const reference = await Snapshot.open(memorySource(bytes[0]));
    const expected = JSON.stringify(await collect(await levelNodes(reference, 5, { name: "a" })));
    expect(expected.length).toBeGreaterThan(4 * 64 * 1024);
    // The bucket's reads counted: this request opens the snapshot, so its reads go through here.
    let reads = 0;
    const bucket = testEnv.SNAPSHOTS;
    const counted = Object.assign(Object.create(bucket) as R2Bucket, {
      get: ((...args: Parameters<R2Bucket["get"]>) => (reads++, bucket.get(...args))) as R2Bucket["get"],
    });
    const env = { ...tinyEnv, SNAPSHOTS: counted } as Env;
    const response = await workerModule.fetch!(
      new Request(
        `${BASE}/rest/applications/${encodeURIComponent(application)}/levels/5/nodes?name=a&select=children`,
      ) as Request<unknown, IncomingRequestCfProperties>,
      env,
      ctx,
    );
    expect(response.status).toBe(200);
    const readsBeforeBody = reads;
    expect(await response.text()).toBe(expected);
    // Storage read while the body was read: the later nodes' children came from storage then.
    expect(reads).toBeGreaterThan(readsBeforeBody);
  });
});
