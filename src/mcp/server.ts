// @module createMcpServer: the MCP server of one request, with the read tools over the REST API of the same worker.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { API_VERSION } from "../http/openapi.ts";
import { MAX_TOOL_ANSWER_BYTES, type RestCall } from "./rest-call.ts";
import { registerApplicationTools } from "./tools/applications.ts";
import { MAX_TOOL_LIMIT, registerFindObjects } from "./tools/find-objects.ts";
import { registerHistoryTools } from "./tools/history.ts";
import { registerImpactTools } from "./tools/impact.ts";
import { registerLevelTools } from "./tools/levels.ts";
import { registerObjectNavigation } from "./tools/object-navigation.ts";

const INSTRUCTIONS = [
  "appstruct answers questions about the structure of analyzed applications: objects (classes, methods, tables, pages…), their callees and callers, transactions and data graphs, and the architecture taxonomy (levels 1 to 5).",
  "Workflow: list_applications gives the exact application names. Tools about one object take its id or its exact full name (find_objects finds objects by part of a name; page with skip = nextSkip); navigate with get_object, list_callees and get_start_end_points.",
  "Impact of a change: name the object → list_callers (then get_call_hierarchy with direction callers for more hops) → the transactions reaching it (get_start_end_points, list_transactions) → the tables they touch (get_transaction_graph; kind data-graphs reads from a table back to the pages). find_paths shows how one object reaches another.",
  "For the architecture: get_level_graph on level 1, then list_level_nodes on levels 2 to 5 following the children's _id; level-5 children are objects with permanent ids.",
  "For history and code: list_changes says what was added, deleted and modified between two analyses; read_source reads the lines of a file by the fileId, startLine and endLine of an object's sourceLocations.",
  "A tool error carries the API's problem as JSON: code, detail (what is wrong and what is allowed) and status.",
  `One tool answer holds at most ${MAX_TOOL_ANSWER_BYTES} bytes of JSON: a larger one is a tool error saying which argument to narrow (find_objects: at most ${MAX_TOOL_LIMIT} objects a page).`,
].join("\n");

// The JSON Schema validator the SDK would create per server compiles schemas with `new Function`, which workerd forbids;
// this one interprets them, and one instance serves every request.
const jsonSchemaValidator = new CfWorkerJsonSchemaValidator();

export interface McpToolContext {
  /** REST calls carrying the caller's API key. */
  rest: RestCall;
}

export function createMcpServer(context: McpToolContext): McpServer {
  const server = new McpServer(
    { name: "appstruct", version: API_VERSION },
    { instructions: INSTRUCTIONS, jsonSchemaValidator },
  );
  registerApplicationTools(server, context.rest);
  registerFindObjects(server, context.rest);
  registerObjectNavigation(server, context.rest);
  registerImpactTools(server, context.rest);
  registerLevelTools(server, context.rest);
  registerHistoryTools(server, context.rest);
  return server;
}
