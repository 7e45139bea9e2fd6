// @module The changes route: objects added, deleted and modified between two analyses of an application.
import type { Hono } from "hono";
import { ApiError } from "../../contract/errors.ts";
import { CHANGES, honoPath } from "../../contract/route-specs.ts";
import { CHANGE_STATUSES, changes } from "../../query/changes.ts";
import { versionAt } from "../../storage/catalog.ts";
import { noAnalysisAt, publishedVersions } from "../application.ts";
import type { AppEnv } from "../context.ts";
import { parseParams } from "../params.ts";
import { parseQuery } from "../query-string.ts";

export function changesRoutes(app: Hono<AppEnv>): void {
  app.get(honoPath(CHANGES), async (c) => {
    const p = parseParams(parseQuery(c.req.url), CHANGES.query);
    const { catalog } = c.var.deps;
    const versions = await publishedVersions(c);
    const to = p.to === undefined ? versions[versions.length - 1] : versionAt(versions, p.to);
    if (!to) throw noAnalysisAt(c.var.application, versions, p.to!, "to");
    const before = versions[versions.indexOf(to) - 1];
    const from = p.from === undefined ? before : versionAt(versions, p.from);
    if (!from)
      throw p.from === undefined
        ? new ApiError(
            "no_analysis_at_date",
            `no analysis comes before ${to.analyzedAt}, the first of ${JSON.stringify(c.var.application)}: give from, or a later to`,
            { parameter: "from" },
          )
        : noAnalysisAt(c.var.application, versions, p.from, "from");
    const [older, newer] = await Promise.all([catalog.open(from), catalog.open(to)]);
    const statuses = p.status.length ? p.status : CHANGE_STATUSES;
    const page = await changes(older, newer, { statuses, skip: p.skip, limit: p.limit });
    return c.json({ from: from.analyzedAt, to: to.analyzedAt, ...page });
  });
}
