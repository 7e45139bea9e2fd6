// @module throughAdapter: one GET through `appstruct serve`'s request listener in process, with stand-ins for Node's request and response: the adapter and the app without sockets or HTTP parsing.
import { EventEmitter } from "node:events";
import type { getRequestListener } from "@hono/node-server";

export type Listener = ReturnType<typeof getRequestListener>;

/**
 * One GET of `path` through the adapter's request listener, as `serve` hands it Node's request and
 * response, with stand-ins for both: what the adapter and the app cost without sockets and HTTP
 * parsing. Resolves with the status once the answer has ended.
 */
export function throughAdapter(listener: Listener, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const incoming = Object.assign(new EventEmitter(), {
      method: "GET",
      url: path,
      headers: { host: "127.0.0.1" },
      rawHeaders: ["Host", "127.0.0.1"],
      socket: { encrypted: false },
    });
    let status = 0;
    const outgoing = Object.assign(new EventEmitter(), {
      writable: true,
      destroyed: false,
      writableFinished: false,
      hasHeader: () => false,
      flushHeaders: () => {},
      writeHead: (code: number) => {
        status = code;
      },
      write: () => true,
      end: () => {
        outgoing.writableFinished = true;
        outgoing.emit("finish");
        resolve(status);
      },
      destroy: (error?: Error) => reject(error ?? new Error(`${path}: the answer was destroyed`)),
    });
    Promise.resolve(listener(incoming as never, outgoing as never)).catch(reject);
  });
}
