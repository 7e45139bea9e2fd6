// @module MemoryStore: a BlobStore in memory with R2's conditional-put semantics, for Node tests of publishing.
import type { BlobInfo, BlobStore } from "../../src/storage/blob-store.ts";

export class MemoryStore implements BlobStore {
  readonly objects = new Map<string, { bytes: Uint8Array; etag: string }>();
  private version = 0;

  async head(key: string): Promise<BlobInfo | null> {
    const o = this.objects.get(key);
    return o ? { size: o.bytes.length, etag: o.etag } : null;
  }
  async get(key: string): Promise<{ bytes: Uint8Array; etag: string } | null> {
    const o = this.objects.get(key);
    return o ? { bytes: o.bytes.slice(), etag: o.etag } : null;
  }
  async getRange(key: string, offset: number, length: number, etag: string): Promise<Uint8Array> {
    const o = this.objects.get(key);
    if (!o || o.etag !== etag) throw new Error(`${key} changed`);
    return o.bytes.slice(offset, offset + length);
  }
  async put(key: string, bytes: Uint8Array): Promise<BlobInfo> {
    const etag = `e${++this.version}`;
    this.objects.set(key, { bytes: bytes.slice(), etag });
    return { size: bytes.length, etag };
  }
  async putIf(key: string, bytes: Uint8Array, etag: string | null): Promise<BlobInfo | null> {
    const current = this.objects.get(key);
    if ((etag === null && current) || (etag !== null && current?.etag !== etag)) return null;
    return this.put(key, bytes);
  }
  async delete(key: string): Promise<void> {
    this.objects.delete(key);
  }
  async list(prefix: string): Promise<string[]> {
    return [...this.objects.keys()].filter((k) => k.startsWith(prefix)).sort();
  }
}
