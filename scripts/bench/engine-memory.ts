// @module The engine's memory over the mix, measured in a fresh Node process holding nothing else: retained after GC, and peak RSS.
//
//   node --expose-gc scripts/bench/engine-memory.ts < {"snapshot", "budgetBytes", "queries"}   (prints EngineMemory as JSON)
//
// The bench process itself holds the dataset, the mix and the SQLite baseline (~100 MB at 1M
// objects) and their garbage, so its heap says little about the engine. This child loads the
// modules, takes its baseline after a full GC, opens the snapshot with one SectionCache of the
// budget, and after each query forces a GC and reads what is still held.
import { spawn } from "node:child_process";
import { text } from "node:stream/consumers";
import { fileURLToPath } from "node:url";
import { SectionCache, type SectionCacheStats } from "../../src/format/section-cache.ts";
import { Snapshot } from "../../src/format/snapshot.ts";
import { fileSource } from "../../src/storage/file-source.ts";
import { engineAnswer } from "./engine.ts";
import type { MixEntry } from "./mix.ts";
import { peakRssBytes } from "./process-memory.ts";

export interface EngineMemory {
  budgetBytes: number;
  queries: number;
  /** heapUsed + arrayBuffers after a full GC with the modules loaded, before the snapshot is opened. */
  baselineHeapBytes: number;
  /** Resident set at that moment. */
  baselineRssBytes: number;
  /** The highest heapUsed + arrayBuffers after a full GC following a query, minus the baseline: what the engine keeps between queries. */
  retainedBytes: number;
  /** The query after which retainedBytes was read. */
  retainedAfter: string;
  /** Peak resident set of the child over its whole life (VmHWM): transient decoding buffers and garbage included. */
  peakRssBytes: number | null;
  cache: SectionCacheStats;
}

interface Job {
  snapshot: string;
  budgetBytes: number;
  queries: Pick<MixEntry, "query" | "path">[];
}

const heldBytes = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

async function measure(job: Job, gc: () => void): Promise<EngineMemory> {
  gc();
  const baselineHeapBytes = heldBytes();
  const baselineRssBytes = process.memoryUsage.rss();
  const sections = new SectionCache(job.budgetBytes);
  const snapshot = await Snapshot.open(await fileSource(job.snapshot, `memory:${job.snapshot}`), { sections });
  let retained = { bytes: 0, after: "" };
  for (const q of job.queries) {
    await engineAnswer(snapshot, q.query);
    // Twice, a turn of the event loop apart: the backing stores of large buffers dropped by the
    // first collection are released after it, and one GC alone left up to 33 MiB of them counted.
    gc();
    await new Promise((resolve) => setTimeout(resolve, 0));
    gc();
    const bytes = heldBytes() - baselineHeapBytes;
    if (bytes > retained.bytes) retained = { bytes, after: q.path };
  }
  return {
    budgetBytes: job.budgetBytes,
    queries: job.queries.length,
    baselineHeapBytes,
    baselineRssBytes,
    retainedBytes: retained.bytes,
    retainedAfter: retained.after,
    peakRssBytes: peakRssBytes(process.pid),
    cache: sections.stats(),
  };
}

/** Runs the mix once in a fresh `node --expose-gc` on `snapshotPath` with a SectionCache of `budgetBytes`. */
export async function engineMemory(
  snapshotPath: string,
  entries: readonly MixEntry[],
  budgetBytes: number,
): Promise<EngineMemory> {
  const child = spawn(process.execPath, ["--expose-gc", fileURLToPath(import.meta.url)], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  const job: Job = {
    snapshot: snapshotPath,
    budgetBytes,
    queries: entries.map((e) => ({ query: e.query, path: e.path })),
  };
  child.stdin.end(JSON.stringify(job));
  const [out, errors, code] = await Promise.all([
    text(child.stdout),
    text(child.stderr),
    new Promise<number | null>((done, fail) => child.once("exit", done).once("error", fail)),
  ]);
  if (code !== 0) throw new Error(`the engine memory probe exited (${code}): ${errors.trim().slice(-2000)}`);
  return JSON.parse(out) as EngineMemory;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("run with node --expose-gc: the probe forces a GC after every query");
  const job = JSON.parse(await text(process.stdin)) as Job;
  process.stdout.write(`${JSON.stringify(await measure(job, gc))}\n`);
}
