// @module Tool list_applications: the applications the caller's key may read, with their published analyses (no REST route lists them).
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { toApiError } from "../../http/problem.ts";
import type { Catalog } from "../../storage/catalog.ts";
import { count, toolAnswer, toolProblem } from "../tool-result.ts";
import { READ_ONLY } from "./arguments.ts";

export const ApplicationListSchema = z
  .object({
    applications: z.array(
      z
        .object({
          name: z.string(),
          versions: z.array(z.object({ analyzedAt: z.string() }).strict()).describe("Published analyses, oldest first; the last one answers every tool unless find_objects is given a date."),
        })
        .strict(),
    ),
  })
  .strict();

type ApplicationList = z.infer<typeof ApplicationListSchema>;

const LIST_APPLICATIONS = {
  title: "List applications",
  description:
    "Lists the analyzed applications this API key may read, each with its published analyses (analyzedAt, oldest first). Start here: every other tool takes the application name exactly as listed.",
  inputSchema: z.object({}).strict(),
  outputSchema: ApplicationListSchema,
  annotations: READ_ONLY,
};

/** Applications with at least one published version, sorted by name; a key limited to some applications (`scope`) sees only those. */
export async function readableApplications(catalog: Catalog, scope: Set<string> | null): Promise<ApplicationList> {
  const names = (await catalog.applications()).filter((name) => !scope || scope.has(name));
  const listed = await Promise.all(names.map(async (name) => ({ name, versions: ((await catalog.versions(name)) ?? []).map((v) => ({ analyzedAt: v.analyzedAt })) })));
  return { applications: listed.filter((a) => a.versions.length > 0) };
}

export function registerApplicationTools(server: McpServer, catalog: Catalog, scope: Set<string> | null): void {
  server.registerTool("list_applications", LIST_APPLICATIONS, async () => {
    try {
      const list = await readableApplications(catalog, scope);
      const names = list.applications.map((a) => `${a.name} (${count(a.versions.length, "analysis", "analyses")}, newest ${a.versions[a.versions.length - 1].analyzedAt})`);
      return toolAnswer(list, names.length ? `${count(names.length, "application")}: ${names.join("; ")}` : "No application is published (or readable with this key).");
    } catch (error) {
      return toolProblem(toApiError(error).toBody());
    }
  });
}
