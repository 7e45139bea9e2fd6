// @module Tools list_changes and read_source: what changed between two analyses, and the code of a file by line range, each over its REST route.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { type ApiChanges, type ApiFileText, ChangesSchema, FileTextSchema } from "../../contract/api-schemas.ts";
import { ApiError } from "../../contract/errors.ts";
import { CHANGES, SOURCE_FILE } from "../../contract/route-specs.ts";
import { CHANGE_STATUSES } from "../../query/changes.ts";
import { applicationPath, type RestCall } from "../rest-call.ts";
import { count, fromRest, toolProblem } from "../tool-result.ts";
import { application, READ_ONLY } from "./arguments.ts";
import { MAX_TOOL_LIMIT } from "./find-objects.ts";

const LIST_CHANGES = {
  title: "List changes",
  description:
    "What changed between two analyses of an application: the objects added, deleted and modified (their source checksum differs), sorted by name, with totals per status. " +
    "Without from and to: the newest analysis against the one before it (list_applications gives each analysis's analyzedAt, which from and to take). " +
    "Use it to see what a release touched, then get_object or list_callees on a modified object's id to see what depends on it, and read_source for its code. " +
    `One page of at most limit objects (default 50, at most ${MAX_TOOL_LIMIT}); page with skip.`,
  inputSchema: z
    .object({
      application,
      from: z
        .string()
        .optional()
        .describe(CHANGES.query.from.description ?? ""),
      to: z
        .string()
        .optional()
        .describe(CHANGES.query.to.description ?? ""),
      status: z
        .array(z.enum(CHANGE_STATUSES))
        .optional()
        .describe("Only objects of these statuses: added, deleted, modified (default all three)."),
      limit: z
        .number()
        .int()
        .default(50)
        .describe(`Objects per page, 0 to ${MAX_TOOL_LIMIT} (default 50); 0 returns only the totals.`),
      skip: z.number().int().optional().describe("Changed objects skipped before this page (default 0)."),
    })
    .strict(),
  outputSchema: ChangesSchema,
  annotations: READ_ONLY,
};

const READ_SOURCE = {
  title: "Read source",
  description:
    "Lines of one source file as the analysis recorded it, by the fileId of an object's sourceLocations (get_object or find_objects with withSourceLocations gives them, with startLine and endLine). " +
    "Without a range, the whole file; totalLines says how long it is, so a long file can be read page by page. " +
    "A file the analysis lists without its text is a file_not_found error.",
  inputSchema: z
    .object({
      application,
      // Digits with an optional sign only: as a path segment, anything else could reach another route.
      fileId: z
        .string()
        .regex(/^-?[0-9]+$/)
        .describe("Source file id, a string of a possibly negative integer, as in sourceLocations[].fileId."),
      startLine: z
        .number()
        .int()
        .optional()
        .describe(SOURCE_FILE.query.startLine.description ?? ""),
      endLine: z
        .number()
        .int()
        .optional()
        .describe(SOURCE_FILE.query.endLine.description ?? ""),
      date: z
        .string()
        .optional()
        .describe(SOURCE_FILE.query.date.description ?? ""),
    })
    .strict(),
  outputSchema: FileTextSchema,
  annotations: READ_ONLY,
};

export function registerHistoryTools(server: McpServer, rest: RestCall): void {
  server.registerTool("list_changes", LIST_CHANGES, async (args) => {
    if (args.limit > MAX_TOOL_LIMIT)
      return toolProblem(
        new ApiError(
          "invalid_parameter",
          `limit is ${args.limit}; one call returns at most ${MAX_TOOL_LIMIT} objects: page with skip`,
          { parameter: "limit" },
        ).toBody(),
      );
    const answer = await rest(
      applicationPath(args.application, "/changes"),
      { from: args.from, to: args.to, status: args.status, limit: args.limit, skip: args.skip },
      { parameter: "limit", advice: "ask for a smaller limit and page with skip" },
    );
    return fromRest<ApiChanges>(answer, (changes) => {
      const { added, deleted, modified } = changes.totals;
      const end = (args.skip ?? 0) + changes.objects.length;
      return {
        structured: changes,
        summary: `From ${changes.from} to ${changes.to}: ${added} added, ${deleted} deleted, ${modified} modified; ${count(changes.objects.length, "object")} listed${end < changes.totalObjects ? `; next page: skip=${end}` : ""}.`,
      };
    });
  });

  server.registerTool("read_source", READ_SOURCE, async (args) =>
    fromRest<ApiFileText>(
      await rest(
        applicationPath(args.application, `/files/${encodeURIComponent(args.fileId)}`),
        { startLine: args.startLine, endLine: args.endLine, date: args.date },
        { parameter: "endLine", advice: "ask for fewer lines with startLine and endLine" },
      ),
      (file) => ({
        structured: file,
        summary:
          file.endLine >= file.startLine
            ? `${file.path}, lines ${file.startLine}–${file.endLine} of ${file.totalLines}.`
            : `${file.path} has ${count(file.totalLines, "line")}: none from line ${file.startLine}.`,
      }),
    ),
  );
}
