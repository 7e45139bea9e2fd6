// @module publishSnapshot: verification of all of a snapshot, content-addressed upload, read-back, then a conditional manifest swap.
import { sha256Hex } from "../digests.ts";
import { CorruptSnapshotError } from "../format/errors.ts";
import type { SnapshotMeta } from "../format/model.ts";
import { FIRST_READ, memorySource, openingBytes } from "../format/snapshot.ts";
import { verifySnapshotSource } from "../format/verify.ts";
import type { BlobStore } from "./blob-store.ts";
import {
  base64Of,
  decodeManifest,
  encodeManifest,
  type ListedVersion,
  listedVersion,
  MANIFEST_FORMAT,
  type Manifest,
  type ManifestVersion,
  manifestKey,
  snapshotKey,
  withVersion,
} from "./manifest.ts";

/** Opens `bytes` as a snapshot and checks all of it as a reader will read it (verifySnapshotSource); throws CorruptSnapshotError otherwise. */
export function verifySnapshot(bytes: Uint8Array): Promise<SnapshotMeta> {
  return verifySnapshotSource(memorySource(bytes));
}

export interface PublishResult {
  application: string;
  version: ListedVersion;
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
    const { etag } = await store.put(key, bytes);
    if (!(await readsBack(store, key, etag, bytes)))
      throw new CorruptSnapshotError(`uploaded ${key} does not read back as the bytes sent`);
  }
  return recordVersion(store, meta, sha256, bytes.length, now);
}

/** Read-back pieces: whole reads of a large object would not pass wrangler's local proxy (one string, ~512 MiB at most). */
const READ_BACK_BYTES = 64 * 1024 * 1024;

/** Whether object `key` (at `etag`) holds exactly `bytes`, read back range by range. */
async function readsBack(store: BlobStore, key: string, etag: string, bytes: Uint8Array): Promise<boolean> {
  const info = await store.head(key);
  if (!info || info.size !== bytes.length || info.etag !== etag) return false;
  for (let at = 0; at < bytes.length; at += READ_BACK_BYTES) {
    const piece = await store.getRange(key, at, Math.min(READ_BACK_BYTES, bytes.length - at), etag);
    for (let i = 0; i < piece.length; i++) if (piece[i] !== bytes[at + i]) return false;
  }
  return true;
}

/**
 * The manifest entry of snapshot `sha256` as stored, from its first bytes as `getFirst` gives them:
 * with its object's ETag and its opening bytes, so that readers open it without reading its start.
 */
export function versionEntry(
  meta: SnapshotMeta,
  sha256: string,
  first: { bytes: Uint8Array; size: number; etag: string },
  now: Date,
): ManifestVersion {
  const head = openingBytes(first.bytes);
  return {
    sha256,
    analyzedAt: meta.analyzedAt,
    analyzedAtMs: meta.analyzedAtMs,
    size: first.size,
    counts: { objects: meta.counts.objects, links: meta.counts.links },
    publishedAt: now.toISOString(),
    etag: first.etag,
    ...(head && { head: base64Of(head) }),
  };
}

/**
 * Adds a version whose snapshot is already stored under its content address to its application's
 * manifest (the last step of publishSnapshot, also used by the worker's publish API).
 */
export async function recordVersion(
  store: BlobStore,
  meta: SnapshotMeta,
  sha256: string,
  size: number,
  now = new Date(),
): Promise<PublishResult> {
  const key = snapshotKey(sha256);
  const first = await store.getFirst(key, Math.min(size, FIRST_READ));
  if (!first || first.size !== size)
    throw new CorruptSnapshotError(`${key} is not stored as ${size} bytes: it cannot be listed in the manifest`);
  const version = versionEntry(meta, sha256, first, now);
  let same: ManifestVersion | undefined;
  let replaced: ManifestVersion | undefined;
  const stored = await updateManifest(store, meta.application, (manifest) => {
    same = manifest.versions.find((v) => v.analyzedAtMs === version.analyzedAtMs && v.sha256 === sha256);
    replaced = manifest.versions.find((v) => v.analyzedAtMs === version.analyzedAtMs && v.sha256 !== sha256);
    return same ? null : withVersion(manifest, version);
  });
  // Another analysis at the same analyzedAt was replaced: its snapshot is nobody's version any more.
  if (!same && replaced) await deleteUnlisted(store, meta.application, [replaced.sha256], stored);
  return same
    ? { application: meta.application, version: listedVersion(same), outcome: "unchanged" }
    : { application: meta.application, version: listedVersion(version), outcome: "published" };
}

/**
 * Deletes the snapshot objects of `shas` that no version of `application` lists. The manifest is
 * read again right before each delete (not only the one a swap returned), so that content a
 * concurrent publish has just listed again is kept. (A snapshot belongs to one application: its
 * name is in the bytes, hence in the content address.)
 */
export async function deleteUnlisted(
  store: BlobStore,
  application: string,
  shas: readonly string[],
  after: Manifest,
): Promise<void> {
  for (const sha of new Set(shas)) {
    if (after.versions.some((v) => v.sha256 === sha)) continue;
    const current = await store.get(manifestKey(application));
    if (current && decodeManifest(current.bytes, manifestKey(application)).versions.some((v) => v.sha256 === sha))
      continue;
    await store.delete(snapshotKey(sha));
  }
}

/**
 * Replaces the manifest of `application` with `change(current)` (an empty manifest when there is
 * none) by a conditional put on its ETag; on a lost race `change` runs again on the newer manifest.
 * `change` returns null to leave the manifest as it is. Returns the manifest now stored.
 */
export async function updateManifest(
  store: BlobStore,
  application: string,
  change: (manifest: Manifest) => Manifest | null,
): Promise<Manifest> {
  const mKey = manifestKey(application);
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const current = await store.get(mKey);
    const manifest: Manifest = current
      ? decodeManifest(current.bytes, mKey)
      : { format: MANIFEST_FORMAT, application, versions: [] };
    const changed = change(manifest);
    if (!changed) return manifest;
    if (await store.putIf(mKey, encodeManifest(changed), current?.etag ?? null)) return changed;
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
