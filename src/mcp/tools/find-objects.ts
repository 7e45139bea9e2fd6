// @module Tool find_objects: GET /objects with the filters of the REST route, pages of 50 by default and at most MAX_TOOL_LIMIT, and the skip of the next page.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { type ApiFindObjectsResult, FindObjectsResultSchema } from "../../contract/api-schemas.ts";
import { ApiError } from "../../contract/errors.ts";
import type { ParamSpec } from "../../contract/params.ts";
import { OPERATORS, SEARCH_TYPES } from "../../contract/params.ts";
import { FIND_OBJECTS } from "../../contract/route-specs.ts";
import { applicationPath, type RestCall } from "../rest-call.ts";
import { count, fromRest, toolProblem } from "../tool-result.ts";
import { application, READ_ONLY } from "./arguments.ts";

/**
 * Objects one call returns at most (REST allows 10000): a page of objects is some 300 bytes each, so
 * a full page stays well within MAX_TOOL_ANSWER_BYTES, and an agent pages through more with skip.
 */
export const MAX_TOOL_LIMIT = 1000;

/** The REST filter parameters; each becomes a field of the same name (`post-it` → `post_it`). */
const FILTERS = ["name", "fullname", "filepath", "mangling", "annotation", "tag", "type", "post-it"] as const;

type FilterParameter = (typeof FILTERS)[number];
type FilterField = FilterParameter extends infer P ? (P extends `${infer A}-${infer B}` ? `${A}_${B}` : P) : never;

const fieldOf = (parameter: FilterParameter) => parameter.replace("-", "_") as FilterField;

/** A repeatable REST parameter takes one value or several (OR); the others one value, as in REST. */
const filterFields = Object.fromEntries(
  FILTERS.map((parameter) => {
    const spec: ParamSpec = FIND_OBJECTS.query[parameter];
    const field: z.ZodType<string | string[]> = spec.repeatable
      ? z.union([z.string(), z.array(z.string())])
      : z.string();
    return [
      fieldOf(parameter),
      field
        .optional()
        .describe(`${spec.description}${spec.repeatable ? " One value, or several (any of them matches)." : ""}`),
    ];
  }),
) as Record<FilterField, z.ZodOptional<z.ZodType<string | string[]>>>;

export const FindObjectsInput = z
  .object({
    application,
    ...filterFields,
    operator: z.enum(OPERATORS).optional().describe(`${FIND_OBJECTS.query.operator.description} Default contains.`),
    searchtype: z.enum(SEARCH_TYPES).optional().describe(`${FIND_OBJECTS.query.searchtype.description} Default all.`),
    limit: z
      .number()
      .int()
      .default(50)
      .describe(
        `Objects per page, 0 to ${MAX_TOOL_LIMIT} (default 50); 0 returns only totalObjects. For more, page with skip.`,
      ),
    skip: z
      .number()
      .int()
      .optional()
      .describe("Matches skipped before this page (default 0): pass the nextSkip of the previous answer."),
    date: z
      .string()
      .optional()
      .describe(FIND_OBJECTS.query.date.description ?? ""),
    withSourceLocations: z
      .boolean()
      .optional()
      .describe("true adds sourceLocations to each object where the source code service has them."),
  })
  .strict();

export const FindObjectsOutput = FindObjectsResultSchema.extend({
  nextSkip: z
    .number()
    .int()
    .optional()
    .describe("Present when more matches follow this page: the skip of the next page."),
});

const FIND_OBJECTS_TOOL = {
  title: "Find objects",
  description:
    "Finds objects (classes, methods, tables, pages…) of an application by name, full name, file path, type, tag, annotation, mangling or post-it, sorted by name. " +
    "Use it first to turn names into permanent object ids, then navigate by id with get_object, list_callees and get_start_end_points. " +
    "Several values of one filter: any matches; different filters: all must match. totalObjects counts every match; one page of at most limit objects (default 50, at most " +
    `${MAX_TOOL_LIMIT}) comes back, and nextSkip, when present, is the skip of the next page. date answers as of an earlier analysis.`,
  inputSchema: FindObjectsInput,
  outputSchema: FindObjectsOutput,
  annotations: READ_ONLY,
};

export function registerFindObjects(server: McpServer, rest: RestCall): void {
  server.registerTool("find_objects", FIND_OBJECTS_TOOL, async (args) => {
    if (args.limit > MAX_TOOL_LIMIT)
      return toolProblem(
        new ApiError(
          "invalid_parameter",
          `limit is ${args.limit}; one call returns at most ${MAX_TOOL_LIMIT} objects: page with skip, passing the nextSkip of each answer`,
          { parameter: "limit" },
        ).toBody(),
      );
    const query: Record<string, string | number | readonly string[] | undefined> = {
      limit: args.limit,
      skip: args.skip,
      operator: args.operator,
      searchtype: args.searchtype,
      date: args.date,
    };
    for (const parameter of FILTERS) query[parameter] = args[fieldOf(parameter)];
    if (args.withSourceLocations) query.select = "source-locations";
    const answer = await rest(applicationPath(args.application, "/objects"), query, {
      parameter: "limit",
      advice: "ask for a smaller limit and page with skip (nextSkip), or narrow the filters",
    });
    return fromRest<ApiFindObjectsResult>(answer, (body) => {
      const skip = args.skip ?? 0;
      const end = skip + body.objects.length;
      const more = body.objects.length > 0 && end < body.totalObjects;
      const page = body.objects.length ? `objects ${skip + 1}–${end}` : "no objects on this page";
      return {
        structured: more ? { ...body, nextSkip: end } : body,
        summary: `${count(body.totalObjects, "object")} ${body.totalObjects === 1 ? "matches" : "match"}; ${page}${more ? `; next page: skip=${end}` : ""}.`,
      };
    });
  });
}
