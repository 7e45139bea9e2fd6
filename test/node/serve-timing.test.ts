// @module appstruct serve: Server-Timing reports a cold answer's reads exactly (the same request in process, counted at the file), none when warm or for a revalidation naming its tag; --read-latency-ms delays every read and refuses anything but milliseconds.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileAnalysisToFile } from "../../build/compile/compile.ts";
import { loadFolderCatalog } from "../../build/folder-catalog.ts";
import { startAppstructServe } from "../../scripts/bench/appstruct-serve.ts";
import type { ChildServer } from "../../scripts/bench/child-server.ts";
import { createApp } from "../../src/app.ts";
import { SectionCache } from "../../src/format/section-cache.ts";
import { countingSource } from "../../src/format/snapshot.ts";
import { readServerTiming, type StorageTiming } from "../../src/http/server-timing.ts";
import { appstruct } from "../support/appstruct-cli.ts";

const EXAMPLES = join(import.meta.dirname, "../fixtures/examples");
const LATENCY_MS = 20;
const MiB = 1024 * 1024;
const PATH = `/rest/applications/${encodeURIComponent("Pet Store & Co")}/objects?name=owner&limit=5`;

let folder: string;
let server: ChildServer | undefined;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "appstruct-serve-timing-"));
  const snapshot = join(folder, "petstore-v1.snap");
  await compileAnalysisToFile(join(EXAMPLES, "petstore-v1.json"), snapshot, null);
  server = await startAppstructServe(snapshot, 64, LATENCY_MS);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await rm(folder, { recursive: true, force: true });
});

async function get(path: string): Promise<{ body: unknown; timing: StorageTiming }> {
  const response = await fetch(`${server!.url}${path}`);
  expect(response.headers.get("Access-Control-Expose-Headers")).toBe("ETag, Server-Timing");
  const timing = readServerTiming(response.headers.get("Server-Timing"));
  expect(timing, response.headers.get("Server-Timing") ?? "no Server-Timing").not.toBeNull();
  return { body: await response.json(), timing: timing! };
}

describe("appstruct serve --read-latency-ms, Server-Timing", () => {
  it("a cold answer reports the reads it made, each delayed; a warm one reads nothing", async () => {
    const cold = await get(PATH);
    const warm = await get(PATH);

    // The same request in process, over the same folder, every read counted at the file.
    const counted: ReturnType<typeof countingSource>[] = [];
    const catalog = await loadFolderCatalog(folder, () => {}, {
      sections: new SectionCache(64 * MiB),
      readThrough: (source) => {
        counted.push(countingSource(source));
        return counted.at(-1)!;
      },
    });
    const app = createApp(() => ({ catalog, sources: null, access: null }));
    expect(await (await app.fetch(new Request(`http://local${PATH}`))).json()).toEqual(cold.body);
    expect(counted).toHaveLength(1);
    const [file] = counted;
    expect(file.reads).toBeGreaterThan(1);

    expect(cold.timing).toMatchObject({ reads: file.reads, bytes: file.bytesRead });
    // Reads run in rounds (a section, then what it points to), those that do not wait on each other together.
    expect(cold.timing.rounds).toBeGreaterThanOrEqual(2);
    expect(cold.timing.rounds).toBeLessThan(cold.timing.reads);
    // Not a speed: the floor the delay sets, each round waiting LATENCY_MS first.
    expect(cold.timing.storageMs).toBeGreaterThanOrEqual(cold.timing.rounds * LATENCY_MS);
    expect(warm.body).toEqual(cold.body);
    expect(warm.timing).toEqual({
      storageMs: 0,
      reads: 0,
      rounds: 0,
      bytes: 0,
      hits: warm.timing.hits,
      misses: 0,
      prefetches: 0,
      prefetchedBytes: 0,
    });
    expect(warm.timing.hits).toBeGreaterThan(0);
  });

  it("a revalidation naming the tag gets its 304 without a read, from a server that never worked the answer out", async () => {
    const walk = `/rest/applications/${encodeURIComponent("Pet Store & Co")}/objects/302/start-end-points?hops=3`;
    // The tag depends only on the published versions and the request: the app in process issues the same.
    const catalog = await loadFolderCatalog(folder, () => {}, { sections: new SectionCache(64 * MiB) });
    const app = createApp(() => ({ catalog, sources: null, access: null }));
    const answered = await app.fetch(new Request(`http://local${walk}`));
    expect(answered.status).toBe(200);
    const tag = answered.headers.get("ETag")!;

    const response = await fetch(`${server!.url}${walk}`, { headers: { "If-None-Match": tag } });
    expect(response.status).toBe(304);
    expect(response.headers.get("ETag")).toBe(tag);
    expect(readServerTiming(response.headers.get("Server-Timing"))).toMatchObject({
      reads: 0,
      storageMs: 0,
      hits: 0,
      misses: 0,
    });
    // Its answer is still there to be read in full, which takes reads on this cold path.
    expect((await get(walk)).timing.reads).toBeGreaterThan(0);
  });

  it("refuses a latency that is not a number of milliseconds from 0 to 60000, saying what is allowed", async () => {
    for (const bad of ["-5", "20ms", "60001"]) {
      const run = await appstruct("serve", "--data", folder, "--read-latency-ms", bad);
      expect(run.code, bad).toBe(2);
      expect(run.stderr).toContain(
        `--read-latency-ms must be a number of milliseconds from 0 to 60000 (as 20 or 2.5), not "${bad}"`,
      );
    }
  });
});
