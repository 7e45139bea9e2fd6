// @module Uploads: resumable R2 multipart uploads of one snapshot each, keyed by its declared content address, with their state in R2.
import { ApiError, StorageUnavailableError } from "../contract/errors.ts";
import { R2Store } from "../storage/r2-store.ts";

/** R2's bounds on a part: every part but the last at least 5 MiB; all under a Worker's 100 MB request body. */
export const MIN_PART_SIZE = 5 * 1024 * 1024;
export const MAX_PART_SIZE = 95 * 1024 * 1024;
/**
 * The largest snapshot accepted: twice the 480 MiB of one million objects. Publishing verifies a
 * snapshot section by section, and serving reads some sections whole, within a Worker's 128 MB;
 * those sections grow with the snapshot.
 */
export const MAX_SNAPSHOT_BYTES = 1024 * 1024 * 1024;
/** Most parts an upload may have: the largest snapshot in the smallest parts. */
export const MAX_PART_COUNT = Math.ceil(MAX_SNAPSHOT_BYTES / MIN_PART_SIZE);
/** An upload unfinished for this long is started afresh: R2 may have aborted it (its lifecycle rules), and its client is long gone. */
const STALE_AFTER_MS = 24 * 60 * 60 * 1000;

/** What the uploader declared and what R2 needs to resume; stored as `uploads/<sha256>/upload.json`. */
export interface UploadRecord {
  sha256: string;
  size: number;
  partSize: number;
  uploadId: string;
  createdAt: string;
}

/** The upload's state as the API reports it: enough for a client to resume. */
export interface UploadState {
  sha256: string;
  size: number;
  partSize: number;
  partCount: number;
  /** Part numbers (1-based) already uploaded. */
  uploaded: number[];
}

// Everything an upload leaves in the bucket lives under this folder, so cleaning up is one listing.
const folder = (sha256: string) => `uploads/${sha256}/`;
const recordKey = (sha256: string) => `${folder(sha256)}upload.json`;
const partKey = (sha256: string, part: number) => `${folder(sha256)}parts/${String(part).padStart(5, "0")}.json`;
/** Where the parts are assembled, to be verified before anything points at it. */
export const stagingKey = (sha256: string) => `${folder(sha256)}staged.snap`;
/** How many checks of the verification passed in earlier requests, and of which object (its ETag). */
const verifiedKey = (sha256: string) => `${folder(sha256)}verified.json`;

export const partCount = (record: Pick<UploadRecord, "size" | "partSize">) =>
  Math.max(1, Math.ceil(record.size / record.partSize));

/** The exact byte length of part `part` of `record`. */
function partLength(record: Pick<UploadRecord, "size" | "partSize">, part: number): number {
  return part < partCount(record) ? record.partSize : record.size - (partCount(record) - 1) * record.partSize;
}

/** workerd's words for a body longer, or shorter, than its FixedLengthStream's length. */
const LONGER_BODY = /too many bytes/i;
const SHORTER_BODY = /did not see all expected bytes/i;

export class Uploads {
  private readonly bucket: R2Bucket;
  private readonly store: R2Store;

  constructor(bucket: R2Bucket) {
    this.bucket = bucket;
    this.store = new R2Store(bucket);
  }

  /**
   * Starts the upload of `sha256`, or returns the one already under way for the same content and
   * geometry (a client resuming, or two publishers of identical content sharing one upload).
   */
  async begin(sha256: string, size: number, partSize: number): Promise<UploadState> {
    const existing = await this.record(sha256);
    if (existing && Date.now() - Date.parse(existing.createdAt) < STALE_AFTER_MS)
      return this.sameGeometry(existing, size, partSize);
    if (existing) await this.discard(sha256);
    const upload = await this.bucket.createMultipartUpload(stagingKey(sha256));
    const record: UploadRecord = {
      sha256,
      size,
      partSize,
      uploadId: upload.uploadId,
      createdAt: new Date().toISOString(),
    };
    if (await this.store.putIf(recordKey(sha256), new TextEncoder().encode(JSON.stringify(record)), null))
      return this.state(record);
    // Another publisher of the same content started first: use theirs.
    await upload.abort();
    const winner = await this.record(sha256);
    if (!winner)
      throw new ApiError(
        "upload_incomplete",
        `the upload of ${sha256} was started and abandoned concurrently; start it again`,
      );
    return this.sameGeometry(winner, size, partSize);
  }

  /** The upload of `sha256` with the parts uploaded so far; 404 upload_not_found when there is none. */
  async find(sha256: string): Promise<UploadState> {
    return this.state(await this.required(sha256));
  }

  /** Uploads part `part` from `body`, which must be exactly that part's length. */
  async putPart(
    sha256: string,
    part: number,
    body: ReadableStream<Uint8Array> | null,
    contentLength: number | null,
  ): Promise<{ partNumber: number; size: number }> {
    const record = await this.required(sha256);
    const count = partCount(record);
    if (!Number.isInteger(part) || part < 1 || part > count)
      throw new ApiError(
        "invalid_parameter",
        `part must be a whole number from 1 to ${count} (the upload is ${record.size} bytes in parts of ${record.partSize})`,
        { parameter: "part" },
      );
    const length = partLength(record, part);
    const wrongLength = (got: string) =>
      new ApiError("invalid_parameter", `part ${part} must be exactly ${length} bytes; got ${got}`, {
        parameter: "body",
      });
    if (!body) throw wrongLength("no body");
    if (contentLength !== null && contentLength !== length) throw wrongLength(`Content-Length ${contentLength}`);
    // A known length for R2, and a body of another length (cut short) fails here instead of being
    // stored. Nothing in JavaScript touches the body on its way: workerd then pipes it to R2 itself.
    // Counted by a TransformStream, each of a part's 64 MiB passed through the isolate as garbage:
    // uploading 336 MiB read up to 83 MiB there, and 9 MiB without it.
    const fixed = new FixedLengthStream(length);
    const piping = body.pipeTo(fixed.writable).then(
      () => null,
      (error: unknown) => error,
    );
    let uploaded: R2UploadedPart;
    try {
      uploaded = await this.bucket
        .resumeMultipartUpload(stagingKey(sha256), record.uploadId)
        .uploadPart(part, fixed.readable);
    } catch (error) {
      const piped = await piping;
      const said = [error, piped].map((e) => (e instanceof Error ? e.message : "")).join(" ");
      if (LONGER_BODY.test(said)) throw wrongLength("more");
      // A body that ended early, or failed while it was read (its client gone): fewer bytes than the part's.
      if (SHORTER_BODY.test(said) || piped !== null) throw wrongLength("fewer");
      throw new StorageUnavailableError(
        `part ${part} of ${sha256} could not be stored: ${(error as Error)?.message ?? String(error)}`,
      );
    }
    await this.store.put(
      partKey(sha256, part),
      new TextEncoder().encode(JSON.stringify({ ...uploaded, size: length })),
    );
    return { partNumber: part, size: length };
  }

  /**
   * Assembles the parts into the staging object and forgets the multipart upload; the record stays
   * until discard(). 409 upload_incomplete when parts are missing.
   */
  async assemble(sha256: string): Promise<UploadRecord> {
    const record = await this.required(sha256);
    const parts = await this.parts(sha256);
    const missing = Array.from({ length: partCount(record) }, (_, i) => i + 1).filter((n) => !parts.has(n));
    if (missing.length)
      throw new ApiError(
        "upload_incomplete",
        `the upload of ${sha256} lacks part${missing.length === 1 ? "" : "s"} ${missing.slice(0, 20).join(", ")}${missing.length > 20 ? ", …" : ""}; upload them, then publish again`,
      );
    try {
      await this.bucket
        .resumeMultipartUpload(stagingKey(sha256), record.uploadId)
        .complete([...parts.values()].sort((a, b) => a.partNumber - b.partNumber));
    } catch (error) {
      // Completed by a concurrent publish of the same content (or a retry after a lost answer).
      if (!(await this.bucket.head(stagingKey(sha256))))
        throw new ApiError(
          "upload_incomplete",
          `the parts of ${sha256} could not be assembled (${(error as Error)?.message}); publish again`,
        );
    }
    return record;
  }

  /** How many checks of the snapshot `sha256` stored at `etag` passed in earlier requests: 0 when none did, or when they were of other bytes. */
  async verifiedChecks(sha256: string, etag: string): Promise<number> {
    const stored = await this.store.get(verifiedKey(sha256));
    const progress = stored && (JSON.parse(new TextDecoder().decode(stored.bytes)) as { etag: string; checks: number });
    return progress?.etag === etag ? progress.checks : 0;
  }

  /** Records that `checks` checks of the snapshot `sha256` stored at `etag` passed (discard forgets it). */
  async recordVerified(sha256: string, etag: string, checks: number): Promise<void> {
    await this.store.put(verifiedKey(sha256), new TextEncoder().encode(JSON.stringify({ etag, checks })));
  }

  /** Aborts the multipart upload (if still open) and deletes everything the upload left: record, part records, staging object. */
  async discard(sha256: string): Promise<void> {
    const record = await this.record(sha256);
    if (record)
      await this.bucket
        .resumeMultipartUpload(stagingKey(sha256), record.uploadId)
        .abort()
        .catch(() => {});
    const keys = await this.store.list(folder(sha256));
    if (keys.length) await this.bucket.delete(keys);
  }

  private async record(sha256: string): Promise<UploadRecord | null> {
    const stored = await this.store.get(recordKey(sha256));
    return stored && (JSON.parse(new TextDecoder().decode(stored.bytes)) as UploadRecord);
  }

  private async required(sha256: string): Promise<UploadRecord> {
    const record = await this.record(sha256);
    if (!record)
      throw new ApiError(
        "upload_not_found",
        `no upload of ${sha256} is under way: start one with POST /publish/uploads`,
      );
    return record;
  }

  private async parts(sha256: string): Promise<Map<number, R2UploadedPart>> {
    const parts = new Map<number, R2UploadedPart>();
    for (const key of await this.store.list(`${folder(sha256)}parts/`)) {
      const stored = await this.store.get(key);
      if (!stored) continue;
      const { partNumber, etag } = JSON.parse(new TextDecoder().decode(stored.bytes)) as R2UploadedPart;
      parts.set(partNumber, { partNumber, etag });
    }
    return parts;
  }

  private async state(record: UploadRecord): Promise<UploadState> {
    const uploaded = [...(await this.parts(record.sha256)).keys()].sort((a, b) => a - b);
    return {
      sha256: record.sha256,
      size: record.size,
      partSize: record.partSize,
      partCount: partCount(record),
      uploaded,
    };
  }

  private sameGeometry(record: UploadRecord, size: number, partSize: number): Promise<UploadState> {
    if (record.size !== size || record.partSize !== partSize)
      throw new ApiError(
        "upload_incomplete",
        `an upload of ${record.sha256} is under way with size ${record.size} in parts of ${record.partSize}; resume it with those, or abort it (DELETE /publish/uploads/${record.sha256})`,
      );
    return this.state(record);
  }
}
