// @module `npm run bench`: our service against a careful SQLite baseline on the same generated analysis, on a mixed workload and class by class, judged against the targets of docs/benchmarks.md#targets.
//
//   npm run bench -- [--objects 1000000] [--seed 1] [--out report.json] [--reuse <dir>] [--quick]
//                    [--section-cache-mb 64] [--views mixed,cold,fairness,classes] [--cold-per-class 5]
//                    [--mixed-requests 1400] [--sample 400] [--concurrency 1,4] [--read-latency-ms 0,20]
//                    [--http node,wrangler | --no-http] [--profile-serve DIR]
//
// Steps: generate + compile + build the SQLite database (timed; kept in <dir> with --reuse). The
// mixed view (the headline): every class interleaved at random, values drawn from the data; every
// distinct query checked equal to the baseline's over HTTP; then for each read latency and
// concurrency, `appstruct serve` and the baseline server started fresh, timed cold then warm. The
// cold view: a few queries of each class answered each by a fresh worker catalog, every storage read
// 20 ms late, counting reads and sequential rounds (cold-answers.ts). The classes-apart view: the fixed mix, checked, timed in process side by side, the engine's memory in
// a fresh process, then over HTTP on `appstruct serve` and under `wrangler dev`. Method and results: docs/benchmarks.md.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { parseArgs } from "node:util";
import { SectionCache } from "../src/format/section-cache.ts";
import { Snapshot } from "../src/format/snapshot.ts";
import { latencyMs } from "../src/storage/delayed-store.ts";
import { fileSource } from "../src/storage/file-source.ts";
import { DEFAULT_SECTION_CACHE_MB } from "../src/storage/isolate-caches.ts";
import { type ColdReport, measureColdAnswers } from "./bench/cold-answers.ts";
import { compareAnswers, logMismatches, type Mismatch } from "./bench/correctness.ts";
import { type Dataset, prepareDataset } from "./bench/dataset.ts";
import { engineAnswer } from "./bench/engine.ts";
import { engineMemory } from "./bench/engine-memory.ts";
import { coldFirstAnswer } from "./bench/engine-probes.ts";
import { type FairnessSettings, fairnessView } from "./bench/fairness.ts";
import { type MixEntry, pickMix } from "./bench/mix.ts";
import { checkMixedAnswers, measureMixedSetting } from "./bench/mixed-http.ts";
import { type MixedReport, mixedSettingReport } from "./bench/mixed-report.ts";
import { mixedPasses, mixedSequence, PASS_REQUESTS, pickPools } from "./bench/mixed-workload.ts";
import { HTTP_SERVERS, type HttpServer, measureOverHttp } from "./bench/over-http.ts";
import {
  type BenchReport,
  type ClassesApartReport,
  checkTargets,
  type HttpResults,
  summary,
  VIEWS,
  type View,
} from "./bench/report.ts";
import { SqliteBaseline } from "./bench/sqlite-baseline.ts";
import { measureSideBySide, type TimingOptions } from "./bench/timing.ts";

const MiB = 1024 * 1024;
/** R2 behind a Worker: what a cold answer's every storage read costs in the cold view. */
const COLD_READ_LATENCY_MS = 20;
/** Requests of the mixed sequence the cold view takes its queries from: every class comes up. */
const COLD_SEQUENCE = 1400;

/** A run's settings, as the options give them. */
interface Options {
  objects: number;
  seed: number;
  reuse: boolean;
  budgetBytes: number;
  sectionCacheMB: number;
  views: View[];
  mixed: {
    requests: number;
    sampleSize: number;
    concurrency: number[];
    readLatencyMs: number[];
    chunk: number;
    /** Where `appstruct serve` writes a CPU profile of each timed setting (both passes), if anywhere. */
    profileDir?: string;
  };
  coldPerClass: number;
  fairness: FairnessSettings;
  timing: TimingOptions;
  servers: HttpServer[];
}

/** What a view found when the baseline answers differently from us: nothing is timed then. */
type Checked<T> = { mismatches: Mismatch[]; report: null } | { mismatches: []; report: T };

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      objects: { type: "string", default: "1000000" },
      seed: { type: "string", default: "1" },
      out: { type: "string" },
      reuse: { type: "string" },
      quick: { type: "boolean", default: false },
      http: { type: "string", default: HTTP_SERVERS.join(",") },
      "no-http": { type: "boolean", default: false },
      "section-cache-mb": { type: "string", default: String(DEFAULT_SECTION_CACHE_MB) },
      views: { type: "string", default: VIEWS.join(",") },
      "mixed-requests": { type: "string" },
      sample: { type: "string", default: "400" },
      concurrency: { type: "string", default: "1,4" },
      "read-latency-ms": { type: "string", default: "0,20" },
      "cold-per-class": { type: "string" },
      "profile-serve": { type: "string" },
    },
  });
  const objects = Number(values.objects);
  const seed = Number(values.seed);
  if (!Number.isInteger(objects) || objects < 1000 || objects > 20_000_000)
    throw new Error(`--objects must be an integer from 1000 to 20000000, got ${values.objects}`);
  if (!Number.isInteger(seed) || seed < 0) throw new Error(`--seed must be a non-negative integer, got ${values.seed}`);
  const sectionCacheMB = Number(values["section-cache-mb"]);
  if (!(sectionCacheMB > 0))
    throw new Error(`--section-cache-mb must be a positive number of megabytes, got ${values["section-cache-mb"]}`);
  const sampleSize = wholeNumber("--sample", values.sample);
  const options: Options = {
    objects,
    seed,
    reuse: values.reuse !== undefined,
    sectionCacheMB,
    budgetBytes: Math.floor(sectionCacheMB * MiB),
    views: listOption("--views", values.views, (v) => {
      if (!(VIEWS as readonly string[]).includes(v))
        throw new Error(`--views takes a comma-separated list of ${VIEWS.join(", ")}, got ${JSON.stringify(v)}`);
      return v as View;
    }),
    mixed: {
      requests: wholeNumber(
        "--mixed-requests",
        values["mixed-requests"] ?? (values.quick ? "28" : String(PASS_REQUESTS)),
      ),
      sampleSize,
      concurrency: listOption("--concurrency", values.concurrency, (v) => wholeNumber("--concurrency", v, 64)),
      readLatencyMs: listOption("--read-latency-ms", values["read-latency-ms"], (v) =>
        latencyMs("--read-latency-ms", v),
      ),
      chunk: values.quick ? 14 : 50,
      profileDir: values["profile-serve"],
    },
    coldPerClass: wholeNumber("--cold-per-class", values["cold-per-class"] ?? (values.quick ? "1" : "5")),
    fairness: {
      seed,
      sampleSize,
      readLatencyMs: 0,
      sectionCacheMB,
      ...(values.quick
        ? { lightClients: 6, heavyClients: 1, phaseSeconds: 1, rounds: 1 }
        : { lightClients: 48, heavyClients: 2, phaseSeconds: 5, rounds: 2 }),
    },
    timing: values.quick
      ? { warmupRounds: 1, iterations: 6, maxSecondsPerClass: 5 }
      : { warmupRounds: 2, iterations: 100, maxSecondsPerClass: 30 },
    servers: values["no-http"] ? [] : httpServers(values.http),
  };
  const started = Date.now();
  const log = (line: string) =>
    process.stderr.write(`[bench ${((Date.now() - started) / 1000).toFixed(1)}s] ${line}\n`);
  const loadavgBefore = loadavg().map((x) => Number(x.toFixed(2)));

  const dir = values.reuse ? resolve(values.reuse) : await mkdtemp(join(tmpdir(), "appstruct-bench-"));
  const cleanups: (() => Promise<void> | void)[] = [];
  if (!options.reuse) cleanups.push(() => rm(dir, { recursive: true, force: true }));
  try {
    const dataset = await prepareDataset({ ...options, dir, log });
    const out = resolve(values.out ?? join(dir, "report.json"));
    const mixed = options.views.includes("mixed") ? await mixedView(dataset, options, log) : null;
    const cold =
      options.views.includes("cold") && !mixed?.mismatches.length ? await coldView(dataset, options, log) : null;
    const fairness =
      options.views.includes("fairness") && !mixed?.mismatches.length
        ? await fairnessView(dataset, options.fairness, log)
        : null;
    const classes =
      options.views.includes("classes") && !mixed?.mismatches.length
        ? await classesApartView(dataset, options, cleanups, log)
        : null;
    if (mixed?.mismatches.length || classes?.mismatches.length) {
      const correctness = { mixed: mixed?.mismatches ?? null, classesApart: classes?.mismatches ?? null };
      await writeFile(
        out,
        `${JSON.stringify({ failed: "the baseline answers differently from ours", correctness }, null, 2)}\n`,
      );
      log(
        `FAILED: the baseline answers differently from ours (see above and ${out}); no timings, since such a comparison proves nothing`,
      );
      return 1;
    }

    const partial: Omit<BenchReport, "targets"> = {
      command: `npm run bench -- ${process.argv.slice(2).join(" ")}`.trim(),
      at: new Date(started).toISOString(),
      machine: {
        cores: availableParallelism(),
        loadavgBefore,
        loadavgAfter: loadavg().map((x) => Number(x.toFixed(2))),
        node: process.version,
        sqlite: String(new DatabaseSync(":memory:").prepare("SELECT sqlite_version() AS v").get()!.v),
      },
      data: {
        objects,
        links: countLinks(dataset.database),
        seed,
        seconds: dataset.seconds,
        bytes: dataset.bytes,
        reused: dataset.reused,
      },
      settings: {
        sectionCacheMB,
        views: options.views,
        mixed: {
          requests: options.mixed.requests,
          sampleSize: options.mixed.sampleSize,
          concurrency: options.mixed.concurrency,
          readLatencyMs: options.mixed.readLatencyMs,
        },
        coldPerClass: options.coldPerClass,
        fairness: options.fairness,
        ...options.timing,
        http: options.servers,
      },
      mixed: mixed?.report ?? null,
      cold,
      fairness,
      classesApart: classes?.report ?? null,
    };
    const report: BenchReport = { ...partial, targets: checkTargets(partial) };
    await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
    console.log(summary(report));
    log(`report: ${out}`);
    return 0;
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

/**
 * The headline: two sequences of the mixed workload (the cold pass's and the warm pass's), every
 * distinct query checked equal to the baseline's, then each setting (read latency × concurrency) on
 * fresh servers.
 */
async function mixedView(
  dataset: Dataset,
  options: Options,
  log: (line: string) => void,
): Promise<Checked<MixedReport>> {
  const { requests, sampleSize, chunk } = options.mixed;
  const pools = pickPools(dataset.database, options.seed, sampleSize);
  const sequences = mixedPasses(pools, options.seed, requests);
  const all = [...sequences.cold, ...sequences.warm];
  const { mismatches, digests } = await checkMixedAnswers(dataset, all, options.sectionCacheMB, log);
  logMismatches("of the mixed workload over HTTP", mismatches, log);
  if (mismatches.length) return { mismatches, report: null };
  const settings = [];
  for (const readLatencyMs of options.mixed.readLatencyMs)
    for (const concurrency of options.mixed.concurrency) {
      const run = await measureMixedSetting(
        dataset,
        { readLatencyMs, concurrency },
        sequences,
        digests,
        { sectionCacheMB: options.sectionCacheMB, chunk, profileDir: options.mixed.profileDir },
        log,
      );
      // An answer that changed under load is a wrong answer, however fast.
      if (run.changed.length) {
        logMismatches(`timed at +${readLatencyMs} ms a read, concurrency ${concurrency}`, run.changed, log);
        return { mismatches: run.changed, report: null };
      }
      log(`mixed: every timed answer of ours was the checked one (+${readLatencyMs} ms, concurrency ${concurrency})`);
      settings.push(mixedSettingReport(run));
    }
  return {
    mismatches: [],
    report: {
      requestsPerPass: requests,
      sampleSize: pools.sample.length,
      checkedQueries: new Set(all.map((e) => e.path)).size,
      settings,
    },
  };
}

/** Cold first answers: the mixed workload's first queries of each class, each in a fresh catalog, reads 20 ms late. */
function coldView(dataset: Dataset, options: Options, log: (line: string) => void): Promise<ColdReport> {
  const pools = pickPools(dataset.database, options.seed, options.mixed.sampleSize);
  log(`cold: up to ${options.coldPerClass} first answers a class, each in a fresh catalog …`);
  return measureColdAnswers(
    dataset.snapshot,
    // Long enough for every class to come up, however few requests the mixed passes make (--quick).
    mixedSequence(pools, options.seed, Math.max(options.mixed.requests, COLD_SEQUENCE)),
    { perClass: options.coldPerClass, readLatencyMs: COLD_READ_LATENCY_MS, sectionCacheMB: options.sectionCacheMB },
    log,
  );
}

/** The second view: the fixed mix, each class timed apart, in process then over each HTTP server. */
async function classesApartView(
  dataset: Dataset,
  options: Options,
  cleanups: (() => Promise<void> | void)[],
  log: (line: string) => void,
): Promise<Checked<ClassesApartReport>> {
  const mix = pickMix(dataset.database);
  log(`classes apart: ${mix.length} queries in ${new Set(mix.map((e) => e.cls)).size} classes`);

  const cold = await coldFirstAnswer(
    dataset.snapshot,
    mix.find((e) => e.cls === "contains-rare")!,
    options.budgetBytes,
  );
  log(`cold first answer: ${cold.ms.toFixed(1)} ms, ${cold.bytesRead} bytes`);

  const snapshot = await Snapshot.open(await fileSource(dataset.snapshot), {
    sections: new SectionCache(options.budgetBytes),
  });
  const baseline = new SqliteBaseline(dataset.database);
  cleanups.push(() => baseline.close());
  const ours = (e: MixEntry) => engineAnswer(snapshot, e.query);
  const theirs = async (e: MixEntry) => baseline.answer(e.query);
  const totals = new Map<MixEntry, number>();
  const oursNoting = async (e: MixEntry) => {
    const answer = await ours(e);
    if (e.query.route === "find") totals.set(e, (answer as { totalObjects: number }).totalObjects);
    return answer;
  };
  const inProcessMismatches = await compareAnswers(mix, oursNoting, theirs, log);
  logMismatches("in process", inProcessMismatches, log);
  if (inProcessMismatches.length) return { mismatches: inProcessMismatches, report: null };
  const mixReport: ClassesApartReport["mix"] = mix.map((e) => ({
    cls: e.cls,
    path: e.path,
    ...(totals.has(e) ? { totalObjects: totals.get(e) } : {}),
  }));

  log("timing in process …");
  const inProcess = Object.fromEntries(await measureSideBySide(mix, ours, theirs, options.timing, log));
  log("engine memory over the mix, in a fresh process …");
  const memory = await engineMemory(dataset.snapshot, mix, options.budgetBytes);
  const http: ClassesApartReport["http"] = { node: null, wrangler: null };
  for (const server of options.servers) {
    const pass = await measureOverHttp(server, dataset, mix, options.sectionCacheMB, options.timing, log);
    if (pass.mismatches.length) return { mismatches: pass.mismatches, report: null };
    http[server] = {
      classes: pass.classes!,
      floor: pass.floor!,
      oursPeakRss: pass.oursPeakRss,
      baselineServerPeakRssBytes: pass.baselineServerPeakRssBytes,
    } satisfies HttpResults;
  }
  return {
    mismatches: [],
    report: {
      mix: mixReport,
      correctness: {
        inProcess: [],
        http: { node: http.node ? [] : null, wrangler: http.wrangler ? [] : null },
      },
      inProcess,
      http,
      cold,
      memory,
    },
  };
}

/** The values of a comma-separated option, each parsed by `parse` (which throws saying what is allowed); at least one, no repeats. */
function listOption<T>(name: string, option: string, parse: (value: string) => T): T[] {
  const values = option
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  if (values.length === 0) throw new Error(`${name} takes a comma-separated list, got ${JSON.stringify(option)}`);
  return [...new Set(values.map(parse))];
}

/** A whole number from 1 to `max`. */
function wholeNumber(name: string, value: string, max = 1_000_000): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max)
    throw new Error(`${name} must be a whole number from 1 to ${max}, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** The servers of `--http`: a comma-separated subset of HTTP_SERVERS, run in that order. */
function httpServers(option: string): HttpServer[] {
  const names = option
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  const unknown = names.filter((n) => !(HTTP_SERVERS as readonly string[]).includes(n));
  if (unknown.length || names.length === 0)
    throw new Error(
      `--http takes a comma-separated list of ${HTTP_SERVERS.join(", ")} (or use --no-http), got ${JSON.stringify(option)}`,
    );
  return [...new Set(names as HttpServer[])];
}

function countLinks(database: string): number {
  const db = new DatabaseSync(database, { readOnly: true });
  try {
    return Number(db.prepare("SELECT count(*) AS n FROM links").get()!.n);
  } finally {
    db.close();
  }
}

try {
  process.exitCode = await main();
} catch (error) {
  console.error(`bench failed: ${(error as Error).stack ?? error}`);
  process.exitCode = 1;
}
