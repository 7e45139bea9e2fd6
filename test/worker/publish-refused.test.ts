// @module Refused uploads inside workerd: corrupt section, content not matching its declared address, truncation — 422, nothing left in R2.
import { beforeAll, describe, expect, it } from "vitest";
import { compileDocument } from "../../build/compile/compile-document.ts";
import { PublishApiError } from "../../build/publish-client.ts";
import { memorySource, Snapshot } from "../../src/format/snapshot.ts";
import { sha256Hex } from "../../src/storage/publish.ts";
import petstoreV1 from "../fixtures/examples/petstore-v1.json";
import petstoreV2 from "../fixtures/examples/petstore-v2.json";
import { largeAnalysis } from "../support/large-analysis.ts";
import { appPath, call, publishHistory } from "./harness.ts";
import { bucketKeys, clientFor, publishing, TOKEN } from "./publish-harness.ts";

const MiB = 1024 * 1024;
const APP = "Pet Store & Co";
const auth = { Authorization: `Bearer ${TOKEN}` };

/** `bytes` with one byte flipped in the middle of section `tag`. */
async function flipInSection(bytes: Uint8Array, tag: string): Promise<Uint8Array> {
  const entry = (await Snapshot.open(memorySource(bytes))).toc.get(tag)!;
  const copy = bytes.slice();
  copy[entry.offset + (entry.length >> 1)] ^= 0x40;
  return copy;
}

/**
 * `bytes` with one byte flipped where no section checksum looks: the alignment padding after a
 * section (still a valid snapshot, but other content than its content address says).
 */
async function flipInPadding(bytes: Uint8Array): Promise<Uint8Array> {
  const entries = [...(await Snapshot.open(memorySource(bytes))).toc.values()].sort((a, b) => a.offset - b.offset);
  const gap = entries.find((e, i) => i + 1 < entries.length && e.offset + e.length < entries[i + 1].offset)!;
  expect(gap, "a section followed by padding").toBeDefined();
  const copy = bytes.slice();
  copy[gap.offset + gap.length] ^= 0x01;
  return copy;
}

/** Uploads `bytes` declared as content `sha256` (which it may not be), then asks to publish it. */
async function uploadDeclared(sha256: string, bytes: Uint8Array, partSize = 5 * MiB) {
  const begun = await call(
    "/publish/uploads",
    {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ sha256, size: bytes.length, partSize }),
    },
    publishing,
  );
  expect(begun.status, begun.text).toBe(200);
  for (let part = 1; (part - 1) * partSize < bytes.length; part++) {
    const r = await call(
      `/publish/uploads/${sha256}/parts/${part}`,
      { method: "PUT", headers: auth, body: bytes.subarray((part - 1) * partSize, part * partSize) },
      publishing,
    );
    expect(r.status, r.text).toBe(200);
  }
  return call(`/publish/snapshots/${sha256}`, { method: "POST", headers: auth }, publishing);
}

let v2: Uint8Array;
let newest: string;

beforeAll(async () => {
  await publishHistory([petstoreV1]);
  v2 = compileDocument(petstoreV2, null).bytes;
  newest = (await call(`${appPath(APP)}/objects?limit=50`, undefined, publishing)).text;
});

/** After a refusal: not one key more in the bucket, and the application answers as before. */
async function expectNothingChanged(before: string[]) {
  expect(await bucketKeys()).toEqual(before);
  expect((await call(`${appPath(APP)}/objects?limit=50`, undefined, publishing)).text).toBe(newest);
}

function expectRefused(error: unknown, detail: RegExp) {
  expect(error).toBeInstanceOf(PublishApiError);
  const e = error as PublishApiError;
  expect(e.status).toBe(422);
  expect(e.problem).toMatchObject({ status: 422, code: "upload_refused", title: "Upload refused" });
  expect(e.problem!.detail).toMatch(detail);
  expect(e.problem!.detail).toMatch(/nothing was kept$/);
}

describe("refused uploads leave nothing behind", () => {
  it("a section whose checksum does not match (its declared SHA-256 right)", async () => {
    const before = await bucketKeys();
    const corrupt = await flipInSection(v2, "OBJC");
    expectRefused(
      await clientFor()
        .publish(corrupt)
        .catch((e: unknown) => e),
      /section OBJC checksum mismatch/,
    );
    await expectNothingChanged(before);
  });

  it("a corrupt section in a multi-part upload", async () => {
    const big = compileDocument(largeAnalysis(APP, "2026-09-15T00:00:00Z", 8_000, 3), null).bytes;
    const before = await bucketKeys();
    const corrupt = await flipInSection(big, "OBJC");
    const r = await uploadDeclared(await sha256Hex(corrupt), corrupt);
    expect(r.status, r.text).toBe(422);
    expect(r.body).toMatchObject({ code: "upload_refused" });
    expect((r.body as { detail: string }).detail).toMatch(/section OBJC checksum mismatch/);
    await expectNothingChanged(before);
  });

  it("content other than its declared address (corrupted in transit where no section checksum looks)", async () => {
    const before = await bucketKeys();
    const corrupt = await flipInPadding(v2);
    const r = await uploadDeclared(await sha256Hex(v2), corrupt);
    expect(r.status, r.text).toBe(422);
    expect(r.body).toMatchObject({ code: "upload_refused" });
    expect((r.body as { detail: string }).detail).toBe(
      `the upload of ${await sha256Hex(v2)} is not a valid snapshot: its SHA-256 is ${await sha256Hex(corrupt)}, not the declared content address ${await sha256Hex(v2)} (corrupted or truncated in transit?); nothing was kept`,
    );
    await expectNothingChanged(before);
  });

  it("a truncated snapshot (declared as what was sent)", async () => {
    const before = await bucketKeys();
    expectRefused(
      await clientFor()
        .publish(v2.subarray(0, v2.length - 64))
        .catch((e: unknown) => e),
      /header says \d+ bytes but the file has \d+ \(truncated\?\)/,
    );
    await expectNothingChanged(before);
  });

  it("a truncated upload of a declared size", async () => {
    const before = await bucketKeys();
    const r = await uploadDeclared(await sha256Hex(v2), v2.subarray(0, v2.length - 8));
    expect(r.status).toBe(422);
    expect((r.body as { detail: string }).detail).toMatch(/header says \d+ bytes but the file has \d+ \(truncated\?\)/);
    await expectNothingChanged(before);
  });

  it("not a snapshot at all", async () => {
    const before = await bucketKeys();
    expectRefused(
      await clientFor()
        .publish(new TextEncoder().encode(JSON.stringify(petstoreV2)))
        .catch((e: unknown) => e),
      /not a valid snapshot/,
    );
    await expectNothingChanged(before);
  });

  it("after all that, the genuine snapshot publishes", async () => {
    const result = await clientFor().publish(v2);
    expect(result).toMatchObject({ outcome: "published", application: APP, version: { sha256: await sha256Hex(v2) } });
    expect((await call(`${appPath(APP)}/objects?limit=50`, undefined, publishing)).text).not.toBe(newest);
  });
});
