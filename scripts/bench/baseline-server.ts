// @module The SQLite baseline over HTTP: node:http with keep-alive, the mix's REST routes, the same JSON bodies; run as its own process.
//
//   node scripts/bench/baseline-server.ts <database> <port>     (prints "listening <port>" when ready)
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { HOST } from "../dev-server.ts";
import { type ChildServer, startChildServer } from "./child-server.ts";
import { queryOfPath, UnsupportedPath } from "./queries.ts";
import { ObjectNotFound, SqliteBaseline } from "./sqlite-baseline.ts";

function serve(database: string, port: number): void {
  const baseline = new SqliteBaseline(database);
  const server = createServer({ keepAliveTimeout: 120_000 }, (request, response) => {
    const send = (status: number, body: unknown) => {
      const text = JSON.stringify(body);
      response.writeHead(status, {
        "content-type": status === 200 ? "application/json" : "application/problem+json",
        "content-length": Buffer.byteLength(text),
      });
      response.end(text);
    };
    if (request.url === "/rest/ready") return send(200, true);
    try {
      send(200, baseline.answer(queryOfPath(request.url ?? "/")));
    } catch (error) {
      if (error instanceof ObjectNotFound) send(404, { status: 404, code: "object_not_found", detail: error.message });
      else if (error instanceof UnsupportedPath)
        send(400, { status: 400, code: "invalid_parameter", detail: error.message });
      else send(500, { status: 500, code: "internal_error", detail: (error as Error).message });
    }
  });
  server.listen(port, HOST, () => process.stdout.write(`listening ${port}\n`));
}

/** Starts the baseline server as a child process on `port` and waits until it listens. */
export function startBaselineServer(database: string, port: number): Promise<ChildServer> {
  return startChildServer(
    "the baseline server",
    process.execPath,
    [fileURLToPath(import.meta.url), database, String(port)],
    port,
    "listening",
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) serve(process.argv[2], Number(process.argv[3]));
