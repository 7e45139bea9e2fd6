// @module DelayedStore: a BlobStore whose every call first waits a fixed time on one of the invocation's six connections, as R2 behind a Worker does (tens of ms).
//
// Local R2 (miniflare, a folder on disk) answers in microseconds, so concurrency that only goes
// wrong while reads are in flight never shows locally. STORAGE_LATENCY_MS puts this in front of the
// bucket in `wrangler dev` and in tests, so cold answers and cancelled requests cost what they cost at the edge.
import { onConnection } from "../format/storage-meter.ts";
import type { BlobInfo, BlobStore } from "./blob-store.ts";

/** The longest latency accepted: a minute (timers take anything above 2^31 - 1 ms for 1 ms). */
const MAX_LATENCY_MS = 60_000;

/**
 * Milliseconds of the latency setting `name` (the worker's STORAGE_LATENCY_MS, `appstruct serve
 * --read-latency-ms`): decimal digits, a fraction allowed, from 0 to MAX_LATENCY_MS; anything else is refused.
 */
export function latencyMs(name: string, setting: string): number {
  const ms = /^\d+(\.\d+)?$/.test(setting.trim()) ? Number(setting) : Number.NaN;
  if (!(ms <= MAX_LATENCY_MS))
    throw new Error(
      `${name} must be a number of milliseconds from 0 to ${MAX_LATENCY_MS} (as 20 or 2.5), not ${JSON.stringify(setting)}`,
    );
  return ms;
}

/** Milliseconds of a STORAGE_LATENCY_MS setting: unset or blank is 0; see latencyMs. */
export function storageLatencyMs(setting: string | undefined): number {
  if (setting === undefined || setting.trim() === "") return 0;
  return latencyMs("STORAGE_LATENCY_MS", setting);
}

export class DelayedStore implements BlobStore {
  private readonly store: BlobStore;
  private readonly delayMs: number;

  constructor(store: BlobStore, delayMs: number) {
    this.store = store;
    this.delayMs = delayMs;
  }

  /** `run` once the call's delay has passed on a connection of the invocation (the runtime lets six wait at once). */
  private async after<T>(run: () => Promise<T>): Promise<T> {
    await onConnection(() => new Promise((resolve) => setTimeout(resolve, this.delayMs)));
    return run();
  }

  head(key: string): Promise<BlobInfo | null> {
    return this.after(() => this.store.head(key));
  }

  get(key: string): Promise<{ bytes: Uint8Array; etag: string } | null> {
    return this.after(() => this.store.get(key));
  }

  getFirst(key: string, length: number): Promise<{ bytes: Uint8Array; size: number; etag: string } | null> {
    return this.after(() => this.store.getFirst(key, length));
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
