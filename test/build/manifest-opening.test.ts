// @module The manifest's opening bytes: a publish lists them for the newest version only, a reader opens that version without reading the snapshot's start, and a manifest read again unchanged is not decoded again.
import { describe, expect, it } from "vitest";
import { compileDocument } from "../../build/compile/compile-document.ts";
import { decodeHeader } from "../../src/format/container.ts";
import { countingSource, FIRST_READ, memorySource, openingBytes, Snapshot } from "../../src/format/snapshot.ts";
import { rankOfId } from "../../src/query/lookup.ts";
import { StoreCatalog } from "../../src/storage/catalog.ts";
import { decodeManifest, encodeManifest, manifestKey, snapshotKey } from "../../src/storage/manifest.ts";
import { publishSnapshot } from "../../src/storage/publish.ts";
import petstoreV1 from "../fixtures/examples/petstore-v1.json";
import petstoreV2 from "../fixtures/examples/petstore-v2.json";
import { rawSection } from "../format/snapshot-bytes.ts";
import { MemoryStore } from "../support/memory-store.ts";

/** A MemoryStore counting the reads of snapshot objects by kind. */
class CountingStore extends MemoryStore {
  firstReads = 0;
  rangeReads = 0;
  override getFirst(key: string, length: number) {
    if (key.startsWith("snapshots/")) this.firstReads++;
    return super.getFirst(key, length);
  }
  override getRange(key: string, offset: number, length: number, etag: string) {
    if (key.startsWith("snapshots/")) this.rangeReads++;
    return super.getRange(key, offset, length, etag);
  }
}

const v1 = compileDocument(petstoreV1).bytes;
const v2 = compileDocument(petstoreV2).bytes;

describe("openingBytes", () => {
  it("are the header, the table of contents, META and the id directory written right after it, exactly", () => {
    const opening = openingBytes(v1.slice(0, FIRST_READ))!;
    const header = decodeHeader(v1);
    const [meta, ids] = [rawSection(v1, "META"), rawSection(v1, "IDXD")];
    const metaEnd = meta.offset + meta.length;
    expect(metaEnd).toBeGreaterThanOrEqual(header.tocOffset + header.tocLength);
    // IDXD follows META, padded to 8 bytes.
    expect(ids.offset - metaEnd).toBeGreaterThanOrEqual(0);
    expect(ids.offset - metaEnd).toBeLessThan(8);
    expect(opening).toEqual(v1.slice(0, ids.offset + ids.length));
    // Without all of the id directory they stop at META; one byte short of META's end, they are not all there.
    expect(openingBytes(v1.slice(0, ids.offset + ids.length - 1))).toEqual(v1.slice(0, metaEnd));
    expect(openingBytes(v1.slice(0, metaEnd - 1))).toBeNull();
  });
});

describe("a snapshot opened from its opening bytes", () => {
  it("finds an object's id page with one read: the id directory is among them", async () => {
    const source = countingSource(memorySource(v1));
    const snapshot = await Snapshot.open(source, { first: openingBytes(v1.slice(0, FIRST_READ))! });
    expect(source.reads).toBe(0);
    const rank = await rankOfId(snapshot, "302");
    // The id page, and nothing else.
    expect(source.reads).toBe(1);
    expect(rank).toBe(await rankOfId(await Snapshot.open(memorySource(v1)), "302"));
  });
});

describe("the manifest's opening bytes", () => {
  it("a publish lists them, with the object's ETag, for the newest version only", async () => {
    const store = new CountingStore();
    await publishSnapshot(store, v1);
    await publishSnapshot(store, v2);
    const manifest = decodeManifest((await store.get(manifestKey(petstoreV1.application)))!.bytes, "manifest");
    const [older, newest] = manifest.versions;
    expect(older.head).toBeUndefined();
    expect(older.etag).toBe((await store.head(snapshotKey(older.sha256)))!.etag);
    expect(newest.etag).toBe((await store.head(snapshotKey(newest.sha256)))!.etag);
    expect(Buffer.from(newest.head!, "base64")).toEqual(Buffer.from(openingBytes(v2.slice(0, FIRST_READ))!));
  });

  it("the newest version opens without reading the snapshot's start, an older one reads it", async () => {
    const store = new CountingStore();
    await publishSnapshot(store, v1);
    await publishSnapshot(store, v2);
    const catalog = new StoreCatalog(store);
    const [older, newest] = (await catalog.versions(petstoreV1.application))!;
    store.firstReads = store.rangeReads = 0;
    expect(newest.opening).toBeDefined();
    expect(older.opening).toBeUndefined();

    const snapshot = await catalog.open(newest);
    expect(snapshot.meta.analyzedAt).toBe(petstoreV2.analyzedAt);
    // Its sections are read by range, pinned to the listed ETag (the directories read ahead among them).
    expect((await snapshot.section("LNKD")).linkTypes.length).toBeGreaterThan(0);
    expect(store.firstReads).toBe(0);
    expect(store.rangeReads).toBeGreaterThan(0);

    await catalog.open(older);
    expect(store.firstReads).toBe(1);
  });

  it("a manifest read again unchanged gives the versions read before; one published since, its own", async () => {
    const store = new CountingStore();
    await publishSnapshot(store, v1);
    const catalog = new StoreCatalog(store, { manifestTtlMs: 0 });
    const first = (await catalog.versions(petstoreV1.application))!;
    // Read again (the TTL is over at once), not decoded again: the same list, its opening bytes once.
    expect(await catalog.versions(petstoreV1.application)).toBe(first);
    expect(Buffer.from(first[0].opening!.head)).toEqual(Buffer.from(openingBytes(v1.slice(0, FIRST_READ))!));
    await publishSnapshot(store, v2);
    const after = (await catalog.versions(petstoreV1.application))!;
    expect(after).not.toBe(first);
    expect(after.map((v) => v.analyzedAt)).toEqual([petstoreV1.analyzedAt, petstoreV2.analyzedAt]);
    expect(Buffer.from(after[1].opening!.head)).toEqual(Buffer.from(openingBytes(v2.slice(0, FIRST_READ))!));
  });

  it("refuses opening bytes that are not base64, and reads a manifest without them as before", () => {
    const manifest = decodeManifest(
      encodeManifest({ format: "appstruct.manifest/1", application: "A", versions: [] }),
      "manifest",
    );
    const version = {
      sha256: "0".repeat(64),
      analyzedAt: "2026-01-01T00:00:00Z",
      analyzedAtMs: Date.UTC(2026, 0, 1),
      size: 100,
      counts: { objects: 1, links: 0 },
      publishedAt: "2026-01-01T00:00:00Z",
    };
    const text = (head: unknown) =>
      new TextEncoder().encode(JSON.stringify({ ...manifest, versions: [{ ...version, etag: '"1"', head }] }));
    expect(() => decodeManifest(text("not base64!"), "m")).toThrow(/manifest m is malformed: versions.0.head/);
    expect(decodeManifest(text(undefined), "m").versions[0]).toEqual({ ...version, etag: '"1"' });
  });
});
