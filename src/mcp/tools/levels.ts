// @module Tools list_level_nodes and get_level_graph: the taxonomy levels 1 (coarsest) to 5 (objects), over their REST routes.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import {
  type ApiLevel5Node,
  type ApiLevelGraph,
  type ApiLevelNode,
  LevelGraphSchema,
  LevelNodeListSchema,
} from "../../contract/api-schemas.ts";
import { summarizeGraph } from "../graph-summary.ts";
import { applicationPath, type RestCall } from "../rest-call.ts";
import { count, fromRest } from "../tool-result.ts";
import { application, READ_ONLY } from "./arguments.ts";

/** Nodes kept by get_level_graph unless told otherwise: enough to see an architecture, small enough for a prompt. */
const DEFAULT_MAX_NODES = 30;

const LIST_LEVEL_NODES = {
  title: "List level nodes",
  description:
    "Nodes of taxonomy level 2 to 5 whose name contains name (case-insensitive) or whose _id is given, each with its children at the next level. " +
    "Drill down level by level: get_level_graph for the overview, then list_level_nodes on level 2, 3, 4 and 5 with the children's _id; at level 5 the children are objects with permanent ids (use get_object, list_callees). " +
    "_id values are volatile: valid only within the newest analysis. A node of thousands of objects may exceed what one tool answer holds: the error then names the REST route that lists it whole.",
  inputSchema: z
    .object({
      application,
      level: z.number().int().describe("Taxonomy level, 2 to 5."),
      name: z.string().optional().describe("Substring of the node name, case-insensitive. Give name or _id."),
      _id: z
        .number()
        .int()
        .optional()
        .describe("Volatile id of a node, from get_level_graph or the children of another node. Give name or _id."),
    })
    .strict(),
  outputSchema: z.object({ nodes: LevelNodeListSchema }).strict(),
  annotations: READ_ONLY,
};

const GET_LEVEL_GRAPH = {
  title: "Get level graph",
  description:
    "The architecture graph of a taxonomy level, 1 (coarsest) to 5 (finest): nodes with their number of objects and the links between them. " +
    `Large graphs are summarized: the maxNodes (default ${DEFAULT_MAX_NODES}) nodes with the most objects and the links among them, with omitted saying what was left out; full: true returns every node and link. ` +
    "Continue with list_level_nodes on a node's _id to see its children.",
  inputSchema: z
    .object({
      application,
      level: z.number().int().describe("Taxonomy level, 1 to 5."),
      full: z.boolean().default(false).describe("true: every node and link, however many."),
      maxNodes: z
        .number()
        .int()
        .min(1)
        .max(10000)
        .default(DEFAULT_MAX_NODES)
        .describe(`Nodes kept in a summary, 1 to 10000 (default ${DEFAULT_MAX_NODES}).`),
    })
    .strict(),
  outputSchema: LevelGraphSchema.extend({
    omitted: z
      .object({ nodes: z.number().int(), links: z.number().int(), nbObjects: z.number().int(), note: z.string() })
      .strict()
      .optional()
      .describe("Present when the graph was summarized: the nodes, links and objects left out."),
  }),
  annotations: READ_ONLY,
};

const levelPath = (args: { application: string; level: number }, rest: string) =>
  applicationPath(args.application, `/levels/${args.level}${rest}`);

export function registerLevelTools(server: McpServer, rest: RestCall): void {
  server.registerTool("list_level_nodes", LIST_LEVEL_NODES, async (args) =>
    fromRest<(ApiLevelNode | ApiLevel5Node)[]>(
      await rest(
        levelPath(args, "/nodes"),
        { name: args.name, _id: args._id, select: "children" },
        {
          parameter: args._id === undefined ? "name" : "_id",
          advice: `give _id for one node, or a longer name matching fewer nodes; a node with this many children is listed whole only by GET ${levelPath(args, "/nodes")}?_id=…&select=children over HTTP`,
        },
      ),
      (nodes) => ({
        structured: { nodes },
        summary: `${count(nodes.length, `level-${args.level} node`)} ${nodes.length === 1 ? "matches" : "match"}${nodes.length ? `: ${nodes.map((n) => `${n.name} (_id ${n._id}, ${count(n.children.length, "child", "children")})`).join("; ")}` : ""}.`,
      }),
    ),
  );

  server.registerTool("get_level_graph", GET_LEVEL_GRAPH, async (args) =>
    fromRest<ApiLevelGraph>(
      await rest(
        levelPath(args, "/graph"),
        {},
        {
          parameter: "level",
          advice: `this level's whole graph is too large to summarize here: ask a coarser level (a lower number), or read GET ${levelPath(args, "/graph")} over HTTP`,
        },
      ),
      (graph) => {
        const shown = args.full ? graph : summarizeGraph(graph, args.maxNodes);
        const of =
          shown.nodes.length < graph.nodes.length
            ? ` (the ${shown.nodes.length} biggest of ${graph.nodes.length} nodes, ${shown.links.length} of ${graph.links.length} links)`
            : "";
        return {
          structured: { ...shown },
          summary: `Level ${args.level} graph: ${count(graph.nodes.length, "node")}, ${count(graph.links.length, "link")}${of}.`,
        };
      },
    ),
  );
}
