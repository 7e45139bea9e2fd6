// @module KeepAliveClient: sequential GETs over one kept-alive connection, timed to the last byte of the body.
import { Agent, request } from "node:http";

export interface Reply {
  status: number;
  body: string;
  /** Milliseconds from sending the request to the end of the body. */
  ms: number;
}

export class KeepAliveClient {
  readonly base: string;
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });

  constructor(base: string) {
    this.base = base;
  }

  get(path: string): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const started = performance.now();
      const req = request(`${this.base}${path}`, { agent: this.agent, method: "GET" }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString("utf8"),
            ms: performance.now() - started,
          }),
        );
        res.on("error", reject);
      });
      req.setTimeout(300_000, () => req.destroy(new Error(`${this.base}${path} did not answer within 300 s`)));
      req.on("error", reject);
      req.end();
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
