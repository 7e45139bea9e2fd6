// @module commitSnapshot: verify an assembled upload (size, streamed SHA-256, every section checksum), place it under its content address, swap the manifest.
import { ApiError } from "../api-error.ts";
import { CorruptSnapshotError } from "../format/errors.ts";
import type { SnapshotMeta } from "../format/model.ts";
import { type ByteSource, Snapshot } from "../format/snapshot.ts";
import { snapshotKey } from "../storage/manifest.ts";
import { type PublishResult, recordVersion, verifySnapshotSource } from "../storage/publish.ts";
import { R2Store } from "../storage/r2-store.ts";
import { type Uploads, stagingKey } from "./uploads.ts";

const hex = (buffer: ArrayBuffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");

/** Range reads of `key`, pinned to its ETag. */
async function objectSource(store: R2Store, key: string): Promise<ByteSource | null> {
  const info = await store.head(key);
  return info && { key, size: info.size, read: (offset, length) => store.getRange(key, offset, length, info.etag) };
}

/** SHA-256 of an R2 object, streamed through workerd's DigestStream (never whole in memory). */
async function objectSha256(bucket: R2Bucket, key: string): Promise<string> {
  const object = await bucket.get(key);
  if (!object) throw new CorruptSnapshotError(`${key} vanished while being verified`);
  const digest = new crypto.DigestStream("SHA-256");
  await object.body.pipeTo(digest);
  return hex(await digest.digest);
}

/** Why the staged bytes are not the snapshot declared as `sha256` of `size` bytes, or its metadata when they are. */
async function verifyStaged(bucket: R2Bucket, store: R2Store, sha256: string, size: number): Promise<SnapshotMeta> {
  const source = await objectSource(store, stagingKey(sha256));
  if (!source) throw new CorruptSnapshotError("the assembled upload is missing");
  if (source.size !== size) throw new CorruptSnapshotError(`the upload is ${source.size} bytes, ${size} were declared (truncated?)`);
  const actual = await objectSha256(bucket, source.key);
  if (actual !== sha256) throw new CorruptSnapshotError(`its SHA-256 is ${actual}, not the declared content address ${sha256} (corrupted or truncated in transit?)`);
  return verifySnapshotSource(source);
}

/**
 * Publishes the snapshot `sha256`: from its finished upload (verified, then copied to
 * `snapshots/<sha256>.snap` with R2 checking the SHA-256 again), or, with no upload under way, the
 * one already stored there. Refused content is deleted with everything its upload left. The
 * manifest is swapped last, conditionally, as publishSnapshot does.
 */
export async function commitSnapshot(bucket: R2Bucket, uploads: Uploads, sha256: string): Promise<PublishResult> {
  const store = new R2Store(bucket);
  const finalKey = snapshotKey(sha256);
  const placed = await objectSource(store, finalKey);
  if (!placed) {
    const record = await uploads.assemble(sha256);
    let meta: SnapshotMeta;
    try {
      meta = await verifyStaged(bucket, store, sha256, record.size);
    } catch (error) {
      if (!(error instanceof CorruptSnapshotError)) throw error;
      await uploads.discard(sha256);
      throw new ApiError("upload_refused", `the upload of ${sha256} is not a valid snapshot: ${error.message}; nothing was kept`);
    }
    const staged = await bucket.get(stagingKey(sha256));
    if (!staged) throw new ApiError("upload_incomplete", `the upload of ${sha256} was removed while being published; publish again`);
    await bucket.put(finalKey, staged.body, { sha256 });
    await uploads.discard(sha256);
    return recordVersion(store, meta, sha256, record.size);
  }
  // Stored already (identical content published before, or by a concurrent publisher): only its metadata is needed.
  await uploads.discard(sha256);
  const snapshot = await Snapshot.open(placed);
  return recordVersion(store, snapshot.meta, sha256, placed.size);
}
