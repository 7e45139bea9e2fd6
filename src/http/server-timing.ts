// @module The Server-Timing header of an answer: its wait on storage, its reads, its section-cache hits and misses, and what it prefetched; written here and read back (benchmarks, tests).
import type { StorageMeter } from "../format/storage-meter.ts";

/** What Server-Timing says of one answer. */
export interface StorageTiming {
  /** Milliseconds waited on snapshot reads: its own, and loads of other requests it waited for. */
  storageMs: number;
  /** Reads this answer made, and their bytes. */
  reads: number;
  bytes: number;
  /** Rounds of its waits on storage: each one a wait that started after the one before had settled. */
  rounds: number;
  /** Sections and pages found decoded in the cache; those loaded, or waited for. */
  hits: number;
  misses: number;
  /** Reads it started for the answers likely to come next, which it did not wait for, and their bytes. */
  prefetches: number;
  prefetchedBytes: number;
}

/**
 * `storage;dur=<ms>;desc="<n> reads, <bytes> bytes", rounds;desc="<r>", cache;desc="<h> hits, <m> misses",
 * prefetch;desc="<n> reads, <bytes> bytes"`. The storage entry comes first, its description exactly
 * `<n> reads, <bytes> bytes` as clients parse it; the rounds have an entry of their own so that it stays so.
 */
export function serverTiming(meter: StorageMeter): string {
  const ms = Math.round(meter.storageMs * 100) / 100;
  return (
    `storage;dur=${ms};desc="${meter.reads} reads, ${meter.bytes} bytes", ` +
    `rounds;desc="${meter.rounds}", ` +
    `cache;desc="${meter.hits} hits, ${meter.misses} misses", ` +
    `prefetch;desc="${meter.prefetches} reads, ${meter.prefetchedBytes} bytes"`
  );
}

const WRITTEN =
  /^storage;dur=(\d+(?:\.\d+)?);desc="(\d+) reads, (\d+) bytes", rounds;desc="(\d+)", cache;desc="(\d+) hits, (\d+) misses", prefetch;desc="(\d+) reads, (\d+) bytes"$/;

/** What `serverTiming` wrote, read back from a header; null when the header is missing or not of that form. */
export function readServerTiming(header: string | null | undefined): StorageTiming | null {
  const match = header ? WRITTEN.exec(header) : null;
  if (!match) return null;
  const [storageMs, reads, bytes, rounds, hits, misses, prefetches, prefetchedBytes] = match.slice(1).map(Number);
  return { storageMs, reads, rounds, bytes, hits, misses, prefetches, prefetchedBytes };
}
