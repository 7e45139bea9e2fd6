// @module The cross-check's SQLite server: the REST routes of the query mix on node:http, keep-alive, one process.
//
//   node scripts/crosscheck/sqlite-server.ts --db <file.sqlite> --port <port>
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { parseArgs } from "node:util";
import { BadRequest, checkNames, findRequest, integer, oneOf } from "./request-params.ts";
import { openReadOnly, type ServingDatabase } from "./sqlite-db.ts";
import { findObjects } from "./sqlite-find.ts";
import { levelGraph, levelNodes } from "./sqlite-levels.ts";
import { callees, characteristics, rankOf, startEndPoints } from "./sqlite-objects.ts";

/** The answer to one GET, or a BadRequest. */
export function answer(sql: ServingDatabase, url: URL): unknown {
  if (url.pathname === "/rest/ready") return true;
  const segments = url.pathname.split("/").slice(1).map(decodeURIComponent);
  if (segments[0] !== "rest" || segments[1] !== "applications" || segments.length < 4) throw new BadRequest("route_not_found", `no route ${url.pathname}`, 404);
  if (segments[2] !== sql.application) throw new BadRequest("application_not_found", `no application ${JSON.stringify(segments[2])}`, 404);
  const q = url.searchParams;
  const [, , , resource, key, sub] = segments;
  if (resource === "objects" && key === undefined) return findObjects(sql, findRequest(q));
  if (resource === "objects") {
    const rank = /^\d{1,19}$/.test(key) ? rankOf(sql, key) : undefined;
    if (rank === undefined) throw new BadRequest("object_not_found", `no object with id ${JSON.stringify(key)}`, 404);
    if (sub === undefined) {
      checkNames(q, [], []);
      return characteristics(sql, rank);
    }
    if (sub === "callees") {
      checkNames(q, ["select", "includeEscalated"], ["select"]);
      const select = q.getAll("select").map((s) => s.toLowerCase());
      if (select.some((s) => s !== "parent")) throw new BadRequest("invalid_parameter", "select must be parent here (source locations are not part of the cross-check)");
      return callees(sql, rank, oneOf(q, "includeEscalated", ["true", "false"] as const, "false") === "true", select.includes("parent"));
    }
    if (sub === "start-end-points") {
      checkNames(q, ["hops"], []);
      return startEndPoints(sql, rank, integer(q, "hops", 0, 32, 1));
    }
  }
  if (resource === "levels" && /^[1-5]$/.test(key)) {
    const level = Number(key);
    if (sub === "graph") {
      checkNames(q, [], []);
      return levelGraph(sql, level);
    }
    if (sub === "nodes" && level >= 2) {
      checkNames(q, ["name", "_id", "select"], []);
      if (q.get("select")?.toLowerCase() !== "children") throw new BadRequest("missing_parameter", "select=children is required");
      if (!q.has("name") && !q.has("_id")) throw new BadRequest("missing_parameter", "give name or _id");
      return levelNodes(sql, level, q.get("name")?.toLowerCase(), q.has("_id") ? integer(q, "_id", 0, Number.MAX_SAFE_INTEGER) : undefined);
    }
  }
  throw new BadRequest("route_not_found", `no route ${url.pathname}`, 404);
}

function handle(sql: ServingDatabase, request: IncomingMessage, response: ServerResponse): void {
  let status = 200;
  let body: string;
  try {
    body = JSON.stringify(answer(sql, new URL(request.url ?? "/", "http://localhost")));
  } catch (error) {
    const known = error instanceof BadRequest;
    status = known ? error.status : 500;
    body = JSON.stringify({ status, code: known ? error.code : "internal_error", detail: (error as Error).message });
  }
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  response.end(body);
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { db: { type: "string" }, port: { type: "string", default: "0" }, host: { type: "string", default: "127.0.0.1" } } });
  if (!values.db) throw new Error("--db <file.sqlite> is required");
  const sql = openReadOnly(values.db);
  const server = createServer({ keepAlive: true, keepAliveTimeout: 60_000 }, (request, response) => handle(sql, request, response));
  server.listen(Number(values.port), values.host, () => {
    const address = server.address();
    console.log(`sqlite cross-check server on http://${values.host}:${typeof address === "object" && address ? address.port : values.port}`);
  });
}
