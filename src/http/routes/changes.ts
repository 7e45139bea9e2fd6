// @module The changes route: objects added, deleted and modified between two analyses of an application.
import type { Hono } from "hono";
import { CHANGES, honoPath } from "../../contract/route-specs.ts";
import { CHANGE_STATUSES, changes } from "../../query/changes.ts";
import { comparedAnalyses } from "../application.ts";
import type { AppEnv } from "../context.ts";
import { parseParams } from "../params.ts";
import { parseQuery } from "../query-string.ts";

export function changesRoutes(app: Hono<AppEnv>): void {
  app.get(honoPath(CHANGES), async (c) => {
    const p = parseParams(parseQuery(c.req.url), CHANGES.query);
    const { from, to } = await comparedAnalyses(c, p.from, p.to);
    const [older, newer] = await Promise.all([c.get("deps").catalog.open(from), c.get("deps").catalog.open(to)]);
    const statuses = p.status.length ? p.status : CHANGE_STATUSES;
    const page = await changes(older, newer, { statuses, skip: p.skip, limit: p.limit });
    return c.json({ from: from.analyzedAt, to: to.analyzedAt, ...page });
  });
}
