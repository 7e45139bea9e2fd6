// @module Route specifications: path, parameters, response schema and error codes of every operation; the routes validate with them and openapi.ts describes them.
import { z } from "zod";
import { parseRfc3339, RFC3339_EXPECTED } from "../rules.ts";
import {
  ApplicationListSchema,
  CalleeListSchema,
  CallerListSchema,
  CallHierarchySchema,
  ChangesSchema,
  CharacteristicsSchema,
  DataGraphListSchema,
  FileTextSchema,
  FindObjectsResultSchema,
  FlowGraphSchema,
  LevelGraphSchema,
  LevelNodeListSchema,
  PathsSchema,
  PointsResultSchema,
  ReadySchema,
  TransactionListSchema,
} from "./api-schemas.ts";
import type { ErrorCode } from "./errors.ts";
import { boolean, INTEGER_PATTERN, integer, OPERATORS, oneOf, type ParamSpecs, SEARCH_TYPES, text } from "./params.ts";

/** A path parameter: its wire schema (what OpenAPI shows) and what it means. */
export interface PathParamSpec {
  schema: z.ZodType;
  description: string;
}

export interface RouteSpec<Q extends ParamSpecs = ParamSpecs> {
  operationId: string;
  summary: string;
  description: string;
  tag: "Applications" | "Objects" | "Transactions" | "Levels" | "History" | "Source" | "Service";
  method: "GET";
  /** OpenAPI path template, e.g. /rest/applications/{name}/objects. */
  path: string;
  /** Path parameters, in the order of the template. */
  pathParams: Record<string, PathParamSpec>;
  /** Query parameters (`api-key` is always allowed besides them). /rest/ready ignores its query. */
  query: Q;
  /** The 200 body. */
  response: z.ZodType;
  /** Every error code the route can answer to a GET (route_not_found and method_not_allowed are the router's). */
  errors: readonly ErrorCode[];
  /** Whether API keys apply (docs/api.md#access-api-keys). */
  secured: boolean;
  /** Routes with a {level}: the lowest level served (the highest is MAX_LEVEL). */
  minLevel?: number;
}

const route = <const Q extends ParamSpecs>(spec: RouteSpec<Q>): RouteSpec<Q> => spec;

/** The Hono path of an OpenAPI template: /a/{name}/b → /a/:name/b. */
export const honoPath = (spec: RouteSpec): string => spec.path.replace(/\{([^}]+)\}/g, ":$1");

/** A permanent object ID in a path: 1 to 19 decimal digits. */
export const OBJECT_ID_PATTERN = /^[0-9]{1,19}$/;
/** A level in a path: an integer's digits; its range depends on the route. */
export const LEVEL_PATTERN = INTEGER_PATTERN;
export const MAX_LEVEL = 5;
/** Minimum level of each level route: nodes exist from level 2, graphs from level 1 (docs/api.md "Level nodes", "Level graph"). */
export const MIN_LEVEL = { nodes: 2, graph: 1 } as const;

const applicationName: PathParamSpec = {
  schema: z.string().min(1),
  description:
    "Name of the analyzed application, percent-encoded (a `/` inside a name is written %2F). 1 to 200 characters after decoding; a back-quote or a control character is not allowed. (Publishing also bounds a name to 600 bytes of UTF-8: a longer one is never found.)",
};
const objectId: PathParamSpec = {
  schema: z.string().regex(OBJECT_ID_PATTERN),
  description: "Permanent object ID: 1 to 19 decimal digits.",
};
const levelParam = (min: number): PathParamSpec => ({
  schema: z.string().regex(LEVEL_PATTERN),
  description: `Taxonomy level: an integer from ${min} to ${MAX_LEVEL} (decimal digits). A well-formed level outside that range answers 400 unsupported_level.`,
});

const date = z
  .string()
  .transform((v, ctx) => {
    const ms = parseRfc3339(v);
    if (ms === null) {
      // A literal + in a query string decodes to a space (docs/api.md#requests): say how to send a positive offset.
      const plus = / \d{2}:\d{2}$/.test(v) ? " (a + in a query means a space: write the offset as %2B02:00)" : "";
      ctx.addIssue({
        code: "custom",
        message: `must be ${RFC3339_EXPECTED}${plus}`,
      });
    }
    return ms ?? 0;
  })
  .meta({
    format: "date-time",
    description: "An RFC 3339 date-time with a zone (Z or ±hh:mm; write + as %2B), fractional seconds allowed.",
  });

/** `date` on every route of an application but find objects: no analysis then is a 404. */
const analysisDate = {
  schema: date,
  description:
    "Read the newest analysis at or before this date-time (none: 404 no_analysis_at_date); statuses are relative to the analysis before it. Default: the newest.",
};

const sourceLocationsSelect = oneOf(["source-locations"] as const);

/** Every route under /rest/applications/{name}: these reach the access check, the name check, the catalog and the snapshot. */
const APPLICATION_ERRORS = [
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
] as const satisfies readonly ErrorCode[];

/** Every application route that reads one selected analysis (all but find objects, which answers no objects instead). */
const ANALYSIS_ERRORS = [...APPLICATION_ERRORS, "no_analysis_at_date"] as const satisfies readonly ErrorCode[];

const READY = route({
  operationId: "ready",
  summary: "Readiness",
  description: "Answers `true` when the service is up. Takes no parameters and no API key.",
  tag: "Service",
  method: "GET",
  path: "/rest/ready",
  pathParams: {},
  query: {},
  response: ReadySchema,
  errors: ["invalid_parameter", "internal_error"],
  secured: false,
});

export const APPLICATIONS = route({
  operationId: "listApplications",
  summary: "Applications",
  description:
    "The applications this API key may read (all of them without configured keys), sorted by name, each with its published versions, oldest first. A version's `analyzedAt` is the `date` that makes find objects read it.",
  tag: "Applications",
  method: "GET",
  path: "/rest/applications",
  pathParams: {},
  query: {},
  response: ApplicationListSchema,
  errors: [
    "invalid_parameter",
    "unknown_parameter",
    "unauthorized",
    "rate_limited",
    "corrupt_snapshot",
    "internal_error",
    "storage_unavailable",
  ],
  secured: true,
});

export const FIND_OBJECTS = route({
  operationId: "findObjects",
  summary: "Find objects",
  description:
    "Objects of the application matching every filter, sorted by name. Values of one repeatable parameter combine with OR, different parameters with AND. `totalObjects` counts every match, ignoring limit and skip.",
  tag: "Objects",
  method: "GET",
  path: "/rest/applications/{name}/objects",
  pathParams: { name: applicationName },
  query: {
    limit: {
      schema: integer(0, 10000),
      required: true,
      description: "Maximum number of objects returned; 0 returns only totalObjects.",
    },
    skip: {
      schema: integer(0, Number.MAX_SAFE_INTEGER),
      default: "0",
      description: "Number of matching objects skipped before counting toward limit.",
    },
    name: { schema: text, repeatable: true, description: "Object name (substring by default, see operator)." },
    fullname: { schema: text, repeatable: true, description: "Object full name (see operator)." },
    filepath: { schema: text, description: "Object file path (see operator)." },
    mangling: { schema: text, repeatable: true, description: "Object mangling (see operator)." },
    annotation: { schema: text, repeatable: true, description: "An annotation of the object (see operator)." },
    tag: { schema: text, repeatable: true, description: "Substring of a tag of the object (always contains)." },
    type: {
      schema: text,
      repeatable: true,
      description: "Object type, its display name (see operator); spaces encoded, for example with +.",
    },
    "post-it": {
      schema: text,
      repeatable: true,
      description: "Substring of the title of a post-it attached to the object (always contains).",
    },
    operator: {
      schema: oneOf(OPERATORS),
      default: "contains",
      description:
        "Matching strategy for name, fullname, type, filepath, mangling and annotation; one operator for all of them.",
    },
    searchtype: {
      schema: oneOf(SEARCH_TYPES),
      default: "all",
      description: "Provenance: all, internal (defined within the application) or external.",
    },
    select: {
      schema: sourceLocationsSelect,
      description:
        "source-locations adds sourceLocations to each object (needs the source code service, else 500 source_service_unavailable).",
    },
    date: {
      schema: date,
      description:
        "Objects as they existed at that point in history: the newest analysis at or before it (none: no objects).",
    },
  },
  response: FindObjectsResultSchema,
  errors: [...APPLICATION_ERRORS, "missing_parameter", "source_service_unavailable"],
  secured: true,
});

export const CHARACTERISTICS = route({
  operationId: "objectCharacteristics",
  summary: "Object characteristics",
  description: "One object with its status relative to the previous analysis, its programming language and its parent.",
  tag: "Objects",
  method: "GET",
  path: "/rest/applications/{name}/objects/{id}",
  pathParams: { name: applicationName, id: objectId },
  query: {
    select: {
      schema: sourceLocationsSelect,
      description:
        "source-locations adds sourceLocations when the object has some (needs the source code service, else 500 source_service_unavailable).",
    },
    date: analysisDate,
  },
  response: CharacteristicsSchema,
  errors: [...ANALYSIS_ERRORS, "object_not_found", "source_service_unavailable"],
  secured: true,
});

export const CALLEES = route({
  operationId: "objectCallees",
  summary: "Object direct callees",
  description: "The direct callees of one object, one element per (callee, linkType), sorted by name then linkType.",
  tag: "Objects",
  method: "GET",
  path: "/rest/applications/{name}/objects/{id}/callees",
  pathParams: { name: applicationName, id: objectId },
  query: {
    select: {
      schema: oneOf(["parent", "source-locations"] as const),
      repeatable: true,
      description:
        "parent adds the parent type and type key of each callee; source-locations adds sourceLocations (needs the source code service).",
    },
    includeEscalated: {
      schema: boolean,
      default: "false",
      description:
        "false: only callees with direct links alone. true: also callees having both direct and escalated links with the object.",
    },
    date: analysisDate,
  },
  response: CalleeListSchema,
  errors: [...ANALYSIS_ERRORS, "object_not_found", "source_service_unavailable"],
  secured: true,
});

export const START_END_POINTS = route({
  operationId: "objectStartEndPoints",
  summary: "Object start and end points",
  description:
    "Start points reaching the object and end points it reaches within `hops` links (every link type counts; an object that is itself a point is listed).",
  tag: "Objects",
  method: "GET",
  path: "/rest/applications/{name}/objects/{id}/start-end-points",
  pathParams: { name: applicationName, id: objectId },
  query: {
    hops: { schema: integer(0, 32), default: "1", description: "Number of hops traversed." },
    date: analysisDate,
  },
  response: PointsResultSchema,
  errors: [...ANALYSIS_ERRORS, "object_not_found"],
  secured: true,
});

export const CALLERS = route({
  operationId: "objectCallers",
  summary: "Object direct callers",
  description:
    "The direct callers of one object, one element per (caller, linkType), sorted by name then linkType: the mirror of callees.",
  tag: "Objects",
  method: "GET",
  path: "/rest/applications/{name}/objects/{id}/callers",
  pathParams: { name: applicationName, id: objectId },
  query: {
    select: {
      schema: oneOf(["parent", "source-locations"] as const),
      repeatable: true,
      description:
        "parent adds the parent type and type key of each caller; source-locations adds sourceLocations (needs the source code service).",
    },
    includeEscalated: {
      schema: boolean,
      default: "false",
      description:
        "false: only callers with direct links alone. true: also callers having both direct and escalated links to the object.",
    },
    date: analysisDate,
  },
  response: CallerListSchema,
  errors: [...ANALYSIS_ERRORS, "object_not_found", "source_service_unavailable"],
  secured: true,
});

/** Directions of a call hierarchy. */
const DIRECTIONS = ["callees", "callers", "both"] as const;

const linkTypeFilter = {
  schema: text,
  repeatable: true as const,
  description: "Follow only links of this type (exact link type identifier). Default: every type.",
};

export const CALL_HIERARCHY = route({
  operationId: "objectCallHierarchy",
  summary: "Call hierarchy",
  description:
    "The objects within `hops` links of one object, following links that are not escalated forward (callees), backward (callers) or both, with the links between them. Nodes sorted by depth then name; at most `limit`.",
  tag: "Objects",
  method: "GET",
  path: "/rest/applications/{name}/objects/{id}/call-hierarchy",
  pathParams: { name: applicationName, id: objectId },
  query: {
    direction: {
      schema: oneOf(DIRECTIONS),
      required: true,
      description: "callees follows links forward, callers backward, both does each and takes the union.",
    },
    hops: { schema: integer(1, 32), default: "3", description: "Largest depth listed." },
    linkType: linkTypeFilter,
    limit: {
      schema: integer(1, 10000),
      default: "1000",
      description: "Most nodes listed; past it the first in node order are kept and truncated is true.",
    },
    date: analysisDate,
  },
  response: CallHierarchySchema,
  errors: [...ANALYSIS_ERRORS, "missing_parameter", "object_not_found"],
  secured: true,
});

export const PATHS = route({
  operationId: "objectPaths",
  summary: "Paths between two objects",
  description:
    "The shortest paths from one object to `to` along links that are not escalated, if the shortest is at most `hops` links long, sorted step by step by name.",
  tag: "Objects",
  method: "GET",
  path: "/rest/applications/{name}/objects/{id}/paths",
  pathParams: { name: applicationName, id: objectId },
  query: {
    to: {
      schema: z.string().regex(OBJECT_ID_PATTERN, { error: "must be an object id of 1 to 19 decimal digits" }),
      required: true,
      description: "The id of the object the paths end at.",
    },
    hops: { schema: integer(1, 32), default: "8", description: "Longest path listed, in links." },
    limit: { schema: integer(1, 100), default: "10", description: "Most paths listed." },
    date: analysisDate,
  },
  response: PathsSchema,
  errors: [...ANALYSIS_ERRORS, "missing_parameter", "object_not_found"],
  secured: true,
});

const flowListQuery = (point: string) => ({
  name: { schema: text, description: `Substring of the ${point}'s name, case-insensitive.` },
  limit: {
    schema: integer(0, 10000),
    required: true as const,
    description: "Maximum number listed; 0 returns only the total.",
  },
  skip: {
    schema: integer(0, Number.MAX_SAFE_INTEGER),
    default: "0",
    description: "Number skipped before counting toward limit.",
  },
  date: analysisDate,
});

const flowGraphQuery = {
  limit: {
    schema: integer(1, 10000),
    default: "1000",
    description: "Most nodes listed; past it the first in node order are kept and truncated is true.",
  },
  date: analysisDate,
};

export const TRANSACTIONS = route({
  operationId: "listTransactions",
  summary: "Transactions",
  description:
    "The transactions of the application: one per start point, named and identified by it, sorted by name. `totalTransactions` counts every match, ignoring limit and skip.",
  tag: "Transactions",
  method: "GET",
  path: "/rest/applications/{name}/transactions",
  pathParams: { name: applicationName },
  query: flowListQuery("start point"),
  response: TransactionListSchema,
  errors: [...ANALYSIS_ERRORS, "missing_parameter"],
  secured: true,
});

export const TRANSACTION_GRAPH = route({
  operationId: "transactionGraph",
  summary: "Transaction graph",
  description:
    "What runs from one start point: breadth-first along links that are not escalated, forward, not past an end point. Nodes sorted by depth then name; at most `limit`.",
  tag: "Transactions",
  method: "GET",
  path: "/rest/applications/{name}/transactions/{id}/graph",
  pathParams: {
    name: applicationName,
    id: { ...objectId, description: "The transaction's id: its start point's object id." },
  },
  query: flowGraphQuery,
  response: FlowGraphSchema,
  errors: [...ANALYSIS_ERRORS, "transaction_not_found"],
  secured: true,
});

export const DATA_GRAPHS = route({
  operationId: "listDataGraphs",
  summary: "Data graphs",
  description:
    "The data graphs of the application: one per end point, named and identified by it, sorted by name. `totalDataGraphs` counts every match, ignoring limit and skip.",
  tag: "Transactions",
  method: "GET",
  path: "/rest/applications/{name}/data-graphs",
  pathParams: { name: applicationName },
  query: flowListQuery("end point"),
  response: DataGraphListSchema,
  errors: [...ANALYSIS_ERRORS, "missing_parameter"],
  secured: true,
});

export const DATA_GRAPH = route({
  operationId: "dataGraph",
  summary: "Data graph",
  description:
    "What reaches one end point: breadth-first along links that are not escalated, backward, not past a start point. Nodes sorted by depth then name; at most `limit`.",
  tag: "Transactions",
  method: "GET",
  path: "/rest/applications/{name}/data-graphs/{id}/graph",
  pathParams: {
    name: applicationName,
    id: { ...objectId, description: "The data graph's id: its end point's object id." },
  },
  query: flowGraphQuery,
  response: FlowGraphSchema,
  errors: [...ANALYSIS_ERRORS, "data_graph_not_found"],
  secured: true,
});

export const LEVEL_NODES = route({
  operationId: "levelNodes",
  summary: "Level nodes",
  description:
    "Nodes of a level (2 to 5) matching a name and/or a volatile `_id`, with the children of the next level (for level 5: objects with permanent IDs). One of name and _id is required; no match answers `[]`.",
  tag: "Levels",
  method: "GET",
  path: "/rest/applications/{name}/levels/{level}/nodes",
  pathParams: { name: applicationName, level: levelParam(MIN_LEVEL.nodes) },
  query: {
    name: { schema: text, description: "Substring of the node name, case-insensitive. Required if _id is absent." },
    _id: {
      schema: integer(0, Number.MAX_SAFE_INTEGER),
      description: "Volatile local ID of a node in the level graph. Required if name is absent.",
    },
    select: { schema: oneOf(["children"] as const), required: true, description: "Must be children." },
    date: analysisDate,
  },
  response: LevelNodeListSchema,
  errors: [...ANALYSIS_ERRORS, "missing_parameter", "unsupported_level"],
  secured: true,
  minLevel: MIN_LEVEL.nodes,
});

export const LEVEL_GRAPH = route({
  operationId: "levelGraph",
  summary: "Level graph",
  description:
    "All nodes of a taxonomy level (1 to 5) with their object counts, and the links between them. Nodes sorted by name; links by origin name, then target name.",
  tag: "Levels",
  method: "GET",
  path: "/rest/applications/{name}/levels/{level}/graph",
  pathParams: { name: applicationName, level: levelParam(MIN_LEVEL.graph) },
  query: { date: analysisDate },
  response: LevelGraphSchema,
  errors: [...ANALYSIS_ERRORS, "unsupported_level"],
  secured: true,
  minLevel: MIN_LEVEL.graph,
});

/** A source file ID in a path: a possibly negative integer of 1 to 19 digits. */
export const FILE_ID_PATTERN = /^-?[0-9]{1,19}$/;
const fileId: PathParamSpec = {
  schema: z.string().regex(FILE_ID_PATTERN),
  description: "Source file ID, as in sourceLocations: a possibly negative integer of 1 to 19 digits.",
};
/** The largest line number a file may have (a u32 in the snapshot). */
const MAX_LINE = 0xffffffff;

export const CHANGES = route({
  operationId: "changes",
  summary: "Changes between two analyses",
  description:
    "The objects added, deleted and modified (checksums differ) between two analyses of the application, compared by id, sorted by name. Without `from` and `to`: the newest analysis against the one before it.",
  tag: "History",
  method: "GET",
  path: "/rest/applications/{name}/changes",
  pathParams: { name: applicationName },
  query: {
    from: {
      schema: date,
      description:
        "The older analysis: the newest at or before this date. Default: the analysis just before the one `to` selects.",
    },
    to: { schema: date, description: "The newer analysis: the newest at or before this date. Default: the newest." },
    status: {
      schema: oneOf(["added", "deleted", "modified"] as const),
      repeatable: true,
      description: "Only objects of these statuses (default all three); totals count all three whatever it says.",
    },
    limit: {
      schema: integer(0, 10000),
      required: true,
      description: "Maximum number of objects returned; 0 returns only the totals.",
    },
    skip: {
      schema: integer(0, Number.MAX_SAFE_INTEGER),
      default: "0",
      description: "Number of changed objects skipped before counting toward limit.",
    },
  },
  response: ChangesSchema,
  errors: [...APPLICATION_ERRORS, "missing_parameter", "no_analysis_at_date"],
  secured: true,
});

export const SOURCE_FILE = route({
  operationId: "sourceFile",
  summary: "Source code",
  description:
    "Lines of one source file of the analysis, through the source code service. Default: the whole file; a range past the end is cut to the file.",
  tag: "Source",
  method: "GET",
  path: "/rest/applications/{name}/files/{fileId}",
  pathParams: { name: applicationName, fileId },
  query: {
    startLine: {
      schema: integer(1, MAX_LINE),
      description: "First line, 1-based (default 1). Past the file's end: no line (text is empty).",
    },
    endLine: {
      schema: integer(1, MAX_LINE),
      description:
        "Last line, inclusive (default the file's last); not below startLine. Past the end: cut to the file.",
    },
    date: {
      schema: date,
      description: "The file as the newest analysis at or before this date had it (none: 404 no_analysis_at_date).",
    },
  },
  response: FileTextSchema,
  errors: [...APPLICATION_ERRORS, "no_analysis_at_date", "file_not_found", "source_service_unavailable"],
  secured: true,
});

/** Every operation, in the order of docs/api.md (the catalog first, readiness last). */
export const ROUTE_SPECS: readonly RouteSpec[] = [
  APPLICATIONS,
  FIND_OBJECTS,
  CHARACTERISTICS,
  CALLEES,
  CALLERS,
  START_END_POINTS,
  CALL_HIERARCHY,
  PATHS,
  TRANSACTIONS,
  TRANSACTION_GRAPH,
  DATA_GRAPHS,
  DATA_GRAPH,
  LEVEL_NODES,
  LEVEL_GRAPH,
  CHANGES,
  SOURCE_FILE,
  READY,
];
