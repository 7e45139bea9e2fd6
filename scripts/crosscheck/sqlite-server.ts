// @module The cross-check's SQLite server: the REST routes of the query mix on node:http, keep-alive, one process.
//
//   node scripts/crosscheck/sqlite-server.ts --db <file.sqlite> --port <port>
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { parseArgs } from "node:util";
import { BadRequest } from "./request-params.ts";
import { parseRoute } from "./routes.ts";
import { openReadOnly, type ServingDatabase } from "./sqlite-db.ts";
import { findObjects } from "./sqlite-find.ts";
import { levelGraph, levelNodes } from "./sqlite-levels.ts";
import { callees, callers, callHierarchy, characteristics, rankOf, startEndPoints } from "./sqlite-objects.ts";

/** The answer to one GET, or a BadRequest. */
export function answer(sql: ServingDatabase, url: URL): unknown {
  const route = parseRoute(url, sql.application);
  if (route.kind === "ready") return true;
  if (route.kind === "find") return findObjects(sql, route.request);
  if (route.kind === "level-graph") return levelGraph(sql, route.level);
  if (route.kind === "level-nodes") return levelNodes(sql, route.level, route.name, route.id);
  const rank = rankOf(sql, route.id);
  if (rank === undefined)
    throw new BadRequest("object_not_found", `no object with id ${JSON.stringify(route.id)}`, 404);
  if (route.kind === "characteristics") return characteristics(sql, rank);
  if (route.kind === "callees") return callees(sql, rank, route.includeEscalated, route.withParent);
  if (route.kind === "callers") return callers(sql, rank, route.includeEscalated, route.withParent);
  if (route.kind === "call-hierarchy") return callHierarchy(sql, rank, route.direction, route.hops, route.limit);
  return startEndPoints(sql, rank, route.hops);
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
  const { values } = parseArgs({
    options: {
      db: { type: "string" },
      port: { type: "string", default: "0" },
      host: { type: "string", default: "127.0.0.1" },
    },
  });
  if (!values.db) throw new Error("--db <file.sqlite> is required");
  const sql = openReadOnly(values.db);
  const server = createServer({ keepAlive: true, keepAliveTimeout: 60_000 }, (request, response) =>
    handle(sql, request, response),
  );
  server.listen(Number(values.port), values.host, () => {
    const address = server.address();
    console.log(
      `sqlite cross-check server on http://${values.host}:${typeof address === "object" && address ? address.port : values.port}`,
    );
  });
}
