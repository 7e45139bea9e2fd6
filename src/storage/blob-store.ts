// @module BlobStore: the object storage appstruct needs (R2 in the worker and for `publish --local`).

export interface BlobInfo {
  size: number;
  etag: string;
}

export interface BlobStore {
  head(key: string): Promise<BlobInfo | null>;
  /** The whole object with its ETag, or null when absent. */
  get(key: string): Promise<{ bytes: Uint8Array; etag: string } | null>;
  /**
   * The object's first `length` bytes with its size and ETag, or null when absent: one read where a
   * head and a range read would be two (the first read of a snapshot; `length` at most its size).
   */
  getFirst(key: string, length: number): Promise<{ bytes: Uint8Array; size: number; etag: string } | null>;
  /** `length` bytes from `offset`, failing with StorageUnavailableError when the object's ETag is no longer `etag`. */
  getRange(key: string, offset: number, length: number, etag: string): Promise<Uint8Array>;
  /** Unconditional write. */
  put(key: string, bytes: Uint8Array): Promise<BlobInfo>;
  /** Writes only when the current ETag is `etag` (null: only when the key does not exist); null when it was not. */
  putIf(key: string, bytes: Uint8Array, etag: string | null): Promise<BlobInfo | null>;
  delete(key: string): Promise<void>;
  list(prefix: string): Promise<string[]>;
}
