// @module Tools get_object, list_callees and get_start_end_points: navigation from one object (by id or name), each over its REST route.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import {
  type ApiCallee,
  type ApiCharacteristics,
  type ApiPointsResult,
  CalleeListSchema,
  CharacteristicsSchema,
  PointsResultSchema,
} from "../../contract/api-schemas.ts";
import { applicationPath, type RestCall } from "../rest-call.ts";
import { count, fromRest } from "../tool-result.ts";
import { application, date, READ_ONLY, withSourceLocations } from "./arguments.ts";
import { objectArgument, onObject } from "./object-argument.ts";

/** The arguments of list_callees and list_callers. */
export const linkedObjectsInput = (noun: "callee" | "caller") =>
  z
    .object({
      application,
      ...objectArgument,
      includeEscalated: z
        .boolean()
        .optional()
        .describe(`true: also ${noun}s with both direct and escalated links with the object (default false).`),
      withParent: z
        .boolean()
        .optional()
        .describe(`true adds parent: {type, typeId} (null without parent) to each ${noun}.`),
      withSourceLocations,
      date,
    })
    .strict();

// Tool definitions are built once per isolate: zod schemas cost more to build than a request takes to answer.
const GET_OBJECT = {
  title: "Get object",
  description:
    "Characteristics of one object by its id: name, full name, type, mangling, annotations, status against the previous analysis (Added, Modified, Unchanged), programming language and parent. Name the object by id (from find_objects) or by its exact full name.",
  inputSchema: z.object({ application, ...objectArgument, withSourceLocations, date }).strict(),
  outputSchema: CharacteristicsSchema,
  annotations: READ_ONLY,
};

const LIST_CALLEES = {
  title: "List callees",
  description:
    "The objects one object calls directly (one entry per callee and link type), sorted by name. Follow the call graph by calling it again with a callee's id; list_callers is the other way. " +
    "includeEscalated also lists callees that have escalated links besides direct ones; withParent adds each callee's parent type.",
  inputSchema: linkedObjectsInput("callee"),
  outputSchema: z.object({ callees: CalleeListSchema }).strict(),
  annotations: READ_ONLY,
};

const GET_START_END_POINTS = {
  title: "Get start and end points",
  description:
    "The transaction start points (entry points such as pages or services) from which an object is reached, and the end points (such as tables or files) it reaches, within hops links. " +
    "Use it to see which entry points an object serves and what it ends up touching.",
  inputSchema: z
    .object({
      application,
      ...objectArgument,
      hops: z.number().int().optional().describe("Links followed, 0 to 32 (default 1)."),
      date,
    })
    .strict(),
  outputSchema: PointsResultSchema,
  annotations: READ_ONLY,
};

export const objectPath = (args: { application: string; id: string }, rest = "") =>
  applicationPath(args.application, `/objects/${encodeURIComponent(args.id)}${rest}`);

/** What list_callees and list_callers ask: one object's direct callees or callers, under `key`. */
export async function linkedObjectsAnswer(
  rest: RestCall,
  args: {
    application: string;
    id: string;
    includeEscalated?: boolean;
    withParent?: boolean;
    withSourceLocations?: boolean;
    date?: string;
  },
  key: "callees" | "callers",
  summary: (count: number) => string,
) {
  const select = [...(args.withParent ? ["parent"] : []), ...(args.withSourceLocations ? ["source-locations"] : [])];
  const path = objectPath(args, `/${key}`);
  const answer = await rest(
    path,
    { includeEscalated: args.includeEscalated, select, date: args.date },
    {
      parameter: "withSourceLocations",
      advice: `ask without withSourceLocations and withParent; GET ${path} over HTTP lists any number of ${key}`,
    },
  );
  return fromRest<ApiCallee[]>(answer, (list) => ({ structured: { [key]: list }, summary: summary(list.length) }));
}

export function registerObjectNavigation(server: McpServer, rest: RestCall): void {
  server.registerTool(
    "get_object",
    GET_OBJECT,
    onObject(rest, async (args) => {
      return fromRest<ApiCharacteristics>(
        await rest(
          objectPath(args),
          { select: args.withSourceLocations ? "source-locations" : undefined, date: args.date },
          { parameter: "withSourceLocations", advice: "ask without withSourceLocations" },
        ),
        (object) => ({
          structured: object,
          summary: `${object.type} ${object.fullName} (id ${object.id}), status ${object.status.id ?? "unknown"}${object.parent ? `, parent ${object.parent.type} ${object.parent.name} (id ${object.parent.id})` : ""}.`,
        }),
      );
    }),
  );

  server.registerTool(
    "list_callees",
    LIST_CALLEES,
    onObject(rest, (args) =>
      linkedObjectsAnswer(rest, args, "callees", (n) => `Object ${args.id} calls ${count(n, "object")} directly.`),
    ),
  );

  server.registerTool(
    "get_start_end_points",
    GET_START_END_POINTS,
    onObject(rest, async (args) => {
      return fromRest<ApiPointsResult>(
        await rest(
          objectPath(args, "/start-end-points"),
          { hops: args.hops, date: args.date },
          { parameter: "hops", advice: "ask for fewer hops" },
        ),
        (points) => ({
          structured: points,
          summary: `${count(points.startPoints.length, "start point")} and ${count(points.endPoints.length, "end point")} within ${count(args.hops ?? 1, "hop")} of object ${args.id}.`,
        }),
      );
    }),
  );
}
