// @module Fuzz property test inside workerd: random methods, paths and query strings must get a documented status, a JSON problem body with the right code, and the outcome the rules of docs/api.md#requests and #errors predict.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import {
  ApplicationListSchema,
  CalleeListSchema,
  CharacteristicsSchema,
  FindObjectsResultSchema,
  LevelGraphSchema,
  LevelNodeListSchema,
  PointsResultSchema,
  ProblemSchema,
  ReadySchema,
} from "../../src/contract/api-schemas.ts";
import petstoreV1 from "../fixtures/examples/petstore-v1.json";
import petstoreV2 from "../fixtures/examples/petstore-v2.json";
import { BASE, fetchWorker, publishHistory } from "./harness.ts";

// ---- the published data -------------------------------------------------------------------------

/** Two applications with the petstore history; the second name needs `%2F`, `%26`, `%2B` and UTF-8 in a path. */
const APPS = ["Fuzz Pet Store", "Fuzz/ & + ü Store"];
/** Object ids of the newest analysis (petstore-v2): the id routes read it. */
const NEWEST_IDS = new Set(petstoreV2.objects.map((o) => o.id));
const NEWEST_COUNT = petstoreV2.objects.length;

beforeAll(async () => {
  for (const application of APPS)
    await publishHistory([
      { ...petstoreV1, application },
      { ...petstoreV2, application },
    ]);
});

// ---- the rules (docs/api.md#requests, #errors, #limits) --------------------------------------------

/** Every status the API documents (docs/api.md#error-codes, 204 for the CORS preflight). */
const DOCUMENTED = new Set([200, 204, 400, 401, 403, 404, 405, 429, 500, 503]);

/** docs/api.md#error-codes: the codes each status may carry. */
const CODES: Record<number, string[]> = {
  400: ["missing_parameter", "invalid_parameter", "unknown_parameter", "invalid_application_name", "unsupported_level"],
  401: ["unauthorized"],
  403: ["forbidden"],
  404: [
    "application_not_found",
    "object_not_found",
    "no_analysis_at_date",
    "transaction_not_found",
    "data_graph_not_found",
    "route_not_found",
  ],
  405: ["method_not_allowed"],
  429: ["rate_limited"],
  500: ["source_service_unavailable", "corrupt_snapshot", "internal_error"],
  503: ["storage_unavailable"],
};

const MAX_URL = 8192;
const MAX_VALUE_LENGTH = 1000;
const MAX_VALUES = 50;

type ParamRule =
  | { kind: "integer"; min: number; max: number; repeatable?: boolean; required?: boolean }
  | { kind: "boolean"; repeatable?: boolean; required?: boolean }
  | { kind: "enum"; values: readonly string[]; repeatable?: boolean; required?: boolean }
  | { kind: "date"; repeatable?: boolean; required?: boolean }
  | { kind: "text"; repeatable?: boolean; required?: boolean };

const text = (repeatable = false): ParamRule => ({ kind: "text", repeatable });

type Route = "applications" | "find" | "object" | "callees" | "points" | "nodes" | "graph";

/** The parameters of each route, as docs/api.md writes them, with the value rules of docs/api.md#requests. */
const ROUTE_PARAMS: Record<Route, Record<string, ParamRule>> = {
  applications: {},
  find: {
    limit: { kind: "integer", min: 0, max: 10000, required: true },
    skip: { kind: "integer", min: 0, max: Number.MAX_SAFE_INTEGER },
    name: text(true),
    fullname: text(true),
    filepath: text(),
    mangling: text(true),
    annotation: text(true),
    tag: text(true),
    type: text(true),
    "post-it": text(true),
    operator: { kind: "enum", values: ["contains", "equals", "startswith", "endswith"] },
    searchtype: { kind: "enum", values: ["all", "internal", "external"] },
    select: { kind: "enum", values: ["source-locations"] },
    date: { kind: "date" },
  },
  object: { select: { kind: "enum", values: ["source-locations"] }, date: { kind: "date" } },
  callees: {
    select: { kind: "enum", values: ["parent", "source-locations"], repeatable: true },
    includeEscalated: { kind: "boolean" },
    date: { kind: "date" },
  },
  points: { hops: { kind: "integer", min: 0, max: 32 }, date: { kind: "date" } },
  nodes: {
    name: text(),
    _id: { kind: "integer", min: 0, max: Number.MAX_SAFE_INTEGER },
    select: { kind: "enum", values: ["children"], required: true },
    date: { kind: "date" },
  },
  graph: { date: { kind: "date" } },
};

/** Dates the generator uses, by validity (RFC 3339 with a zone; checked by hand, not by a parser under test). */
const VALID_DATES = [
  "2026-09-01T12:00:00Z",
  "2020-01-01T00:00:00Z",
  "2026-10-15T07:30:00Z",
  "2020-01-01T00:00:00.5+02:00",
  "2026-10-15T09:30:00+02:00",
  "2026-10-01T00:00:00.123-05:00",
  "2030-12-31T23:59:59.9Z",
];
const INVALID_DATES = [
  "2026-13-01T00:00:00Z",
  "2026-02-30T00:00:00Z",
  "2026-03-15",
  "2026-09-01T12:00:00",
  "2026-09-01T12:00:00 02:00",
  "2026-09-01T24:00:00Z",
  "yesterday",
  "1700000000",
];

function valueIsValid(rule: ParamRule, value: string): boolean {
  switch (rule.kind) {
    case "integer":
      return /^[0-9]{1,15}$/.test(value) && Number(value) >= rule.min && Number(value) <= rule.max;
    case "boolean":
      return /^(true|false)$/i.test(value);
    case "enum":
      return rule.values.includes(value.toLowerCase());
    case "date":
      if (INVALID_DATES.includes(value)) return false;
      if (VALID_DATES.includes(value)) return true;
      // Anything else the generator makes (unicode, numbers, escapes) is no RFC 3339 date-time.
      return false;
    case "text":
      return true;
  }
}

/** `application/x-www-form-urlencoded` decoding of one component, or null when it is not valid percent-encoded UTF-8. */
function formDecode(raw: string): string | null {
  try {
    return decodeURIComponent(raw.replace(/\+/g, " "));
  } catch {
    return null;
  }
}

/** A path parameter after one percent-decoding (a failed decoding keeps a `%`, so it never passes a digits check). */
function pathDecode(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Why an application name segment is refused (docs/api.md#requests), or null. */
function nameIsInvalid(segment: string): boolean {
  let name: string;
  try {
    name = decodeURIComponent(segment);
  } catch {
    return true;
  }
  const length = [...name].length;
  return (
    length < 1 || length > 200 || new TextEncoder().encode(name).length > 600 || /[`\u0000-\u001f\u007f]/.test(name)
  );
}

interface Matched {
  route: Route | "ready" | "meta" | null;
  /** The raw `{name}` segment when the path is under /rest/applications/{name}/. */
  segment?: string;
  id?: string;
  level?: string;
  /** /rest/applications/{name} with nothing after it: whether the name is checked there is not specified. */
  bareApplication?: boolean;
}

function matchRoute(path: string): Matched {
  if (path === "/rest/ready") return { route: "ready" };
  // The API description (docs/api.md): the OpenAPI document and its reference page.
  if (path === "/openapi.json" || path === "/docs") return { route: "meta" };
  // The catalog (docs/api.md "Applications"): no parameters, no application in the path.
  if (path === "/rest/applications") return { route: "applications" };
  const bare = /^\/rest\/applications\/([^/]+)$/.exec(path);
  if (bare) return { route: null, segment: bare[1], bareApplication: true };
  const under = /^\/rest\/applications\/([^/]+)\/(.*)$/.exec(path);
  if (!under) return { route: null };
  const [, segment, rest] = under;
  const patterns: [RegExp, Route][] = [
    [/^objects$/, "find"],
    [/^objects\/([^/]+)$/, "object"],
    [/^objects\/([^/]+)\/callees$/, "callees"],
    [/^objects\/([^/]+)\/start-end-points$/, "points"],
    [/^levels\/([^/]+)\/nodes$/, "nodes"],
    [/^levels\/([^/]+)\/graph$/, "graph"],
  ];
  for (const [pattern, route] of patterns) {
    const m = pattern.exec(rest);
    if (!m) continue;
    if (route === "nodes" || route === "graph") return { route, segment, level: m[1] };
    return { route, segment, id: m[1] };
  }
  return { route: null, segment };
}

interface Outcome {
  status: number;
  code?: string;
  /** undefined: not checked; null: must be absent. */
  parameter?: string | null;
}

/** Every fault of a GET on a known route with a valid name: any one of them may be the one reported. */
function faultsOf(m: Matched & { route: Route }, query: string): { faults: Outcome[]; optional: Outcome[] } {
  const faults: Outcome[] = [];
  const optional: Outcome[] = [];
  const bad = (code: string, parameter?: string | null) => faults.push({ status: 400, code, parameter });
  if (m.id !== undefined && !/^[0-9]{1,19}$/.test(pathDecode(m.id))) bad("invalid_parameter", "id");
  if (m.level !== undefined) {
    const level = pathDecode(m.level);
    const min = m.route === "nodes" ? 2 : 1;
    if (!/^[0-9]{1,15}$/.test(level)) bad("invalid_parameter", "level");
    else if (Number(level) < min || Number(level) > 5) bad("unsupported_level", "level");
  }
  const rules = ROUTE_PARAMS[m.route];
  const values = new Map<string, string[]>();
  let keys = 0;
  for (const part of query.split("&")) {
    if (part === "") continue;
    const eq = part.indexOf("=");
    const name = formDecode(eq < 0 ? part : part.slice(0, eq));
    const value = formDecode(eq < 0 ? "" : part.slice(eq + 1));
    if (name === null) {
      bad("invalid_parameter");
      continue;
    }
    if (value === null) bad("invalid_parameter", name);
    if (name === "api-key") {
      // The key is always allowed; whether the size limits apply to it is not specified.
      if ((value !== null && value.length > MAX_VALUE_LENGTH) || ++keys > MAX_VALUES)
        optional.push({ status: 400, code: "invalid_parameter", parameter: name });
      continue;
    }
    if (!Object.hasOwn(rules, name)) {
      bad("unknown_parameter", name);
      continue;
    }
    if (value === null) continue;
    if (value.length > MAX_VALUE_LENGTH) bad("invalid_parameter", name);
    values.set(name, [...(values.get(name) ?? []), value]);
  }
  for (const [name, rule] of Object.entries(rules)) {
    const list = values.get(name) ?? [];
    if (list.length > MAX_VALUES) bad("invalid_parameter", name);
    if (list.length > 1 && !rule.repeatable) bad("invalid_parameter", name);
    if (list.length === 0 && rule.required) bad("missing_parameter", name);
    if (list.some((v) => !valueIsValid(rule, v))) bad("invalid_parameter", name);
  }
  if (m.route === "nodes" && !values.has("name") && !values.has("_id")) {
    bad("missing_parameter", "name");
    bad("missing_parameter", "_id");
  }
  return { faults, optional };
}

/** The outcomes docs/api.md allows for `method url`; any one of them is right. */
function allowed(method: string, url: URL): Outcome[] {
  if (method === "OPTIONS") return [{ status: 204 }];
  if (url.href.length > MAX_URL) return [{ status: 400, code: "invalid_parameter", parameter: null }];
  const m = matchRoute(url.pathname);
  const known = m.route !== null;
  if (method !== "GET" && method !== "HEAD")
    return [
      known
        ? { status: 405, code: "method_not_allowed", parameter: null }
        : { status: 404, code: "route_not_found", parameter: null },
    ];
  if (m.route === "ready" || m.route === "meta") return [{ status: 200 }];
  const notFound: Outcome = { status: 404, code: "route_not_found", parameter: null };
  if (m.segment !== undefined && nameIsInvalid(m.segment)) {
    const invalid: Outcome = { status: 400, code: "invalid_application_name" };
    return m.bareApplication ? [invalid, notFound] : [invalid];
  }
  if (m.route === null) return [notFound];
  if (m.route === "applications") {
    const { faults, optional } = faultsOf(m as Matched & { route: Route }, url.search.slice(1));
    return faults.length ? faults : [{ status: 200 }, ...optional];
  }
  const { faults, optional } = faultsOf(m as Matched & { route: Route }, url.search.slice(1));
  const application = decodeURIComponent(m.segment!);
  const alternatives: Outcome[] = [];
  if (!APPS.includes(application)) alternatives.push({ status: 404, code: "application_not_found" });
  else if (m.id !== undefined && /^[0-9]{1,19}$/.test(pathDecode(m.id)) && !NEWEST_IDS.has(pathDecode(m.id)))
    alternatives.push({ status: 404, code: "object_not_found" });
  // A date may select an analysis before the first (routes but find objects answer 404 then) or one without the object.
  if (m.route !== "find" && new URLSearchParams(url.search).has("date"))
    optional.push(
      { status: 404, code: "no_analysis_at_date", parameter: "date" },
      { status: 404, code: "object_not_found" },
    );
  // With several faults, the order of checks is not specified: any fault, or a 404 found first, is right.
  if (faults.length) return [...faults, ...alternatives];
  if (alternatives.length) return [...alternatives, ...optional];
  return [{ status: 200 }, ...optional];
}

// ---- the checks on every answer ------------------------------------------------------------------------

type Body = Record<string, unknown>;

const SCHEMA_OF_ROUTE = {
  ready: ReadySchema,
  applications: ApplicationListSchema,
  find: FindObjectsResultSchema,
  object: CharacteristicsSchema,
  callees: CalleeListSchema,
  points: PointsResultSchema,
  nodes: LevelNodeListSchema,
  graph: LevelGraphSchema,
};

/** Route-specific facts of a 200 body that follow from the request alone. */
function check200(url: URL, body: unknown, label: string): void {
  const m = matchRoute(url.pathname);
  expect(m.route, label).not.toBeNull();
  if (m.route === "meta") {
    expect((body as Body).openapi, label).toMatch(/^3\.1\./);
    return;
  }
  const schema = SCHEMA_OF_ROUTE[m.route!];
  const parsed = schema.safeParse(body);
  expect(parsed.success, `${label}\n${parsed.error?.message ?? ""}`).toBe(true);
  const params = new Map<string, string>();
  for (const part of url.search.slice(1).split("&")) {
    if (!part) continue;
    const eq = part.indexOf("=");
    params.set(formDecode(eq < 0 ? part : part.slice(0, eq))!, formDecode(eq < 0 ? "" : part.slice(eq + 1))!);
  }
  switch (m.route) {
    case "find": {
      const b = body as { totalObjects: number; objects: unknown[] };
      const limit = Number(params.get("limit"));
      const skip = Number(params.get("skip") ?? "0");
      expect(b.totalObjects, label).toBeLessThanOrEqual(Math.max(NEWEST_COUNT, petstoreV1.objects.length));
      expect(b.objects.length, label).toBe(Math.max(0, Math.min(limit, b.totalObjects - skip)));
      break;
    }
    case "object":
      expect((body as Body).id, label).toBe(pathDecode(m.id!));
      break;
    case "nodes":
      for (const node of body as Body[]) expect(node.level, label).toBe(Number(pathDecode(m.level!)));
      break;
    default:
  }
}

const seen = new Map<string, number>();

async function exercise(method: string, href: string, headers: Record<string, string> = {}): Promise<void> {
  const request = new Request(href, { method, headers });
  const url = new URL(request.url);
  const response = await fetchWorker(request);
  const text = await response.text();
  const label = `${request.method} ${request.url.length > 400 ? `${request.url.slice(0, 400)}… (${request.url.length} characters)` : request.url}\n→ ${response.status} ${text.slice(0, 400)}`;
  const status = response.status;
  expect(DOCUMENTED.has(status), `undocumented status: ${label}`).toBe(true);
  // Storage is healthy and the SOURCE binding is there: nothing here may fail on the server side.
  expect(status, `server error: ${label}`).toBeLessThan(500);
  if (status === 204) {
    expect(request.method, label).toBe("OPTIONS");
    expect(text, label).toBe("");
    seen.set("204", (seen.get("204") ?? 0) + 1);
    return;
  }
  // The reference page is the one answer that is not JSON.
  const page = status === 200 && url.pathname === "/docs";
  expect(response.headers.get("content-type") ?? "", label).toMatch(page ? /^text\/html/ : /^application\/json/);
  let body: unknown;
  if (request.method === "HEAD") expect(text, `HEAD has no body: ${label}`).toBe("");
  else if (page) expect(text, label).toMatch(/<html/i);
  else {
    try {
      body = JSON.parse(text);
    } catch {
      expect.fail(`body is not JSON: ${label}`);
    }
  }
  if (status === 405) expect(response.headers.get("allow"), label).toBe("GET, HEAD");
  if (status >= 400 && body !== undefined) {
    const problem = body as Body;
    expect(ProblemSchema.safeParse(problem).success, `problem shape: ${label}`).toBe(true);
    expect(
      Object.keys(problem).every((k) => ["status", "title", "code", "detail", "parameter"].includes(k)),
      label,
    ).toBe(true);
    expect(problem.status, label).toBe(status);
    expect(CODES[status], label).toContain(problem.code);
    expect(typeof problem.title === "string" && problem.title.length > 0, label).toBe(true);
    expect(typeof problem.detail === "string" && problem.detail.length > 0, label).toBe(true);
    expect(problem.detail as string, `no stack traces or internal paths: ${label}`).not.toMatch(
      /\n\s+at |\.ts:\d+|\/work\/|node_modules/,
    );
    if ("parameter" in problem) expect(typeof problem.parameter, label).toBe("string");
  }
  const outcomes = allowed(request.method, url);
  const matches = (o: Outcome) => {
    if (o.status !== status) return false;
    if (body === undefined || o.code === undefined) return true;
    const problem = body as Body;
    if (o.code !== problem.code) return false;
    if (o.parameter === null) return !("parameter" in problem);
    return o.parameter === undefined || o.parameter === problem.parameter;
  };
  expect(outcomes.some(matches), `${label}\nexpected one of ${JSON.stringify(outcomes)}`).toBe(true);
  if (status === 200 && body !== undefined) check200(url, body, label);
  if (page) seen.set("docs", (seen.get("docs") ?? 0) + 1);
  const key = body !== undefined && status >= 400 ? `${status} ${(body as Body).code}` : String(status);
  seen.set(key, (seen.get(key) ?? 0) + 1);
}

// ---- the generators -------------------------------------------------------------------------------------

const repeat = (s: string, n: number) => s.repeat(n);

/** Strings fast-check builds from whole graphemes (no lone surrogate, so encodeURIComponent accepts them). */
const unicode = (maxLength: number) => fc.string({ unit: "grapheme", maxLength });

const nameSegment: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...APPS.map(encodeURIComponent)) },
  {
    weight: 3,
    // The same names written differently: raw & and + are literal in a path, hex is case-insensitive, the URL parser encodes ü and spaces.
    arbitrary: fc.constantFrom(
      "Fuzz%2F%20&%20+%20%C3%BC%20Store",
      "Fuzz%2f%20%26%20%2b%20%c3%bc%20Store",
      "Fuzz%2F &%20+ ü Store",
      "Fuzz Pet Store",
      "Fuzz%20Pet%20Store",
      "fuzz%20pet%20store",
      "Fuzz/ & + ü Store",
    ),
  },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      "Nobody",
      "%00",
      "a%00b",
      "a%1Fb",
      "%7F",
      "%E0%A4%A",
      "%E0%A4%AZ",
      "%",
      "%ZZ",
      "%C3",
      "%ED%A0%80",
      "%2F",
      "a%2Fb",
      "..",
      ".",
      "%2E%2E",
      "`",
      "%60",
      "a`b",
      "a\\b",
      repeat("x", 200),
      repeat("x", 201),
      repeat("x", 300),
      repeat("ü", 200),
      repeat("%C3%BC", 201),
      "",
    ),
  },
  { weight: 2, arbitrary: unicode(20).map(encodeURIComponent) },
  {
    weight: 1,
    arbitrary: fc.string({
      unit: fc.constantFrom("a", " ", "%", "2", "F", "`", "ü", "&", "+", "=", ";", "@", "'", '"', "<", "\u0000", "\t"),
      maxLength: 12,
    }),
  },
);

const objectId: fc.Arbitrary<string> = fc.oneof(
  // No leading zeros here: ids with one are covered by the explicit test below.
  { weight: 6, arbitrary: fc.constantFrom(...NEWEST_IDS, "303", "999", "0") },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      "-1",
      "0x10",
      "%201e1%20",
      " 1e1 ",
      "1e1",
      "2.0",
      "12a",
      "%31",
      "%E0%A4%A",
      "%00",
      "..",
      "`",
      "😀",
      "+1",
      "1%2F2",
      repeat("9", 300),
      "12345678901234567890",
      "1234567890123456789",
    ),
  },
  { weight: 2, arbitrary: fc.bigInt({ min: 0n, max: 10n ** 21n }).map(String) },
  { weight: 1, arbitrary: fc.constantFrom("1e1", "١٢", "12%20") },
  { weight: 1, arbitrary: unicode(6).map(encodeURIComponent) },
);

const level: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: -1, max: 7 }).map(String) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "02",
      "2.0",
      "%32",
      "x",
      "99999999999999999999",
      "1000000000000000",
      "000000000000005",
      " 2",
      "%E0%A4%A",
      "0x2",
    ),
  },
);

const tail: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constant("objects") },
  { weight: 2, arbitrary: objectId.map((id) => `objects/${id}`) },
  { weight: 2, arbitrary: objectId.map((id) => `objects/${id}/callees`) },
  { weight: 2, arbitrary: objectId.map((id) => `objects/${id}/start-end-points`) },
  { weight: 2, arbitrary: level.map((l) => `levels/${l}/nodes`) },
  { weight: 2, arbitrary: level.map((l) => `levels/${l}/graph`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "objects/",
      "objects/302/callers-of",
      "levels",
      "levels/2",
      "",
      "OBJECTS",
      "objects/302/callees/",
      "levels/2/graph/x",
      "objects//callees",
    ),
  },
);

const path: fc.Arbitrary<string> = fc.oneof(
  { weight: 12, arbitrary: fc.tuple(nameSegment, tail).map(([n, t]) => `/rest/applications/${n}/${t}`) },
  { weight: 1, arbitrary: nameSegment.map((n) => `/rest/applications/${n}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "/rest/ready",
      "/openapi.json",
      "/docs",
      "/docs/",
      "/openapi",
      "/rest/nothing",
      "/",
      "/rest/applications",
      "/rest/applications/",
      "/REST/ready",
      "/rest/ready/",
      "//rest/ready",
      "/rest/applications//objects",
      "/rest/applications/../ready",
    ),
  },
);

const KNOWN_NAMES = [...new Set(Object.values(ROUTE_PARAMS).flatMap((p) => Object.keys(p))), "api-key"];

const paramName: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...KNOWN_NAMES) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "fullName",
      "Limit",
      "limt",
      "hop",
      "include_escalated",
      "postit",
      "post_it",
      "ID",
      "_ID",
      "selet",
      "API-KEY",
      "nam",
      "",
      "limit ",
      "skip[]",
    ),
  },
  { weight: 1, arbitrary: unicode(8) },
);

const value: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      "0",
      "1",
      "3",
      "5",
      "32",
      "33",
      "10000",
      "10001",
      "-1",
      "0x10",
      " 1e1 ",
      "1e1",
      "2.0",
      "+1",
      "999999999999999",
      "1000000000000000",
      "9007199254740991",
      "00000000000001",
      "1,000",
      "١٢",
    ),
  },
  { weight: 1, arbitrary: fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n }).map(String) },
  { weight: 2, arbitrary: fc.constantFrom("true", "TRUE", "False", "yes", "", "on") },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "contains",
      "EQUALS",
      "startswith",
      "endsWith",
      "like",
      "all",
      "internal",
      "External",
      "everything",
      "children",
      "parent",
      "source-locations",
      "Source-Locations",
      "CHILDREN",
    ),
  },
  { weight: 2, arbitrary: fc.constantFrom(...VALID_DATES, ...INVALID_DATES) },
  {
    weight: 2,
    arbitrary: fc.constantFrom("find", "owner", "java method", "a&b", "%", "ü", "😀", "large & old", "a=b"),
  },
  { weight: 2, arbitrary: unicode(12) },
  { weight: 1, arbitrary: fc.constantFrom(MAX_VALUE_LENGTH, MAX_VALUE_LENGTH + 1).map((n) => repeat("v", n)) },
);

/** One component as a client might write it: form-encoded, percent-encoded, or raw (the URL parser encodes what it must). */
const written = (s: string): fc.Arbitrary<string> =>
  fc.constantFrom(
    encodeURIComponent(s).replace(/%20/g, "+"),
    encodeURIComponent(s),
    s.replace(/#/g, "%23"), // raw; a # would start a fragment the server never sees
  );

/** Raw escapes that decode to odd things or not at all. */
const RAW_VALUES = [
  "%00",
  "%E0%A4%A",
  "%C3",
  "%C3%28",
  "%ED%A0%80",
  "%ZZ",
  "%",
  "+",
  "%2B",
  "%26",
  "%3D",
  "a+b",
  "%2B02:00",
  "2026-10-15T09:30:00%2B02:00",
  "2026-10-15T09:30:00+02:00",
];
const RAW_NAMES = ["%00", "%E0%A4%A", "%6Cimit", "li%6Dit", "%26", "post%2Dit", "api%2Dkey"];

const pair: fc.Arbitrary<string> = fc
  .tuple(
    fc.oneof(
      { weight: 6, arbitrary: paramName.chain(written) },
      { weight: 1, arbitrary: fc.constantFrom(...RAW_NAMES) },
    ),
    fc.oneof({ weight: 6, arbitrary: value.chain(written) }, { weight: 1, arbitrary: fc.constantFrom(...RAW_VALUES) }),
    fc.oneof({ weight: 12, arbitrary: fc.constant("=") }, { weight: 1, arbitrary: fc.constant("") }),
    fc.oneof(
      { weight: 10, arbitrary: fc.constant(1) },
      { weight: 2, arbitrary: fc.integer({ min: 2, max: 3 }) },
      { weight: 1, arbitrary: fc.integer({ min: 49, max: 60 }) },
    ),
  )
  .map(([n, v, eq, times]) => Array.from({ length: times }, () => (eq ? `${n}=${v}` : n)).join("&"));

const query: fc.Arbitrary<string> = fc
  .tuple(fc.array(pair, { maxLength: 6 }), fc.constantFrom("", "", "", "&", "&&"))
  .map(([pairs, extra]) => (pairs.length === 0 && extra === "" ? "" : `?${pairs.join(extra || "&")}`));

/** Well-formed requests (mostly 200), so the success paths get fuzzed values too. */
const filterValue = fc.oneof(
  fc.constantFrom("find", "owner", "Java", "java method", "", "schema.sql", "@Get", "hot", "large & old", "ü"),
  unicode(4),
);
const form = (pairs: [string, string][]) =>
  pairs.length
    ? `?${pairs.map(([n, v]) => `${encodeURIComponent(n)}=${encodeURIComponent(v).replace(/%20/g, "+")}`).join("&")}`
    : "";
const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
const pairsOf = (entries: [string, string | string[] | undefined][]): [string, string][] =>
  entries.flatMap(([n, v]) =>
    v === undefined ? [] : Array.isArray(v) ? v.map((x): [string, string] => [n, x]) : [[n, v] as [string, string]],
  );

const wellFormed: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(...APPS.map(encodeURIComponent)),
    fc.oneof(
      fc
        .record({
          limit: fc.constantFrom("0", "1", "5", "10000"),
          skip: optional(fc.constantFrom("0", "1", "3", "999999999999999")),
          filters: fc.array(
            fc.tuple(
              fc.constantFrom("name", "fullname", "type", "mangling", "annotation", "tag", "post-it"),
              filterValue,
            ),
            { maxLength: 3 },
          ),
          filepath: optional(filterValue),
          operator: optional(fc.constantFrom("contains", "EQUALS", "startsWith", "endswith")),
          searchtype: optional(fc.constantFrom("all", "Internal", "external")),
          select: optional(fc.constant("source-locations")),
          date: optional(fc.constantFrom(...VALID_DATES)),
        })
        .map(
          (r) =>
            `objects${form([
              ...pairsOf([
                ["limit", r.limit],
                ["skip", r.skip],
                ["filepath", r.filepath],
                ["operator", r.operator],
                ["searchtype", r.searchtype],
                ["select", r.select],
                ["date", r.date],
              ]),
              ...r.filters,
            ])}`,
        ),
      fc
        .tuple(fc.constantFrom(...NEWEST_IDS), optional(fc.constant("source-locations")))
        .map(([id, select]) => `objects/${id}${form(pairsOf([["select", select]]))}`),
      // Ids of the right form that no object has: object_not_found is otherwise reached only by chance.
      fc
        .tuple(
          fc.constantFrom("303", "999", "0", "9999999999999999999"),
          fc.constantFrom("", "/callees", "/start-end-points"),
        )
        .map(([id, route]) => `objects/${id}${route}`),
      fc
        .tuple(
          fc.constantFrom(...NEWEST_IDS),
          fc.subarray(["parent", "source-locations"]),
          optional(fc.constantFrom("true", "false", "TRUE")),
        )
        .map(
          ([id, select, escalated]) =>
            `objects/${id}/callees${form(
              pairsOf([
                ["select", select],
                ["includeEscalated", escalated],
              ]),
            )}`,
        ),
      fc
        .tuple(fc.constantFrom(...NEWEST_IDS), optional(fc.integer({ min: 0, max: 32 }).map(String)))
        .map(([id, hops]) => `objects/${id}/start-end-points${form(pairsOf([["hops", hops]]))}`),
      fc
        .tuple(
          fc.integer({ min: 2, max: 5 }),
          optional(filterValue),
          optional(fc.nat({ max: 30 }).map(String)),
          fc.constantFrom("children", "CHILDREN"),
        )
        .filter(([, name, id]) => name !== undefined || id !== undefined)
        .map(
          ([l, name, id, select]) =>
            `levels/${l}/nodes${form(
              pairsOf([
                ["name", name],
                ["_id", id],
                ["select", select],
              ]),
            )}`,
        ),
      fc.integer({ min: 1, max: 5 }).map((l) => `levels/${l}/graph`),
    ),
  )
  .map(([name, rest]) => `/rest/applications/${name}/${rest}`);

// ---- the properties ----------------------------------------------------------------------------------------

describe("fuzzed requests", () => {
  let methods: string[] = [];
  beforeAll(() => {
    // Methods the Request constructor of workerd accepts (lower-case standard ones are normalized).
    methods = [
      "GET",
      "HEAD",
      "POST",
      "PUT",
      "DELETE",
      "PATCH",
      "OPTIONS",
      "PROPFIND",
      "MKCOL",
      "REPORT",
      "get",
      "head",
      "patch",
      "FOO",
    ].filter((method) => {
      try {
        new Request(BASE, { method });
        return true;
      } catch {
        return false;
      }
    });
    expect(methods).toEqual(expect.arrayContaining(["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]));
  });

  it("answer a documented status, JSON, the problem shape, and an outcome the rules allow", async () => {
    const method = fc.oneof(
      { weight: 10, arbitrary: fc.constantFrom("GET", "GET", "HEAD") },
      { weight: 3, arbitrary: fc.constantFrom(...methods) },
    );
    await fc.assert(
      fc.asyncProperty(
        method,
        fc.oneof(
          { weight: 3, arbitrary: fc.tuple(path, query).map(([p, q]) => p + q) },
          { weight: 1, arbitrary: wellFormed },
        ),
        fc.boolean(),
        async (m, target, preflight) => {
          const headers: Record<string, string> =
            m === "OPTIONS" && preflight
              ? { Origin: "https://example.test", "Access-Control-Request-Method": "GET" }
              : {};
          await exercise(m, BASE + target, headers);
        },
      ),
      { numRuns: 2500, interruptAfterTimeLimit: 25_000 },
    );
    // The generators reach every outcome, so the property above had something to check.
    for (const key of [
      "200",
      "204",
      "400 invalid_parameter",
      "400 unknown_parameter",
      "400 missing_parameter",
      "400 invalid_application_name",
      "400 unsupported_level",
      "404 application_not_found",
      "404 object_not_found",
      "404 route_not_found",
      "405 method_not_allowed",
    ])
      expect(seen.get(key) ?? 0, `${key} never happened: ${JSON.stringify([...seen])}`).toBeGreaterThan(0);
  });
});

// ---- explicit examples of docs/api.md#requests ---------------------------------------------------------------

describe("the examples of docs/api.md#requests, each with its exact code and parameter", () => {
  const A = `/rest/applications/${encodeURIComponent(APPS[1])}`;
  const P = `/rest/applications/${encodeURIComponent(APPS[0])}`;

  const ERRORS: [path: string, status: number, code: string, parameter: string | null | undefined][] = [
    [`${A}/objects?limit=0x10`, 400, "invalid_parameter", "limit"],
    [`${A}/objects?limit=+1e1+`, 400, "invalid_parameter", "limit"],
    [`${A}/objects?limit=%201e1%20`, 400, "invalid_parameter", "limit"],
    [`${A}/objects?limit=1e1`, 400, "invalid_parameter", "limit"],
    [`${A}/objects?limit=2.0`, 400, "invalid_parameter", "limit"],
    [`${A}/objects?limit=-1`, 400, "invalid_parameter", "limit"],
    [`${A}/objects?limit=%2B1`, 400, "invalid_parameter", "limit"],
    [`${A}/objects?limit=10001`, 400, "invalid_parameter", "limit"],
    [`${A}/objects?limit=0000000000000001`, 400, "invalid_parameter", "limit"],
    [`${A}/objects?limit=1&skip=9007199254740992`, 400, "invalid_parameter", "skip"],
    [`${A}/objects?limit=`, 400, "invalid_parameter", "limit"],
    [`${A}/objects?skip=1`, 400, "missing_parameter", "limit"],
    [`${A}/objects?limit=1&limit=1`, 400, "invalid_parameter", "limit"],
    [`${A}/objects?limit=1&searchtype=internal&searchtype=external`, 400, "invalid_parameter", "searchtype"],
    [`${A}/objects/302/start-end-points?hops=33`, 400, "invalid_parameter", "hops"],
    [`${A}/objects/302/start-end-points?hops=-1`, 400, "invalid_parameter", "hops"],
    [`${A}/objects/201/callees?includeEscalated=yes`, 400, "invalid_parameter", "includeEscalated"],
    [`${A}/objects/201/callees?includeEscalated=1`, 400, "invalid_parameter", "includeEscalated"],
    [`${A}/objects/201/callees?select=children`, 400, "invalid_parameter", "select"],
    [`${A}/objects?limit=1&operator=like`, 400, "invalid_parameter", "operator"],
    [`${A}/objects?limit=1&date=2026-13-01T00:00:00Z`, 400, "invalid_parameter", "date"],
    [`${A}/objects?limit=1&date=2026-02-30T00:00:00Z`, 400, "invalid_parameter", "date"],
    [`${A}/objects?limit=1&date=2026-09-01T12:00:00`, 400, "invalid_parameter", "date"],
    [`${A}/objects?limit=1&name=%E0%A4%A`, 400, "invalid_parameter", "name"],
    [`${A}/objects?limit=1&name=%C3%28`, 400, "invalid_parameter", "name"],
    [`${A}/objects?limit=1&name=${"v".repeat(1001)}`, 400, "invalid_parameter", "name"],
    [`${A}/objects?limit=1${"&name=a".repeat(51)}`, 400, "invalid_parameter", "name"],
    [`${A}/objects?limit=1&fullName=x`, 400, "unknown_parameter", "fullName"],
    [`${A}/objects?limit=1&%C3%BC=x`, 400, "unknown_parameter", "ü"],
    [`${A}/levels/2/graph?name=x`, 400, "unknown_parameter", "name"],
    // Names an object has by its prototype are no parameters either.
    [`${A}/levels/1/graph?toString=true`, 400, "unknown_parameter", "toString"],
    [`${A}/objects?limit=1&constructor=x`, 400, "unknown_parameter", "constructor"],
    [`${A}/levels/2/nodes?name=x`, 400, "missing_parameter", "select"],
    [`${A}/levels/0/graph`, 400, "unsupported_level", "level"],
    [`${A}/levels/6/graph`, 400, "unsupported_level", "level"],
    [`${A}/levels/1/nodes?name=s&select=children`, 400, "unsupported_level", "level"],
    [`${A}/levels/2.0/graph`, 400, "invalid_parameter", "level"],
    [`${A}/levels/-1/graph`, 400, "invalid_parameter", "level"],
    [`${A}/objects/0x10`, 400, "invalid_parameter", "id"],
    [`${A}/objects/-302`, 400, "invalid_parameter", "id"],
    [`${A}/objects/12345678901234567890`, 400, "invalid_parameter", "id"],
    [`${A}/objects/1234567890123456789`, 404, "object_not_found", undefined],
    [`${A}/objects/303`, 404, "object_not_found", undefined], // only in the older analysis
    ["/rest/applications/%E0%A4%A/objects?limit=1", 400, "invalid_application_name", undefined],
    ["/rest/applications/a%00b/objects?limit=1", 400, "invalid_application_name", undefined],
    ["/rest/applications/a%60b/objects?limit=1", 400, "invalid_application_name", undefined],
    [`/rest/applications/${"x".repeat(201)}/objects?limit=1`, 400, "invalid_application_name", undefined],
    [
      `/rest/applications/${encodeURIComponent("ü".repeat(201))}/objects?limit=1`,
      400,
      "invalid_application_name",
      undefined,
    ],
    [
      `/rest/applications/${encodeURIComponent("ü".repeat(200))}/objects?limit=1`,
      404,
      "application_not_found",
      undefined,
    ],
    [`/rest/applications/${"x".repeat(200)}/objects?limit=1`, 404, "application_not_found", undefined],
    ["/rest/applications/Fuzz/%20&%20+%20%C3%BC%20Store/objects?limit=1", 404, "route_not_found", null], // an unescaped / splits the name
    [`${A}/objects?limit=1&name=${"x".repeat(8200)}`, 400, "invalid_parameter", null], // longer than the 8 KiB URL limit
  ];

  for (const [path, status, code, parameter] of ERRORS)
    it(`GET ${path.length > 120 ? `${path.slice(0, 120)}…` : path}: ${status} ${code}${parameter ? ` (${parameter})` : ""}`, async () => {
      const response = await fetchWorker(new Request(BASE + path));
      const text = await response.text();
      expect(response.status, text).toBe(status);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      const body = JSON.parse(text) as Body;
      expect(body.code).toBe(code);
      expect(body.status).toBe(status);
      if (parameter) expect(body.parameter).toBe(parameter);
      if (parameter === null) expect(body).not.toHaveProperty("parameter");
      await exercise("GET", BASE + path);
    });

  it("names the closest known parameter, and lists the allowed values of an enumeration", async () => {
    const unknown = (await (await fetchWorker(new Request(`${BASE}${A}/objects?limit=1&fullName=x`))).json()) as Body;
    expect(unknown.detail).toContain("fullname");
    const operator = (await (
      await fetchWorker(new Request(`${BASE}${A}/objects?limit=1&operator=like`))
    ).json()) as Body;
    for (const allowedValue of ["contains", "equals", "startswith", "endswith"])
      expect(operator.detail).toContain(allowedValue);
  });

  // docs/analysis-format.md: an id is "1 to 19 decimal digits without a leading zero"; docs/api.md: a well-formed
  // id the application does not have is 404 object_not_found. No object has id "0302", whatever its numeric value.
  it("an id with a leading zero names no object: 404 object_not_found on every object route", async () => {
    for (const path of [
      `${A}/objects/0302`,
      `${A}/objects/0302/callees`,
      `${A}/objects/0302/start-end-points`,
      `${A}/objects/0000000000000000302`,
    ]) {
      const response = await fetchWorker(new Request(BASE + path));
      const text = await response.text();
      expect(`${response.status} ${(JSON.parse(text) as Body).code}`, `${path}: ${text}`).toBe("404 object_not_found");
    }
  });

  const OK: [path: string, check: (body: Body) => void][] = [
    [`${A}/objects?limit=0`, (b) => expect(b).toEqual({ totalObjects: NEWEST_COUNT, objects: [] })],
    [`${A}/objects?limit=10000`, (b) => expect((b.objects as unknown[]).length).toBe(NEWEST_COUNT)],
    [
      `${A}/objects?limit=1&skip=999999999999999`,
      (b) => expect(b).toEqual({ totalObjects: NEWEST_COUNT, objects: [] }),
    ],
    [`${A}/objects?limit=0&type=java+method`, (b) => expect(b).toEqual({ totalObjects: 7, objects: [] })],
    [`${A}/objects?limit=0&type=java%20method`, (b) => expect(b).toEqual({ totalObjects: 7, objects: [] })],
    [`${A}/objects?limit=0&type=java%2Bmethod`, (b) => expect(b).toEqual({ totalObjects: 0, objects: [] })],
    [
      `${A}/objects?limit=10&post-it=large+%26+old`,
      (b) => expect((b.objects as Body[]).map((o) => o.id)).toEqual(["302"]),
    ],
    [`${A}/objects?limit=0&operator=EQUALS&name=FINDBYID`, (b) => expect(b.totalObjects).toBe(1)],
    [`${A}/objects?limit=0&api-key=anything`, (b) => expect(b.totalObjects).toBe(NEWEST_COUNT)],
    [`${A}/objects?limit=0&date=2026-10-15T07%3A30%3A00Z`, (b) => expect(b.totalObjects).toBe(NEWEST_COUNT)],
    [
      `${A}/objects?limit=20&date=2020-01-01T00:00:00.5%2B02:00`,
      (b) => expect(b).toEqual({ totalObjects: 0, objects: [] }),
    ],
    [`${A}/objects?limit=1${"&name=o".repeat(50)}`, (b) => expect(b.totalObjects).toBeGreaterThan(0)],
    [`${A}/objects?limit=1&name=${"v".repeat(1000)}`, (b) => expect(b).toEqual({ totalObjects: 0, objects: [] })],
    [`${A}/objects/201/callees?includeEscalated=TRUE`, (b) => expect(Array.isArray(b)).toBe(true)],
    [`${A}/objects/302/start-end-points?hops=32`, (b) => expect(b).toHaveProperty("startPoints")],
    [`${A}/objects/302`, (b) => expect(b.id).toBe("302")],
    [`/rest/applications/Fuzz%2F%20&%20+%20%C3%BC%20Store/objects/302`, (b) => expect(b.id).toBe("302")],
    [`/rest/applications/Fuzz%2f%20%26%20%2b%20%c3%bc%20Store/objects/304`, (b) => expect(b.id).toBe("304")],
    [
      `${P}/levels/2/nodes?name=SERVICES&select=Children`,
      (b) => expect((b as unknown as Body[]).length).toBeGreaterThan(0),
    ],
  ];
  for (const [path, check] of OK)
    it(`GET ${path.length > 120 ? `${path.slice(0, 120)}…` : path}: 200`, async () => {
      const response = await fetchWorker(new Request(BASE + path));
      const text = await response.text();
      expect(response.status, text).toBe(200);
      check(JSON.parse(text) as Body);
      await exercise("GET", BASE + path);
    });
});
