// @module A keep-alive HTTP client for one server: one connection, requests one at a time.
import { Agent, get } from "node:http";

export interface JsonClient {
  /** GETs `path`; resolves with the body of a 200 (not parsed: timing stops at the last byte), rejects on anything else. */
  get(path: string): Promise<string>;
  close(): void;
}

export function jsonClient(origin: string): JsonClient {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return {
    get: (path) =>
      new Promise((resolve, reject) => {
        const request = get(`${origin}${path}`, { agent }, (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (c: Buffer) => chunks.push(c));
          response.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            if (response.statusCode !== 200)
              reject(new Error(`${origin}${path} answered ${response.statusCode}: ${text.slice(0, 300)}`));
            else resolve(text);
          });
          response.on("error", reject);
        });
        request.setTimeout(120_000, () => request.destroy(new Error(`${origin}${path}: no answer in 120 s`)));
        request.on("error", reject);
      }),
    close: () => agent.destroy(),
  };
}
