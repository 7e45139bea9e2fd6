// @module Catalog route: GET /rest/applications, the applications the API key may read with their published versions.
import type { Hono } from "hono";
import { APPLICATIONS } from "../../contract/route-specs.ts";
import { admit } from "../admission.ts";
import { applicationList } from "../application-list.ts";
import { conditionalGet } from "../caching.ts";
import type { AppEnv } from "../context.ts";
import { parseParams } from "../params.ts";
import { parseQuery } from "../query-string.ts";

const APPLICATIONS_PATH = APPLICATIONS.path;

export function applicationRoutes(app: Hono<AppEnv>): void {
  app.use(APPLICATIONS_PATH, conditionalGet);
  app.get(APPLICATIONS_PATH, async (c) => {
    parseParams(parseQuery(c.req.url), APPLICATIONS.query);
    const scope = await admit(c);
    const { list, versions } = await applicationList(c.get("deps").catalog, scope);
    c.set("versions", versions);
    return c.json(list);
  });
}
