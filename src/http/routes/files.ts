// @module The source code route: lines of one analysed file, through the source code service.
import type { Hono } from "hono";
import { ApiError } from "../../contract/errors.ts";
import { FILE_ID_PATTERN, honoPath, SOURCE_FILE } from "../../contract/route-specs.ts";
import { selectedAnalysis } from "../application.ts";
import type { AppEnv } from "../context.ts";
import { parseParams } from "../params.ts";
import { parseQuery } from "../query-string.ts";
import { askSourceService, sourceServiceOff } from "../source-locations.ts";

export function fileRoutes(app: Hono<AppEnv>): void {
  app.get(honoPath(SOURCE_FILE), async (c) => {
    const p = parseParams(parseQuery(c.req.url), SOURCE_FILE.query);
    const fileId = c.req.param("fileId") ?? "";
    if (!FILE_ID_PATTERN.test(fileId))
      throw new ApiError(
        "invalid_parameter",
        `fileId must be a file id, an integer of 1 to 19 digits, possibly negative, got ${JSON.stringify(fileId.slice(0, 100))}`,
        { parameter: "fileId" },
      );
    if (p.startLine !== undefined && p.endLine !== undefined && p.startLine > p.endLine)
      throw new ApiError(
        "invalid_parameter",
        `endLine must not be below startLine (${p.startLine}), got ${p.endLine}`,
        { parameter: "endLine" },
      );
    const { sources } = c.get("deps");
    if (!sources) throw sourceServiceOff("source code");
    const { version } = await selectedAnalysis(c, p.date);
    const file = await askSourceService(
      () => sources.file(version, fileId, { startLine: p.startLine, endLine: p.endLine }),
      "try again",
    );
    if (!file)
      throw new ApiError(
        "file_not_found",
        `the analysis of ${version.analyzedAt} has no text for file ${fileId}: it does not list the file, or lists it without its source`,
        { parameter: "fileId" },
      );
    return c.json(file);
  });
}
