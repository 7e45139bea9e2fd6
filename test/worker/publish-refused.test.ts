// @module Refused publishing inside workerd: corrupt or unreadable content (422), sizes and numbers out of bounds (413, 400) — nothing left in R2, the good version still served.
import { beforeAll, describe, expect, it } from "vitest";
import { compileDocument } from "../../build/compile/compile-document.ts";
import { PublishApiError } from "../../build/publish-client.ts";
import { sha256Hex } from "../../src/digests.ts";
import { crc32 } from "../../src/format/crc32.ts";
import { rowPageOf } from "../../src/format/row-codec.ts";
import { memorySource, Snapshot } from "../../src/format/snapshot.ts";
import { MAX_SNAPSHOT_BYTES } from "../../src/publish/uploads.ts";
import { manifestKey } from "../../src/storage/manifest.ts";
import petstoreV1 from "../fixtures/examples/petstore-v1.json";
import petstoreV2 from "../fixtures/examples/petstore-v2.json";
import { assemble, block, blockBody, codedRows, type SectionSpec, sectionSpecs } from "../format/snapshot-bytes.ts";
import { largeAnalysis } from "../support/large-analysis.ts";
import { appPath, call, publishHistory, testEnv } from "./harness.ts";
import { bucketKeys, clientFor, publishing, publishingInSteps, TOKEN } from "./publish-harness.ts";

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

let v1: Uint8Array;
let v2: Uint8Array;
let newest: string;

beforeAll(async () => {
  v1 = (await publishHistory([petstoreV1])).bytes[0];
  v2 = compileDocument(petstoreV2, null).bytes;
  newest = (await call(`${appPath(APP)}/objects?limit=50`, undefined, publishing)).text;
});

/** What a refusal must leave as it was: every key in the bucket, the manifest, the applications listed. */
async function storedState() {
  const manifest = await testEnv.SNAPSHOTS.get(manifestKey(APP));
  return {
    keys: await bucketKeys(),
    manifest: await manifest?.text(),
    applications: (await call("/publish/applications", { headers: auth }, publishing)).body,
  };
}

/** After a refusal: not one key more or less in the bucket, the same manifest, and the application answers as before. */
async function expectNothingChanged(before: Awaited<ReturnType<typeof storedState>>) {
  expect(await storedState()).toEqual(before);
  expect((await call(`${appPath(APP)}/objects?limit=50`, undefined, publishing)).text).toBe(newest);
}

/** `detail`: a pattern, or text the detail contains. */
function expectRefused(error: unknown, detail: RegExp | string) {
  expect(error).toBeInstanceOf(PublishApiError);
  const e = error as PublishApiError;
  expect(e.status).toBe(422);
  expect(e.problem).toMatchObject({ status: 422, code: "upload_refused", title: "Upload refused" });
  expect(e.problem!.detail).toMatch(detail);
  expect(e.problem!.detail).toMatch(/nothing was kept$/);
}

describe("refused uploads leave nothing behind", () => {
  it("a section whose checksum does not match (its declared SHA-256 right)", async () => {
    const before = await storedState();
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
    const before = await storedState();
    const corrupt = await flipInSection(big, "OBJC");
    const r = await uploadDeclared(await sha256Hex(corrupt), corrupt);
    expect(r.status, r.text).toBe(422);
    expect(r.body).toMatchObject({ code: "upload_refused" });
    expect((r.body as { detail: string }).detail).toMatch(/section OBJC checksum mismatch/);
    await expectNothingChanged(before);
  });

  it("content other than its declared address (corrupted in transit where no section checksum looks)", async () => {
    const before = await storedState();
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
    const before = await storedState();
    expectRefused(
      await clientFor()
        .publish(v2.subarray(0, v2.length - 64))
        .catch((e: unknown) => e),
      /header says \d+ bytes but the file has \d+ \(truncated\?\)/,
    );
    await expectNothingChanged(before);
  });

  it("a truncated upload of a declared size", async () => {
    const before = await storedState();
    const r = await uploadDeclared(await sha256Hex(v2), v2.subarray(0, v2.length - 8));
    expect(r.status).toBe(422);
    expect((r.body as { detail: string }).detail).toMatch(/header says \d+ bytes but the file has \d+ \(truncated\?\)/);
    await expectNothingChanged(before);
  });

  it("not a snapshot at all", async () => {
    const before = await storedState();
    expectRefused(
      await clientFor()
        .publish(new TextEncoder().encode(JSON.stringify(petstoreV2)))
        .catch((e: unknown) => e),
      /not a valid snapshot/,
    );
    await expectNothingChanged(before);
  });
});

type Meta = {
  application: string;
  analyzedAt: string;
  analyzedAtMs: number;
  counts: Record<string, number | number[]>;
};

/** `bytes` reassembled with section `tag` changed by `change` (checksums rewritten: only a check of the content can tell). */
function withSection(bytes: Uint8Array, tag: string, change: (section: SectionSpec) => SectionSpec | null): Uint8Array {
  return assemble(
    sectionSpecs(bytes).flatMap((s) => {
      if (s.tag !== tag) return [s];
      const changed = change(s);
      return changed ? [changed] : [];
    }),
  );
}

/** petstore-v1 (published) with its metadata changed by `change`: the same application at the same date unless changed. */
const v1With = (change: (meta: Meta) => void) =>
  withSection(v1, "META", (s) => {
    const meta = JSON.parse(new TextDecoder().decode(s.body)) as Meta;
    change(meta);
    return { ...s, body: new TextEncoder().encode(JSON.stringify(meta)) };
  });

/** petstore-v1 with its one row page replaced by `page` (ROWP and ROWD rewritten to match, the dictionary kept, checksums valid). */
function v1WithRowPage(page: Uint8Array): Uint8Array {
  const rowd = sectionSpecs(v1).find((s) => s.tag === "ROWD")!.body;
  const { offset, length } = block(rowd, 3);
  const directory = blockBody([
    Uint32Array.of(0),
    Uint32Array.of(0, page.length),
    Uint32Array.of(crc32(page)),
    rowd.slice(offset, offset + length),
  ]);
  const pages = withSection(v1, "ROWP", (s) => ({ ...s, body: blockBody([page]) }));
  return withSection(pages, "ROWD", (s) => ({ ...s, body: directory }));
}

/** petstore-v1's one row page as written: its coded rows. */
function v1CodedRows(): Uint8Array[] {
  const rowp = sectionSpecs(v1).find((s) => s.tag === "ROWP")!.body;
  const { offset, length } = block(rowp, 0);
  return codedRows(rowp.subarray(offset, offset + length), petstoreV1.objects.length);
}

async function expectPublishRefused(bytes: Uint8Array, detail: RegExp | string) {
  const before = await storedState();
  expectRefused(
    await clientFor()
      .publish(bytes)
      .catch((e: unknown) => e),
    detail,
  );
  await expectNothingChanged(before);
}

describe("a snapshot the read API could not name or date is refused (the read routes' rules)", () => {
  const cases: [label: string, change: (meta: Meta) => void, detail: RegExp][] = [
    [
      "an application name with CR/LF",
      (m) => (m.application = "Pet\r\nStore"),
      /META section is malformed: application must not contain the control character U\+000D/,
    ],
    [
      "an application name with a back-quote",
      (m) => (m.application = "Pet`Store"),
      /application must not contain a back-quote/,
    ],
    [
      "an application name of 600 characters",
      (m) => (m.application = "x".repeat(600)),
      /application must be 1 to 200 characters long \(this one has 600\)/,
    ],
    [
      "an application name of 760 bytes (its manifest key would pass R2's 1024 bytes)",
      (m) => (m.application = "😀".repeat(190)),
      /application must take at most 600 bytes of UTF-8 \(this one takes 760\)/,
    ],
    [
      'analyzedAt "not-a-date"',
      (m) => (m.analyzedAt = "not-a-date"),
      /analyzedAt must be an RFC 3339 date-time with a zone/,
    ],
    [
      "analyzedAtMs that is not analyzedAt",
      (m) => (m.analyzedAtMs += 1),
      /analyzedAtMs must be analyzedAt in milliseconds since the epoch/,
    ],
  ];
  for (const [label, change, detail] of cases) it(label, () => expectPublishRefused(v1With(change), detail));

  it("a name of 600 bytes, the most allowed, publishes and reads", async () => {
    const name = "😀".repeat(150);
    const result = await clientFor().publish(v1With((m) => (m.application = name)));
    expect(result).toMatchObject({ application: name, outcome: "published" });
    const read = await call(`${appPath(name)}/objects?limit=1`, undefined, publishing);
    expect(read.status, read.text).toBe(200);
    const prune = await clientFor().prune(name, { keep: 1, analyzedAt: [petstoreV1.analyzedAt] });
    expect(prune.removed).toHaveLength(1);
  });
});

describe("a snapshot whose sections disagree is refused before the manifest moves (the good version at its date stays)", () => {
  const counts: [field: string, change: (c: Meta["counts"]) => void, detail: (v: Meta["counts"]) => string][] = [
    [
      "links",
      (c) => ((c.links as number) += 1),
      (c) => `the link pages hold ${c.links} links, META says ${(c.links as number) + 1}`,
    ],
    [
      "files",
      (c) => ((c.files as number) += 1),
      (c) => `SFID holds ${c.files} file ids, META says ${(c.files as number) + 1} files`,
    ],
    [
      "postIts",
      (c) => ((c.postIts as number) += 1),
      (c) => `PSTI holds ${c.postIts} post-its, META says ${(c.postIts as number) + 1}`,
    ],
    [
      "objects",
      (c) => ((c.objects as number) += 1),
      (c) => `OBJC holds ${c.objects} objects, META says ${(c.objects as number) + 1}`,
    ],
  ];
  for (const [field, change, detail] of counts)
    it(`META's count of ${field} one more than the sections hold`, async () => {
      const published = (await Snapshot.open(memorySource(v1))).meta.counts as Meta["counts"];
      await expectPublishRefused(
        v1With((m) => change(m.counts)),
        detail(published),
      );
    });

  it("found by a later step of a verification over several requests: 202, 202, 202, then 422, nothing kept", async () => {
    const before = await storedState();
    const broken = v1With((m) => ((m.counts.links as number) += 1));
    const sha = await sha256Hex(broken);
    const statuses: number[] = [];
    const error = await clientFor({
      fetch: async (request) => {
        const response = await publishingInSteps(request);
        if (request.method === "POST" && request.url.endsWith(sha)) statuses.push(response.status);
        return response;
      },
    })
      .publish(broken)
      .catch((e: unknown) => e);
    expectRefused(error, "the link pages hold");
    // Checks: required sections, OBJC, TAXO, then LNKD and all its pages.
    expect(statuses).toEqual([202, 202, 202, 422]);
    await expectNothingChanged(before);
  });

  it("a required section missing", () =>
    expectPublishRefused(
      withSection(v1, "TYPE", () => null),
      /snapshot has no TYPE section, which every reader needs/,
    ));

  it("a type that is not UTF-8, under a valid checksum (a reader finds it only when it reads that type)", () => {
    const broken = withSection(v1, "TYPE", (s) => {
      const body = s.body.slice();
      body[block(body, 1).offset] = 0xff;
      return { ...s, body };
    });
    return expectPublishRefused(broken, /a string is not valid UTF-8/);
  });
});

describe("a row must not decode past 1 MiB, nor a row page take more than 1.125 MiB", () => {
  it("a row of 8 coded bytes asking for 2 MiB (valid checksums) is refused", async () => {
    const rows = v1CodedRows();
    // "[", then 2 MiB copied from 1 back: the count of a match length in bytes of 255.
    rows[0] = Uint8Array.from([0x1f, 0x5b, 0x01, 0x00, ...new Array(8300).fill(255), 0]);
    await expectPublishRefused(v1WithRowPage(rowPageOf(rows)), /row 0 decodes to more than 1048576 bytes/);
  });

  it("a page of more than 1.125 MiB is refused by its directory, before it is read", async () => {
    const rows = v1CodedRows();
    rows.push(new Uint8Array(1.125 * 1024 * 1024));
    await expectPublishRefused(
      v1WithRowPage(rowPageOf(rows)),
      /row directory: page 0 takes \d+ bytes, more than 1179648/,
    );
  });
});

describe("sizes and numbers: bounded, and written as plain whole numbers (nothing stored)", () => {
  const post = (path: string, body: unknown) =>
    call(
      path,
      { method: "POST", headers: { ...auth, "Content-Type": "application/json" }, body: JSON.stringify(body) },
      publishing,
    );
  const sha = "ab".repeat(32);

  it(`a declared size over ${MAX_SNAPSHOT_BYTES} bytes: 413 payload_too_large`, async () => {
    const before = await storedState();
    for (const size of [1e15, 1e14, MAX_SNAPSHOT_BYTES + 1]) {
      const r = await post("/publish/uploads", { sha256: sha, size, partSize: 5 * MiB });
      expect(r.status, r.text).toBe(413);
      expect(r.body).toEqual({
        status: 413,
        title: "Payload too large",
        code: "payload_too_large",
        parameter: "size",
        detail: `size: a snapshot of ${size} bytes is larger than this server accepts (${MAX_SNAPSHOT_BYTES} bytes at most)`,
      });
    }
    await expectNothingChanged(before);
  });

  it("sizes and part sizes that are not whole numbers in range: 400 invalid_parameter", async () => {
    const before = await storedState();
    const cases: [body: Record<string, unknown>, detail: string][] = [
      [{ size: 1.5, partSize: 5 * MiB }, "size: must be a whole number, not 1.5"],
      [{ size: 0, partSize: 5 * MiB }, `size: must be from 1 to ${Number.MAX_SAFE_INTEGER}, not 0`],
      [{ size: 1e300, partSize: 5 * MiB }, `size: must be from 1 to ${Number.MAX_SAFE_INTEGER}, not 1e+300`],
      [{ size: 10, partSize: 1e3 }, `partSize: must be from ${5 * MiB} to ${95 * MiB}, not 1000`],
      [{ size: 10, partSize: 5 * MiB + 0.5 }, `partSize: must be a whole number, not ${5 * MiB + 0.5}`],
    ];
    for (const [body, detail] of cases) {
      const r = await post("/publish/uploads", { sha256: sha, ...body });
      expect(r.status, r.text).toBe(400);
      expect(r.body).toMatchObject({ code: "invalid_parameter", detail });
    }
    const text = await post("/publish/uploads", { sha256: sha, size: "10", partSize: 5 * MiB });
    expect(text.body).toMatchObject({ status: 400, code: "invalid_parameter", parameter: "size" });
    await expectNothingChanged(before);
  });

  it("a part number that is not plain decimal digits (1e3, 0x1, 01, +1, 1.0): 400, nothing kept", async () => {
    const small = compileDocument(largeAnalysis(APP, "2026-09-20T00:00:00Z", 10), null).bytes;
    const smallSha = await sha256Hex(small);
    const before = await storedState();
    const begun = await post("/publish/uploads", { sha256: smallSha, size: small.length, partSize: 5 * MiB });
    expect(begun.body).toMatchObject({ partCount: 1, uploaded: [] });
    for (const part of ["1e3", "0x1", "01", "%2B1", "1.0", "%201"]) {
      const r = await call(
        `/publish/uploads/${smallSha}/parts/${part}`,
        { method: "PUT", headers: auth, body: small },
        publishing,
      );
      expect(r.status, `${part}: ${r.text}`).toBe(400);
      expect(r.body).toMatchObject({
        code: "invalid_parameter",
        parameter: "part",
        detail: `part must be a whole number in decimal digits, not ${JSON.stringify(decodeURIComponent(part))}`,
      });
    }
    expect((await call(`/publish/uploads/${smallSha}`, { headers: auth }, publishing)).body).toMatchObject({
      uploaded: [],
    });
    const aborted = await call(`/publish/uploads/${smallSha}`, { method: "DELETE", headers: auth }, publishing);
    expect(aborted.status).toBe(204);
    await expectNothingChanged(before);
  });

  it("prune: keep a whole number, analyzedAt RFC 3339 (the read API's rule for dates)", async () => {
    const before = await storedState();
    const prune = (body: unknown) => post(`/publish/applications/${encodeURIComponent(APP)}/prune`, body);
    const cases: [body: unknown, detail: string][] = [
      [{ keep: 1.5 }, "keep: must be a whole number, not 1.5"],
      [{ keep: 0 }, `keep: must be from 1 to ${Number.MAX_SAFE_INTEGER}, not 0`],
      [
        { analyzedAt: ["2026-09-01"] },
        "analyzedAt.0: must be an RFC 3339 date-time with a zone, e.g. 2026-09-01T12:00:00Z",
      ],
      [
        { analyzedAt: ["Tue, 01 Sep 2026 12:00:00 GMT"] },
        "analyzedAt.0: must be an RFC 3339 date-time with a zone, e.g. 2026-09-01T12:00:00Z",
      ],
    ];
    for (const [body, detail] of cases) {
      const r = await prune(body);
      expect(r.status, r.text).toBe(400);
      expect(r.body).toMatchObject({ code: "invalid_parameter", detail });
    }
    await expectNothingChanged(before);
  });
});

describe("after all that", () => {
  it("the genuine snapshot publishes", async () => {
    const result = await clientFor().publish(v2);
    expect(result).toMatchObject({ outcome: "published", application: APP, version: { sha256: await sha256Hex(v2) } });
    expect((await call(`${appPath(APP)}/objects?limit=50`, undefined, publishing)).text).not.toBe(newest);
  });
});
