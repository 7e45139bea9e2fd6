// @module API keys inside workerd (docs/api.md#access-api-keys): 401 without or with a wrong key, the three ways to send one, 403 out of scope, open without keys.
import { beforeAll, describe, expect, it } from "vitest";
import type { Env } from "../../src/worker.ts";
import workerModule from "../../src/worker.ts";
import petstoreV1 from "../fixtures/examples/petstore-v1.json";
import petstoreV2 from "../fixtures/examples/petstore-v2.json";
import { appPath, call, type Json, publishHistory, testEnv } from "./harness.ts";

const PET = appPath("Pet Store & Co");
const OTHER = appPath("Other / App");

// The worker caches its dependencies per env object: each env is built once and reused.
const keyedEnv = {
  ...testEnv,
  API_KEYS: JSON.stringify({ "k-all": "*", "k-pet": ["Pet Store & Co"], "s3cr+t&=/ key": "*" }),
} as Env;
const emptyKeysEnv = { ...testEnv, API_KEYS: "" } as Env;
const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
const fetcherFor = (env: Env) => (request: Request) =>
  Promise.resolve(workerModule.fetch!(request as Request<unknown, IncomingRequestCfProperties>, env, ctx));
const keyed = fetcherFor(keyedEnv);
const open = fetcherFor(testEnv);

beforeAll(async () => {
  await publishHistory([petstoreV1, petstoreV2]);
  await publishHistory([{ ...petstoreV1, application: "Other / App" }]);
});

const ROUTES = (app: string) => [
  `${app}/objects?limit=2&name=find`,
  `${app}/objects/302`,
  `${app}/objects/202/callees`,
  `${app}/objects/302/start-end-points?hops=2`,
  `${app}/levels/2/nodes?name=services&select=children`,
  `${app}/levels/2/graph`,
];

/** `path` with the api-key query parameter added. */
const withKeyParam = (path: string, key: string) =>
  `${path}${path.includes("?") ? "&" : "?"}api-key=${encodeURIComponent(key)}`;

function expectProblem(
  r: { status: number; headers: Headers; body: Json | undefined; text: string },
  status: number,
  code: string,
) {
  expect(r.status, r.text).toBe(status);
  expect(r.headers.get("content-type")).toMatch(/^application\/json/);
  expect(r.body).toMatchObject({ status, code, title: expect.any(String), detail: expect.any(String) });
}

describe("with API_KEYS configured", () => {
  let answers: Map<string, string>;
  beforeAll(async () => {
    // What each route answers, read with no keys configured.
    answers = new Map();
    for (const path of [...ROUTES(PET), ...ROUTES(OTHER)]) {
      const r = await call(path, undefined, open);
      expect(r.status, `${path}: ${r.text}`).toBe(200);
      answers.set(path, r.text);
    }
  });

  it("a revalidation is let in as any request: its tag is compared once the key may read the application", async () => {
    const revalidate = async (path: string, headers: Record<string, string>) => {
      const tag = (await call(path, undefined, open)).headers.get("ETag")!;
      return call(path, { headers: { "If-None-Match": tag, ...headers } }, keyed);
    };
    expectProblem(await revalidate(`${PET}/objects/302`, {}), 401, "unauthorized");
    expectProblem(await revalidate(`${OTHER}/objects/302`, { "X-API-KEY": "k-pet" }), 403, "forbidden");
    expect((await revalidate(`${PET}/objects/302`, { "X-API-KEY": "k-pet" })).status).toBe(304);
  });

  for (const path of ROUTES(PET)) {
    it(`no key: 401 unauthorized (${path})`, async () =>
      expectProblem(await call(path, undefined, keyed), 401, "unauthorized"));
    it(`wrong key in X-API-KEY: 401 (${path})`, async () =>
      expectProblem(await call(path, { headers: { "X-API-KEY": "k-nope" } }, keyed), 401, "unauthorized"));
    it(`wrong key in api-key: 401 (${path})`, async () =>
      expectProblem(await call(withKeyParam(path, "k-al"), undefined, keyed), 401, "unauthorized"));
    it(`wrong Bearer key: 401 (${path})`, async () =>
      expectProblem(
        await call(path, { headers: { Authorization: "Bearer k-all-but-longer" } }, keyed),
        401,
        "unauthorized",
      ));
    it(`key in X-API-KEY: the open answer (${path})`, async () => {
      const r = await call(path, { headers: { "X-API-KEY": "k-all" } }, keyed);
      expect(`${r.status} ${r.text}`).toBe(`200 ${answers.get(path)}`);
    });
    it(`key in the api-key parameter: the open answer, api-key is not an unknown parameter (${path})`, async () => {
      const r = await call(withKeyParam(path, "k-all"), undefined, keyed);
      expect(`${r.status} ${r.text}`).toBe(`200 ${answers.get(path)}`);
    });
    it(`key as Authorization: Bearer: the open answer (${path})`, async () => {
      const r = await call(path, { headers: { Authorization: "Bearer k-all" } }, keyed);
      expect(`${r.status} ${r.text}`).toBe(`200 ${answers.get(path)}`);
    });
    it(`scoped key on its own application: the open answer (${path})`, async () => {
      const r = await call(path, { headers: { "X-API-KEY": "k-pet" } }, keyed);
      expect(`${r.status} ${r.text}`).toBe(`200 ${answers.get(path)}`);
    });
  }

  for (const path of ROUTES(OTHER)) {
    it(`scoped key on another application: 403 forbidden (${path})`, async () =>
      expectProblem(await call(path, { headers: { "X-API-KEY": "k-pet" } }, keyed), 403, "forbidden"));
    it(`scoped key in api-key on another application: 403 forbidden (${path})`, async () =>
      expectProblem(await call(withKeyParam(path, "k-pet"), undefined, keyed), 403, "forbidden"));
    it(`unscoped key on that application: the open answer (${path})`, async () => {
      const r = await call(path, { headers: { "X-API-KEY": "k-all" } }, keyed);
      expect(`${r.status} ${r.text}`).toBe(`200 ${answers.get(path)}`);
    });
  }

  it("keys are compared exactly: another case is a wrong key", async () => {
    expectProblem(await call(ROUTES(PET)[0], { headers: { "X-API-KEY": "K-ALL" } }, keyed), 401, "unauthorized");
  });

  it("an empty key is a missing key", async () => {
    expectProblem(await call(ROUTES(PET)[0], { headers: { "X-API-KEY": "" } }, keyed), 401, "unauthorized");
    expectProblem(await call(withKeyParam(ROUTES(PET)[0], ""), undefined, keyed), 401, "unauthorized");
  });

  it("a key with + & = / and a space travels percent-encoded in api-key", async () => {
    const path = ROUTES(PET)[1];
    const r = await call(withKeyParam(path, "s3cr+t&=/ key"), undefined, keyed);
    expect(`${r.status} ${r.text}`).toBe(`200 ${answers.get(path)}`);
    // Unencoded, + is a space and & ends the value: not the key.
    expectProblem(await call(`${path}?api-key=s3cr+t&=/ key`, undefined, keyed), 401, "unauthorized");
  });

  it("a scoped key on an application that is not published: 403, not 404", async () => {
    expectProblem(
      await call("/rest/applications/Nobody/objects?limit=1", { headers: { "X-API-KEY": "k-pet" } }, keyed),
      403,
      "forbidden",
    );
    expectProblem(
      await call("/rest/applications/Nobody/objects?limit=1", { headers: { "X-API-KEY": "k-all" } }, keyed),
      404,
      "application_not_found",
    );
  });

  it("the error of a refused request is readable cross-origin", async () => {
    const r = await call(ROUTES(PET)[0], { headers: { Origin: "https://dashboard.example" } }, keyed);
    expect(r.status).toBe(401);
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("a CORS preflight needs no key (browsers send none)", async () => {
    const r = await call(
      ROUTES(PET)[0],
      {
        method: "OPTIONS",
        headers: {
          Origin: "https://dashboard.example",
          "Access-Control-Request-Method": "GET",
          "Access-Control-Request-Headers": "X-API-KEY",
        },
      },
      keyed,
    );
    expect(r.status).toBeGreaterThanOrEqual(200);
    expect(r.status).toBeLessThan(300);
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("/rest/ready needs no key", async () => {
    const r = await call("/rest/ready", undefined, keyed);
    expect(r.status).toBe(200);
    expect(r.body).toBe(true);
  });
});

describe("without API_KEYS", () => {
  for (const [label, fetcher] of [
    ["unset", open],
    ["empty", fetcherFor(emptyKeysEnv)],
  ] as const)
    for (const path of [...ROUTES(PET), ...ROUTES(OTHER)])
      it(`API_KEYS ${label}: open without a key, and any key is ignored (${path})`, async () => {
        const plain = await call(path, undefined, fetcher);
        expect(plain.status, plain.text).toBe(200);
        const withKey = await call(path, { headers: { "X-API-KEY": "whatever" } }, fetcher);
        expect(withKey.text).toBe(plain.text);
        const withParam = await call(withKeyParam(path, "whatever"), undefined, fetcher);
        expect(withParam.text).toBe(plain.text);
      });

  it("the default export serves the same open answers", async () => {
    const path = ROUTES(PET)[0];
    expect((await call(path)).text).toBe((await call(path, undefined, open)).text);
  });
});
