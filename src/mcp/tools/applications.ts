// @module Tool list_applications: the applications the caller's key may read, with their published analyses, over GET /rest/applications.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { type ApplicationList, ApplicationListSchema } from "../../contract/api-schemas.ts";
import type { RestCall } from "../rest-call.ts";
import { count, fromRest } from "../tool-result.ts";
import { READ_ONLY } from "./arguments.ts";

const LIST_APPLICATIONS = {
  title: "List applications",
  description:
    "Lists the analyzed applications this API key may read, each with its published analyses (analyzedAt, oldest first). Start here: every other tool takes the application name exactly as listed.",
  inputSchema: z.object({}).strict(),
  outputSchema: ApplicationListSchema,
  annotations: READ_ONLY,
};

const LIST_TOO_LARGE = { advice: "read GET /rest/applications over HTTP, which lists any number" };

export function registerApplicationTools(server: McpServer, rest: RestCall): void {
  server.registerTool("list_applications", LIST_APPLICATIONS, async () =>
    fromRest<ApplicationList>(await rest("/rest/applications", {}, LIST_TOO_LARGE), (list) => {
      const names = list.applications.map(
        (a) =>
          `${a.name} (${count(a.versions.length, "analysis", "analyses")}, newest ${a.versions[a.versions.length - 1].analyzedAt})`,
      );
      return {
        structured: list,
        summary: names.length
          ? `${count(names.length, "application")}: ${names.join("; ")}`
          : "No application is published (or readable with this key).",
      };
    }),
  );
}
