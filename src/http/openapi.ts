// @module openApiDocument: the OpenAPI 3.1 description of the API, built from the route specifications and the zod schemas the routes validate with.
import { z } from "zod";
import { API_SCHEMAS, ApplicationListSchema } from "../contract/api-schemas.ts";
import type { ProblemBody } from "../contract/errors.ts";
import { ApiError, ERROR_TITLES, type ErrorCode } from "../contract/errors.ts";
import { CANONICAL_VALUES, MAX_VALUE_LENGTH, MAX_VALUES_PER_PARAMETER, type ParamSpec } from "../contract/params.ts";
import { MAX_LEVEL, ROUTE_SPECS, type RouteSpec } from "../contract/route-specs.ts";
import { parseParams } from "./params.ts";

/** The version of package.json (kept here by hand: the worker does not bundle package.json; a test compares them). */
export const API_VERSION = "0.1.0";

type Json = Record<string, unknown>;

/** Every named response schema: the operations' (api-schemas.ts) and the catalog's. */
const RESPONSE_SCHEMAS: Record<string, z.ZodType> = { ...API_SCHEMAS, ApplicationList: ApplicationListSchema };

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) of one zod schema, without `$schema`/`$id`. */
function jsonSchema(schema: z.ZodType, io: "input" | "output" = "output"): Json {
  const { $schema: _schema, $id: _id, [CANONICAL_VALUES]: canonical, ...rest } = z.toJSONSchema(schema, { io }) as Json;
  return canonical === undefined ? rest : { ...rest, examples: canonical };
}

/** The components of every named response schema; schemas nested in others become `$ref`s. */
function componentSchemas(): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(RESPONSE_SCHEMAS)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { uri: (id) => `#/components/schemas/${id}` }) as {
    schemas: Record<string, Json>;
  };
  return Object.fromEntries(Object.entries(schemas).map(([id, { $schema: _schema, $id: _id, ...rest }]) => [id, rest]));
}

/** The name under which `schema` is a component. */
function componentName(schema: z.ZodType): string {
  const entry = Object.entries(RESPONSE_SCHEMAS).find(([, s]) => s === schema);
  if (!entry) throw new Error("a route's response schema must be one of RESPONSE_SCHEMAS");
  return entry[0];
}

/** A query parameter: the wire form of its value (strings: integers by pattern, enumerations case-insensitive), repeatable as an exploded array. */
function queryParameter(name: string, spec: ParamSpec): Json {
  const { description: valueDescription, ...value } = jsonSchema(spec.schema, "input");
  if (value.type === "string" && value.pattern === undefined && value.enum === undefined && value.format === undefined)
    value.maxLength = MAX_VALUE_LENGTH;
  if (spec.default !== undefined) value.default = spec.default;
  const description = [
    spec.description,
    valueDescription,
    spec.repeatable ? `Repeatable (at most ${MAX_VALUES_PER_PARAMETER} values): values combine with OR.` : undefined,
  ]
    .filter(Boolean)
    .join(" ");
  const parameter: Json = { name, in: "query", description, required: spec.required === true };
  if (spec.repeatable)
    Object.assign(parameter, {
      schema: { type: "array", items: value, maxItems: MAX_VALUES_PER_PARAMETER },
      style: "form",
      explode: true,
    });
  else parameter.schema = value;
  return parameter;
}

function pathParameters(spec: RouteSpec): Json[] {
  const names = Array.from(spec.path.matchAll(/\{([^}]+)\}/g), (m) => m[1]);
  return names.map((name) => {
    const param = spec.pathParams[name];
    if (!param) throw new Error(`${spec.path}: no specification of path parameter ${name}`);
    return {
      name,
      in: "path",
      required: true,
      description: param.description,
      schema: jsonSchema(param.schema, "input"),
    };
  });
}

/** The body `run` fails with, when it throws an ApiError. */
function thrown(run: () => unknown): ProblemBody | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error.toBody();
  }
  return undefined;
}

/** An example body of `code` on the route of `spec`: parameter errors are what the route's own specs answer. */
function problemExample(spec: RouteSpec, code: ErrorCode): ProblemBody {
  const names = Object.keys(spec.query);
  const real: Partial<Record<ErrorCode, () => ProblemBody | undefined>> = {
    missing_parameter: () => thrown(() => parseParams([], spec.query)),
    unknown_parameter: () =>
      thrown(() => parseParams([[names.includes("fullname") ? "fullName" : "filter", "x"]], spec.query)),
    invalid_parameter: () => {
      for (const name of names) {
        const body = thrown(() => parseParams([[name, "ten"]], { [name]: spec.query[name] }));
        if (body) return body;
      }
      return undefined;
    },
  };
  const found = real[code]?.();
  if (found) return found;
  const [status, title] = ERROR_TITLES[code];
  const level = spec.minLevel ?? 1;
  const details: Partial<Record<ErrorCode, [string, string?]>> = {
    invalid_parameter: spec.pathParams.id
      ? ['id must be an object id of 1 to 19 decimal digits, got "abc"', "id"]
      : spec.pathParams.level
        ? [`level must be an integer from ${level} to ${MAX_LEVEL}, got "x"`, "level"]
        : ["the request URL is 9000 characters long; at most 8192 are accepted"],
    invalid_application_name: ["the application name must not contain a back-quote", "name"],
    unsupported_level: [`level 6 is not supported here: use a level from ${level} to ${MAX_LEVEL}`, "level"],
    unauthorized: ["an API key is required: send it in the X-API-KEY header or the api-key parameter"],
    forbidden: ['this API key may not read application "Pet Store & Co"'],
    application_not_found: ['no analysis of application "Pet Store & Co" is published'],
    object_not_found: ['application "Pet Store & Co" has no object with id 999', "id"],
    rate_limited: ["too many requests from this API key or client; try again in at most 60 s"],
    source_service_unavailable: [
      "select=source-locations needs the source code service, which is disabled or not configured on this server",
      "select",
    ],
    corrupt_snapshot: ["the published snapshot cannot be read: section OBJC fails its checksum"],
    internal_error: ["the server failed to answer this request"],
    storage_unavailable: ["the snapshot storage could not be read; try again shortly"],
  };
  const [detail, parameter] = details[code] ?? [title];
  return { status, title, code, detail, ...(parameter ? { parameter } : {}) };
}

/** One response per status, its codes listed, each with an example body. */
function errorResponses(spec: RouteSpec): Record<string, Json> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of spec.errors) {
    const status = ERROR_TITLES[code][0];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, Json> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const response: Json = {
      description: list.map((code) => `\`${code}\`: ${ERROR_TITLES[code][1]}.`).join(" "),
      content: {
        "application/json": {
          schema: ref("Problem"),
          examples: Object.fromEntries(
            list.map((code) => [code, { summary: ERROR_TITLES[code][1], value: problemExample(spec, code) }]),
          ),
        },
      },
    };
    if (status === 429)
      response.headers = {
        "Retry-After": { description: "Seconds to wait before trying again.", schema: { type: "integer", minimum: 0 } },
      };
    responses[String(status)] = response;
  }
  return responses;
}

/** Headers of cacheable answers (src/http/caching.ts). */
const CACHE_HEADERS: Json = {
  ETag: {
    description:
      "Derived from the application's published versions and the request; changes when a version is published.",
    schema: { type: "string" },
  },
  "Cache-Control": {
    description: "`public, no-cache`: caches may keep the answer but must revalidate it.",
    schema: { type: "string" },
  },
};

function operation(spec: RouteSpec): Json {
  const op: Json = {
    operationId: spec.operationId,
    summary: spec.summary,
    description: spec.description,
    tags: [spec.tag],
    parameters: [
      ...pathParameters(spec),
      ...Object.entries(spec.query).map(([name, param]) => queryParameter(name, param)),
    ],
    responses: {
      "200": {
        description: `${spec.summary}.`,
        ...(spec.secured ? { headers: CACHE_HEADERS } : {}),
        content: { "application/json": { schema: ref(componentName(spec.response)) } },
      },
      ...(spec.secured
        ? { "304": { description: "Not modified: If-None-Match named the current ETag.", headers: CACHE_HEADERS } }
        : {}),
      ...errorResponses(spec),
    },
  };
  if (!spec.secured) op.security = [];
  return op;
}

const DESCRIPTION = `Read-only queries on the structure of an analyzed application: objects, their callees, start and end points, taxonomy levels and their graphs.

Every operation is a GET (HEAD answers the same headers without a body). Any other method on a known path answers 405 \`method_not_allowed\` with \`Allow: GET, HEAD\`; a path that is no route answers 404 \`route_not_found\`. Every error body is JSON shaped after RFC 9457 (see the Problem schema).

Query strings follow application/x-www-form-urlencoded rules: \`+\` is a space, \`%2B\` is \`+\`, \`%26\` is \`&\`. A parameter a route does not know answers 400 \`unknown_parameter\`; a parameter that is not repeatable given twice answers 400 \`invalid_parameter\`. Integers are decimal digits only. Text matching is case-insensitive, and so are enumerated values.

When API keys are configured on the server, each request under /rest/applications carries one in the \`X-API-KEY\` header, the \`api-key\` query parameter or an \`Authorization: Bearer\` header; without keys configured every request is allowed.`;

/** The OpenAPI 3.1 document of the API. */
export function openApiDocument(): Json {
  const paths: Record<string, Json> = {};
  for (const spec of ROUTE_SPECS)
    paths[spec.path] = { ...paths[spec.path], [spec.method.toLowerCase()]: operation(spec) };
  return {
    openapi: "3.1.0",
    info: {
      title: "appstruct",
      version: API_VERSION,
      description: DESCRIPTION,
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [{ url: "/", description: "This server" }],
    tags: [
      { name: "Applications", description: "The applications published on this server and their versions." },
      {
        name: "Objects",
        description:
          "Objects of the application: search, characteristics, callees and callers, start and end points, call hierarchies and paths.",
      },
      {
        name: "Transactions",
        description: "Transactions (what runs from a start point) and data graphs (what reaches an end point).",
      },
      { name: "Levels", description: "Taxonomy levels: nodes with their children, and level graphs." },
      { name: "History", description: "What changed between two analyses of the application." },
      { name: "Source", description: "The analysed source code, through the source code service." },
      { name: "Service", description: "The service itself." },
    ],
    security: [{ ApiKeyHeader: [] }, { ApiKeyQuery: [] }, { BearerAuth: [] }, {}],
    paths,
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        ApiKeyHeader: {
          type: "apiKey",
          in: "header",
          name: "X-API-KEY",
          description: "An API key (CAST's header). Needed only when keys are configured.",
        },
        ApiKeyQuery: {
          type: "apiKey",
          in: "query",
          name: "api-key",
          description:
            "An API key as a query parameter, accepted by every route. Needed only when keys are configured.",
        },
        BearerAuth: {
          type: "http",
          scheme: "bearer",
          description: "An API key as a bearer token. Needed only when keys are configured.",
        },
      },
    },
  };
}
