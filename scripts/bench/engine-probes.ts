// @module Our engine in process, beyond latency: the cold first answer (time, bytes read) and peak memory over the whole mix.
import { SectionCache, type SectionCacheStats } from "../../src/format/section-cache.ts";
import { Snapshot, countingSource } from "../../src/format/snapshot.ts";
import { fileSource } from "../../src/storage/file-source.ts";
import { engineAnswer } from "./engine.ts";
import type { MixEntry } from "./mix.ts";

export interface ColdAnswer {
  path: string;
  /** Opening the snapshot and answering, from nothing decoded. */
  ms: number;
  bytesRead: number;
  reads: number;
  /** bytesRead as a share of the snapshot's size. */
  fractionOfSnapshot: number;
}

/** A fresh Snapshot (fresh section cache) answering `entry`: the first request an isolate serves. */
export async function coldFirstAnswer(snapshotPath: string, entry: MixEntry, budgetBytes: number): Promise<ColdAnswer> {
  const source = countingSource(await fileSource(snapshotPath, `cold:${snapshotPath}`));
  const started = performance.now();
  const snapshot = await Snapshot.open(source, { sections: new SectionCache(budgetBytes) });
  await engineAnswer(snapshot, entry.query);
  const ms = performance.now() - started;
  return { path: entry.path, ms, bytesRead: source.bytesRead, reads: source.reads, fractionOfSnapshot: source.bytesRead / source.size };
}

export interface MixMemory {
  budgetBytes: number;
  /** heapUsed + arrayBuffers before the pass (after a GC when the process runs with --expose-gc). */
  beforeBytes: number;
  /** The highest heapUsed + arrayBuffers seen after any query of the pass. */
  peakBytes: number;
  gcExposed: boolean;
  cache: SectionCacheStats;
}

const heapNow = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

/** Runs the whole mix `rounds` times on a fresh snapshot and section cache, sampling memory after every query. */
export async function memoryOverMix(snapshotPath: string, entries: readonly MixEntry[], budgetBytes: number, rounds = 1): Promise<MixMemory> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const beforeBytes = heapNow();
  const sections = new SectionCache(budgetBytes);
  const snapshot = await Snapshot.open(await fileSource(snapshotPath, `memory:${snapshotPath}`), { sections });
  let peakBytes = heapNow();
  for (let round = 0; round < rounds; round++)
    for (const e of entries) {
      await engineAnswer(snapshot, e.query);
      peakBytes = Math.max(peakBytes, heapNow());
    }
  return { budgetBytes, beforeBytes, peakBytes, gcExposed: gc !== undefined, cache: sections.stats() };
}
