// @module Taxonomy routes: level nodes (by name or _id) with children, and the level graph.
import type { Context, Hono } from "hono";
import { ApiError } from "../../contract/errors.ts";
import { honoPath, LEVEL_GRAPH, LEVEL_NODES, LEVEL_PATTERN, MAX_LEVEL, MIN_LEVEL } from "../../contract/route-specs.ts";
import { levelGraphJson, levelNodes } from "../../query/levels.ts";
import { selectedAnalysis } from "../application.ts";
import type { AppEnv } from "../context.ts";
import { streamJson } from "../json-stream.ts";
import { parseParams } from "../params.ts";
import { parseQuery } from "../query-string.ts";

/** `{level}` of the path: malformed is invalid_parameter, well-formed but outside [min, 5] is unsupported_level. */
function level(c: Context<AppEnv>, min: number): number {
  const raw = c.req.param("level") ?? "";
  if (!LEVEL_PATTERN.test(raw))
    throw new ApiError(
      "invalid_parameter",
      `level must be an integer from ${min} to ${MAX_LEVEL}, got ${JSON.stringify(raw.slice(0, 100))}`,
      { parameter: "level" },
    );
  const n = Number(raw);
  if (n < min || n > MAX_LEVEL)
    throw new ApiError(
      "unsupported_level",
      `level ${n} is not supported here: use a level from ${min} to ${MAX_LEVEL}`,
      { parameter: "level" },
    );
  return n;
}

export function levelRoutes(app: Hono<AppEnv>): void {
  app.get(honoPath(LEVEL_NODES), async (c) => {
    const n = level(c, MIN_LEVEL.nodes);
    const p = parseParams(parseQuery(c.req.url), LEVEL_NODES.query);
    if (p.name === undefined && p._id === undefined)
      throw new ApiError(
        "missing_parameter",
        "give name (a substring of the node name) or _id (a node's volatile id)",
        { parameter: "name" },
      );
    const { snapshot } = await selectedAnalysis(c, p.date);
    return streamJson(c, await levelNodes(snapshot, n, { name: p.name, id: p._id }));
  });

  app.get(honoPath(LEVEL_GRAPH), async (c) => {
    const n = level(c, MIN_LEVEL.graph);
    const p = parseParams(parseQuery(c.req.url), LEVEL_GRAPH.query);
    const json = await levelGraphJson((await selectedAnalysis(c, p.date)).snapshot, n);
    return c.body(json, 200, { "Content-Type": "application/json" });
  });
}
