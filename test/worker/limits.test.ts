// @module Limits: the optional per-key rate limit (429 rate_limited) and the traversal budget of start/end points.
import { beforeAll, describe, expect, it } from "vitest";
import { compileDocument } from "../../build/compile/compile-document.ts";
import { ApiError } from "../../src/contract/errors.ts";
import { memorySource, Snapshot } from "../../src/format/snapshot.ts";
import { startEndPoints } from "../../src/query/points.ts";
import { collect } from "../../src/query/streamed-list.ts";
import workerModule, { type Env } from "../../src/worker.ts";
import petstoreV1 from "../fixtures/examples/petstore-v1.json";
import { appPath, call, fakeLimiter, publishHistory, testEnv } from "./harness.ts";

const application = "Limits & Co";
const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;

beforeAll(async () => {
  await publishHistory([{ ...petstoreV1, application }]);
});

describe("rate limit (optional RATE_LIMITER binding)", () => {
  it("answers 429 rate_limited with Retry-After once a key has used its allowance, per key", async () => {
    const limiter = fakeLimiter(2);
    // Deps are cached per env object: one env per configuration.
    const env = {
      ...testEnv,
      API_KEYS: JSON.stringify({ "key-a": "*", "key-b": "*" }),
      RATE_LIMITER: limiter,
      RATE_LIMIT_PERIOD: "60",
    } as Env;
    const fetcher = (request: Request) =>
      Promise.resolve(workerModule.fetch!(request as Request<unknown, IncomingRequestCfProperties>, env, ctx));
    const path = `${appPath(application)}/objects?limit=1`;
    const as = (key: string) => call(path, { headers: { "X-API-KEY": key } }, fetcher);
    expect((await as("key-a")).status).toBe(200);
    expect((await as("key-a")).status).toBe(200);
    const limited = await as("key-a");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("Retry-After")).toBe("60");
    expect(limited.body).toEqual({
      status: 429,
      title: "Too many requests",
      code: "rate_limited",
      detail: "too many requests from this API key or client; try again in at most 60 s",
    });
    expect((await as("key-b")).status).toBe(200);
    // The limiter sees a digest of the key, never the key itself.
    expect(limiter.keys.every((k) => /^key:[0-9a-f]{32}$/.test(k))).toBe(true);
    expect(new Set(limiter.keys).size).toBe(2);
  });

  it("without API keys, limits per client address; wrong keys count against their address, then 429", async () => {
    const limiter = fakeLimiter(1);
    const env = { ...testEnv, RATE_LIMITER: limiter } as Env;
    const fetcher = (request: Request) =>
      Promise.resolve(workerModule.fetch!(request as Request<unknown, IncomingRequestCfProperties>, env, ctx));
    const path = `${appPath(application)}/objects?limit=1`;
    expect((await call(path, { headers: { "CF-Connecting-IP": "203.0.113.9" } }, fetcher)).status).toBe(200);
    expect((await call(path, { headers: { "CF-Connecting-IP": "203.0.113.9" } }, fetcher)).status).toBe(429);
    expect((await call(path, { headers: { "CF-Connecting-IP": "198.51.100.7" } }, fetcher)).status).toBe(200);
    expect(limiter.keys).toEqual(["address:203.0.113.9", "address:203.0.113.9", "address:198.51.100.7"]);

    const guesses = fakeLimiter(2);
    const keyed = { ...testEnv, API_KEYS: JSON.stringify({ good: "*" }), RATE_LIMITER: guesses } as Env;
    const keyedFetch = (request: Request) =>
      Promise.resolve(workerModule.fetch!(request as Request<unknown, IncomingRequestCfProperties>, keyed, ctx));
    const guess = (key: string) =>
      call(path, { headers: { "X-API-KEY": key, "CF-Connecting-IP": "192.0.2.1" } }, keyedFetch);
    const first = await guess("bad-1");
    expect(first.status).toBe(401);
    expect(first.headers.get("WWW-Authenticate")).toBe('Bearer realm="appstruct"');
    expect((await guess("bad-2")).status).toBe(401);
    expect((await guess("bad-3")).status).toBe(429);
    expect(guesses.keys).toEqual(["address:192.0.2.1", "address:192.0.2.1", "address:192.0.2.1"]);
    // The valid key has an allowance of its own.
    expect((await guess("good")).status).toBe(200);
    expect(guesses.keys[3]).toMatch(/^key:[0-9a-f]{32}$/);
  });
});

describe("traversal budget of start/end points", () => {
  it("refuses with invalid_parameter on hops when the walk would follow more links than the budget", async () => {
    const snapshot = await Snapshot.open(memorySource(compileDocument(petstoreV1).bytes));
    // Backward from 302: 202 (1 link), then 101 and 202 itself (2); forward: 400 and 401 (2) — 5 links in all.
    await expect(startEndPoints(snapshot, "302", 3, { traversalBudget: 3 })).rejects.toMatchObject({
      code: "invalid_parameter",
      parameter: "hops",
    });
    const error = await startEndPoints(snapshot, "302", 3, { traversalBudget: 3 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe(
      "hops=3 from this object would follow more than 3 links; ask for fewer hops",
    );
    // The same walk within a sufficient budget answers as the route does.
    const points = await startEndPoints(snapshot, "302", 3, { traversalBudget: 100 }).then(collect);
    expect(points.startPoints.map((p) => p.id)).toEqual(["101"]);
    expect(points.endPoints.map((p) => p.id)).toEqual(["400", "401"]);
  });

  it("follows no link of an object that leads to no point within the hops left (HOPS)", async () => {
    const snapshot = await Snapshot.open(memorySource(compileDocument(petstoreV1).bytes));
    // 200 calls 300 alone, which calls nothing, and nothing calls 200: walked link by link, 1 link.
    const points = await startEndPoints(snapshot, "200", 3, { traversalBudget: 0 }).then(collect);
    expect(points).toEqual({ startPoints: [], endPoints: [] });
    // Start point 101 calls 500 through 202, two links: at 1 hop the walk up from 500 stops at once, at 2 it follows 500's caller.
    await expect(startEndPoints(snapshot, "500", 1, { traversalBudget: 0 }).then(collect)).resolves.toEqual({
      startPoints: [],
      endPoints: [],
    });
    await expect(startEndPoints(snapshot, "500", 2, { traversalBudget: 0 })).rejects.toMatchObject({
      parameter: "hops",
    });
  });
});
