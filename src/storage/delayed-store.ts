// @module DelayedStore: a BlobStore whose every call first waits a fixed time, as R2 behind a Worker does (tens of ms).
//
// Local R2 (miniflare, a folder on disk) answers in microseconds, so concurrency that only goes
// wrong while reads are in flight never shows locally. STORAGE_LATENCY_MS puts this in front of the
// bucket in `wrangler dev` and in tests, so cold answers and cancelled requests cost what they cost at the edge.
import type { BlobInfo, BlobStore } from "./blob-store.ts";

/** Milliseconds of a STORAGE_LATENCY_MS setting: unset or blank is 0; anything but a number ≥ 0 is refused. */
export function storageLatencyMs(setting: string | undefined): number {
  if (setting === undefined || setting.trim() === "") return 0;
  const ms = Number(setting);
  if (!Number.isFinite(ms) || ms < 0)
    throw new Error(`STORAGE_LATENCY_MS must be a number of milliseconds ≥ 0, not ${JSON.stringify(setting)}`);
  return ms;
}

export class DelayedStore implements BlobStore {
  private readonly store: BlobStore;
  private readonly delayMs: number;

  constructor(store: BlobStore, delayMs: number) {
    this.store = store;
    this.delayMs = delayMs;
  }

  private async after<T>(run: () => Promise<T>): Promise<T> {
    await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    return run();
  }

  head(key: string): Promise<BlobInfo | null> {
    return this.after(() => this.store.head(key));
  }

  get(key: string): Promise<{ bytes: Uint8Array; etag: string } | null> {
    return this.after(() => this.store.get(key));
  }

  getRange(key: string, offset: number, length: number, etag: string): Promise<Uint8Array> {
    return this.after(() => this.store.getRange(key, offset, length, etag));
  }

  put(key: string, bytes: Uint8Array): Promise<BlobInfo> {
    return this.after(() => this.store.put(key, bytes));
  }

  putIf(key: string, bytes: Uint8Array, etag: string | null): Promise<BlobInfo | null> {
    return this.after(() => this.store.putIf(key, bytes, etag));
  }

  delete(key: string): Promise<void> {
    return this.after(() => this.store.delete(key));
  }

  list(prefix: string): Promise<string[]> {
    return this.after(() => this.store.list(prefix));
  }
}
