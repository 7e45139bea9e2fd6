// @module `appstruct publish --url` against a real `wrangler dev`: two CLIs at once, then every worked answer; a wrong token changes nothing.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevServer, startDevServer } from "../../scripts/dev-server.ts";
import cornerRequests from "../fixtures/corner/requests.json";
import petstoreRequests from "../fixtures/examples/requests.json";
import { idSubstitution, type RequestCase, runCase } from "../support/request-cases.ts";

const ROOT = join(import.meta.dirname, "../../");
const BIN = `${ROOT}build/bin/appstruct.js`;
const EXAMPLES = `${ROOT}test/fixtures/examples`;
const CORNER = `${ROOT}test/fixtures/corner`;
const TOKEN = "ci-publish-token-7f3b2c";

function cli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: { ...process.env, CI: "1", APPSTRUCT_PUBLISH_TOKEN: "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d));
    child.stderr.on("data", (d: Buffer) => (stderr += d));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

let server: DevServer;
const get = (path: string) =>
  fetch(server.url + path, { headers: { Authorization: `Bearer ${TOKEN}` } }).then(async (r) => ({
    status: r.status,
    text: await r.text(),
  }));

beforeAll(async () => {
  server = await startDevServer({ files: [], vars: { PUBLISH_TOKEN: TOKEN } });
}, 120_000);
afterAll(async () => server?.stop());

describe("appstruct publish --url", () => {
  let runs: Awaited<ReturnType<typeof cli>>[];

  beforeAll(async () => {
    // Two publishers at once, each with versions of both applications, the newer ones possibly first.
    runs = await Promise.all([
      cli([
        "publish",
        "--url",
        server.url,
        "--token",
        TOKEN,
        `${EXAMPLES}/petstore-v2.json`,
        `${CORNER}/corner-v1.json`,
      ]),
      cli(["publish", "--url", `${server.url}/`, `${EXAMPLES}/petstore-v1.json`, `${CORNER}/corner-v2.json`], {
        APPSTRUCT_PUBLISH_TOKEN: TOKEN,
      }),
    ]);
  }, 120_000);

  it("both publish, one summary line per file with its version and content address, progress on stderr", () => {
    for (const run of runs) {
      expect(run.code, run.stderr).toBe(0);
      const lines = run.stdout.trim().split("\n");
      expect(lines).toHaveLength(3);
      for (const line of lines.slice(0, 2))
        expect(line).toMatch(
          /^\S+\.json: published .+ @ \d{4}-\d\d-\d\dT[^ ]+ \(\d+ objects, \d+ links, sha256 [0-9a-f]{64}\)$/,
        );
      expect(lines[2]).toBe(`2 published, 0 unchanged — ${server.url}${run === runs[1] ? "/" : ""}`);
      expect(run.stderr).toMatch(
        /\.json: uploaded [0-9.]+ (B|KiB|MiB) of [0-9.]+ (B|KiB|MiB) \([0-9.]+ (B|KiB|MiB)\/s\)\n/,
      );
    }
  });

  it("every worked answer of test/fixtures/examples/requests.json", async () => {
    const fetcher = (request: Request) => fetch(request);
    for (const c of petstoreRequests as RequestCase[])
      expect((await runCase(fetcher, server.url, c)).problems, c.request).toEqual([]);
  });

  it("every worked answer of test/fixtures/corner/requests.json", async () => {
    const fetcher = (request: Request) => fetch(request);
    const substitute = idSubstitution(fetcher, server.url);
    for (const c of cornerRequests as RequestCase[])
      expect((await runCase(fetcher, server.url, c, substitute)).problems, c.request).toEqual([]);
  });

  it("publishing the same files again is a no-op", async () => {
    // Compiled now, v2's statuses are stored against v1 (under the concurrent publish they were
    // recomputed live): new content for v2, so the first run republishes it, the second changes nothing.
    const args = [
      "publish",
      "--url",
      server.url,
      "--token",
      TOKEN,
      `${EXAMPLES}/petstore-v1.json`,
      `${EXAMPLES}/petstore-v2.json`,
    ];
    expect((await cli(args)).code).toBe(0);
    const before = await get("/publish/applications/Pet%20Store%20%26%20Co");
    const run = await cli(args);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/petstore-v1\.json: already published Pet Store & Co @ 2026-09-01T12:00:00Z/);
    expect(run.stdout.trim().split("\n").at(-1)).toBe(`0 published, 2 unchanged — ${server.url}`);
    expect(await get("/publish/applications/Pet%20Store%20%26%20Co")).toEqual(before);
    for (const c of (petstoreRequests as RequestCase[]).slice(0, 10))
      expect((await runCase((r) => fetch(r), server.url, c)).problems, c.request).toEqual([]);
  });

  it("a wrong token is refused with 401 and changes nothing", async () => {
    const before = await get("/publish/applications/Pet%20Store%20%26%20Co");
    expect(before.status).toBe(200);
    const run = await cli([
      "publish",
      "--url",
      server.url,
      "--token",
      `${TOKEN}x`,
      `${EXAMPLES}/petstore-v2.json`,
      `${CORNER}/corner-v1.json`,
    ]);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(
      /^appstruct: GET \/publish\/applications\/[^:]+: 401 unauthorized: the publish token is not valid\n$/,
    );
    expect(await get("/publish/applications/Pet%20Store%20%26%20Co")).toEqual(before);
    const noToken = await cli(["publish", "--url", server.url, `${EXAMPLES}/petstore-v2.json`]);
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain("--token <token> or APPSTRUCT_PUBLISH_TOKEN");
  });

  it("prune --keep 1 leaves the newest version of every application", async () => {
    const run = await cli(["prune", "--url", server.url, "--token", TOKEN, "--keep", "1"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      "Pet Store & Co: removed 1 version (2026-09-01T12:00:00Z); 1 kept, newest 2026-10-15T09:30:00+02:00",
    );
    const manifest = JSON.parse((await get("/publish/applications/Pet%20Store%20%26%20Co")).text) as {
      versions: { analyzedAt: string }[];
    };
    expect(manifest.versions.map((v) => v.analyzedAt)).toEqual(["2026-10-15T09:30:00+02:00"]);
  });

  it("prune --analyzed-at removes that version (rollback); usage errors exit 2", async () => {
    const run = await cli([
      "prune",
      "--url",
      server.url,
      "--token",
      TOKEN,
      "A/B + ü&Co",
      "--analyzed-at",
      "2026-04-01T06:00:00Z",
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("A/B + ü&Co: removed 1 version (2026-04-01T08:00:00+02:00); 0 kept\n");
    const gone = await fetch(`${server.url}/rest/applications/A%2FB%20%2B%20%C3%BC%26Co/objects?limit=1`);
    expect(gone.status).toBe(404);
    for (const args of [["--keep", "1", "--analyzed-at", "2026-01-01T00:00:00Z"], []]) {
      const usage = await cli(["prune", "--url", server.url, "--token", TOKEN, ...args]);
      expect(usage.code, usage.stderr).toBe(2);
    }
    const badPart = await cli([
      "publish",
      "--url",
      server.url,
      "--token",
      TOKEN,
      "--part-mib",
      "4",
      `${EXAMPLES}/petstore-v1.json`,
    ]);
    expect(badPart.code).toBe(2);
    expect(badPart.stderr).toContain("--part-mib must be from 5");
  });
});
