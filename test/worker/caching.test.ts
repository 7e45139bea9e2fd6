// @module HTTP caching: ETag from the published versions and the request, Cache-Control, 304 on If-None-Match.
import { beforeAll, describe, expect, it } from "vitest";
import { compileDocument } from "../../build/compile/compile-document.ts";
import { publishSnapshot } from "../../src/storage/publish.ts";
import { R2Store } from "../../src/storage/r2-store.ts";
import petstoreV1 from "../fixtures/examples/petstore-v1.json";
import petstoreV2 from "../fixtures/examples/petstore-v2.json";
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
