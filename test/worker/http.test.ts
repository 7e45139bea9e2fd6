// @module HTTP behaviour of the worker inside workerd: HEAD, 405 and Allow, unknown routes, CORS, readiness, error bodies, the source service binding.
import { beforeAll, describe, expect, it } from "vitest";
import type { Env } from "../../src/worker.ts";
import workerModule from "../../src/worker.ts";
import petstoreV1 from "../fixtures/examples/petstore-v1.json";
import petstoreV2 from "../fixtures/examples/petstore-v2.json";
import { appPath, call, type Json, publishHistory, testEnv } from "./harness.ts";

const APP = appPath("Pet Store & Co");

beforeAll(async () => {
  await publishHistory([petstoreV1, petstoreV2]);
});

/** One GET path per route, each answering 200. */
const ROUTES = [
  `${APP}/objects?limit=2&name=find`,
  `${APP}/objects/302`,
  `${APP}/objects/202/callees?select=parent`,
  `${APP}/objects/302/start-end-points?hops=3`,
  `${APP}/levels/2/nodes?name=services&select=children`,
  `${APP}/levels/2/graph`,
  `${APP}/changes?limit=2`,
  `${APP}/files/-4?startLine=2&endLine=3`,
  "/rest/ready",
];

/** Requests that fail, with the code and the parameter at fault (null: no single parameter). */
const ERRORS: [path: string, status: number, code: string, parameter: string | null | undefined][] = [
  [`${APP}/objects`, 400, "missing_parameter", "limit"],
  [`${APP}/objects?limit=ten`, 400, "invalid_parameter", "limit"],
  [`${APP}/objects?limit=1&limit=2`, 400, "invalid_parameter", "limit"],
  [`${APP}/objects?limit=1&fullName=x`, 400, "unknown_parameter", "fullName"],
  // Names every JavaScript object answers to: a parameter is known by the route's own list only.
  [`${APP}/objects?limit=1&constructor=1`, 400, "unknown_parameter", "constructor"],
  [`${APP}/objects?limit=1&__proto__=1`, 400, "unknown_parameter", "__proto__"],
  [`${APP}/objects/302?toString=1`, 400, "unknown_parameter", "toString"],
  [`${APP}/levels/2/graph?hasOwnProperty=1`, 400, "unknown_parameter", "hasOwnProperty"],
  [`${APP}/objects?limit=1&operator=like`, 400, "invalid_parameter", "operator"],
  [`${APP}/objects?limit=1&searchtype=everything`, 400, "invalid_parameter", "searchtype"],
  [`${APP}/objects?limit=1&date=2026-03-15`, 400, "invalid_parameter", "date"],
  [`${APP}/objects?limit=1&name=%C3`, 400, "invalid_parameter", "name"],
  [`${APP}/objects/12a`, 400, "invalid_parameter", "id"],
  [`${APP}/objects/201/callees?includeEscalated=yes`, 400, "invalid_parameter", "includeEscalated"],
  [`${APP}/objects/201/start-end-points?hops=33`, 400, "invalid_parameter", "hops"],
  [`${APP}/levels/1/nodes?name=s&select=children`, 400, "unsupported_level", "level"],
  [`${APP}/levels/6/graph`, 400, "unsupported_level", "level"],
  [`${APP}/levels/2/nodes?name=s`, 400, "missing_parameter", "select"],
  [`${APP}/objects/999`, 404, "object_not_found", undefined],
  ["/rest/applications/Pet%60Store/objects?limit=1", 400, "invalid_application_name", undefined],
  ["/rest/applications/Nobody/objects?limit=1", 404, "application_not_found", undefined],
  // 200 characters is a valid name whatever its bytes (800 here): one too long to publish is just not found.
  [`/rest/applications/${"%F0%9F%98%80".repeat(200)}/objects?limit=1`, 404, "application_not_found", undefined],
  [`${APP}/objects/201/callers-of`, 404, "route_not_found", null],
  ["/rest/nothing", 404, "route_not_found", null],
];

function expectProblem(
  r: { status: number; headers: Headers; body: Json | undefined; text: string },
  status: number,
  code: string,
  parameter?: string | null,
) {
  expect(r.status, r.text).toBe(status);
  expect(r.headers.get("content-type")).toMatch(/^application\/json/);
  const body = r.body as Record<string, Json>;
  expect(body.status).toBe(status);
  expect(body.code).toBe(code);
  expect(typeof body.title === "string" && body.title.length > 0, "title").toBe(true);
  expect(typeof body.detail === "string" && body.detail.length > 0, "detail").toBe(true);
  expect(body.detail, "no stack traces or internal paths").not.toMatch(/\n\s+at |\.ts:\d+|\/work\/|node_modules/);
  if (parameter) expect(body.parameter).toBe(parameter);
  if (parameter === null) expect(body).not.toHaveProperty("parameter");
  expect(
    Object.keys(body).every((k) => ["status", "title", "code", "detail", "parameter"].includes(k)),
    JSON.stringify(body),
  ).toBe(true);
}

describe("HEAD", () => {
  for (const path of [...ROUTES, ...ERRORS.map(([p]) => p)])
    it(`HEAD ${path}: the GET status and headers, no body`, async () => {
      const get = await call(path);
      const head = await call(path, { method: "HEAD" });
      expect(head.status).toBe(get.status);
      expect(head.text).toBe("");
      // Server-Timing tells what each request read itself: the GET read cold, the HEAD found it cached.
      const headers = (h: Headers) => [...h].filter(([k]) => k !== "content-length" && k !== "server-timing");
      expect(headers(head.headers)).toEqual(headers(get.headers));
    });
});

describe("methods other than GET and HEAD on a known route", () => {
  for (const path of ROUTES)
    for (const method of ["POST", "PUT", "DELETE", "PATCH"])
      it(`${method} ${path}: 405 with Allow: GET, HEAD`, async () => {
        const r = await call(path, { method, body: method === "DELETE" ? undefined : "{}" });
        expectProblem(r, 405, "method_not_allowed", null);
        expect(r.headers.get("allow")).toBe("GET, HEAD");
      });
});

describe("unknown routes", () => {
  for (const path of [
    "/",
    "/rest",
    "/rest/applications/",
    `${APP}`,
    `${APP}/objects/201/callers-of`,
    `${APP}/levels/2/edges`,
    `${APP}/levels/2`,
    "/favicon.ico",
    "/rest/ready/now",
  ])
    it(`GET ${path}: 404 route_not_found`, async () => expectProblem(await call(path), 404, "route_not_found", null));
  it("POST on an unknown route is 404 route_not_found, not 405", async () =>
    expectProblem(await call("/rest/nothing", { method: "POST", body: "x" }), 404, "route_not_found", null));
});

describe("CORS", () => {
  const origin = "https://dashboard.example";
  it("answers a preflight with Origin: allow-origin *, GET and HEAD allowed, the API key header allowed", async () => {
    const r = await call(`${APP}/objects?limit=1`, {
      method: "OPTIONS",
      headers: {
        Origin: origin,
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "x-api-key",
      },
    });
    expect(r.status).toBeGreaterThanOrEqual(200);
    expect(r.status).toBeLessThan(300);
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    const methods = (r.headers.get("access-control-allow-methods") ?? "").split(",").map((m) => m.trim().toUpperCase());
    expect(methods).toEqual(expect.arrayContaining(["GET", "HEAD"]));
    expect((r.headers.get("access-control-allow-headers") ?? "").toLowerCase()).toContain("x-api-key");
  });

  for (const path of ROUTES)
    it(`GET ${path} with Origin: Access-Control-Allow-Origin *`, async () => {
      const r = await call(path, { headers: { Origin: origin } });
      expect(r.status).toBe(200);
      expect(r.headers.get("access-control-allow-origin")).toBe("*");
    });

  for (const [path, status] of ERRORS)
    it(`GET ${path} with Origin (error ${status}): Access-Control-Allow-Origin *`, async () => {
      const r = await call(path, { headers: { Origin: origin } });
      expect(r.status).toBe(status);
      expect(r.headers.get("access-control-allow-origin")).toBe("*");
    });

  it("a 405 with Origin also carries Access-Control-Allow-Origin *", async () => {
    const r = await call(`${APP}/objects?limit=1`, { method: "POST", body: "x", headers: { Origin: origin } });
    expect(r.status).toBe(405);
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
  });
});

describe("answers kept encoded", () => {
  // A level graph's bytes are made once and handed to every answer: a runtime that took them over
  // (detached them) would send the first answer and empty ones after it.
  it("a level graph answers the same bytes each time, at once and one after another", async () => {
    const path = `${APP}/levels/2/graph`;
    const together = await Promise.all([call(path), call(path), call(path)]);
    const after = await call(path);
    for (const r of [...together, after]) {
      expect(r.status).toBe(200);
      expect(r.text).toBe(together[0].text);
    }
    expect((together[0].body as { nodes: unknown[] }).nodes.length).toBeGreaterThan(0);
  });
});

describe("readiness", () => {
  it("GET /rest/ready answers true", async () => {
    const r = await call("/rest/ready");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    expect(r.body).toBe(true);
  });
});

describe("error bodies", () => {
  for (const [path, status, code, parameter] of ERRORS)
    it(`GET ${path}: ${status} ${code}`, async () => expectProblem(await call(path), status, code, parameter));

  // docs/api.md lists `name` as a path parameter, and an error names the `parameter` at fault (docs/api.md#errors).
  it("invalid_application_name names the parameter at fault (name)", async () => {
    expectProblem(
      await call("/rest/applications/Pet%60Store/objects?limit=1"),
      400,
      "invalid_application_name",
      "name",
    );
  });
});

describe("select=source-locations without the SOURCE binding", () => {
  const noSource = { ...testEnv, SOURCE: undefined } as Env;
  const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
  const fetchNoSource = (request: Request) =>
    Promise.resolve(workerModule.fetch!(request as Request<unknown, IncomingRequestCfProperties>, noSource, ctx));
  const withSelect = [
    `${APP}/objects?limit=3&filepath=schema.sql&select=source-locations`,
    `${APP}/objects/302?select=source-locations`,
    `${APP}/objects/202/callees?select=source-locations&select=parent`,
  ];

  for (const path of withSelect) {
    it(`GET ${path}: 500 source_service_unavailable`, async () =>
      expectProblem(await call(path, undefined, fetchNoSource), 500, "source_service_unavailable"));
    const plain = path
      .replace(/[?&]select=source-locations/, (m) => (m.startsWith("?") ? "?" : ""))
      .replace("?&", "?")
      .replace(/\?$/, "");
    it(`GET ${plain}: answers without the source service`, async () => {
      const r = await call(plain, undefined, fetchNoSource);
      expect(r.status, r.text).toBe(200);
      expect(r.text).not.toContain("sourceLocations");
      expect(r.body).toEqual((await call(plain)).body);
    });
  }

  it("with the binding, the same requests carry sourceLocations", async () => {
    const r = await call(withSelect[1]);
    expect((r.body as { sourceLocations: Json }).sourceLocations).toEqual([
      { fileId: "3", startLine: 24, endLine: 40 },
    ]);
  });
  it("source code needs the service: 500 source_service_unavailable without it, the lines with it", async () => {
    const path = `${APP}/files/-4?startLine=1&endLine=1`;
    expectProblem(await call(path, undefined, fetchNoSource), 500, "source_service_unavailable");
    expect((await call(path)).body).toEqual({
      fileId: "-4",
      path: "db/schema.sql",
      startLine: 1,
      endLine: 1,
      totalLines: 20,
      text: "CREATE TABLE owners (\n",
    });
  });
});
