// @module commitSnapshot: verify an assembled upload (size, all of it as a reader will read it, over as many requests as that takes; SHA-256 = content address), place it under that address, swap the manifest.
import { ApiError, StorageUnavailableError } from "../contract/errors.ts";
import { CorruptSnapshotError } from "../format/errors.ts";
import type { SectionCache } from "../format/section-cache.ts";
import { type ByteSource, Snapshot } from "../format/snapshot.ts";
import { type VerificationProgress, verifySnapshotSteps } from "../format/verify.ts";
import { hex } from "../hex.ts";
import { snapshotKey } from "../storage/manifest.ts";
import { type PublishResult, readManifest, recordVersion } from "../storage/publish.ts";
import { R2Store } from "../storage/r2-store.ts";
import { stagingKey, type Uploads } from "./uploads.ts";

/**
 * How long one commit request verifies before it answers "verifying" and the client asks again (ms
 * of wall time, which bounds its CPU time): the 10 s cpu_ms of wrangler.toml leaves room for the
 * one check that runs past it (2.6 s at most at a million objects, docs/publish-api.md).
 */
export const DEFAULT_VERIFY_MS = 4000;

/**
 * What verifying a snapshot may hold live at once, by its size: a quarter of it (77 MiB for the
 * 336 MiB of a million objects, docs/publish-api.md). The isolate's section cache lends that much
 * of its budget while a step runs, so that both fit in a Worker's 128 MB.
 */
const verificationBytes = (size: number) => size / 4;

/** The answer while verification goes on: the client asks again, and it resumes. */
export interface VerifyingAnswer {
  sha256: string;
  outcome: "verifying";
  verified: { checks: number; of: number };
}

export type CommitAnswer = PublishResult | VerifyingAnswer;

/** Range reads of `key`, pinned to its ETag. */
async function objectSource(store: R2Store, key: string): Promise<(ByteSource & { etag: string }) | null> {
  const info = await store.head(key);
  return (
    info && {
      key,
      size: info.size,
      etag: info.etag,
      read: (offset, length) => store.getRange(key, offset, length, info.etag),
    }
  );
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

/**
 * Verifies `source` from the check earlier requests of this upload reached, until done or
 * `enough()`, and records how far it got; throws CorruptSnapshotError for a snapshot not valid.
 */
async function verifyStep(
  uploads: Uploads,
  sha256: string,
  source: ByteSource & { etag: string },
  enough: () => boolean,
  beside: SectionCache | null,
): Promise<VerificationProgress> {
  const from = await uploads.verifiedChecks(sha256, source.etag);
  const step = () => verifySnapshotSteps(source, from, enough);
  const progress = beside ? await beside.lend(verificationBytes(source.size), step) : await step();
  if (progress.done < progress.of) await uploads.recordVerified(sha256, source.etag, progress.done);
  return progress;
}

/** The staged bytes, `size` long, verified a step further (checked before anything points at them). */
async function verifyStaged(
  store: R2Store,
  uploads: Uploads,
  sha256: string,
  size: number,
  enough: () => boolean,
  beside: SectionCache | null,
): Promise<VerificationProgress> {
  const source = await objectSource(store, stagingKey(sha256));
  if (!source) throw new CorruptSnapshotError("the assembled upload is missing");
  if (source.size !== size)
    throw new CorruptSnapshotError(`the upload is ${source.size} bytes, ${size} were declared (truncated?)`);
  return verifyStep(uploads, sha256, source, enough, beside);
}

/** What `verifying` finds, or, for a snapshot that is not valid, the refusal `refuse` makes of why. */
async function refusedIfCorrupt<T>(verifying: Promise<T>, refuse: (reason: string) => Promise<ApiError>): Promise<T> {
  try {
    return await verifying;
  } catch (error) {
    if (error instanceof CorruptSnapshotError) throw await refuse(error.message);
    throw error;
  }
}

const verifying = (sha256: string, { done, of }: VerificationProgress): VerifyingAnswer => ({
  sha256,
  outcome: "verifying",
  verified: { checks: done, of },
});

/**
 * Publishes the snapshot `sha256`: from its finished upload (verified, then copied to
 * `snapshots/<sha256>.snap` only if its SHA-256 is `sha256`), or, with no upload under way, the
 * one already stored there (verified unless its manifest lists it already). Verification stops
 * after `stepMs` and answers "verifying"; the next request resumes it. Refused content is deleted
 * with everything its upload left. The manifest is swapped last, conditionally, as publishSnapshot does.
 * `beside`, the isolate's section cache, lends verification room while each step runs.
 */
export async function commitSnapshot(
  bucket: R2Bucket,
  uploads: Uploads,
  sha256: string,
  stepMs = DEFAULT_VERIFY_MS,
  beside: SectionCache | null = null,
): Promise<CommitAnswer> {
  const started = Date.now();
  const enough = () => Date.now() - started >= stepMs;
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
    const progress = await refusedIfCorrupt(verifyStaged(store, uploads, sha256, record.size, enough, beside), refuse);
    if (progress.done < progress.of) return verifying(sha256, progress);
    const actual = await copyVerified(bucket, stagingKey(sha256), finalKey, sha256);
    if (actual !== sha256)
      throw await refuse(
        `its SHA-256 is ${actual}, not the declared content address ${sha256} (corrupted or truncated in transit?)`,
      );
    await uploads.discard(sha256);
    return recordVersion(store, progress.meta, sha256, record.size);
  }
  // Stored already (identical content published before, or by a concurrent publisher). Unless its
  // manifest lists it, it is verified all the same: a server that checked less may have stored it.
  const refuse = async (reason: string) => {
    await uploads.discard(sha256);
    return new ApiError(
      "upload_refused",
      `the stored snapshot ${sha256} is not a valid snapshot: ${reason}; it was not listed (the object stays for an operator to remove)`,
    );
  };
  const { meta } = await refusedIfCorrupt(Snapshot.open(placed), refuse);
  const listed = (await readManifest(store, meta.application))?.versions.some((v) => v.sha256 === sha256);
  if (!listed) {
    const progress = await refusedIfCorrupt(verifyStep(uploads, sha256, placed, enough, beside), refuse);
    if (progress.done < progress.of) return verifying(sha256, progress);
  }
  await uploads.discard(sha256);
  return recordVersion(store, meta, sha256, placed.size);
}
