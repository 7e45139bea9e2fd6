// @module The API description inside workerd: /openapi.json against docs/api.md (routes, parameters, error codes), worked answers against the zod response schemas, and /docs.
import { beforeAll, describe, expect, it } from "vitest";
import packageJson from "../../package.json";
import { CalleeSchema, CharacteristicsSchema, ObjectSchema, ProblemSchema } from "../../src/contract/api-schemas.ts";
import { ERROR_TITLES, type ErrorCode } from "../../src/contract/errors.ts";
import { ROUTE_SPECS, type RouteSpec } from "../../src/contract/route-specs.ts";
import cornerV1 from "../fixtures/corner/corner-v1.json";
import cornerV2 from "../fixtures/corner/corner-v2.json";
import cornerRequests from "../fixtures/corner/requests.json";
import petstoreV1 from "../fixtures/examples/petstore-v1.json";
import petstoreV2 from "../fixtures/examples/petstore-v2.json";
import petstoreRequests from "../fixtures/examples/requests.json";
import { idSubstitution, type RequestCase } from "../support/request-cases.ts";
import { BASE, call, fetchWorker, publishHistory } from "./harness.ts";

type Doc = {
  openapi: string;
  info: { title: string; version: string; description: string };
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, unknown>;
    securitySchemes: Record<string, { type: string; in?: string; name?: string }>;
  };
};
type Parameter = {
  name: string;
  in: string;
  required: boolean;
  description: string;
  schema: Schema;
  style?: string;
  explode?: boolean;
};
type Schema = {
  type?: string;
  pattern?: string;
  enum?: string[];
  examples?: string[];
  items?: Schema;
  default?: string;
  format?: string;
  $ref?: string;
};
type Operation = {
  operationId: string;
  parameters: Parameter[];
  responses: Record<
    string,
    {
      description: string;
      headers?: Record<string, unknown>;
      content?: Record<string, { schema: Schema; examples?: Record<string, { value: unknown }> }>;
    }
  >;
  security?: unknown[];
};

// docs/api.md: every route with its path and query parameters ([required, repeatable]).
const APP = "/rest/applications/{name}";
const INTERFACE: Record<string, { path: string[]; query: Record<string, [boolean, boolean]> }> = {
  [`${APP}/objects`]: {
    path: ["name"],
    query: {
      limit: [true, false],
      skip: [false, false],
      name: [false, true],
      fullname: [false, true],
      filepath: [false, false],
      mangling: [false, true],
      annotation: [false, true],
      tag: [false, true],
      type: [false, true],
      "post-it": [false, true],
      operator: [false, false],
      searchtype: [false, false],
      select: [false, false],
      date: [false, false],
    },
  },
  [`${APP}/objects/{id}`]: { path: ["name", "id"], query: { select: [false, false], date: [false, false] } },
  [`${APP}/objects/{id}/callees`]: {
    path: ["name", "id"],
    query: { select: [false, true], includeEscalated: [false, false], date: [false, false] },
  },
  [`${APP}/objects/{id}/callers`]: {
    path: ["name", "id"],
    query: { select: [false, true], includeEscalated: [false, false], date: [false, false] },
  },
  [`${APP}/objects/{id}/start-end-points`]: {
    path: ["name", "id"],
    query: { hops: [false, false], date: [false, false] },
  },
  [`${APP}/objects/{id}/call-hierarchy`]: {
    path: ["name", "id"],
    query: {
      direction: [true, false],
      hops: [false, false],
      linkType: [false, true],
      limit: [false, false],
      date: [false, false],
    },
  },
  [`${APP}/objects/{id}/paths`]: {
    path: ["name", "id"],
    query: { to: [true, false], hops: [false, false], limit: [false, false], date: [false, false] },
  },
  [`${APP}/transactions`]: {
    path: ["name"],
    query: { name: [false, false], limit: [true, false], skip: [false, false], date: [false, false] },
  },
  [`${APP}/transactions/{id}/graph`]: { path: ["name", "id"], query: { limit: [false, false], date: [false, false] } },
  [`${APP}/data-graphs`]: {
    path: ["name"],
    query: { name: [false, false], limit: [true, false], skip: [false, false], date: [false, false] },
  },
  [`${APP}/data-graphs/{id}/graph`]: { path: ["name", "id"], query: { limit: [false, false], date: [false, false] } },
  // name and _id are each "required if the other is absent": neither is required on its own.
  [`${APP}/levels/{level}/nodes`]: {
    path: ["name", "level"],
    query: { name: [false, false], _id: [false, false], select: [true, false], date: [false, false] },
  },
  [`${APP}/levels/{level}/graph`]: { path: ["name", "level"], query: { date: [false, false] } },
  [`${APP}/changes`]: {
    path: ["name"],
    query: {
      from: [false, false],
      to: [false, false],
      status: [false, true],
      limit: [true, false],
      skip: [false, false],
    },
  },
  [`${APP}/files/{fileId}`]: {
    path: ["name", "fileId"],
    query: { startLine: [false, false], endLine: [false, false], date: [false, false] },
  },
};

// docs/api.md#requests: integer parameters and their ranges; enumerations and their values.
const INTEGERS: Record<string, string> = {
  limit: "0 to 10000",
  skip: "0 to 9007199254740991",
  hops: "0 to 32",
  _id: "0 to 9007199254740991",
  startLine: "1 to 4294967295",
  endLine: "1 to 4294967295",
};
/** Ranges of the impact routes (docs/api.md "Call hierarchy", "Paths", "Transaction graph"), where they differ. */
const ROUTE_INTEGERS: Record<string, Record<string, string>> = {
  [`${APP}/objects/{id}/call-hierarchy`]: { hops: "1 to 32", limit: "1 to 10000" },
  [`${APP}/objects/{id}/paths`]: { hops: "1 to 32", limit: "1 to 100" },
  [`${APP}/transactions/{id}/graph`]: { limit: "1 to 10000" },
  [`${APP}/data-graphs/{id}/graph`]: { limit: "1 to 10000" },
};
const ENUMS: Record<string, string[]> = {
  operator: ["contains", "equals", "startswith", "endswith"],
  searchtype: ["all", "internal", "external"],
  includeEscalated: ["true", "false"],
  direction: ["callees", "callers", "both"],
  status: ["added", "deleted", "modified"],
};

// docs/api.md#error-codes: every code with its status.
const SEMANTICS_CODES: Record<string, number> = {
  missing_parameter: 400,
  invalid_parameter: 400,
  unknown_parameter: 400,
  invalid_application_name: 400,
  unsupported_level: 400,
  unauthorized: 401,
  forbidden: 403,
  application_not_found: 404,
  object_not_found: 404,
  no_analysis_at_date: 404,
  transaction_not_found: 404,
  data_graph_not_found: 404,
  file_not_found: 404,
  route_not_found: 404,
  method_not_allowed: 405,
  rate_limited: 429,
  source_service_unavailable: 500,
  corrupt_snapshot: 500,
  internal_error: 500,
  storage_unavailable: 503,
};
// What each route can answer besides what every application route can (access, name, catalog, snapshot, parameters).
const COMMON = [
  "invalid_parameter",
  "unknown_parameter",
  "invalid_application_name",
  "unauthorized",
  "forbidden",
  "application_not_found",
  "rate_limited",
  "corrupt_snapshot",
  "internal_error",
  "storage_unavailable",
];
/** Every route reading one selected analysis: all but find objects, which answers no objects before the first. */
const DATED = [...COMMON, "no_analysis_at_date"];
const ROUTE_CODES: Record<string, string[]> = {
  [`${APP}/objects`]: [...COMMON, "missing_parameter", "source_service_unavailable"],
  [`${APP}/objects/{id}`]: [...DATED, "object_not_found", "source_service_unavailable"],
  [`${APP}/objects/{id}/callees`]: [...DATED, "object_not_found", "source_service_unavailable"],
  [`${APP}/objects/{id}/callers`]: [...DATED, "object_not_found", "source_service_unavailable"],
  [`${APP}/objects/{id}/start-end-points`]: [...DATED, "object_not_found"],
  [`${APP}/objects/{id}/call-hierarchy`]: [...DATED, "missing_parameter", "object_not_found"],
  [`${APP}/objects/{id}/paths`]: [...DATED, "missing_parameter", "object_not_found"],
  [`${APP}/transactions`]: [...DATED, "missing_parameter"],
  [`${APP}/transactions/{id}/graph`]: [...DATED, "transaction_not_found"],
  [`${APP}/data-graphs`]: [...DATED, "missing_parameter"],
  [`${APP}/data-graphs/{id}/graph`]: [...DATED, "data_graph_not_found"],
  [`${APP}/levels/{level}/nodes`]: [...DATED, "missing_parameter", "unsupported_level"],
  [`${APP}/levels/{level}/graph`]: [...DATED, "unsupported_level"],
  [`${APP}/changes`]: [...DATED, "missing_parameter"],
  [`${APP}/files/{fileId}`]: [...DATED, "file_not_found", "source_service_unavailable"],
};

let doc: Doc;

beforeAll(async () => {
  // Both histories before the first request: the worker trusts a fetched manifest for MANIFEST_TTL_MS.
  const petstore = await publishHistory([petstoreV1, petstoreV2]);
  const corner = await publishHistory([cornerV1, cornerV2]);
  for (const { results } of [petstore, corner])
    expect(results.map((r) => r.outcome)).toEqual(["published", "published"]);
  const response = await call("/openapi.json");
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  doc = JSON.parse(response.text) as Doc;
});

const params = (op: Operation, where: "query" | "path") => op.parameters.filter((p) => p.in === where);

describe("/openapi.json", () => {
  it("is OpenAPI 3.1 with the package's version", () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.title).toBe("appstruct");
    expect(doc.info.version).toBe(packageJson.version);
  });

  it("has exactly the routes of docs/api.md, each a GET", () => {
    expect(Object.keys(doc.paths).sort()).toEqual(
      [...Object.keys(INTERFACE), "/rest/ready", "/rest/applications"].sort(),
    );
    for (const item of Object.values(doc.paths)) expect(Object.keys(item)).toEqual(["get"]);
    expect(doc.paths["/rest/ready"].get.parameters).toEqual([]);
    expect(doc.paths["/rest/ready"].get.security).toEqual([]);
  });

  for (const [path, expected] of Object.entries(INTERFACE))
    it(`${path}: every parameter of docs/api.md, required and repeatable as there`, () => {
      const op = doc.paths[path].get;
      expect(params(op, "path").map((p) => p.name)).toEqual(expected.path);
      for (const p of params(op, "path")) {
        expect(p.required).toBe(true);
        expect(p.schema.type).toBe("string");
      }
      const query = params(op, "query");
      expect(query.map((p) => p.name).sort()).toEqual(Object.keys(expected.query).sort());
      for (const p of query) {
        const [required, repeatable] = expected.query[p.name];
        expect(p.required, p.name).toBe(required);
        const value = repeatable ? p.schema.items! : p.schema;
        if (repeatable)
          expect({ type: p.schema.type, style: p.style, explode: p.explode }, p.name).toEqual({
            type: "array",
            style: "form",
            explode: true,
          });
        else expect(p.schema.type, p.name).toBe("string");
        // Every value is a string on the wire: integers by pattern, never a coerced `type: integer`.
        expect(value.type, p.name).toBe("string");
        if (p.name in INTEGERS) {
          expect(value.pattern, p.name).toBe("^[0-9]{1,15}$");
          expect(p.description, p.name).toContain(ROUTE_INTEGERS[path]?.[p.name] ?? INTEGERS[p.name]);
        }
        if (p.name in ENUMS) {
          // Any letter case is accepted (docs/api.md#requests): a case-blind pattern, canonical values as examples.
          expect(value.examples, p.name).toEqual(ENUMS[p.name]);
          const pattern = new RegExp(value.pattern!);
          for (const v of ENUMS[p.name])
            for (const spelling of [v, v.toUpperCase(), v[0].toUpperCase() + v.slice(1)])
              expect(pattern.test(spelling), `${p.name}=${spelling}`).toBe(true);
          expect(pattern.test(`${ENUMS[p.name][0]}x`), p.name).toBe(false);
          expect(pattern.test(""), p.name).toBe(false);
          expect(p.description, p.name).toMatch(/case-insensitive/);
        }
      }
    });

  it("path parameters: id is 1 to 19 digits, level an integer, with its range per route", () => {
    const id = params(doc.paths[`${APP}/objects/{id}`].get, "path").find((p) => p.name === "id")!;
    expect(id.schema.pattern).toBe("^[0-9]{1,19}$");
    const level = (route: string) =>
      params(doc.paths[`${APP}/levels/{level}/${route}`].get, "path").find((p) => p.name === "level")!;
    expect(level("nodes").schema.pattern).toBe("^[0-9]{1,15}$");
    expect(level("nodes").description).toContain("from 2 to 5");
    expect(level("graph").description).toContain("from 1 to 5");
  });

  it("selects, defaults and dates as docs/api.md says", () => {
    const find = doc.paths[`${APP}/objects`].get;
    const q = (op: Operation, name: string) => params(op, "query").find((p) => p.name === name)!;
    expect(q(find, "select").schema.examples).toEqual(["source-locations"]);
    expect(q(find, "operator").schema.default).toBe("contains");
    expect(q(find, "searchtype").schema.default).toBe("all");
    expect(q(find, "date").schema.format).toBe("date-time");
    expect(q(doc.paths[`${APP}/objects/{id}/callees`].get, "select").schema.items!.examples).toEqual([
      "parent",
      "source-locations",
    ]);
    expect(q(doc.paths[`${APP}/objects/{id}/callees`].get, "includeEscalated").schema.default).toBe("false");
    expect(q(doc.paths[`${APP}/objects/{id}/start-end-points`].get, "hops").schema.default).toBe("1");
    expect(q(doc.paths[`${APP}/levels/{level}/nodes`].get, "select").schema.examples).toEqual(["children"]);
  });

  it("API keys: X-API-KEY header and api-key query parameter", () => {
    const schemes = Object.values(doc.components.securitySchemes);
    expect(schemes).toContainEqual(expect.objectContaining({ type: "apiKey", in: "header", name: "X-API-KEY" }));
    expect(schemes).toContainEqual(expect.objectContaining({ type: "apiKey", in: "query", name: "api-key" }));
  });

  it("the error codes are exactly those of docs/api.md#error-codes", () => {
    expect(Object.fromEntries(Object.entries(ERROR_TITLES).map(([code, [status]]) => [code, status]))).toEqual(
      SEMANTICS_CODES,
    );
    expect(
      [...(doc.components.schemas.Problem as { properties: { code: Schema } }).properties.code.enum!].sort(),
    ).toEqual(Object.keys(SEMANTICS_CODES).sort());
  });

  for (const [path, codes] of Object.entries(ROUTE_CODES))
    it(`${path}: every error code it can answer, under its status, with a Problem example`, () => {
      const responses = doc.paths[path].get.responses;
      // Answers are cacheable: ETag and Cache-Control on 200, and 304 for a matching If-None-Match.
      expect(Object.keys(responses["200"].headers ?? {})).toEqual(["ETag", "Cache-Control"]);
      expect(responses["304"].headers).toEqual(responses["200"].headers);
      for (const code of codes) {
        const response = responses[String(SEMANTICS_CODES[code])];
        expect(response, code).toBeDefined();
        expect(response.description).toContain(`\`${code}\``);
        const json = response.content!["application/json"];
        expect(json.schema).toEqual({ $ref: "#/components/schemas/Problem" });
        const example = json.examples![code].value as { code: string; status: number };
        expect(ProblemSchema.parse(example)).toMatchObject({ code, status: SEMANTICS_CODES[code] });
      }
      // Nothing listed that the route cannot answer.
      const listed = Object.entries(responses)
        .filter(([status]) => status !== "200" && status !== "304")
        .flatMap(([, r]) => Object.keys(r.content!["application/json"].examples!));
      expect(listed.sort()).toEqual([...codes].sort());
    });

  it("every code of docs/api.md#error-codes is documented: per operation, or (the router's) in the description", () => {
    const listed = new Set(
      Object.values(doc.paths).flatMap((item) =>
        Object.values(item.get.responses).flatMap((r) => Object.keys(r.content?.["application/json"].examples ?? {})),
      ),
    );
    for (const code of Object.keys(SEMANTICS_CODES))
      if (!listed.has(code)) expect(["route_not_found", "method_not_allowed"]).toContain(code);
    expect(doc.info.description).toContain("`route_not_found`");
    expect(doc.info.description).toContain("`method_not_allowed`");
  });

  it("200 bodies refer to the response components, which exist", () => {
    for (const item of Object.values(doc.paths)) {
      const schema = item.get.responses["200"].content!["application/json"].schema;
      expect(schema.$ref).toMatch(/^#\/components\/schemas\//);
      expect(doc.components.schemas[schema.$ref!.split("/").pop()!]).toBeDefined();
    }
  });

  it("is the same document on every request", async () => {
    expect((await call("/openapi.json")).text).toBe(JSON.stringify(doc));
  });

  it("other methods: 405 with Allow", async () => {
    const response = await call("/openapi.json", { method: "POST" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD");
    expect(ProblemSchema.parse(response.body).code).toBe("method_not_allowed");
  });
});

describe("the response schemas are strict", () => {
  const object = {
    id: "1",
    name: "a",
    fullName: "a",
    type: "t",
    typeId: "T",
    filePath: null,
    mangling: "",
    external: false,
    annotations: null,
    tags: [],
  };
  it("accept a valid body, reject an extra or a missing field", () => {
    expect(ObjectSchema.safeParse(object).success).toBe(true);
    expect(ObjectSchema.safeParse({ ...object, extra: 1 }).success).toBe(false);
    expect(ObjectSchema.safeParse({ ...object, tags: undefined }).success).toBe(false);
    expect(ObjectSchema.safeParse({ ...object, sourceLocations: [] }).success).toBe(false);
    expect(
      CalleeSchema.safeParse({
        id: "1",
        name: "a",
        type: "t",
        typeId: "T",
        linkType: "call",
        parent: { type: "t", typeId: "T", id: "2" },
      }).success,
    ).toBe(false);
    expect(CharacteristicsSchema.safeParse({ ...object, status: { id: "Deleted" } }).success).toBe(false);
    expect(ProblemSchema.safeParse({ status: 400, title: "x", code: "no_such_code", detail: "x" }).success).toBe(false);
  });
});

/** The route spec whose path template matches `path` (no query), or undefined. */
function routeOf(path: string): RouteSpec | undefined {
  return ROUTE_SPECS.find((spec) => new RegExp(`^${spec.path.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(path));
}

for (const [title, cases, substitute] of [
  ["test/fixtures/examples/requests.json", petstoreRequests as RequestCase[], async (p: string) => p],
  ["test/fixtures/corner/requests.json", cornerRequests as RequestCase[], idSubstitution(fetchWorker, BASE)],
] as const)
  describe(`${title}: every answer fits the document`, () => {
    it("has 200 and error cases", () => {
      expect(cases.filter((c) => c.status === 200).length).toBeGreaterThan(20);
      expect(cases.filter((c) => c.status >= 400).length).toBeGreaterThan(5);
    });
    for (const c of cases)
      it(c.request, async () => {
        const space = c.request.indexOf(" ");
        const [method, rawPath] =
          space > 0 ? [c.request.slice(0, space), c.request.slice(space + 1)] : [c.method ?? "GET", c.request];
        const path = await substitute(rawPath);
        const response = await call(path, { method });
        expect(response.status).toBe(c.status);
        const route = routeOf(path.split("?")[0]);
        if (response.status === 200) {
          expect(route, path).toBeDefined();
          // Strict: an extra or missing field, or a wrong type, throws.
          route!.response.parse(response.body);
          return;
        }
        const problem = ProblemSchema.parse(response.body);
        expect(problem.status).toBe(response.status);
        expect(problem.code).toBe(c.code);
        if (problem.code === "route_not_found" || problem.code === "method_not_allowed") return;
        // An error a route answered is documented for it, under its status.
        const documented =
          doc.paths[route!.path].get.responses[String(problem.status)].content!["application/json"].examples!;
        expect(Object.keys(documented)).toContain(problem.code);
        expect(route!.errors as readonly ErrorCode[]).toContain(problem.code);
      });
  });

describe("/docs", () => {
  it("answers 200 text/html pointing at /openapi.json, its viewer from this origin", async () => {
    const response = await fetchWorker(new Request(`${BASE}/docs`));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain("<!doctype html>");
    expect(html).toContain('"url": "/openapi.json"');
    // Offline: the viewer is the explorer's own asset (web/dist/docs), and nothing comes from another origin.
    expect(html).toContain('<script src="/docs/api-reference.js"></script>');
    expect(html).not.toMatch(/https?:\/\//);
  });
});
