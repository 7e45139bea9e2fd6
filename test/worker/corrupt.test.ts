// @module Corrupt snapshots in R2, through the worker: a broken section answers 500 corrupt_snapshot only for the requests that read it; truncated and future-format objects are refused, never answered from.
import { describe, expect, it } from "vitest";
import { compileDocument } from "../../build/compile/compile-document.ts";
import { sha256Hex } from "../../src/digests.ts";
import { FORMAT_VERSION } from "../../src/format/container.ts";
import { openingBytes } from "../../src/format/snapshot.ts";
import { base64Of, encodeManifest, manifestKey, snapshotKey } from "../../src/storage/manifest.ts";
import { publishSnapshot, readManifest } from "../../src/storage/publish.ts";
import { R2Store } from "../../src/storage/r2-store.ts";
import petstoreV2 from "../fixtures/examples/petstore-v2.json";
import { rawSections, resealHeader } from "../format/snapshot-bytes.ts";
import { appPath, call, type Json, testEnv } from "./harness.ts";

const bucket = testEnv.SNAPSHOTS;

/** One request per thing the reader can be asked, each answering 200 on a healthy snapshot. */
const PATHS = [
  "/objects?limit=0",
  "/objects?limit=20",
  "/objects?limit=5&name=find",
  "/objects?limit=5&fullname=owner",
  "/objects?limit=5&type=java",
  "/objects?limit=5&filepath=web",
  "/objects?limit=5&mangling=string",
  "/objects?limit=5&name=owner&fullname=o",
  "/objects?limit=5&name=find&mangling=s",
  "/objects?limit=5&annotation=get",
  "/objects?limit=5&tag=hot",
  "/objects?limit=5&post-it=old",
  "/objects?limit=5&searchtype=external",
  "/objects?limit=3&filepath=schema.sql&select=source-locations",
  "/objects/302",
  "/objects/304?select=source-locations",
  "/objects/201/callees?select=parent&includeEscalated=true",
  "/objects/302/start-end-points?hops=3",
  "/levels/2/nodes?name=s&select=children",
  "/levels/5/nodes?name=java&select=children",
  "/levels/2/graph",
  "/levels/5/graph",
  "/files/-4?startLine=8&endLine=12",
  "/transactions?limit=3",
];

let counter = 0;

/**
 * Publishes petstore-v2 under an application of its own, with an analyzedAt of its own: new content,
 * so no snapshot decoded earlier in this isolate (cached by content address) can hide a corruption.
 */
async function publishFresh(
  label: string,
): Promise<{ app: string; application: string; bytes: Uint8Array; key: string }> {
  counter++;
  const application = `Corrupt ${label} ${counter} / ü`;
  const analyzedAt = new Date(Date.UTC(2026, 0, 1) + counter * 60_000).toISOString();
  const { bytes } = compileDocument({ ...petstoreV2, application, analyzedAt });
  await publishSnapshot(new R2Store(bucket), bytes);
  return { app: appPath(application), application, bytes, key: snapshotKey(await sha256Hex(bytes)) };
}

/**
 * Puts `damaged` in place of the published snapshot, as if its bytes had gone bad in storage: the
 * manifest lists the object's ETag, and as opening bytes the damaged ones (as many as the healthy
 * snapshot's), so the reader meets the damage rather than an object replaced since it was listed.
 */
async function damage(
  published: { application: string; bytes: Uint8Array; key: string },
  damaged: Uint8Array,
): Promise<void> {
  const { etag } = (await bucket.put(published.key, damaged))!;
  const store = new R2Store(bucket);
  const manifest = (await readManifest(store, published.application))!;
  const head = damaged.slice(0, openingBytes(published.bytes)!.length);
  const versions = manifest.versions.map((v) =>
    snapshotKey(v.sha256) === published.key ? { ...v, etag, head: base64Of(head) } : v,
  );
  await store.put(manifestKey(published.application), encodeManifest({ ...manifest, versions }));
}

/** Answers of a healthy published copy, by path (the bodies do not name the application). */
let healthy: Promise<string[]> | null = null;
function healthyAnswers(): Promise<string[]> {
  healthy ??= (async () => {
    const { app } = await publishFresh("healthy");
    const answers: string[] = [];
    for (const path of PATHS) {
      const r = await call(app + path);
      expect(r.status, `${path} on a healthy snapshot: ${r.text}`).toBe(200);
      answers.push(r.text);
    }
    return answers;
  })();
  return healthy;
}

function expectCorrupt(
  r: { status: number; headers: Headers; text: string; body: Json | undefined },
  label: string,
): void {
  expect(r.status, `${label}: ${r.text}`).toBe(500);
  expect(r.headers.get("content-type"), label).toMatch(/^application\/json/);
  const body = r.body as Record<string, Json>;
  expect(body, label).toMatchObject({ status: 500, title: "Corrupt snapshot", code: "corrupt_snapshot" });
  expect(typeof body.detail === "string" && body.detail.length > 0, label).toBe(true);
  expect(body.detail as string, label).not.toMatch(/\n\s+at |\.ts:\d+|\/work\/|node_modules/);
}

/** A copy of `bytes` with one byte inside section `tag` flipped: same length, checksums left as they were. */
function flipInSection(bytes: Uint8Array, tag: string): Uint8Array {
  const section = rawSections(bytes).find((s) => s.tag === tag)!;
  const out = bytes.slice();
  out[section.offset + Math.floor(section.length / 2)] ^= 0x5a;
  return out;
}

const TAGS = rawSections(compileDocument(petstoreV2).bytes)
  .map((s) => s.tag)
  .filter((tag) => tag !== "META");

/**
 * Sections no route reads here: post-it texts are in the snapshot for `inspect` and the model (the
 * API filters on XPST only). The displayed columns and statuses are served from the row store
 * (ROWP); the columns are read by the filter planner when it checks a few candidates against a
 * broad filter, which 13 objects never make it do
 * (test/format covers both); STAT when a status is recomputed against another previous version
 * (history.test.ts). Name, fullname and mangling filters read their key pages
 * (KNAM, KFUL, KMNG), their reversed orders (RNAM, RFUL, RMNG) only for `endswith`, which no request
 * here asks (test/format/key-pages.test.ts); the trigram chunk directories (CNAM … CPST) only for trigram indexes larger than
 * an eighth of the section budget, read by range (test/format/key-pages.test.ts). Callees, start/end
 * points and id lookups read the link and id pages (LNKP, IDXP); callees and callers with their
 * parents' types read those types from TYPE and TYID.
 */
const UNREAD = new Set([
  "PSTI",
  "LANG",
  "FPTH",
  "ANNO",
  "TAGS",
  "STAT",
  "RNAM",
  "RFUL",
  "RMNG",
  "CNAM",
  "CFUL",
  "CTYP",
  "CPTH",
  "CMNG",
  "CANN",
  "CTAG",
  "CPST",
]);

describe("one corrupt section", () => {
  it("the snapshot has the sections this file expects", () => {
    expect(TAGS.length).toBeGreaterThanOrEqual(20);
    expect(TAGS).toEqual(expect.arrayContaining(["OBJC", "ROWP", "TAXO", "LGRA", "SLCP", "KNAM", "LNKP", "IDXP"]));
  });

  for (const tag of TAGS)
    it(`${tag}: 500 corrupt_snapshot for the requests that read it, the healthy answer for the others`, async () => {
      const expected = await healthyAnswers();
      const published = await publishFresh(tag);
      const { app, bytes } = published;
      const corrupt = flipInSection(bytes, tag);
      expect(corrupt.length).toBe(bytes.length);
      await damage(published, corrupt);
      const refused: string[] = [];
      const answered: string[] = [];
      for (const [i, path] of PATHS.entries()) {
        const r = await call(app + path);
        if (r.status === 200) {
          expect(r.text, `${path} with ${tag} corrupt answered, but not the healthy answer`).toBe(expected[i]);
          answered.push(path);
        } else {
          expectCorrupt(r, `${path} with ${tag} corrupt`);
          refused.push(path);
        }
      }
      // Some request reads every section the API uses, and none reads all of them: the reader verifies section by section.
      if (UNREAD.has(tag)) expect(refused, `${tag} is read by no route`).toEqual([]);
      else expect(refused, `no request read ${tag}`).not.toEqual([]);
      expect(answered, `every request failed with only ${tag} corrupt`).not.toEqual([]);
      // A refusal is not remembered as an answer: asking again still fails.
      if (refused.length) expectCorrupt(await call(app + refused[0]), `${refused[0]} again`);
    });

  it("LNKP: callees fail, while characteristics, find objects and the level graph still answer", async () => {
    const expected = await healthyAnswers();
    const published = await publishFresh("callees");
    const { app } = published;
    await damage(published, flipInSection(published.bytes, "LNKP"));
    expectCorrupt(await call(`${app}/objects/201/callees?select=parent&includeEscalated=true`), "callees");
    for (const path of ["/objects/302", "/objects?limit=5&name=find", "/levels/2/graph"]) {
      const r = await call(app + path);
      expect(`${r.status} ${r.text}`, path).toBe(`200 ${expected[PATHS.indexOf(path)]}`);
    }
  });

  it("SLCP: select=source-locations fails with 500 corrupt_snapshot through the source service, the same objects without it still answer", async () => {
    const published = await publishFresh("locations");
    const { app } = published;
    await damage(published, flipInSection(published.bytes, "SLCP"));
    expectCorrupt(await call(`${app}/objects/304?select=source-locations`), "characteristics with locations");
    expectCorrupt(
      await call(`${app}/objects?limit=3&filepath=schema.sql&select=source-locations`),
      "find with locations",
    );
    expect((await call(`${app}/objects/304`)).body).toMatchObject({ id: "304" });
  });
});

describe("a corrupt header or metadata", () => {
  for (const [label, mutate] of [
    ["a flipped byte in META", (bytes: Uint8Array) => flipInSection(bytes, "META")],
    [
      "a flipped byte in the header",
      (bytes: Uint8Array) => {
        const out = bytes.slice();
        out[20] ^= 0x01;
        return out;
      },
    ],
    [
      "a flipped byte in the table of contents",
      (bytes: Uint8Array) => {
        const out = bytes.slice();
        out[64 + 8] ^= 0x08;
        return out;
      },
    ],
  ] as const)
    it(`${label}: every request that opens the snapshot answers 500 corrupt_snapshot`, async () => {
      const published = await publishFresh(label.replace(/ /g, "-"));
      const { app } = published;
      await damage(published, mutate(published.bytes));
      for (const path of PATHS) expectCorrupt(await call(app + path), `${path} with ${label}`);
      // Find objects at a date before the only analysis does not open it.
      const before = await call(`${app}/objects?limit=5&date=2020-01-01T00%3A00%3A00Z`);
      expect(before.status, before.text).toBe(200);
      expect(before.body).toEqual({ totalObjects: 0, objects: [] });
    });
});

describe("a truncated object", () => {
  const cuts: [string, (n: number) => number][] = [
    ["the last 16 bytes cut", (n) => n - 16],
    ["the last byte cut", (n) => n - 1],
    ["100 bytes left (header and part of the table of contents)", () => 100],
    ["30 bytes left (less than a header)", () => 30],
    ["nothing left", () => 0],
  ];
  for (const [label, keep] of cuts)
    it(`${label}: 500 corrupt_snapshot or 503 storage_unavailable where it reads what is gone, never internal_error`, async () => {
      const expected = await healthyAnswers();
      const published = await publishFresh("truncated");
      const { app, bytes } = published;
      const length = keep(bytes.length);
      await damage(published, bytes.slice(0, length));
      let refused = 0;
      for (const [i, path] of PATHS.entries()) {
        const r = await call(app + path);
        // Opened from the manifest, a request that reads nothing past the cut answers, and rightly.
        if (r.status === 200) {
          expect(r.text, `${path} with ${length} of ${bytes.length} bytes`).toBe(expected[i]);
          continue;
        }
        refused++;
        expect([500, 503], `${path} with ${length} of ${bytes.length} bytes: ${r.text}`).toContain(r.status);
        const body = r.body as Record<string, Json>;
        expect(body.status).toBe(r.status);
        expect(body.code, `${path}: ${r.text}`).toBe(r.status === 500 ? "corrupt_snapshot" : "storage_unavailable");
      }
      expect(refused, "no request met the cut").toBeGreaterThan(0);
    });
});

describe("a snapshot of a future format version", () => {
  it("answers 500 corrupt_snapshot on every route that opens it, saying the format version", async () => {
    const published = await publishFresh("future");
    const { app, bytes } = published;
    const future = bytes.slice();
    new DataView(future.buffer).setUint16(8, FORMAT_VERSION + 1, true);
    resealHeader(future); // only the version is wrong: the header checksum matches it
    await damage(published, future);
    for (const path of PATHS) {
      const r = await call(app + path);
      expectCorrupt(r, `${path} on format version ${FORMAT_VERSION + 1}`);
      expect((r.body as Record<string, Json>).detail, path).toContain(`format version ${FORMAT_VERSION + 1}`);
    }
  });
});
