// @module HTTP caching: ETag from the published versions and the request, Cache-Control, 304 on If-None-Match.
import { beforeAll, describe, expect, it } from "vitest";
import { compileDocument } from "../../build/compile/compile-document.ts";
import { memorySource, Snapshot } from "../../src/format/snapshot.ts";
import { readServerTiming } from "../../src/http/server-timing.ts";
import { findObjects } from "../../src/query/find-objects.ts";
import { levelNodes } from "../../src/query/levels.ts";
import { collect } from "../../src/query/streamed-list.ts";
import { publishSnapshot } from "../../src/storage/publish.ts";
import { R2Store } from "../../src/storage/r2-store.ts";
import petstoreV1 from "../fixtures/examples/petstore-v1.json";
import petstoreV2 from "../fixtures/examples/petstore-v2.json";
import { largeAnalysis } from "../support/large-analysis.ts";
import { appPath, BASE, call, fetchWorker, publishHistory, testEnv } from "./harness.ts";

const application = "Caching & Co";
const find = `${appPath(application)}/objects?limit=3&name=find`;

beforeAll(async () => {
  await publishHistory([{ ...petstoreV1, application }]);
});

describe("conditional GET", () => {
  it("tags a 200 with a strong ETag and public, no-cache; the same request gets the same tag", async () => {
    const first = await call(find);
    expect(first.status).toBe(200);
    const tag = first.headers.get("ETag");
    expect(tag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(first.headers.get("Cache-Control")).toBe("public, no-cache");
    expect((await call(find)).headers.get("ETag")).toBe(tag);
    expect((await call(`${appPath(application)}/objects?limit=4&name=find`)).headers.get("ETag")).not.toBe(tag);
  });

  it("answers 304 without a body when If-None-Match names the current tag (also in a list, or weak)", async () => {
    const tag = (await call(find)).headers.get("ETag")!;
    for (const ifNoneMatch of [tag, `"other", ${tag}`, `W/${tag}`, "*"]) {
      const response = await fetchWorker(new Request(BASE + find, { headers: { "If-None-Match": ifNoneMatch } }));
      expect(response.status, ifNoneMatch).toBe(304);
      expect(await response.text()).toBe("");
      expect(response.headers.get("ETag")).toBe(tag);
    }
    expect((await call(find, { headers: { "If-None-Match": '"stale"' } })).status).toBe(200);
  });

  it("answers a revalidation naming the current tag before computing anything: no snapshot read, nothing looked up", async () => {
    const walk = `${appPath(application)}/objects/${petstoreV1.objects[0].id}/start-end-points?hops=3`;
    const first = await call(walk);
    expect(first.status).toBe(200);
    const tag = first.headers.get("ETag")!;
    const timing = (response: { headers: Headers }) => readServerTiming(response.headers.get("Server-Timing"));
    expect(timing(first)!.hits + timing(first)!.misses).toBeGreaterThan(0);
    for (const method of ["GET", "HEAD"]) {
      const fresh = await call(walk, { method, headers: { "If-None-Match": `"other", W/${tag}` } });
      expect(fresh.status, method).toBe(304);
      expect(fresh.text).toBe("");
      expect(fresh.headers.get("ETag")).toBe(tag);
      expect(fresh.headers.get("Cache-Control")).toBe("public, no-cache");
      expect(fresh.headers.get("Access-Control-Allow-Origin")).toBe("*");
      expect(timing(fresh)).toMatchObject({ reads: 0, hits: 0, misses: 0 });
    }
    // "*" asks whether the answer exists, which only the answer tells: a missing object is still a 404.
    const missing = await call(`${appPath(application)}/objects/999/start-end-points`, {
      headers: { "If-None-Match": "*" },
    });
    expect(missing.status).toBe(404);
  });

  it("a new published version changes the tag, so a revalidation gets the new answer", async () => {
    const before = await call(find);
    await publishSnapshot(new R2Store(testEnv.SNAPSHOTS), compileDocument({ ...petstoreV2, application }).bytes);
    await new Promise((resolve) => setTimeout(resolve, 1100)); // manifests are trusted for MANIFEST_TTL_MS
    const after = await call(find, { headers: { "If-None-Match": before.headers.get("ETag")! } });
    expect(after.status).toBe(200);
    expect(after.headers.get("ETag")).not.toBe(before.headers.get("ETag"));
    expect(after.body).not.toEqual(before.body);
  });

  it("errors are not stored and carry no ETag", async () => {
    const missing = await call(`${appPath(application)}/objects/999`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get("Cache-Control")).toBe("no-store");
    expect(missing.headers.get("ETag")).toBeNull();
    expect((await call(`${appPath(application)}/objects`)).headers.get("Cache-Control")).toBe("no-store");
  });
});

describe("answers written as they are read (more than two 64 KiB chunks)", () => {
  const large = "Streamed & Co";
  const document = largeAnalysis(large, "2026-03-01T00:00:00Z", 1500);
  let snapshot: Snapshot;
  let node: number;
  beforeAll(async () => {
    const { bytes } = await publishHistory([document]);
    snapshot = await Snapshot.open(memorySource(bytes[0]));
    const l5 = (await snapshot.taxonomy()).levels[4];
    node = [...l5.nbObjects.keys()].reduce((a, b) => (l5.nbObjects[b] > l5.nbObjects[a] ? b : a));
  });
  const nodes = () => `${appPath(large)}/levels/5/nodes?_id=${node}&select=children`;

  it("send the bytes JSON.stringify writes of the whole answer", async () => {
    const answer = await call(nodes());
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Content-Type")).toBe("application/json");
    expect(answer.text.length).toBeGreaterThan(300_000);
    expect(answer.text).toBe(JSON.stringify(await collect(await levelNodes(snapshot, 5, { id: node }))));
    const found = await call(`${appPath(large)}/objects?limit=10000`);
    const { totalObjects, objects } = await collect(
      await findObjects(snapshot, { filters: {}, operator: "contains", searchtype: "all", skip: 0, limit: 10000 }),
    );
    expect(found.text).toBe(JSON.stringify({ totalObjects, objects }));
  });

  it("carry the ETag; HEAD and a matching If-None-Match send no body", async () => {
    const tag = (await call(nodes())).headers.get("ETag");
    expect(tag).toMatch(/^"[0-9a-f]{32}"$/);
    const head = await fetchWorker(new Request(BASE + nodes(), { method: "HEAD" }));
    expect(head.status).toBe(200);
    expect(head.headers.get("ETag")).toBe(tag);
    expect(await head.text()).toBe("");
    const fresh = await fetchWorker(new Request(BASE + nodes(), { headers: { "If-None-Match": tag! } }));
    expect(fresh.status).toBe(304);
    expect(await fresh.text()).toBe("");
  });
});
