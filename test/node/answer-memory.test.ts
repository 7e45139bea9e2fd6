// @module The per-request heap budget (docs/memory.md): the largest answers of a generated application, through the app in process, stay within it while they are far larger, and send the bytes of the whole answer.
import { beforeAll, describe, expect, it } from "vitest";
import { type Fetch, heapGrowth, send } from "../../scripts/bench/heap-growth.ts";
import { createApp } from "../../src/app.ts";
import { sha256Hex } from "../../src/digests.ts";
import { positionsByRank, readWholeIdPages } from "../../src/format/id-pages.ts";
import { SectionCache } from "../../src/format/section-cache.ts";
import { memorySource, Snapshot } from "../../src/format/snapshot.ts";
import { MAX_BATCH_MESSAGES } from "../../src/mcp/batches.ts";
import { findObjects } from "../../src/query/find-objects.ts";
import { levelNodes } from "../../src/query/levels.ts";
import { startEndPoints } from "../../src/query/points.ts";
import { collect } from "../../src/query/streamed-list.ts";
import type { Catalog } from "../../src/storage/catalog.ts";
import { generatedSnapshot } from "../support/generated-snapshot.ts";

/** Heap one request may take above the section cache, whatever it asks (docs/memory.md). */
const REQUEST_BUDGET = 32 * 2 ** 20;
const OBJECTS = 80_000;
const ORIGIN = "http://appstruct.test";

const gc = (globalThis as { gc?: () => void }).gc;

let fetch: Fetch;
let snapshot: Snapshot;
let path: (rest: string) => string;

beforeAll(async () => {
  if (!gc) throw new Error("the node project runs with --expose-gc (vitest.config.ts): this test forces GCs");
  const bytes = await generatedSnapshot(OBJECTS, 5);
  const sha256 = await sha256Hex(bytes);
  // The worker's default section budget; the snapshot's bytes are in memory before the baseline.
  snapshot = await Snapshot.open(memorySource(bytes, sha256), { sections: new SectionCache(64 * 2 ** 20) });
  const { application, analyzedAt, analyzedAtMs } = snapshot.meta;
  const version = { sha256, analyzedAt, analyzedAtMs, size: bytes.length };
  const catalog: Catalog = {
    applications: async () => [application],
    versions: async (name) => (name === application ? [version] : null),
    open: async () => snapshot,
  };
  const app = createApp(() => ({ catalog, sources: null, access: null }));
  fetch = (request) => app.fetch(request);
  path = (rest) => `${ORIGIN}/rest/applications/${encodeURIComponent(application)}${rest}`;
}, 120_000);

/** The body of GET `url`, read to its end. */
async function bodyOf(url: string): Promise<string> {
  const response = await fetch(new Request(url));
  expect(response.status, url).toBe(200);
  return response.text();
}

/** Asked once (its sections cached, as in a warm isolate), then measured: what stays live above that. */
async function growth(requests: () => Request[]) {
  await send(fetch, requests());
  const measured = await heapGrowth(fetch, requests(), gc!, true);
  expect(measured.status.every((s) => s === 200)).toBe(true);
  return measured;
}

describe(`the largest answers at ${OBJECTS} objects stay within ${REQUEST_BUDGET / 2 ** 20} MiB of heap each`, () => {
  it("level-5 nodes matching e (nearly every object), five at once: far more answer than budget", async () => {
    const url = path("/levels/5/nodes?name=e&select=children");
    const reference = JSON.stringify(await collect(await levelNodes(snapshot, 5, { name: "e" })));
    expect(await bodyOf(url)).toBe(reference);
    const { bodyBytes, bytes } = await growth(() => Array.from({ length: 5 }, () => new Request(url)));
    expect(bodyBytes).toBe(5 * Buffer.byteLength(reference));
    expect(bodyBytes).toBeGreaterThan(1.5 * REQUEST_BUDGET);
    expect(bytes).toBeLessThan(REQUEST_BUDGET);
    // One request alone stays within a fraction of its answer: nothing holds the answer whole.
    expect((await growth(() => [new Request(url)])).bytes).toBeLessThan(Buffer.byteLength(reference) / 4);
  });

  it("find objects with the largest page", async () => {
    const url = path("/objects?limit=10000&name=e");
    const { totalObjects, objects } = await collect(
      await findObjects(snapshot, {
        filters: { name: ["e"] },
        operator: "contains",
        searchtype: "all",
        skip: 0,
        limit: 10000,
      }),
    );
    expect(objects).toHaveLength(10000);
    expect(await bodyOf(url)).toBe(JSON.stringify({ totalObjects, objects }));
    expect((await growth(() => [new Request(url)])).bytes).toBeLessThan(REQUEST_BUDGET);
  });

  it("start and end points within 32 hops of the object reaching most", async () => {
    const order = await readWholeIdPages(snapshot);
    const positions = positionsByRank(order);
    let widest = { id: "", answer: "" };
    for (const share of [0.1, 0.3, 0.5, 0.7]) {
      const id = order.id(positions[Math.floor(OBJECTS * share)]);
      const answer = JSON.stringify(await collect(await startEndPoints(snapshot, id, 32)));
      if (answer.length > widest.answer.length) widest = { id, answer };
    }
    expect(widest.answer.length, "a walk reaching thousands of points").toBeGreaterThan(100_000);
    const url = path(`/objects/${widest.id}/start-end-points?hops=32`);
    expect(await bodyOf(url)).toBe(widest.answer);
    expect((await growth(() => [new Request(url)])).bytes).toBeLessThan(REQUEST_BUDGET);
  });

  it("an MCP batch of the largest find_objects calls the protocol allows", async () => {
    const { application } = snapshot.meta;
    const batch = Array.from({ length: MAX_BATCH_MESSAGES }, (_, i) => ({
      jsonrpc: "2.0",
      id: i + 1,
      method: "tools/call",
      params: { name: "find_objects", arguments: { application, name: "e", limit: 1000, skip: 1000 * i } },
    }));
    const request = () =>
      new Request(`${ORIGIN}/mcp`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          "Mcp-Protocol-Version": "2025-03-26",
        },
        body: JSON.stringify(batch),
      });
    const answers = (await (await fetch(request())).json()) as {
      result: { structuredContent: { objects: unknown[] } };
    }[];
    expect(answers.map((a) => a.result.structuredContent.objects.length)).toEqual(batch.map(() => 1000));
    expect((await growth(() => [request()])).bytes).toBeLessThan(REQUEST_BUDGET);
  });
});
