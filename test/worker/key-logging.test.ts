// @module API keys never reach the logs, even when a request fails inside the server.
import { afterEach, describe, expect, it, vi } from "vitest";
import { createApp } from "../../src/app.ts";
import { parseAccessPolicy } from "../../src/http/access.ts";
import type { Catalog } from "../../src/storage/catalog.ts";

const SECRET = "s3cr3t-key-value";

afterEach(() => vi.restoreAllMocks());

describe("API keys and logs", () => {
  it("an internal error is logged with method and path only: neither the header nor the api-key parameter appears", async () => {
    const lines: string[] = [];
    const record = (...args: unknown[]) =>
      void lines.push(args.map((a) => (a instanceof Error ? `${a.message} ${a.stack}` : String(a))).join(" "));
    for (const level of ["log", "info", "warn", "error", "debug"] as const)
      vi.spyOn(console, level).mockImplementation(record);
    // A catalog that fails in an unforeseen way: the answer is 500 internal_error, and the failure is logged.
    const catalog: Catalog = {
      applications: async () => [],
      versions: async () => {
        throw new Error("unexpected failure");
      },
      open: async () => {
        throw new Error("unreachable");
      },
    };
    const app = createApp(async () => ({
      catalog,
      sources: null,
      access: await parseAccessPolicy(JSON.stringify({ [SECRET]: "*" })),
    }));
    for (const request of [
      new Request(`http://x/rest/applications/App/objects?limit=1&api-key=${SECRET}`),
      new Request("http://x/rest/applications/App/objects?limit=1", { headers: { "X-API-KEY": SECRET } }),
      new Request("http://x/rest/applications/App/objects?limit=1", { headers: { Authorization: `Bearer ${SECRET}` } }),
    ]) {
      const response = await app.fetch(request);
      expect(response.status).toBe(500);
      expect(((await response.json()) as { code: string }).code).toBe("internal_error");
    }
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(lines.join("\n")).toContain("/rest/applications/App/objects");
    expect(lines.join("\n")).not.toContain(SECRET);
  });
});
