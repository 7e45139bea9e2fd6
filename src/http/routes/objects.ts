// @module Object routes: find objects, characteristics, callees, start and end points.
import type { Context, Hono } from "hono";
import { ApiError } from "../../api-error.ts";
import { objectCallees } from "../../query/callees.ts";
import { objectCharacteristics } from "../../query/characteristics.ts";
import { FILTER_INDEX, type FilterName, SEARCH_TYPES, findObjects } from "../../query/find-objects.ts";
import { startEndPoints } from "../../query/points.ts";
import { OPERATORS } from "../../query/text-match.ts";
import { parseRfc3339 } from "../../rules.ts";
import { versionAt } from "../../storage/catalog.ts";
import { publishedVersions } from "../application.ts";
import type { AppEnv } from "../context.ts";
import { boolean, integer, oneOf, parseParams, text } from "../params.ts";
import { parseQuery } from "../query-string.ts";
import { attachLocations } from "../source-locations.ts";
import { z } from "zod";

const date = z.string().transform((v, ctx) => {
  const ms = parseRfc3339(v);
  if (ms === null) {
    // A literal + in a query string decodes to a space (semantics.md §1): say how to send a positive offset.
    const plus = / \d{2}:\d{2}$/.test(v) ? " (a + in a query means a space: write the offset as %2B02:00)" : "";
    ctx.addIssue({ code: "custom", message: `must be an RFC 3339 date-time with a zone, e.g. 2026-09-01T12:00:00Z${plus}` });
  }
  return ms ?? 0;
});

const FIND_PARAMS = {
  limit: { schema: integer(0, 10000), required: true },
  skip: { schema: integer(0, Number.MAX_SAFE_INTEGER) },
  name: { schema: text, repeatable: true },
  fullname: { schema: text, repeatable: true },
  filepath: { schema: text },
  mangling: { schema: text, repeatable: true },
  annotation: { schema: text, repeatable: true },
  tag: { schema: text, repeatable: true },
  type: { schema: text, repeatable: true },
  "post-it": { schema: text, repeatable: true },
  operator: { schema: oneOf(OPERATORS) },
  searchtype: { schema: oneOf(SEARCH_TYPES) },
  select: { schema: oneOf(["source-locations"] as const) },
  date: { schema: date },
} as const;

const id = (c: Context<AppEnv>) => {
  const raw = c.req.param("id") ?? "";
  if (!/^[0-9]{1,19}$/.test(raw)) throw new ApiError("invalid_parameter", `id must be an object id of 1 to 19 decimal digits, got ${JSON.stringify(raw.slice(0, 100))}`, { parameter: "id" });
  return raw;
};

/** The newest version, its snapshot, and a handle on the one before (for status). */
async function newest(c: Context<AppEnv>) {
  const { catalog } = c.var.deps;
  const versions = await publishedVersions(catalog, c.var.application);
  const version = versions[versions.length - 1];
  const before = versions.length > 1 ? versions[versions.length - 2] : null;
  return { version, snapshot: await catalog.open(version), previous: before && { key: before.sha256, open: () => catalog.open(before) } };
}

export function objectRoutes(app: Hono<AppEnv>): void {
  app.get("/rest/applications/:name/objects", async (c) => {
    const p = parseParams(parseQuery(c.req.url), FIND_PARAMS);
    const filters: Partial<Record<FilterName, string[]>> = {};
    for (const name of Object.keys(FILTER_INDEX) as FilterName[]) {
      const values = p[name];
      const list = values === undefined ? [] : Array.isArray(values) ? values : [values];
      if (list.length) filters[name] = list;
    }
    const withLocations = p.select === "source-locations";
    if (withLocations && !c.var.deps.sources) throw sourcesDisabled();
    const { catalog } = c.var.deps;
    const versions = await publishedVersions(catalog, c.var.application);
    const version = p.date === undefined ? versions[versions.length - 1] : versionAt(versions, p.date);
    if (!version) return c.json({ totalObjects: 0, objects: [] });
    const snapshot = await catalog.open(version);
    const result = await findObjects(snapshot, { filters, operator: p.operator ?? "contains", searchtype: p.searchtype ?? "all", skip: p.skip ?? 0, limit: p.limit });
    const objects = withLocations ? await attachLocations(c.var.deps.sources, version, result.objects, result.ranks) : result.objects;
    return c.json({ totalObjects: result.totalObjects, objects });
  });

  app.get("/rest/applications/:name/objects/:id", async (c) => {
    const p = parseParams(parseQuery(c.req.url), { select: { schema: oneOf(["source-locations"] as const) } });
    const objectId = id(c);
    if (p.select && !c.var.deps.sources) throw sourcesDisabled();
    const { version, snapshot, previous } = await newest(c);
    const { object, rank } = await objectCharacteristics(snapshot, objectId, previous);
    return c.json(p.select ? (await attachLocations(c.var.deps.sources, version, [object], [rank]))[0] : object);
  });

  app.get("/rest/applications/:name/objects/:id/callees", async (c) => {
    const p = parseParams(parseQuery(c.req.url), {
      select: { schema: oneOf(["parent", "source-locations"] as const), repeatable: true },
      includeEscalated: { schema: boolean },
    });
    const objectId = id(c);
    const withLocations = p.select.includes("source-locations");
    if (withLocations && !c.var.deps.sources) throw sourcesDisabled();
    const { version, snapshot } = await newest(c);
    const result = await objectCallees(snapshot, objectId, { includeEscalated: p.includeEscalated ?? false, withParent: p.select.includes("parent") });
    return c.json(withLocations ? await attachLocations(c.var.deps.sources, version, result.callees, result.ranks) : result.callees);
  });

  app.get("/rest/applications/:name/objects/:id/start-end-points", async (c) => {
    const p = parseParams(parseQuery(c.req.url), { hops: { schema: integer(0, 32) } });
    const objectId = id(c);
    const { snapshot } = await newest(c);
    return c.json(await startEndPoints(snapshot, objectId, p.hops ?? 1));
  });
}

function sourcesDisabled(): ApiError {
  return new ApiError("source_service_unavailable", "select=source-locations needs the source code service, which is disabled or not configured on this server", { parameter: "select" });
}
