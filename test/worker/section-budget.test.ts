// @module The worker under a tiny SECTION_CACHE_MB (0.001): every worked example of test/fixtures/examples answers as with the default budget.
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SECTION_CACHE_MB, isolateCaches, sectionBudgetBytes } from "../../src/storage/isolate-caches.ts";
import workerModule, { type Env } from "../../src/worker.ts";
import petstoreV1 from "../fixtures/examples/petstore-v1.json";
import petstoreV2 from "../fixtures/examples/petstore-v2.json";
import petstoreRequests from "../fixtures/examples/requests.json";
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
