// @module Tools get_object, list_callees and get_start_end_points: navigation from one object id, each over its REST route.
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
import { application, objectId, READ_ONLY, withSourceLocations } from "./arguments.ts";

// Tool definitions are built once per isolate: zod schemas cost more to build than a request takes to answer.
const GET_OBJECT = {
  title: "Get object",
  description:
    "Characteristics of one object by its id: name, full name, type, mangling, annotations, status against the previous analysis (Added, Modified, Unchanged), programming language and parent. Get ids from find_objects.",
  inputSchema: z.object({ application, id: objectId, withSourceLocations }).strict(),
  outputSchema: CharacteristicsSchema,
  annotations: READ_ONLY,
};

const LIST_CALLEES = {
  title: "List callees",
  description:
    "The objects one object calls directly (one entry per callee and link type), sorted by name. Follow the call graph by calling it again with a callee's id. " +
    "includeEscalated also lists callees that have escalated links besides direct ones; withParent adds each callee's parent type.",
  inputSchema: z
    .object({
      application,
      id: objectId,
      includeEscalated: z
        .boolean()
        .optional()
        .describe("true: also callees with both direct and escalated links to the object (default false)."),
      withParent: z
        .boolean()
        .optional()
        .describe("true adds parent: {type, typeId} (null without parent) to each callee."),
      withSourceLocations,
    })
    .strict(),
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
      id: objectId,
      hops: z.number().int().optional().describe("Links followed, 0 to 32 (default 1)."),
    })
    .strict(),
  outputSchema: PointsResultSchema,
  annotations: READ_ONLY,
};

const objectPath = (args: { application: string; id: string }, rest = "") =>
  applicationPath(args.application, `/objects/${encodeURIComponent(args.id)}${rest}`);

export function registerObjectNavigation(server: McpServer, rest: RestCall): void {
  server.registerTool("get_object", GET_OBJECT, async (args) =>
    fromRest<ApiCharacteristics>(
      await rest(
        objectPath(args),
        { select: args.withSourceLocations ? "source-locations" : undefined },
        { parameter: "withSourceLocations", advice: "ask without withSourceLocations" },
      ),
      (object) => ({
        structured: object,
        summary: `${object.type} ${object.fullName} (id ${object.id}), status ${object.status.id ?? "unknown"}${object.parent ? `, parent ${object.parent.type} ${object.parent.name} (id ${object.parent.id})` : ""}.`,
      }),
    ),
  );

  server.registerTool("list_callees", LIST_CALLEES, async (args) => {
    const select = [...(args.withParent ? ["parent"] : []), ...(args.withSourceLocations ? ["source-locations"] : [])];
    const answer = await rest(
      objectPath(args, "/callees"),
      { includeEscalated: args.includeEscalated, select },
      {
        parameter: "withSourceLocations",
        advice: `ask without withSourceLocations and withParent; GET ${objectPath(args, "/callees")} over HTTP lists any number of callees`,
      },
    );
    return fromRest<ApiCallee[]>(answer, (callees) => ({
      structured: { callees },
      summary: `Object ${args.id} calls ${count(callees.length, "object")} directly.`,
    }));
  });

  server.registerTool("get_start_end_points", GET_START_END_POINTS, async (args) =>
    fromRest<ApiPointsResult>(
      await rest(
        objectPath(args, "/start-end-points"),
        { hops: args.hops },
        { parameter: "hops", advice: "ask for fewer hops" },
      ),
      (points) => ({
        structured: points,
        summary: `${count(points.startPoints.length, "start point")} and ${count(points.endPoints.length, "end point")} within ${count(args.hops ?? 1, "hop")} of object ${args.id}.`,
      }),
    ),
  );
}
