// @module R2Store: BlobStore over an R2 bucket binding, every range read pinned to the object's ETag.
import { StorageUnavailableError } from "../contract/errors.ts";
import type { BlobInfo, BlobStore } from "./blob-store.ts";

/**
 * Objects above this go up in parts: wrangler's platform proxy (what `publish --local` writes
 * through) turns a body into one string, which V8 caps at ~512 MiB, and R2 caps a single put at 5 GiB.
 */
const SINGLE_PUT_LIMIT = 192 * 1024 * 1024;
const PART_BYTES = 64 * 1024 * 1024;

/**
 * Waits before each new attempt at a read R2 failed to answer. R2 now and then fails a call with
 * "We encountered an internal error. Please try again."; an answer reads tens of ranges, so without
 * another attempt such a failure would fail the whole answer. Reads are idempotent (ranges are
 * pinned to an ETag), so trying again cannot change what is read.
 */
const READ_RETRY_DELAYS_MS = [10, 50];

/** A read's failure that another attempt would only repeat: the object is gone or is another version. */
class FinalReadFailure extends StorageUnavailableError {}

/** Wraps R2 failures (network, 5xx, missing object) so routes answer 503 storage_unavailable. */
async function guarded<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof StorageUnavailableError) throw error;
    throw new StorageUnavailableError(`${what}: ${(error as Error)?.message ?? String(error)}`);
  }
}

/** `guarded`, trying a read again after each delay of READ_RETRY_DELAYS_MS unless its failure is final. */
async function guardedRead<T>(what: string, run: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await guarded(what, run);
    } catch (error) {
      const delayMs = READ_RETRY_DELAYS_MS[attempt];
      if (error instanceof FinalReadFailure) throw error;
      if (delayMs === undefined)
        throw new StorageUnavailableError(`${(error as Error).message} (${attempt + 1} attempts)`);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}

export class R2Store implements BlobStore {
  private readonly bucket: R2Bucket;
  private readonly singlePutLimit: number;
  private readonly partBytes: number;

  /** `parts`: where a put switches to a multipart upload, and its part size (tests make them small). */
  constructor(bucket: R2Bucket, parts: { singlePutLimit?: number; partBytes?: number } = {}) {
    this.bucket = bucket;
    this.singlePutLimit = parts.singlePutLimit ?? SINGLE_PUT_LIMIT;
    this.partBytes = parts.partBytes ?? PART_BYTES;
  }

  head(key: string): Promise<BlobInfo | null> {
    return guardedRead(`head ${key}`, async () => {
      const object = await this.bucket.head(key);
      return object && { size: object.size, etag: object.etag };
    });
  }

  get(key: string): Promise<{ bytes: Uint8Array; etag: string } | null> {
    return guardedRead(`get ${key}`, async () => {
      const object = await this.bucket.get(key);
      if (!object) return null;
      return { bytes: new Uint8Array(await object.arrayBuffer()), etag: object.etag };
    });
  }

  getFirst(key: string, length: number): Promise<{ bytes: Uint8Array; size: number; etag: string } | null> {
    return guardedRead(`read ${key}`, async () => {
      const object = await this.bucket.get(key, { range: { offset: 0, length } });
      if (!object) return null;
      const bytes = new Uint8Array(await object.arrayBuffer());
      if (bytes.length !== Math.min(length, object.size))
        throw new StorageUnavailableError(`${key}: got ${bytes.length} of its first ${length} bytes`);
      return { bytes, size: object.size, etag: object.etag };
    });
  }

  getRange(key: string, offset: number, length: number, etag: string): Promise<Uint8Array> {
    return guardedRead(`read ${key}`, async () => {
      if (length === 0) return new Uint8Array(0);
      const object = await this.bucket.get(key, { range: { offset, length }, onlyIf: { etagMatches: etag } });
      if (!object) throw new FinalReadFailure(`${key} is gone`);
      // A failed etagMatches returns the object without a body (no arrayBuffer); its property getters are not touched
      // otherwise, since through wrangler's platform proxy reading `body` consumes it.
      const body = object as Partial<R2ObjectBody>;
      if (object.etag !== etag)
        throw new FinalReadFailure(`${key} changed while being read (ETag ${object.etag}, expected ${etag})`);
      if (typeof body.arrayBuffer !== "function")
        throw new StorageUnavailableError(`${key}: a read of ETag ${etag} was answered without its bytes`);
      const bytes = new Uint8Array(await body.arrayBuffer());
      if (bytes.length !== length)
        throw new StorageUnavailableError(`${key}: got ${bytes.length} of ${length} bytes at ${offset}`);
      return bytes;
    });
  }

  put(key: string, bytes: Uint8Array): Promise<BlobInfo> {
    return guarded(`put ${key}`, async () => {
      if (bytes.length > this.singlePutLimit) return this.putInParts(key, bytes);
      const object = await this.bucket.put(key, bytes);
      return { size: object!.size, etag: object!.etag };
    });
  }

  /** A large object as a multipart upload: one put of it would not pass wrangler's local proxy (`publish --local`). */
  private async putInParts(key: string, bytes: Uint8Array): Promise<BlobInfo> {
    const upload = await this.bucket.createMultipartUpload(key);
    try {
      const parts: R2UploadedPart[] = [];
      for (let at = 0, n = 1; at < bytes.length; at += this.partBytes, n++)
        parts.push(await upload.uploadPart(n, bytes.subarray(at, Math.min(bytes.length, at + this.partBytes))));
      const object = await upload.complete(parts);
      return { size: object.size, etag: object.etag };
    } catch (error) {
      await upload.abort().catch(() => {});
      throw error;
    }
  }

  putIf(key: string, bytes: Uint8Array, etag: string | null): Promise<BlobInfo | null> {
    return guarded(`put ${key}`, async () => {
      const onlyIf = etag === null ? new Headers({ "If-None-Match": "*" }) : { etagMatches: etag };
      const object = await this.bucket.put(key, bytes, { onlyIf });
      return object && { size: object.size, etag: object.etag };
    });
  }

  delete(key: string): Promise<void> {
    return guarded(`delete ${key}`, () => this.bucket.delete(key));
  }

  list(prefix: string): Promise<string[]> {
    return guardedRead(`list ${prefix}`, async () => {
      const keys: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await this.bucket.list({ prefix, cursor });
        keys.push(...page.objects.map((o) => o.key));
        cursor = page.truncated ? page.cursor : undefined;
      } while (cursor);
      return keys;
    });
  }
}
