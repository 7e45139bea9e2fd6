// @module Object routes: find objects, characteristics, callees, callers, start and end points, call hierarchy, paths.
import type { Context, Hono } from "hono";
import { ApiError } from "../../contract/errors.ts";
import type { FilterName } from "../../contract/params.ts";
import {
  CALL_HIERARCHY,
  CALLEES,
  CALLERS,
  CHARACTERISTICS,
  FIND_OBJECTS,
  honoPath,
  OBJECT_ID_PATTERN,
  PATHS,
  START_END_POINTS,
} from "../../contract/route-specs.ts";
import { callHierarchy } from "../../query/call-hierarchy.ts";
import { objectCallees } from "../../query/callees.ts";
import { objectCallers } from "../../query/callers.ts";
import { objectCharacteristics } from "../../query/characteristics.ts";
import { FILTER_INDEX, findObjects } from "../../query/find-objects.ts";
import { rankOfId } from "../../query/lookup.ts";
import { objectPaths } from "../../query/paths.ts";
import { startEndPoints } from "../../query/points.ts";
import type { StreamedList } from "../../query/streamed-list.ts";
import { type Version, versionAt } from "../../storage/catalog.ts";
import { publishedVersions, selectedAnalysis } from "../application.ts";
import type { AppEnv } from "../context.ts";
import { streamJson } from "../json-stream.ts";
import { parseParams } from "../params.ts";
import { parseQuery } from "../query-string.ts";
import { attachLocations, locationsOf, sourceServiceOff, withLocations } from "../source-locations.ts";

/** The `{id}` path segment: an object id (or a transaction's, a data graph's: its point's). */
export const pathObjectId = (c: Context<AppEnv>): string => {
  const raw = c.req.param("id") ?? "";
  if (!OBJECT_ID_PATTERN.test(raw))
    throw new ApiError(
      "invalid_parameter",
      `id must be an object id of 1 to 19 decimal digits, got ${JSON.stringify(raw.slice(0, 100))}`,
      { parameter: "id" },
    );
  return raw;
};

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
    if (withLocations && !c.get("deps").sources) throw sourcesDisabled();
    const versions = await publishedVersions(c);
    const version = p.date === undefined ? versions[versions.length - 1] : versionAt(versions, p.date);
    if (!version) return c.json({ totalObjects: 0, objects: [] });
    const snapshot = await c.get("deps").catalog.open(version);
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
    const objectId = pathObjectId(c);
    if (p.select && !c.get("deps").sources) throw sourcesDisabled();
    const { version, snapshot, previous } = await selectedAnalysis(c, p.date);
    if (!p.select) return c.json((await objectCharacteristics(snapshot, objectId, previous)).object);
    // The locations are asked for beside the rows, not in a round after them: both wait only for the
    // rank, which the id page gives.
    const rank = await rankOfId(snapshot, objectId);
    const [{ object }, locations] = await Promise.all([
      objectCharacteristics(snapshot, objectId, previous),
      locationsOf(c.get("deps").sources, version, [rank]),
    ]);
    return c.json(withLocations([object], locations)[0]);
  });

  app.get(honoPath(CALLEES), async (c) => {
    const p = parseParams(parseQuery(c.req.url), CALLEES.query);
    const objectId = pathObjectId(c);
    const withLocations = p.select.includes("source-locations");
    if (withLocations && !c.get("deps").sources) throw sourcesDisabled();
    const { version, snapshot } = await selectedAnalysis(c, p.date);
    const result = await objectCallees(snapshot, objectId, {
      includeEscalated: p.includeEscalated,
      withParent: p.select.includes("parent"),
    });
    return streamJson(
      c,
      withLocations ? withSourceLocations(c, version, result.callees, result.ranks) : result.callees,
    );
  });

  app.get(honoPath(CALLERS), async (c) => {
    const p = parseParams(parseQuery(c.req.url), CALLERS.query);
    const objectId = pathObjectId(c);
    const withLocations = p.select.includes("source-locations");
    if (withLocations && !c.get("deps").sources) throw sourcesDisabled();
    const { version, snapshot } = await selectedAnalysis(c, p.date);
    const result = await objectCallers(snapshot, objectId, {
      includeEscalated: p.includeEscalated,
      withParent: p.select.includes("parent"),
    });
    return streamJson(
      c,
      withLocations ? withSourceLocations(c, version, result.callers, result.ranks) : result.callers,
    );
  });

  app.get(honoPath(CALL_HIERARCHY), async (c) => {
    const p = parseParams(parseQuery(c.req.url), CALL_HIERARCHY.query);
    const objectId = pathObjectId(c);
    const { snapshot } = await selectedAnalysis(c, p.date);
    return c.json(
      await callHierarchy(
        snapshot,
        objectId,
        { direction: p.direction, hops: p.hops, linkTypes: p.linkType, limit: p.limit },
        { signal: c.req.raw.signal },
      ),
    );
  });

  app.get(honoPath(PATHS), async (c) => {
    const p = parseParams(parseQuery(c.req.url), PATHS.query);
    const objectId = pathObjectId(c);
    const { snapshot } = await selectedAnalysis(c, p.date);
    return c.json(await objectPaths(snapshot, objectId, p.to, { hops: p.hops, limit: p.limit }));
  });

  app.get(honoPath(START_END_POINTS), async (c) => {
    const p = parseParams(parseQuery(c.req.url), START_END_POINTS.query);
    const objectId = pathObjectId(c);
    const { snapshot } = await selectedAnalysis(c, p.date);
    return streamJson(c, await startEndPoints(snapshot, objectId, p.hops, { signal: c.req.raw.signal }));
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
    attachLocations(c.get("deps").sources, version, batch, ranks.slice(from, from + batch.length)),
  );
}

const sourcesDisabled = () => sourceServiceOff("select=source-locations", "select");
