// @module publishSnapshot: content-addressed upload, read-back verification, then a conditional manifest swap.
import { verifySection } from "../format/container.ts";
import { CorruptSnapshotError } from "../format/errors.ts";
import { Snapshot, memorySource } from "../format/snapshot.ts";
import type { SnapshotMeta } from "../format/model.ts";
import type { BlobStore } from "./blob-store.ts";
import { MANIFEST_FORMAT, type Manifest, type ManifestVersion, decodeManifest, encodeManifest, manifestKey, snapshotKey, withVersion } from "./manifest.ts";

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Opens `bytes` as a snapshot and checks every section's checksum; throws CorruptSnapshotError otherwise. */
export async function verifySnapshot(bytes: Uint8Array): Promise<SnapshotMeta> {
  const snapshot = await Snapshot.open(memorySource(bytes));
  for (const entry of snapshot.toc.values()) verifySection(entry, bytes.subarray(entry.offset, entry.offset + entry.length));
  return snapshot.meta;
}

export interface PublishResult {
  application: string;
  version: ManifestVersion;
  /** "unchanged": this content was already the published version at this analyzedAt. */
  outcome: "published" | "unchanged";
}

const MAX_ATTEMPTS = 20;

/**
 * Publishes one snapshot. The snapshot object goes first under its content address and is read back
 * and hashed; the manifest is replaced last, only if nobody changed it meanwhile (ETag), else re-read
 * and retried. A reader therefore sees the old or the new manifest, each naming complete snapshots.
 */
export async function publishSnapshot(store: BlobStore, bytes: Uint8Array, now = new Date()): Promise<PublishResult> {
  const meta = await verifySnapshot(bytes);
  const sha256 = await sha256Hex(bytes);
  const key = snapshotKey(sha256);
  const existing = await store.head(key);
  if (!existing || existing.size !== bytes.length) {
    await store.put(key, bytes);
    const stored = await store.get(key);
    if (!stored || (await sha256Hex(stored.bytes)) !== sha256) throw new CorruptSnapshotError(`uploaded ${key} does not read back with the same SHA-256`);
  }
  const version: ManifestVersion = {
    sha256,
    analyzedAt: meta.analyzedAt,
    analyzedAtMs: meta.analyzedAtMs,
    size: bytes.length,
    counts: { objects: meta.counts.objects, links: meta.counts.links },
    publishedAt: now.toISOString(),
  };
  const mKey = manifestKey(meta.application);
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const current = await store.get(mKey);
    const manifest: Manifest = current ? decodeManifest(current.bytes, mKey) : { format: MANIFEST_FORMAT, application: meta.application, versions: [] };
    const same = manifest.versions.find((v) => v.analyzedAtMs === version.analyzedAtMs && v.sha256 === sha256);
    if (same) return { application: meta.application, version: same, outcome: "unchanged" };
    if (await store.putIf(mKey, encodeManifest(withVersion(manifest, version)), current?.etag ?? null)) return { application: meta.application, version, outcome: "published" };
    // Lost a race with another publisher: back off a little, re-read and merge again.
    await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 10 * 2 ** attempt * Math.random())));
  }
  throw new Error(`could not update ${mKey}: ${MAX_ATTEMPTS} concurrent changes in a row`);
}

/** The manifest of `application`, or null. */
export async function readManifest(store: BlobStore, application: string): Promise<Manifest | null> {
  const key = manifestKey(application);
  const object = await store.get(key);
  return object ? decodeManifest(object.bytes, key) : null;
}
