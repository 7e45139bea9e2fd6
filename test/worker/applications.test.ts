// @module GET /rest/applications inside workerd: every published application with its versions, oldest first; only what the API key may read; ETag and 304; its parameters.
import { beforeAll, describe, expect, it } from "vitest";
import { ApplicationListSchema } from "../../src/contract/api-schemas.ts";
import type { Env } from "../../src/worker.ts";
import workerModule from "../../src/worker.ts";
import cornerV1 from "../fixtures/corner/corner-v1.json";
import petstoreV1 from "../fixtures/examples/petstore-v1.json";
import petstoreV2 from "../fixtures/examples/petstore-v2.json";
import { call, publishHistory, testEnv } from "./harness.ts";

// The worker caches its dependencies per env object: each env is built once and reused.
const keyedEnv = {
  ...testEnv,
  API_KEYS: JSON.stringify({ "k-all": "*", "k-pet": ["Pet Store & Co", "No Such App"] }),
} as Env;
const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
const keyed = (request: Request) =>
  Promise.resolve(workerModule.fetch!(request as Request<unknown, IncomingRequestCfProperties>, keyedEnv, ctx));

// Published out of order: the list is by name, each history by analyzedAt.
beforeAll(async () => {
  await publishHistory([{ ...cornerV1, application: "Ümlaut / Corner" }]);
  await publishHistory([petstoreV2]);
  await publishHistory([petstoreV1]);
});

// By hand: the names sorted by UTF-16 code units ("P" < "Ü"), the analyzedAt of each document as written.
const EVERYTHING = {
  applications: [
    {
      name: "Pet Store & Co",
      versions: [{ analyzedAt: "2026-09-01T12:00:00Z" }, { analyzedAt: "2026-10-15T09:30:00+02:00" }],
    },
    { name: "Ümlaut / Corner", versions: [{ analyzedAt: "2026-03-01T00:00:00Z" }] },
  ],
};

describe("GET /rest/applications", () => {
  it("lists every application with its versions, oldest first, in the documented shape", async () => {
    const r = await call("/rest/applications");
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual(EVERYTHING);
    expect(ApplicationListSchema.parse(r.body)).toEqual(EVERYTHING);
  });

  it("each listed analyzedAt, given as date, makes find objects read that version", async () => {
    const r = await call(
      `/rest/applications/${encodeURIComponent("Pet Store & Co")}/objects?limit=0&date=${encodeURIComponent("2026-09-01T12:00:00Z")}`,
    );
    expect(r.body).toEqual({ totalObjects: petstoreV1.objects.length, objects: [] });
  });

  it("answers with an ETag and 304 to a matching If-None-Match", async () => {
    const first = await call("/rest/applications");
    const tag = first.headers.get("etag");
    expect(tag).toMatch(/^"[0-9a-f]{32}"$/);
    const again = await call("/rest/applications", { headers: { "If-None-Match": tag! } });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
  });

  it("a parameter it does not know is 400 unknown_parameter", async () => {
    const r = await call("/rest/applications?name=Pet");
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: "unknown_parameter", parameter: "name" });
  });

  it("other methods: 405 with Allow", async () => {
    const r = await call("/rest/applications", { method: "DELETE" });
    expect(r.status).toBe(405);
    expect(r.headers.get("allow")).toBe("GET, HEAD");
  });
});

describe("GET /rest/applications with API keys", () => {
  it("without a key: 401 unauthorized", async () => {
    const r = await call("/rest/applications", undefined, keyed);
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ code: "unauthorized" });
  });

  it("a key for every application sees them all", async () => {
    expect((await call("/rest/applications", { headers: { "X-API-KEY": "k-all" } }, keyed)).body).toEqual(EVERYTHING);
  });

  it("a key limited to some applications sees only those that are published", async () => {
    const r = await call("/rest/applications?api-key=k-pet", undefined, keyed);
    expect(r.body).toEqual({ applications: [EVERYTHING.applications[0]] });
  });
});
