// @module A keep-alive HTTP client for one server: one connection, requests one at a time.
import { Agent, get } from "node:http";

/** A 200's body (not parsed: timing stops at the last byte) and its Server-Timing header, if any. */
export interface Answer {
  body: string;
  serverTiming: string | undefined;
}

export interface JsonClient {
  /** GETs `path`; resolves with the body of a 200, rejects on anything else. */
  get(path: string): Promise<string>;
  /** The same, with the answer's Server-Timing. */
  answer(path: string): Promise<Answer>;
  close(): void;
}

export function jsonClient(origin: string): JsonClient {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const answer = (path: string) =>
    new Promise<Answer>((resolve, reject) => {
      const request = get(`${origin}${path}`, { agent }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (c: Buffer) => chunks.push(c));
        response.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          if (response.statusCode !== 200)
            reject(new Error(`${origin}${path} answered ${response.statusCode}: ${text.slice(0, 300)}`));
          else {
            const timing = response.headers["server-timing"];
            resolve({ body: text, serverTiming: Array.isArray(timing) ? timing.join(", ") : timing });
          }
        });
        response.on("error", reject);
      });
      request.setTimeout(120_000, () => request.destroy(new Error(`${origin}${path}: no answer in 120 s`)));
      request.on("error", reject);
    });
  return {
    get: async (path) => (await answer(path)).body,
    answer,
    close: () => agent.destroy(),
  };
}
