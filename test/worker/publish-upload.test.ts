// @module Publish API uploads inside workerd: multi-part, resumed, aborted, identical content again; answers as published directly.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { compileDocument } from "../../build/compile/compile-document.ts";
import { sha256Hex } from "../../src/digests.ts";
import { isolateCaches, sectionBudgetBytes } from "../../src/storage/isolate-caches.ts";
import { manifestKey, snapshotKey } from "../../src/storage/manifest.ts";
import { largeAnalysis } from "../support/large-analysis.ts";
import { appPath, call } from "./harness.ts";
import {
  bucketKeys,
  clientFor,
  publishEnv,
  publishing,
  publishingInSteps,
  recording,
  TOKEN,
} from "./publish-harness.ts";

const MiB = 1024 * 1024;
const APP = "Big / Upload";
/** Objects of the uploaded analyses: some 9.5 MB compiled, two parts of R2's smallest size (5 MiB), the second shorter. */
const OBJECTS = 7_500;
const document = largeAnalysis(APP, "2026-10-01T00:00:00Z", OBJECTS);
let bytes: Uint8Array;
let sha256: string;

beforeAll(async () => {
  bytes = compileDocument(document, null).bytes;
  sha256 = await sha256Hex(bytes);
  expect(bytes.length).toBeGreaterThan(5 * MiB);
  expect(bytes.length).toBeLessThan(10 * MiB);
});

const auth = { Authorization: `Bearer ${TOKEN}` };

describe("a multi-part upload", () => {
  it("goes up in 5 MiB parts, is verified, placed under its content address and served", async () => {
    const progress: number[] = [];
    const { requests, fetch } = recording(publishing);
    const result = await clientFor({ partSize: 5 * MiB, fetch }).publish(bytes, (sent) => progress.push(sent));
    expect(result).toMatchObject({
      application: APP,
      outcome: "published",
      version: {
        sha256,
        size: bytes.length,
        analyzedAt: "2026-10-01T00:00:00Z",
        counts: { objects: document.objects.length },
      },
    });
    expect(requests).toEqual([
      "POST /publish/uploads",
      `PUT /publish/uploads/${sha256}/parts/1`,
      `PUT /publish/uploads/${sha256}/parts/2`,
      `POST /publish/snapshots/${sha256}`,
    ]);
    expect(progress).toEqual([0, 5 * MiB, bytes.length]);
    // Nothing of the upload remains: the snapshot, the manifest, and what was there before.
    const keys = await bucketKeys();
    expect(keys).toContain(snapshotKey(sha256));
    expect(keys).toContain(manifestKey(APP));
    expect(keys.filter((k) => k.startsWith("uploads/"))).toEqual([]);
    const served = await call(`${appPath(APP)}/objects?limit=3&name=Generated${OBJECTS - 1}_`, undefined, publishing);
    expect(served.status, served.text).toBe(200);
    expect(served.body).toMatchObject({
      totalObjects: 1,
      objects: [{ id: document.objects.at(-1)!.id, name: document.objects.at(-1)!.name }],
    });
  });

  it("the stored bytes read back through GET /publish/snapshots/{sha256} are the uploaded ones", async () => {
    const back = await clientFor().snapshot(sha256);
    expect(back.length).toBe(bytes.length);
    expect(await sha256Hex(back)).toBe(sha256);
  });

  it("publishing identical content again is a no-op: nothing uploaded, the manifest unchanged", async () => {
    const before = await call(`/publish/applications/${encodeURIComponent(APP)}`, { headers: auth }, publishing);
    const keys = await bucketKeys();
    const { requests, fetch } = recording(publishing);
    const again = await clientFor({ partSize: 5 * MiB, fetch }).publish(bytes);
    expect(again.outcome).toBe("unchanged");
    expect(requests).toEqual(["POST /publish/uploads", `POST /publish/snapshots/${sha256}`]);
    expect((await call(`/publish/applications/${encodeURIComponent(APP)}`, { headers: auth }, publishing)).text).toBe(
      before.text,
    );
    expect(await bucketKeys()).toEqual(keys);
  });
});

describe("verification over several requests (a Worker's CPU limit)", () => {
  it("each commit request verifies a step and answers 202 with the checks done; the client asks until it is published", async () => {
    const document = largeAnalysis("Stepwise App", "2026-10-03T00:00:00Z", 2_000, 11);
    const stepwise = compileDocument(document, null).bytes;
    const stepwiseSha = await sha256Hex(stepwise);
    const commit = `POST /publish/snapshots/${stepwiseSha}`;
    const answers: { status: number; body: unknown }[] = [];
    const { requests, fetch } = recording(async (request) => {
      const response = await publishingInSteps(request);
      if (request.method === "POST" && request.url.endsWith(stepwiseSha))
        answers.push({ status: response.status, body: await response.clone().json() });
      return response;
    });
    // The read API's section cache lends each step room for what verification holds.
    const lend = vi.spyOn(isolateCaches(sectionBudgetBytes(publishEnv.SECTION_CACHE_MB)).sections, "lend");
    let result: Awaited<ReturnType<ReturnType<typeof clientFor>["publish"]>>;
    let lent: number[];
    try {
      result = await clientFor({ partSize: 5 * MiB, fetch }).publish(stepwise);
    } finally {
      lent = lend.mock.calls.map(([bytes]) => bytes);
      lend.mockRestore();
    }
    expect(result).toMatchObject({ outcome: "published", version: { sha256: stepwiseSha } });
    const commits = requests.filter((r) => r === commit).length;
    expect(commits).toBeGreaterThan(10);
    expect(lent).toEqual(Array(commits).fill(stepwise.length / 4));
    expect(answers[0]).toEqual({
      status: 202,
      body: { sha256: stepwiseSha, outcome: "verifying", verified: { checks: 1, of: commits } },
    });
    expect(answers.at(-2)).toMatchObject({ status: 202, body: { verified: { checks: commits - 1, of: commits } } });
    expect(answers.at(-1)!.status).toBe(200);
    // The progress record went with the upload.
    expect((await bucketKeys()).filter((k) => k.startsWith(`uploads/${stepwiseSha}`))).toEqual([]);
    const served = await call(`${appPath("Stepwise App")}/objects?limit=1&name=Generated1999_`, undefined, publishing);
    expect(served.body).toMatchObject({ totalObjects: 1 });
  });
});

describe("a broken upload", () => {
  const other = largeAnalysis("Resumed App", "2026-10-02T00:00:00Z", OBJECTS, 7);
  let otherBytes: Uint8Array;
  let otherSha: string;
  beforeAll(async () => {
    otherBytes = compileDocument(other, null).bytes;
    otherSha = await sha256Hex(otherBytes);
  });

  const begin = () =>
    call(
      "/publish/uploads",
      {
        method: "POST",
        headers: { ...auth, "Content-Type": "application/json" },
        body: JSON.stringify({ sha256: otherSha, size: otherBytes.length, partSize: 5 * MiB }),
      },
      publishing,
    );
  const putPart = (part: number, body: Uint8Array) =>
    call(`/publish/uploads/${otherSha}/parts/${part}`, { method: "PUT", headers: auth, body }, publishing);

  it("resumes: the parts already sent are listed and not sent again", async () => {
    expect((await begin()).body).toMatchObject({ partCount: 2, uploaded: [], stored: false });
    expect((await putPart(2, otherBytes.subarray(5 * MiB))).status).toBe(200);
    expect((await call(`/publish/uploads/${otherSha}`, { headers: auth }, publishing)).body).toMatchObject({
      partCount: 2,
      uploaded: [2],
    });
    // Committing now is refused with the missing part named, and changes nothing.
    const early = await call(`/publish/snapshots/${otherSha}`, { method: "POST", headers: auth }, publishing);
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ code: "upload_incomplete" });
    expect((early.body as { detail: string }).detail).toContain("lacks part 1;");
    const { requests, fetch } = recording(publishing);
    const result = await clientFor({ partSize: 5 * MiB, fetch }).publish(otherBytes);
    expect(result).toMatchObject({ outcome: "published", version: { sha256: otherSha } });
    expect(requests).toEqual([
      "POST /publish/uploads",
      `PUT /publish/uploads/${otherSha}/parts/1`,
      `POST /publish/snapshots/${otherSha}`,
    ]);
    expect((await bucketKeys()).filter((k) => k.startsWith("uploads/"))).toEqual([]);
  });

  it("a part of the wrong length is refused (400) and not recorded", async () => {
    const third = compileDocument(largeAnalysis("Aborted App", "2026-10-03T00:00:00Z", OBJECTS, 9), null).bytes;
    const thirdSha = await sha256Hex(third);
    await call(
      "/publish/uploads",
      {
        method: "POST",
        headers: { ...auth, "Content-Type": "application/json" },
        body: JSON.stringify({ sha256: thirdSha, size: third.length, partSize: 5 * MiB }),
      },
      publishing,
    );
    // Declared with another Content-Length, or sent without one and of another length: refused either way.
    const declared = await call(
      `/publish/uploads/${thirdSha}/parts/1`,
      {
        method: "PUT",
        headers: { ...auth, "Content-Length": String(5 * MiB - 1) },
        body: third.subarray(0, 5 * MiB - 1),
      },
      publishing,
    );
    expect(declared.status).toBe(400);
    expect(declared.body).toMatchObject({
      code: "invalid_parameter",
      parameter: "body",
      detail: `part 1 must be exactly ${5 * MiB} bytes; got Content-Length ${5 * MiB - 1}`,
    });
    // Sent without a Content-Length: the body's own length is found wrong on its way to R2.
    for (const [length, got] of [
      [5 * MiB - 1, "fewer"],
      [5 * MiB + 1, "more"],
    ] as const) {
      const wrong = await call(
        `/publish/uploads/${thirdSha}/parts/1`,
        { method: "PUT", headers: auth, body: third.subarray(0, length) },
        publishing,
      );
      expect(wrong.status, got).toBe(400);
      expect(wrong.body).toMatchObject({
        code: "invalid_parameter",
        parameter: "body",
        detail: `part 1 must be exactly ${5 * MiB} bytes; got ${got}`,
      });
    }
    const outOfRange = await call(
      `/publish/uploads/${thirdSha}/parts/3`,
      { method: "PUT", headers: auth, body: third.subarray(0, 10) },
      publishing,
    );
    expect(outOfRange.status).toBe(400);
    expect(outOfRange.body).toMatchObject({ code: "invalid_parameter", parameter: "part" });
    expect((await call(`/publish/uploads/${thirdSha}`, { headers: auth }, publishing)).body).toMatchObject({
      uploaded: [],
    });

    // Aborting cleans up everything the upload left; afterwards it is unknown.
    expect(
      (
        await call(
          `/publish/uploads/${thirdSha}/parts/2`,
          { method: "PUT", headers: auth, body: third.subarray(5 * MiB) },
          publishing,
        )
      ).status,
    ).toBe(200);
    expect((await bucketKeys()).filter((k) => k.startsWith(`uploads/${thirdSha}/`)).length).toBeGreaterThan(0);
    await clientFor().abort(thirdSha);
    expect((await bucketKeys()).filter((k) => k.startsWith("uploads/"))).toEqual([]);
    const gone = await call(`/publish/uploads/${thirdSha}`, { headers: auth }, publishing);
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ code: "upload_not_found" });
  });
});
