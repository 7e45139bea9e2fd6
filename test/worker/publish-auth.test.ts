// @module Publish API auth inside workerd: 403 when PUBLISH_TOKEN is unset, 401 without or with a wrong token, read API keys never publish.
import { describe, expect, it } from "vitest";
import { compileDocument } from "../../build/compile/compile-document.ts";
import { PublishApiError } from "../../build/publish-client.ts";
import type { Env } from "../../src/worker.ts";
import petstoreV1 from "../fixtures/examples/petstore-v1.json";
import { call, testEnv } from "./harness.ts";
import { bucketKeys, clientFor, fetcherFor, publishing, TOKEN } from "./publish-harness.ts";

const disabled = fetcherFor({ ...testEnv, PUBLISH_TOKEN: undefined } as Env);
const emptyToken = fetcherFor({ ...testEnv, PUBLISH_TOKEN: "" } as Env);
const withReadKeys = fetcherFor({
  ...testEnv,
  PUBLISH_TOKEN: TOKEN,
  API_KEYS: JSON.stringify({ "reader-key": "*" }),
} as Env);

const ROUTES: [string, string, unknown?][] = [
  ["POST", "/publish/uploads", { sha256: "a".repeat(64), size: 10, partSize: 5 * 1024 * 1024 }],
  ["GET", `/publish/uploads/${"a".repeat(64)}`],
  ["DELETE", `/publish/uploads/${"a".repeat(64)}`],
  ["POST", `/publish/snapshots/${"a".repeat(64)}`],
  ["GET", `/publish/snapshots/${"a".repeat(64)}`],
  ["GET", "/publish/applications"],
  ["GET", "/publish/applications/Pet%20Store%20%26%20Co"],
  ["POST", "/publish/applications/Pet%20Store%20%26%20Co/prune", { keep: 1 }],
];

const init = (method: string, body: unknown, authorization?: string): RequestInit => ({
  method,
  headers: { "Content-Type": "application/json", ...(authorization ? { Authorization: authorization } : {}) },
  body: body === undefined ? undefined : JSON.stringify(body),
});

describe("publish API auth", () => {
  for (const [method, path, body] of ROUTES) {
    it(`${method} ${path}: 403 publishing_disabled without PUBLISH_TOKEN, even with a token sent`, async () => {
      for (const fetcher of [disabled, emptyToken]) {
        const r = await call(path, init(method, body, `Bearer ${TOKEN}`), fetcher);
        expect(r.status, r.text).toBe(403);
        expect(r.body).toMatchObject({ code: "publishing_disabled", status: 403 });
        expect((r.body as { detail: string }).detail).toContain("PUBLISH_TOKEN");
      }
    });
    it(`${method} ${path}: 401 without a token, with a wrong one, with a read API key`, async () => {
      for (const authorization of [
        undefined,
        `Bearer ${TOKEN}x`,
        `Bearer ${TOKEN.slice(0, -1)}`,
        "Bearer reader-key",
        TOKEN,
        `Basic ${TOKEN}`,
      ]) {
        const r = await call(path, init(method, body, authorization), withReadKeys);
        expect(r.status, `${authorization}: ${r.text}`).toBe(401);
        expect(r.body).toMatchObject({ code: "unauthorized", status: 401 });
        expect(r.headers.get("WWW-Authenticate")).toMatch(/^Bearer /);
      }
    });
  }

  it("a read API key in X-API-KEY does not publish either", async () => {
    const r = await call("/publish/applications", { headers: { "X-API-KEY": "reader-key" } }, withReadKeys);
    expect(r.status).toBe(401);
  });

  it("the right token is accepted, with read API keys configured or not", async () => {
    for (const fetcher of [publishing, withReadKeys]) {
      const r = await call("/publish/applications", { headers: { Authorization: `Bearer ${TOKEN}` } }, fetcher);
      expect(r.status, r.text).toBe(200);
      expect(r.body).toEqual({ applications: expect.any(Array) });
    }
  });

  it("a refused client publishes nothing: the bucket is unchanged", async () => {
    const before = await bucketKeys();
    const bytes = compileDocument({ ...petstoreV1, application: "Auth App" }, null).bytes;
    const error = await clientFor({ token: "not-the-token" })
      .publish(bytes)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PublishApiError);
    expect((error as PublishApiError).status).toBe(401);
    expect(await bucketKeys()).toEqual(before);
  });

  it("the /rest API stays read-only: POST answers 405 with Allow: GET, HEAD", async () => {
    const r = await call(
      "/rest/applications/Pet%20Store%20%26%20Co/objects",
      { method: "POST", headers: { Authorization: `Bearer ${TOKEN}` } },
      publishing,
    );
    expect(r.status).toBe(405);
    expect(r.headers.get("Allow")).toBe("GET, HEAD");
  });

  it("other methods on a publish route: 405 with what is allowed", async () => {
    const r = await call(
      "/publish/applications",
      { method: "DELETE", headers: { Authorization: `Bearer ${TOKEN}` } },
      publishing,
    );
    expect(r.status).toBe(405);
    expect(r.headers.get("Allow")).toBe("GET");
  });
});
