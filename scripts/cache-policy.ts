// @module `node scripts/cache-policy.ts`: the section cache under a mixed workload over R2-like storage, what chose its eviction policy (docs/benchmarks.md#section-cache-policy).
//
//   node scripts/cache-policy.ts [--objects 300000] [--seed 1] [--reuse <dir>] [--queries 2000] [--warmup 200]
//                                [--concurrency 1,4] [--section-cache-mb 64] [--latency-ms 20] [--pool 400]
//                                [--workload-seed 7] [--out report.json]
//
// Steps: the bench's dataset (generate + compile, kept in <dir> with --reuse) and its mix (find
// values picked by frequency); a seeded interleaving of every query class; then, at each
// concurrency, a fresh section cache and snapshot over the file delayed per read, the warm-up
// queries, then the measured ones: per class p50/p99, wall time, reads and bytes read, hit rate.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { SectionCache } from "../src/format/section-cache.ts";
import { countingSource, delayedSource, Snapshot } from "../src/format/snapshot.ts";
import { fileSource } from "../src/storage/file-source.ts";
import { DEFAULT_SECTION_CACHE_MB } from "../src/storage/isolate-caches.ts";
import { MIXED_CLASSES, type MixedRun, mixedWorkload, runMixed } from "./bench/cache-workload.ts";
import { prepareDataset } from "./bench/dataset.ts";
import { pickMix } from "./bench/mix.ts";
import { integerOption } from "./bench/options.ts";

const MiB = 1024 * 1024;

interface PolicyRun extends MixedRun {
  concurrency: number;
  reads: number;
  bytesRead: number;
  /** Of the measured queries' cache lookups (sections and pages alike). */
  hitRate: number;
  evictions: number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      objects: { type: "string", default: "300000" },
      seed: { type: "string", default: "1" },
      reuse: { type: "string" },
      queries: { type: "string", default: "2000" },
      warmup: { type: "string", default: "200" },
      concurrency: { type: "string", default: "1,4" },
      "section-cache-mb": { type: "string", default: String(DEFAULT_SECTION_CACHE_MB) },
      "latency-ms": { type: "string", default: "20" },
      pool: { type: "string", default: "400" },
      "workload-seed": { type: "string", default: "7" },
      out: { type: "string" },
    },
  });
  const objects = integerOption("objects", values.objects, 1000);
  const seed = integerOption("seed", values.seed, 0);
  const count = integerOption("queries", values.queries, 1);
  const warmup = integerOption("warmup", values.warmup, 0);
  const poolSize = integerOption("pool", values.pool, 1);
  const workloadSeed = integerOption("workload-seed", values["workload-seed"], 0);
  const latencyMs = Number(values["latency-ms"]);
  if (!(latencyMs >= 0)) throw new Error(`--latency-ms must be a number ≥ 0, got ${values["latency-ms"]}`);
  const sectionCacheMB = Number(values["section-cache-mb"]);
  if (!(sectionCacheMB > 0))
    throw new Error(`--section-cache-mb must be a positive number of megabytes, got ${values["section-cache-mb"]}`);
  const concurrencies = values.concurrency.split(",").map((c) => integerOption("concurrency", c.trim(), 1));
  const budgetBytes = Math.floor(sectionCacheMB * MiB);
  const started = Date.now();
  const log = (line: string) =>
    process.stderr.write(`[cache-policy ${((Date.now() - started) / 1000).toFixed(1)}s] ${line}\n`);
  const loadavgBefore = loadavg().map((x) => Number(x.toFixed(2)));

  const dir = values.reuse ? resolve(values.reuse) : await mkdtemp(join(tmpdir(), "appstruct-cache-policy-"));
  try {
    const dataset = await prepareDataset({ dir, objects, seed, reuse: values.reuse !== undefined, log });
    const mix = pickMix(dataset.database);
    const picking = await Snapshot.open(await fileSource(dataset.snapshot));
    const queries = await mixedWorkload(picking, mix, { count: warmup + count, poolSize, seed: workloadSeed });
    log(`${warmup} warm-up then ${count} measured queries, ${MIXED_CLASSES.length} classes, pool of ${poolSize}`);

    const runs: PolicyRun[] = [];
    for (const concurrency of concurrencies) {
      const sections = new SectionCache(budgetBytes);
      const source = countingSource(delayedSource(await fileSource(dataset.snapshot), latencyMs));
      const snapshot = await Snapshot.open(source, { sections });
      await runMixed(snapshot, queries.slice(0, warmup), concurrency);
      const before = { ...sections.stats(), reads: source.reads, bytesRead: source.bytesRead };
      const run = await runMixed(snapshot, queries.slice(warmup), concurrency);
      const after = sections.stats();
      const [hits, misses] = [after.hits - before.hits, after.misses - before.misses];
      runs.push({
        concurrency,
        ...run,
        reads: source.reads - before.reads,
        bytesRead: source.bytesRead - before.bytesRead,
        hitRate: hits / (hits + misses),
        evictions: after.evictions - before.evictions,
      });
      log(`concurrency ${concurrency}: ${run.seconds.toFixed(1)} s, ${source.reads - before.reads} reads`);
    }
    const report = {
      command: `node scripts/cache-policy.ts ${process.argv.slice(2).join(" ")}`.trim(),
      at: new Date(started).toISOString(),
      machine: {
        cores: availableParallelism(),
        loadavgBefore,
        loadavgAfter: loadavg().map((x) => Number(x.toFixed(2))),
        node: process.version,
      },
      settings: { objects, seed, sectionCacheMB, latencyMs, warmup, queries: count, poolSize, workloadSeed },
      runs,
    };
    const out = resolve(values.out ?? join(dir, "cache-policy.json"));
    await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
    console.log(table(runs));
    log(`report: ${out}`);
  } finally {
    if (!values.reuse) await rm(dir, { recursive: true, force: true });
  }
}

/** One markdown row per run: totals, then each class's p50/p99 in milliseconds. */
function table(runs: readonly PolicyRun[]): string {
  const ms = (x: number) => (x < 10 ? x.toFixed(1) : x.toFixed(0));
  const head = ["conc.", "total s", "reads", "MB read", "hit rate", ...MIXED_CLASSES.map((c) => `${c} p50/p99`)];
  const rows = runs.map((r) => [
    String(r.concurrency),
    r.seconds.toFixed(1),
    String(r.reads),
    (r.bytesRead / MiB).toFixed(0),
    `${(100 * r.hitRate).toFixed(1)}%`,
    ...MIXED_CLASSES.map((c) => `${ms(r.classes[c].medianMs)}/${ms(r.classes[c].p99Ms)}`),
  ]);
  return [head, head.map(() => "---"), ...rows].map((cells) => `| ${cells.join(" | ")} |`).join("\n");
}

try {
  await main();
} catch (error) {
  console.error(`cache-policy failed: ${(error as Error).stack ?? error}`);
  process.exitCode = 1;
}
