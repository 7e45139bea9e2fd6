// @module commitSnapshot: verify an assembled upload (size, all of it as a reader will read it, SHA-256 = content address), place it under that address, swap the manifest.
import { ApiError, StorageUnavailableError } from "../api-error.ts";
import { CorruptSnapshotError } from "../format/errors.ts";
import type { SnapshotMeta } from "../format/model.ts";
import type { ByteSource } from "../format/snapshot.ts";
import { verifySnapshotSource } from "../format/verify.ts";
import { hex } from "../hex.ts";
import { snapshotKey } from "../storage/manifest.ts";
import { type PublishResult, recordVersion } from "../storage/publish.ts";
import { R2Store } from "../storage/r2-store.ts";
import { stagingKey, type Uploads } from "./uploads.ts";

/** Range reads of `key`, pinned to its ETag. */
async function objectSource(store: R2Store, key: string): Promise<ByteSource | null> {
  const info = await store.head(key);
  return info && { key, size: info.size, read: (offset, length) => store.getRange(key, offset, length, info.etag) };
}

/** SHA-256 of an R2 object, streamed through workerd's DigestStream (never whole in memory). */
async function objectSha256(bucket: R2Bucket, key: string): Promise<string> {
  const object = await bucket.get(key);
  if (!object) throw new ApiError("upload_incomplete", `${key} was removed while being published; publish again`);
  const digest = new crypto.DigestStream("SHA-256");
  await object.body.pipeTo(digest);
  return hex(new Uint8Array(await digest.digest));
}

/**
 * Copies the staged upload to `finalKey`, streamed, with R2 checking on the way in that its SHA-256
 * is the declared `sha256` (nothing is stored otherwise). On a refusal the staged bytes are hashed
 * (DigestStream) to tell a content mismatch, returned as the SHA-256 found, from a storage failure.
 */
async function copyVerified(bucket: R2Bucket, from: string, finalKey: string, sha256: string): Promise<string> {
  const staged = await bucket.get(from);
  if (!staged) throw new ApiError("upload_incomplete", `${from} was removed while being published; publish again`);
  try {
    await bucket.put(finalKey, staged.body, { sha256 });
    return sha256;
  } catch (error) {
    const actual = await objectSha256(bucket, from);
    if (actual === sha256)
      throw new StorageUnavailableError(
        `copying ${from} to ${finalKey} failed: ${(error as Error)?.message ?? String(error)}`,
      );
    return actual;
  }
}

/** Why the staged bytes are not a valid snapshot of `size` bytes (checked before anything points at them), or its metadata. */
async function verifyStaged(store: R2Store, sha256: string, size: number): Promise<SnapshotMeta> {
  const source = await objectSource(store, stagingKey(sha256));
  if (!source) throw new CorruptSnapshotError("the assembled upload is missing");
  if (source.size !== size)
    throw new CorruptSnapshotError(`the upload is ${source.size} bytes, ${size} were declared (truncated?)`);
  return verifySnapshotSource(source);
}

/** What `verifying` finds, or, for a snapshot that is not valid, the refusal `refuse` makes of why. */
async function refusedIfCorrupt(
  verifying: Promise<SnapshotMeta>,
  refuse: (reason: string) => Promise<ApiError>,
): Promise<SnapshotMeta> {
  try {
    return await verifying;
  } catch (error) {
    if (error instanceof CorruptSnapshotError) throw await refuse(error.message);
    throw error;
  }
}

/**
 * Publishes the snapshot `sha256`: from its finished upload (verified, then copied to
 * `snapshots/<sha256>.snap` only if its SHA-256 is `sha256`), or, with no upload under way, the
 * one already stored there. Refused content is deleted with everything its upload left. The
 * manifest is swapped last, conditionally, as publishSnapshot does.
 */
export async function commitSnapshot(bucket: R2Bucket, uploads: Uploads, sha256: string): Promise<PublishResult> {
  const store = new R2Store(bucket);
  const finalKey = snapshotKey(sha256);
  const placed = await objectSource(store, finalKey);
  if (!placed) {
    const record = await uploads.assemble(sha256);
    const refuse = async (reason: string) => {
      await uploads.discard(sha256);
      return new ApiError(
        "upload_refused",
        `the upload of ${sha256} is not a valid snapshot: ${reason}; nothing was kept`,
      );
    };
    const meta = await refusedIfCorrupt(verifyStaged(store, sha256, record.size), refuse);
    const actual = await copyVerified(bucket, stagingKey(sha256), finalKey, sha256);
    if (actual !== sha256)
      throw await refuse(
        `its SHA-256 is ${actual}, not the declared content address ${sha256} (corrupted or truncated in transit?)`,
      );
    await uploads.discard(sha256);
    return recordVersion(store, meta, sha256, record.size);
  }
  // Stored already (identical content published before, or by a concurrent publisher): verified
  // again all the same, since it may have been stored by a server that checked less.
  await uploads.discard(sha256);
  const meta = await refusedIfCorrupt(
    verifySnapshotSource(placed),
    async (reason) =>
      new ApiError(
        "upload_refused",
        `the stored snapshot ${sha256} is not a valid snapshot: ${reason}; it was not listed (the object stays for an operator to remove)`,
      ),
  );
  return recordVersion(store, meta, sha256, placed.size);
}
