// @module MemoryStore: a BlobStore in memory with R2's conditional-put semantics and a log of writes, for Node tests of publishing.
import { StorageUnavailableError } from "../../src/contract/errors.ts";
import type { BlobInfo, BlobStore } from "../../src/storage/blob-store.ts";

/** A BlobStore in memory that logs every write, for checking what was (not) written. */
export class MemoryStore implements BlobStore {
  readonly objects = new Map<string, { bytes: Uint8Array; etag: string }>();
  readonly writes: string[] = [];
  private etags = 0;

  async head(key: string): Promise<BlobInfo | null> {
    const o = this.objects.get(key);
    return o ? { size: o.bytes.length, etag: o.etag } : null;
  }
  async get(key: string): Promise<{ bytes: Uint8Array; etag: string } | null> {
    const o = this.objects.get(key);
    return o ? { bytes: o.bytes.slice(), etag: o.etag } : null;
  }
  async getFirst(key: string, length: number): Promise<{ bytes: Uint8Array; size: number; etag: string } | null> {
    const o = this.objects.get(key);
    return o ? { bytes: o.bytes.slice(0, length), size: o.bytes.length, etag: o.etag } : null;
  }
  async getRange(key: string, offset: number, length: number, etag: string): Promise<Uint8Array> {
    const o = this.objects.get(key);
    if (!o || o.etag !== etag) throw new StorageUnavailableError(`${key} is gone or changed`);
    return o.bytes.slice(offset, offset + length);
  }
  async put(key: string, bytes: Uint8Array): Promise<BlobInfo> {
    this.writes.push(`put ${key}`);
    return this.store(key, bytes);
  }
  async putIf(key: string, bytes: Uint8Array, etag: string | null): Promise<BlobInfo | null> {
    this.writes.push(`putIf ${key}`);
    if ((this.objects.get(key)?.etag ?? null) !== etag) return null;
    return this.store(key, bytes);
  }
  async delete(key: string): Promise<void> {
    this.writes.push(`delete ${key}`);
    this.objects.delete(key);
  }
  async list(prefix: string): Promise<string[]> {
    return [...this.objects.keys()].filter((k) => k.startsWith(prefix)).sort();
  }
  /** Every key with its etag and content, for comparing states. */
  contents(): string[] {
    return [...this.objects].map(([key, o]) => `${key} ${o.etag} ${Buffer.from(o.bytes).toString("base64")}`).sort();
  }
  private store(key: string, bytes: Uint8Array): BlobInfo {
    const etag = `"${++this.etags}"`;
    this.objects.set(key, { bytes: bytes.slice(), etag });
    return { size: bytes.length, etag };
  }
}
