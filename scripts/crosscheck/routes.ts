// @module parseRoute: which of the mix's operations a URL asks for, with its parameters checked (the SQLite server and the engine-level timing share it).
import { BadRequest, checkNames, findRequest, integer, oneOf } from "./request-params.ts";
import type { FindRequest } from "./sqlite-find.ts";

export type Route =
  | { kind: "ready" }
  | { kind: "find"; request: FindRequest }
  | { kind: "characteristics"; id: string }
  | { kind: "callees"; id: string; includeEscalated: boolean; withParent: boolean }
  | { kind: "callers"; id: string; includeEscalated: boolean; withParent: boolean }
  | { kind: "call-hierarchy"; id: string; direction: "callees" | "callers" | "both"; hops: number; limit: number }
  | { kind: "points"; id: string; hops: number }
  | { kind: "level-nodes"; level: number; name: string | undefined; id: number | undefined }
  | { kind: "level-graph"; level: number };

/** The route of `url` on `application`'s API, or a BadRequest (404 for unknown routes and applications). */
export function parseRoute(url: URL, application: string): Route {
  if (url.pathname === "/rest/ready") return { kind: "ready" };
  const segments = url.pathname.split("/").slice(1).map(decodeURIComponent);
  if (segments[0] !== "rest" || segments[1] !== "applications" || segments.length < 4)
    throw new BadRequest("route_not_found", `no route ${url.pathname}`, 404);
  if (segments[2] !== application)
    throw new BadRequest("application_not_found", `no application ${JSON.stringify(segments[2])}`, 404);
  const q = url.searchParams;
  const [, , , resource, key, sub] = segments;
  if (resource === "objects" && key === undefined) return { kind: "find", request: findRequest(q) };
  if (resource === "objects" && /^\d{1,19}$/.test(key)) {
    if (sub === undefined) {
      checkNames(q, [], []);
      return { kind: "characteristics", id: key };
    }
    if (sub === "callees" || sub === "callers") {
      checkNames(q, ["select", "includeEscalated"], ["select"]);
      const select = q.getAll("select").map((s) => s.toLowerCase());
      if (select.some((s) => s !== "parent"))
        throw new BadRequest(
          "invalid_parameter",
          "select must be parent here (source locations are not part of the cross-check)",
        );
      return {
        kind: sub,
        id: key,
        includeEscalated: oneOf(q, "includeEscalated", ["true", "false"] as const, "false") === "true",
        withParent: select.includes("parent"),
      };
    }
    if (sub === "call-hierarchy") {
      checkNames(q, ["direction", "hops", "limit"], []);
      if (!q.has("direction")) throw new BadRequest("missing_parameter", "direction is required");
      return {
        kind: "call-hierarchy",
        id: key,
        direction: oneOf(q, "direction", ["callees", "callers", "both"] as const, "callees"),
        hops: integer(q, "hops", 1, 32, 3),
        limit: integer(q, "limit", 1, 10000, 1000),
      };
    }
    if (sub === "start-end-points") {
      checkNames(q, ["hops"], []);
      return { kind: "points", id: key, hops: integer(q, "hops", 0, 32, 1) };
    }
  }
  if (resource === "levels" && /^[1-5]$/.test(key)) {
    const level = Number(key);
    if (sub === "graph") {
      checkNames(q, [], []);
      return { kind: "level-graph", level };
    }
    if (sub === "nodes" && level >= 2) {
      checkNames(q, ["name", "_id", "select"], []);
      if (q.get("select")?.toLowerCase() !== "children")
        throw new BadRequest("missing_parameter", "select=children is required");
      if (!q.has("name") && !q.has("_id")) throw new BadRequest("missing_parameter", "give name or _id");
      return {
        kind: "level-nodes",
        level,
        name: q.get("name")?.toLowerCase(),
        id: q.has("_id") ? integer(q, "_id", 0, Number.MAX_SAFE_INTEGER) : undefined,
      };
    }
  }
  throw new BadRequest("route_not_found", `no route ${url.pathname}`, 404);
}
