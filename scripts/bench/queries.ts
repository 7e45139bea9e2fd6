// @module The queries of the benchmark mix: one typed form, its REST path, and the path read back (for the baseline server).
import type { Operator } from "../../src/contract/params.ts";

/** Text filters the mix (and so the baseline) uses: one value each; one operator for all. */
export interface TextFilters {
  name?: string;
  fullname?: string;
  type?: string;
}

export type BenchQuery =
  | { route: "find"; filters: TextFilters; operator: Operator; skip: number; limit: number }
  | { route: "characteristics"; id: string; withLocations: boolean }
  | { route: "callees"; id: string; includeEscalated: boolean; withParent: boolean }
  | { route: "callers"; id: string; includeEscalated: boolean; withParent: boolean }
  | { route: "call-hierarchy"; id: string; direction: HierarchyDirection; hops: number }
  | { route: "points"; id: string; hops: number }
  | { route: "level-nodes"; level: number; name?: string; nodeId?: number }
  | { route: "level-graph"; level: number };

/** Which way a call hierarchy follows links (docs/api.md). */
export type HierarchyDirection = "callees" | "callers" | "both";
export const DIRECTIONS: readonly HierarchyDirection[] = ["callees", "callers", "both"];

export const APPLICATION = "Synthetic Enterprise";
const BASE = `/rest/applications/${encodeURIComponent(APPLICATION)}`;
const FILTER_NAMES = ["name", "fullname", "type"] as const;

function queryString(params: [string, string | number | boolean][]): string {
  return params.map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`).join("&");
}

/** The REST path (with query string) that asks `q`, as docs/api.md writes it. */
export function pathOf(q: BenchQuery): string {
  switch (q.route) {
    case "find": {
      const params: [string, string | number][] = [["limit", q.limit]];
      if (q.skip) params.push(["skip", q.skip]);
      for (const f of FILTER_NAMES) if (q.filters[f] !== undefined) params.push([f, q.filters[f]!]);
      if (q.operator !== "contains") params.push(["operator", q.operator]);
      return `${BASE}/objects?${queryString(params)}`;
    }
    case "characteristics":
      return `${BASE}/objects/${q.id}${q.withLocations ? "?select=source-locations" : ""}`;
    case "callees":
    case "callers": {
      const params: [string, string | boolean][] = [];
      if (q.includeEscalated) params.push(["includeEscalated", true]);
      if (q.withParent) params.push(["select", "parent"]);
      return `${BASE}/objects/${q.id}/${q.route}${params.length ? `?${queryString(params)}` : ""}`;
    }
    case "call-hierarchy":
      return `${BASE}/objects/${q.id}/call-hierarchy?${queryString([
        ["direction", q.direction],
        ["hops", q.hops],
      ])}`;
    case "points":
      return `${BASE}/objects/${q.id}/start-end-points?hops=${q.hops}`;
    case "level-nodes": {
      const params: [string, string | number][] = [];
      if (q.name !== undefined) params.push(["name", q.name]);
      if (q.nodeId !== undefined) params.push(["_id", q.nodeId]);
      params.push(["select", "children"]);
      return `${BASE}/levels/${q.level}/nodes?${queryString(params)}`;
    }
    case "level-graph":
      return `${BASE}/levels/${q.level}/graph`;
  }
}

/** Why a path is not one the baseline answers: thrown by queryOfPath, answered 400 by the baseline server. */
export class UnsupportedPath extends Error {}

const OPERATORS: readonly Operator[] = ["contains", "equals", "startswith", "endswith"];

/**
 * The query a path asks, for the paths pathOf writes (and the same routes with parameters in any
 * order). Anything else is UnsupportedPath: the baseline only implements what the mix asks.
 */
export function queryOfPath(path: string): BenchQuery {
  const url = new URL(path, "http://baseline");
  if (!url.pathname.startsWith(`${BASE}/`)) throw new UnsupportedPath(`only ${BASE}/… is served`);
  const rest = url.pathname.slice(BASE.length + 1).split("/");
  const params = new Map<string, string>();
  for (const [k, v] of url.searchParams) {
    if (params.has(k)) throw new UnsupportedPath(`${k} given twice: the baseline takes one value per parameter`);
    params.set(k, v);
  }
  const take = (name: string) => {
    const v = params.get(name);
    params.delete(name);
    return v;
  };
  const integer = (name: string, raw: string | undefined, fallback?: number) => {
    if (raw === undefined && fallback !== undefined) return fallback;
    if (raw === undefined || !/^\d{1,15}$/.test(raw))
      throw new UnsupportedPath(`${name} must be a non-negative integer`);
    return Number(raw);
  };
  const done = <T extends BenchQuery>(q: T): T => {
    if (params.size) throw new UnsupportedPath(`parameter ${[...params.keys()][0]} is not supported by the baseline`);
    return q;
  };
  const objectId = (raw: string) => {
    if (!/^\d{1,19}$/.test(raw)) throw new UnsupportedPath("id must be 1 to 19 digits");
    return raw;
  };
  if (rest[0] === "objects" && rest.length === 1) {
    const filters: TextFilters = {};
    for (const f of FILTER_NAMES) {
      const v = take(f);
      if (v !== undefined) filters[f] = v;
    }
    const operator = (take("operator") ?? "contains").toLowerCase() as Operator;
    if (!OPERATORS.includes(operator)) throw new UnsupportedPath(`operator must be one of ${OPERATORS.join(", ")}`);
    const limit = integer("limit", take("limit"));
    const skip = integer("skip", take("skip"), 0);
    return done({ route: "find", filters, operator, skip, limit });
  }
  if (rest[0] === "objects" && rest.length === 2) {
    const select = take("select");
    if (select !== undefined && select !== "source-locations")
      throw new UnsupportedPath("select must be source-locations");
    return done({ route: "characteristics", id: objectId(rest[1]), withLocations: select !== undefined });
  }
  if (rest[0] === "objects" && rest.length === 3 && (rest[2] === "callees" || rest[2] === "callers")) {
    const includeEscalated = (take("includeEscalated") ?? "false").toLowerCase() === "true";
    const select = take("select");
    if (select !== undefined && select !== "parent") throw new UnsupportedPath("select must be parent");
    return done({ route: rest[2], id: objectId(rest[1]), includeEscalated, withParent: select === "parent" });
  }
  if (rest[0] === "objects" && rest.length === 3 && rest[2] === "call-hierarchy") {
    const direction = take("direction") as HierarchyDirection;
    if (!DIRECTIONS.includes(direction)) throw new UnsupportedPath(`direction must be one of ${DIRECTIONS.join(", ")}`);
    return done({ route: "call-hierarchy", id: objectId(rest[1]), direction, hops: integer("hops", take("hops"), 3) });
  }
  if (rest[0] === "objects" && rest.length === 3 && rest[2] === "start-end-points")
    return done({ route: "points", id: objectId(rest[1]), hops: integer("hops", take("hops"), 1) });
  if (rest[0] === "levels" && rest.length === 3 && rest[2] === "graph")
    return done({ route: "level-graph", level: integer("level", rest[1]) });
  if (rest[0] === "levels" && rest.length === 3 && rest[2] === "nodes") {
    if (take("select") !== "children") throw new UnsupportedPath("select=children is required");
    const name = take("name");
    const id = take("_id");
    return done({
      route: "level-nodes",
      level: integer("level", rest[1]),
      name,
      nodeId: id === undefined ? undefined : integer("_id", id),
    });
  }
  throw new UnsupportedPath(`no baseline route for ${url.pathname}`);
}
