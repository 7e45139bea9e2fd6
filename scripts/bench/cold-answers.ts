// @module The cold view: each class's first answer in a fresh worker-like catalog (nothing cached, every storage read late), its reads and sequential rounds.
//
// A cold isolate at the edge reads the application's manifest (which brings the newest snapshot's
// opening bytes), then what the query needs, each read an R2 round trip of tens of milliseconds. What it pays is the number of
// rounds (reads that waited on an earlier one), not of reads: reads that go out together cost one.
// So every answer here goes through the worker's own catalog (StoreCatalog over a BlobStore, each
// call delayed as DelayedStore does in `wrangler dev`), made fresh for it, and is metered whole,
// body included: what Server-Timing says of the reads made before the headers, and those streamed after.
import { sha256File } from "../../build/compile/compile.ts";
import { createApp } from "../../src/app.ts";
import { SectionCache } from "../../src/format/section-cache.ts";
import { FIRST_READ, Snapshot } from "../../src/format/snapshot.ts";
import { StorageMeter } from "../../src/format/storage-meter.ts";
import { SnapshotSourceLocator } from "../../src/query/source-locator.ts";
import type { BlobInfo, BlobStore } from "../../src/storage/blob-store.ts";
import { SnapshotCache, StoreCatalog } from "../../src/storage/catalog.ts";
import { DelayedStore } from "../../src/storage/delayed-store.ts";
import { fileSource } from "../../src/storage/file-source.ts";
import { encodeManifest, manifestKey, snapshotKey } from "../../src/storage/manifest.ts";
import { versionEntry } from "../../src/storage/publish.ts";
import { CLASSES, type MixEntry, type QueryClass } from "./mix.ts";
import { stats } from "./timing.ts";

/** One cold answer: wall time from the request to its last byte, and what it read. */
export interface ColdSample {
  path: string;
  ms: number;
  reads: number;
  rounds: number;
  bytes: number;
}

export interface ColdClass {
  samples: ColdSample[];
  medianMs: number;
  /** The most reads and rounds of any answer of the class (the target is on the worst). */
  maxReads: number;
  maxRounds: number;
  medianBytes: number;
}

export interface ColdReport {
  readLatencyMs: number;
  sectionCacheMB: number;
  classes: Partial<Record<QueryClass, ColdClass>>;
}

/** The greatest number of sequential storage rounds a cold first answer may take. */
export const COLD_ROUNDS_TARGET = 4;

/**
 * A read-only BlobStore holding one snapshot file (by range, under its content address) and the
 * manifest that lists it: what R2 holds once the snapshot is published.
 */
async function publishedFile(path: string): Promise<BlobStore> {
  const sha256 = await sha256File(path);
  const source = await fileSource(path, sha256);
  const { meta } = await Snapshot.open(source);
  const etag = `"${sha256}"`;
  const first = { bytes: await source.read(0, Math.min(source.size, FIRST_READ)), size: source.size, etag };
  const manifest = encodeManifest({
    format: "appstruct.manifest/1",
    application: meta.application,
    versions: [versionEntry(meta, sha256, first, new Date(0))],
  });
  const objects = new Map([
    [manifestKey(meta.application), manifest.length],
    [snapshotKey(sha256), source.size],
  ]);
  const rangeOf = async (key: string, offset: number, length: number) =>
    key === snapshotKey(sha256) ? source.read(offset, length) : manifest.slice(offset, offset + length);
  const refuse = async (): Promise<never> => {
    throw new Error("the bench's store is read-only");
  };
  return {
    head: async (key): Promise<BlobInfo | null> => (objects.has(key) ? { size: objects.get(key)!, etag } : null),
    get: async (key) => (objects.has(key) ? { bytes: await rangeOf(key, 0, objects.get(key)!), etag } : null),
    getFirst: async (key, length) => {
      const size = objects.get(key);
      return size === undefined ? null : { bytes: await rangeOf(key, 0, Math.min(length, size)), size, etag };
    },
    getRange: (key, offset, length) => rangeOf(key, offset, length),
    put: refuse,
    putIf: refuse,
    delete: refuse,
    list: async (prefix) => [...objects.keys()].filter((k) => k.startsWith(prefix)),
  };
}

/** `entry` answered by a fresh app over `store` (nothing opened or decoded), metered from the request to its last byte. */
async function coldAnswer(store: BlobStore, entry: MixEntry, budgetBytes: number): Promise<ColdSample> {
  const catalog = new StoreCatalog(store, { snapshots: new SnapshotCache(), sections: new SectionCache(budgetBytes) });
  const app = createApp(() => ({ catalog, sources: new SnapshotSourceLocator(catalog), access: null }));
  const meter = new StorageMeter();
  const started = performance.now();
  const status = await meter.measure(async () => {
    const response = await app.request(entry.path);
    await response.arrayBuffer();
    return response.status;
  });
  const ms = performance.now() - started;
  if (status !== 200) throw new Error(`cold answer to ${entry.path}: status ${status}`);
  return { path: entry.path, ms, reads: meter.reads, rounds: meter.rounds, bytes: meter.bytes };
}

/** Up to `perClass` distinct queries of each class from `sequence`, each answered cold with every read `readLatencyMs` late. */
export async function measureColdAnswers(
  snapshotPath: string,
  sequence: readonly MixEntry[],
  options: { perClass: number; readLatencyMs: number; sectionCacheMB: number },
  log: (line: string) => void,
): Promise<ColdReport> {
  const store = new DelayedStore(await publishedFile(snapshotPath), options.readLatencyMs);
  const budgetBytes = Math.floor(options.sectionCacheMB * 1024 * 1024);
  const classes: ColdReport["classes"] = {};
  for (const cls of CLASSES) {
    const entries = [...new Map(sequence.filter((e) => e.cls === cls).map((e) => [e.path, e])).values()].slice(
      0,
      options.perClass,
    );
    if (entries.length === 0) continue;
    const samples: ColdSample[] = [];
    for (const entry of entries) samples.push(await coldAnswer(store, entry, budgetBytes));
    classes[cls] = {
      samples,
      medianMs: stats(samples.map((s) => s.ms)).medianMs,
      maxReads: Math.max(...samples.map((s) => s.reads)),
      maxRounds: Math.max(...samples.map((s) => s.rounds)),
      medianBytes: stats(samples.map((s) => s.bytes)).medianMs,
    };
    log(`cold: ${cls} ${classes[cls].maxRounds} rounds at most, ${classes[cls].medianMs.toFixed(0)} ms median`);
  }
  return { readLatencyMs: options.readLatencyMs, sectionCacheMB: options.sectionCacheMB, classes };
}

const kib = (bytes: number) => (bytes / 1024).toFixed(bytes >= 100 * 1024 ? 0 : 1);

/** Per class: answers, reads and rounds (median and most), KiB read and milliseconds. */
export function coldTable(r: ColdReport): string {
  const rows = CLASSES.filter((c) => r.classes[c]).map((c) => {
    const k = r.classes[c]!;
    const median = (f: (s: ColdSample) => number) => stats(k.samples.map(f)).medianMs;
    return `| ${c} | ${k.samples.length} | ${median((s) => s.reads)} / ${k.maxReads} | ${median((s) => s.rounds)} / ${k.maxRounds} | ${kib(k.medianBytes)} | ${k.medianMs.toFixed(0)} |`;
  });
  return [
    `Cold first answers: a fresh catalog for each (manifest, snapshot head and sections all unread), every storage read ${r.readLatencyMs} ms late, section cache ${r.sectionCacheMB} MiB; reads and rounds median / most.`,
    "",
    "| Query class | answers | reads | rounds | KiB read (median) | ms (median) |",
    "|---|--:|--:|--:|--:|--:|",
    ...rows,
  ].join("\n");
}
