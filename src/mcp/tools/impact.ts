// @module Impact tools: list_callers, get_call_hierarchy, find_paths, list_transactions and get_transaction_graph, each over its REST route.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import {
  type ApiCallHierarchy,
  type ApiFlowGraph,
  type ApiPaths,
  CallerListSchema,
  CallHierarchySchema,
  DataGraphListSchema,
  FlowGraphSchema,
  PathsSchema,
  TransactionListSchema,
} from "../../contract/api-schemas.ts";
import { applicationPath, type RestCall } from "../rest-call.ts";
import { count, fromRest } from "../tool-result.ts";
import { application, date, objectId, READ_ONLY } from "./arguments.ts";
import { objectArgument, objectName, onObject, resolveObject } from "./object-argument.ts";
import { linkedObjectsAnswer, linkedObjectsInput, objectPath } from "./object-navigation.ts";

const kind = z
  .enum(["transactions", "data-graphs"])
  .describe(
    "transactions: what runs from a start point (a page, a service), forward to the end points; data-graphs: what reaches an end point (a table, a file), read backward to the start points.",
  );

const graphLimit = z.number().int().optional().describe("Most nodes listed, 1 to 10000 (default 1000).");

const LIST_CALLERS = {
  title: "List callers",
  description:
    "Who calls or uses one object directly (one entry per caller and link type), sorted by name: the first step of an impact analysis (what breaks if this changes?). " +
    "Name the object by its exact full name or its id. Then widen with get_call_hierarchy (direction callers), see which transactions reach it with get_start_end_points or list_transactions, and which tables they touch with get_transaction_graph.",
  inputSchema: linkedObjectsInput("caller"),
  outputSchema: z.object({ callers: CallerListSchema }).strict(),
  annotations: READ_ONLY,
};

const GET_CALL_HIERARCHY = {
  title: "Get call hierarchy",
  description:
    "Every object within hops links of one object along links that are not escalated: callees (what it reaches), callers (what reaches it: the impact of a change) or both, with each node's depth and the links between them. " +
    "Nodes sorted by depth then name; truncated says nodes were cut to limit.",
  inputSchema: z
    .object({
      application,
      ...objectArgument,
      direction: z.enum(["callees", "callers", "both"]).describe("Which way links are followed."),
      hops: z.number().int().optional().describe("Largest depth, 1 to 32 (default 3)."),
      linkTypes: z.array(z.string()).optional().describe("Follow only links of these types (default: every type)."),
      limit: graphLimit,
      date,
    })
    .strict(),
  outputSchema: CallHierarchySchema,
  annotations: READ_ONLY,
};

const FIND_PATHS = {
  title: "Find paths",
  description:
    "The shortest call paths from one object to another along links that are not escalated (for example from a page to a table), each step with the link types from the step before. " +
    "Name both ends by id or exact full name. length is null when no path is at most hops links long.",
  inputSchema: z
    .object({
      application,
      ...objectArgument,
      to: objectId.optional().describe("Id of the object the paths end at."),
      toName: objectName.optional().describe("Instead of to: the exact full name (or unique name) of the end object."),
      hops: z.number().int().optional().describe("Longest path, 1 to 32 links (default 8)."),
      limit: z.number().int().optional().describe("Most paths listed, 1 to 100 (default 10)."),
      date,
    })
    .strict(),
  outputSchema: PathsSchema,
  annotations: READ_ONLY,
};

const LIST_TRANSACTIONS = {
  title: "List transactions or data graphs",
  description:
    "The transactions of an application (one per start point: a page, a service, a batch) or its data graphs (one per end point: a table, a file), sorted by name, paged. " +
    "A transaction's or data graph's id is its point's object id: pass it to get_transaction_graph.",
  inputSchema: z
    .object({
      application,
      kind,
      name: z.string().optional().describe("Substring of the point's name, case-insensitive."),
      limit: z.number().int().optional().describe("Most listed, 0 to 10000 (default 100)."),
      skip: z.number().int().optional().describe("Matches skipped (default 0)."),
      date,
    })
    .strict(),
  // One object type (tools answer objects): the fields of the kind asked are present.
  outputSchema: TransactionListSchema.partial().extend(DataGraphListSchema.partial().shape).strict(),
  annotations: READ_ONLY,
};

const GET_TRANSACTION_GRAPH = {
  title: "Get transaction or data graph",
  description:
    "What runs from one start point (kind transactions: forward, stopping at end points such as tables) or what reaches one end point (kind data-graphs: backward, stopping at start points such as pages), with each node's depth and role and the links between them. " +
    "Answers which tables a page reaches, or which pages reach a table. Name the point by id or exact full name.",
  inputSchema: z.object({ application, kind, ...objectArgument, limit: graphLimit, date }).strict(),
  outputSchema: FlowGraphSchema,
  annotations: READ_ONLY,
};

const truncation = (graph: { totalNodes: number; nodes: unknown[]; truncated: boolean }) =>
  graph.truncated ? ` (truncated: ${graph.nodes.length} of ${graph.totalNodes} nodes listed)` : "";

export function registerImpactTools(server: McpServer, rest: RestCall): void {
  server.registerTool(
    "list_callers",
    LIST_CALLERS,
    onObject(rest, (args) =>
      linkedObjectsAnswer(
        rest,
        args,
        "callers",
        (n) => `${count(n, "caller")} of object ${args.id} (one per caller and link type).`,
      ),
    ),
  );

  server.registerTool(
    "get_call_hierarchy",
    GET_CALL_HIERARCHY,
    onObject(rest, async (args) =>
      fromRest<ApiCallHierarchy>(
        await rest(
          objectPath(args, "/call-hierarchy"),
          { direction: args.direction, hops: args.hops, linkType: args.linkTypes, limit: args.limit, date: args.date },
          { parameter: "limit", advice: "ask for a smaller limit or fewer hops" },
        ),
        (graph) => ({
          structured: graph,
          summary: `${count(graph.totalNodes, "object")} within ${count(args.hops ?? 3, "hop")} of object ${args.id} (${args.direction})${truncation(graph)}.`,
        }),
      ),
    ),
  );

  server.registerTool(
    "find_paths",
    FIND_PATHS,
    onObject(rest, async (args) => {
      const to = await resolveObject(
        rest,
        args.application,
        { id: args.to, name: args.toName, date: args.date },
        { id: "to", name: "toName" },
      );
      if ("error" in to) return to.error;
      return fromRest<ApiPaths>(
        await rest(
          objectPath(args, "/paths"),
          { to: to.id, hops: args.hops, limit: args.limit, date: args.date },
          { parameter: "limit", advice: "ask for fewer paths" },
        ),
        (paths) => ({
          structured: paths,
          summary:
            paths.length === null
              ? `No path of at most ${count(args.hops ?? 8, "link")} from object ${args.id} to object ${to.id}.`
              : `${count(paths.totalPaths, "shortest path")} of ${count(paths.length, "link")} from object ${args.id} to object ${to.id}.`,
        }),
      );
    }),
  );

  server.registerTool("list_transactions", LIST_TRANSACTIONS, async (args) => {
    const answer = await rest(
      applicationPath(args.application, `/${args.kind}`),
      { name: args.name, limit: args.limit ?? 100, skip: args.skip, date: args.date },
      { parameter: "limit", advice: "ask for a smaller limit and page with skip" },
    );
    return fromRest<Record<string, unknown>>(answer, (list) => ({
      structured: list,
      summary: `${count(Number(list.totalTransactions ?? list.totalDataGraphs), args.kind === "transactions" ? "transaction" : "data graph")} match.`,
    }));
  });

  server.registerTool(
    "get_transaction_graph",
    GET_TRANSACTION_GRAPH,
    onObject(rest, async (args) =>
      fromRest<ApiFlowGraph>(
        await rest(
          applicationPath(args.application, `/${args.kind}/${encodeURIComponent(args.id)}/graph`),
          { limit: args.limit, date: args.date },
          { parameter: "limit", advice: "ask for a smaller limit" },
        ),
        (graph) => ({
          structured: graph,
          summary: `${count(graph.totalNodes, "object")} in the ${args.kind === "transactions" ? "transaction" : "data graph"} of object ${args.id}${truncation(graph)}.`,
        }),
      ),
    ),
  );
}
