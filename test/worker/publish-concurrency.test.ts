// @module Concurrent publishes and reads through the publish API inside workerd, and prune (manifest first, objects after).
import { describe, expect, it } from "vitest";
import { compileDocument } from "../../build/compile/compile-document.ts";
import type { PublishApiError } from "../../build/publish-client.ts";
import { sha256Hex } from "../../src/digests.ts";
import { snapshotKey } from "../../src/storage/manifest.ts";
import petstoreV1 from "../fixtures/examples/petstore-v1.json";
import petstoreV2 from "../fixtures/examples/petstore-v2.json";
import { appPath, call } from "./harness.ts";
import { bucketKeys, clientFor, publishing } from "./publish-harness.ts";

/** petstore-v1 as `application`, analyzed on day `day` of October 2026 (a distinct version each). */
const version = (application: string, day: number, base: object = petstoreV1) => ({
  ...base,
  application,
  analyzedAt: `2026-10-${String(day).padStart(2, "0")}T08:00:00Z`,
});
const compiled = (document: object) => compileDocument(document, null).bytes;
const read = async (path: string) => (await call(path, undefined, publishing)).text;

describe("concurrent publishes", () => {
  it("of different versions of one application: all present afterwards, in analyzedAt order", async () => {
    const app = "Concurrent / One";
    const snapshots = [3, 1, 4, 2, 5].map((day) => compiled(version(app, day)));
    const results = await Promise.all(snapshots.map((bytes) => clientFor().publish(bytes)));
    expect(results.map((r) => r.outcome)).toEqual(["published", "published", "published", "published", "published"]);
    const versions = await clientFor().versions(app);
    expect(versions.map((v) => v.analyzedAt)).toEqual([1, 2, 3, 4, 5].map((d) => `2026-10-0${d}T08:00:00Z`));
    expect(new Set(versions.map((v) => v.sha256))).toEqual(new Set(await Promise.all(snapshots.map(sha256Hex))));
    const keys = await bucketKeys();
    for (const v of versions) expect(keys).toContain(snapshotKey(v.sha256));
    expect(keys.filter((k) => k.startsWith("uploads/"))).toEqual([]);
  });

  it("of the same content twice at once: one version, stored once", async () => {
    const app = "Concurrent / Same";
    const bytes = compiled(version(app, 9));
    const results = await Promise.all([clientFor().publish(bytes), clientFor().publish(bytes)]);
    expect(results.map((r) => r.outcome).sort()).toEqual(["published", "unchanged"]);
    expect((await clientFor().versions(app)).map((v) => v.sha256)).toEqual([await sha256Hex(bytes)]);
    expect((await bucketKeys()).filter((k) => k.startsWith("uploads/"))).toEqual([]);
  });

  it("reads during a publish see the old or the new answer, never anything else", async () => {
    const app = "Read While Publishing";
    await clientFor().publish(compiled(version(app, 1)));
    const paths = [`${appPath(app)}/objects?limit=50`, `${appPath(app)}/objects/302`, `${appPath(app)}/levels/2/graph`];
    const old = await Promise.all(paths.map(read));
    const seen: string[][] = [];
    let done = false;
    const publishing2 = clientFor()
      .publish(compiled(version(app, 2, petstoreV2)))
      .finally(() => (done = true));
    while (!done) seen.push(await Promise.all(paths.map(read)));
    await publishing2;
    const now = await Promise.all(paths.map(read));
    expect(now).not.toEqual(old);
    expect(seen.length).toBeGreaterThan(0);
    for (const answers of seen) expect([old, now]).toContainEqual(answers);
  });
});

describe("prune", () => {
  it("keeps the newest N: the others leave the manifest, then their snapshots leave the bucket", async () => {
    const app = "Pruned App";
    const snapshots = [1, 2, 3, 4].map((day) => compiled(version(app, day)));
    for (const bytes of snapshots) await clientFor().publish(bytes);
    const [sha1, sha2, sha3, sha4] = await Promise.all(snapshots.map(sha256Hex));
    const pruned = await clientFor().prune(app, { keep: 2 });
    expect(pruned.removed.map((v) => v.sha256)).toEqual([sha1, sha2]);
    expect(pruned.kept.map((v) => v.sha256)).toEqual([sha3, sha4]);
    expect((await clientFor().versions(app)).map((v) => v.sha256)).toEqual([sha3, sha4]);
    const keys = await bucketKeys();
    expect(keys).not.toContain(snapshotKey(sha1));
    expect(keys).not.toContain(snapshotKey(sha2));
    expect(keys).toContain(snapshotKey(sha3));
    // Reads at a date before the oldest kept version find no analysis any more (docs/api.md#history-and-date).
    const atDay2 = await call(`${appPath(app)}/objects?limit=1&date=2026-10-02T12:00:00Z`, undefined, publishing);
    expect(atDay2.body).toEqual({ totalObjects: 0, objects: [] });
    const atDay3 = await call(`${appPath(app)}/objects?limit=1&date=2026-10-03T12:00:00Z`, undefined, publishing);
    expect(atDay3.body).toMatchObject({ totalObjects: petstoreV1.objects.length });
    // Keeping more than there are removes nothing.
    expect((await clientFor().prune(app, { keep: 5 })).removed).toEqual([]);
  });

  it("rolls back a bad analysis: removing the newest by analyzedAt serves the previous again", async () => {
    const app = "Rolled Back";
    await clientFor().publish(compiled(version(app, 1)));
    const before = await read(`${appPath(app)}/objects?limit=50`);
    const bad = compiled(version(app, 2, petstoreV2));
    await clientFor().publish(bad);
    expect(await read(`${appPath(app)}/objects?limit=50`)).not.toBe(before);
    const pruned = await clientFor().prune(app, { analyzedAt: ["2026-10-02T10:00:00+02:00"] });
    expect(pruned.removed.map((v) => v.sha256)).toEqual([await sha256Hex(bad)]);
    expect(await read(`${appPath(app)}/objects?limit=50`)).toBe(before);
    expect(await bucketKeys()).not.toContain(snapshotKey(await sha256Hex(bad)));
  });

  it("refuses what it cannot do: unknown application (404), no selection or keep 0 (400)", async () => {
    const unknown = await clientFor()
      .prune("No Such App", { keep: 1 })
      .catch((e: unknown) => e);
    expect((unknown as PublishApiError).problem).toMatchObject({ status: 404, code: "application_not_found" });
    for (const selection of [{}, { keep: 0 }, { analyzedAt: ["yesterday"] }]) {
      const error = (await clientFor()
        .prune("Pruned App", selection)
        .catch((e: unknown) => e)) as PublishApiError;
      expect(error.problem, JSON.stringify(selection)).toMatchObject({ status: 400, code: "invalid_parameter" });
    }
  });
});
