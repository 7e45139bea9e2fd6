// @module Our engine in process, beyond latency: the cold first answer (time and bytes read); memory is engine-memory.ts.
import { SectionCache } from "../../src/format/section-cache.ts";
import { countingSource, Snapshot } from "../../src/format/snapshot.ts";
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
  return {
    path: entry.path,
    ms,
    bytesRead: source.bytesRead,
    reads: source.reads,
    fractionOfSnapshot: source.bytesRead / source.size,
  };
}
