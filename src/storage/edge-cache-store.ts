// @module EdgeCacheStore: a BlobStore keeping ranges of immutable objects in the data centre's cache (the Workers Cache API), between the isolate's memory and R2.
//
// Snapshot bytes never change under their key (the key is their SHA-256), so a range read once in a
// data centre can serve every isolate there: a cold isolate then reads its sections from the cache, a
// millisecond or two away, instead of R2, tens of milliseconds away. Only what `immutable` says is
// cached; a manifest, which changes on every publish, always goes to the store.
//
// How the Cache API is used (developers.cloudflare.com/workers/runtime-apis/cache). It stores
// whole responses under a GET request's URL: `put` refuses a 206, so each range is its own 200
// response under a URL naming the object, its ETag and the range. The ETag in the key keeps the
// store's guarantee that a range belongs to the version first read: an object written again under
// its key gets entries of its own. Entries last a year (immutable); the data centre may evict them
// sooner. The put runs in waitUntil: an answer need not wait for it, and in workerd a put left
// pending when its request ends may be cancelled. A cache that fails is a cache that missed: the
// range comes from the store, as without it.

import { waitUntil } from "../wait-until.ts";
import type { BlobInfo, BlobStore } from "./blob-store.ts";

/** The host of the cache keys: requests to it are never made, only matched. */
const KEY_ORIGIN = "https://snapshot-ranges.appstruct.internal";

/** Kept a year: the bytes under a key never change (the data centre evicts what it must). */
const CACHE_CONTROL = "public, max-age=31536000, immutable";

export class EdgeCacheStore implements BlobStore {
  private readonly store: BlobStore;
  private readonly cache: Cache;
  private readonly immutable: (key: string) => boolean;

  /** Ranges of the objects `immutable` names are kept in `cache` (caches.default in the worker). */
  constructor(store: BlobStore, cache: Cache, immutable: (key: string) => boolean) {
    this.store = store;
    this.cache = cache;
    this.immutable = immutable;
  }

  /** The cache key of a range: the object, its ETag, the range (a GET request URL, as the Cache API wants). */
  static keyOf(key: string, etag: string, offset: number, length: number): string {
    return `${KEY_ORIGIN}/${encodeURIComponent(key)}?etag=${encodeURIComponent(etag)}&offset=${offset}&length=${length}`;
  }

  async getRange(key: string, offset: number, length: number, etag: string): Promise<Uint8Array> {
    if (length === 0 || !this.immutable(key)) return this.store.getRange(key, offset, length, etag);
    const url = EdgeCacheStore.keyOf(key, etag, offset, length);
    const cached = await this.match(url, length);
    if (cached) return cached;
    const bytes = await this.store.getRange(key, offset, length, etag);
    // Response copies the bytes: the caller keeps its own buffer.
    waitUntil(this.cache.put(url, new Response(bytes, { headers: { "Cache-Control": CACHE_CONTROL } })));
    return bytes;
  }

  /** The range kept under `url`, or null when there is none (or the cache fails, or holds another length). */
  private async match(url: string, length: number): Promise<Uint8Array | null> {
    try {
      const response = await this.cache.match(url);
      if (!response) return null;
      const bytes = new Uint8Array(await response.arrayBuffer());
      return bytes.length === length ? bytes : null;
    } catch {
      return null;
    }
  }

  head(key: string): Promise<BlobInfo | null> {
    return this.store.head(key);
  }

  get(key: string): Promise<{ bytes: Uint8Array; etag: string } | null> {
    return this.store.get(key);
  }

  /** Always from the store: it is where an open learns the object's current ETag, which keys its ranges. */
  getFirst(key: string, length: number): Promise<{ bytes: Uint8Array; size: number; etag: string } | null> {
    return this.store.getFirst(key, length);
  }

  put(key: string, bytes: Uint8Array): Promise<BlobInfo> {
    return this.store.put(key, bytes);
  }

  putIf(key: string, bytes: Uint8Array, etag: string | null): Promise<BlobInfo | null> {
    return this.store.putIf(key, bytes, etag);
  }

  delete(key: string): Promise<void> {
    return this.store.delete(key);
  }

  list(prefix: string): Promise<string[]> {
    return this.store.list(prefix);
  }
}
