// @module Object routes: find objects, characteristics, callees, start and end points.
import type { Context, Hono } from "hono";
import { ApiError } from "../../contract/errors.ts";
import type { FilterName } from "../../contract/params.ts";
import {
  CALLEES,
  CHARACTERISTICS,
  FIND_OBJECTS,
  honoPath,
  OBJECT_ID_PATTERN,
  START_END_POINTS,
} from "../../contract/route-specs.ts";
import { objectCallees } from "../../query/callees.ts";
import { objectCharacteristics } from "../../query/characteristics.ts";
import { FILTER_INDEX, findObjects } from "../../query/find-objects.ts";
import { startEndPoints } from "../../query/points.ts";
import type { StreamedList } from "../../query/streamed-list.ts";
import { type Version, versionAt } from "../../storage/catalog.ts";
import { publishedVersions } from "../application.ts";
import type { AppEnv } from "../context.ts";
import { streamJson } from "../json-stream.ts";
import { parseParams } from "../params.ts";
import { parseQuery } from "../query-string.ts";
import { attachLocations } from "../source-locations.ts";

const id = (c: Context<AppEnv>) => {
  const raw = c.req.param("id") ?? "";
  if (!OBJECT_ID_PATTERN.test(raw))
    throw new ApiError(
      "invalid_parameter",
      `id must be an object id of 1 to 19 decimal digits, got ${JSON.stringify(raw.slice(0, 100))}`,
      { parameter: "id" },
    );
  return raw;
};

/** The newest version, its snapshot, and a handle on the one before (for status). */
async function newest(c: Context<AppEnv>) {
  const { catalog } = c.var.deps;
  const versions = await publishedVersions(c);
  const version = versions[versions.length - 1];
  const before = versions.length > 1 ? versions[versions.length - 2] : null;
  return {
    version,
    snapshot: await catalog.open(version),
    previous: before && { key: before.sha256, open: () => catalog.open(before) },
  };
}

export function objectRoutes(app: Hono<AppEnv>): void {
  app.get(honoPath(FIND_OBJECTS), async (c) => {
    const p = parseParams(parseQuery(c.req.url), FIND_OBJECTS.query);
    const filters: Partial<Record<FilterName, string[]>> = {};
    for (const name of Object.keys(FILTER_INDEX) as FilterName[]) {
      const values = p[name];
      const list = values === undefined ? [] : Array.isArray(values) ? values : [values];
      if (list.length) filters[name] = list;
    }
    const withLocations = p.select === "source-locations";
    if (withLocations && !c.var.deps.sources) throw sourcesDisabled();
    const { catalog } = c.var.deps;
    const versions = await publishedVersions(c);
    const version = p.date === undefined ? versions[versions.length - 1] : versionAt(versions, p.date);
    if (!version) return c.json({ totalObjects: 0, objects: [] });
    const snapshot = await catalog.open(version);
    const result = await findObjects(snapshot, {
      filters,
      operator: p.operator,
      searchtype: p.searchtype,
      skip: p.skip,
      limit: p.limit,
    });
    const objects = withLocations ? withSourceLocations(c, version, result.objects, result.ranks) : result.objects;
    return streamJson(c, { totalObjects: result.totalObjects, objects });
  });

  app.get(honoPath(CHARACTERISTICS), async (c) => {
    const p = parseParams(parseQuery(c.req.url), CHARACTERISTICS.query);
    const objectId = id(c);
    if (p.select && !c.var.deps.sources) throw sourcesDisabled();
    const { version, snapshot, previous } = await newest(c);
    const { object, rank } = await objectCharacteristics(snapshot, objectId, previous);
    return c.json(p.select ? (await attachLocations(c.var.deps.sources, version, [object], [rank]))[0] : object);
  });

  app.get(honoPath(CALLEES), async (c) => {
    const p = parseParams(parseQuery(c.req.url), CALLEES.query);
    const objectId = id(c);
    const withLocations = p.select.includes("source-locations");
    if (withLocations && !c.var.deps.sources) throw sourcesDisabled();
    const { version, snapshot } = await newest(c);
    const result = await objectCallees(snapshot, objectId, {
      includeEscalated: p.includeEscalated,
      withParent: p.select.includes("parent"),
    });
    return streamJson(
      c,
      withLocations ? withSourceLocations(c, version, result.callees, result.ranks) : result.callees,
    );
  });

  app.get(honoPath(START_END_POINTS), async (c) => {
    const p = parseParams(parseQuery(c.req.url), START_END_POINTS.query);
    const objectId = id(c);
    const { snapshot } = await newest(c);
    return streamJson(c, await startEndPoints(snapshot, objectId, p.hops));
  });
}

/** `list` with the source locations of each batch, asked of the source code service batch by batch as the answer is written. */
function withSourceLocations<T extends object>(
  c: Context<AppEnv>,
  version: Version,
  list: StreamedList<T>,
  ranks: readonly number[],
) {
  return list.mapBatches((batch, from) =>
    attachLocations(c.var.deps.sources, version, batch, ranks.slice(from, from + batch.length)),
  );
}

function sourcesDisabled(): ApiError {
  return new ApiError(
    "source_service_unavailable",
    "select=source-locations needs the source code service, which is disabled or not configured on this server",
    { parameter: "select" },
  );
}
