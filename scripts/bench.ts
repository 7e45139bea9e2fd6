// @module `npm run bench`: our query engine against a careful SQLite baseline on the same generated analysis, in process and over HTTP, judged against the targets of docs/benchmarks.md#targets.
//
//   npm run bench -- [--objects 1000000] [--seed 1] [--out report.json] [--reuse <dir>] [--quick]
//                    [--http node,wrangler | --no-http] [--section-cache-mb 64]
//
// Steps: generate + compile + build the SQLite database (timed; kept in <dir> with --reuse); pick
// the mix from the data; the cold first answer; check every answer of the baseline equals ours;
// time both in process, side by side; the engine's memory over the mix in a fresh process; then
// the same over HTTP, our service on `appstruct serve` (Node) and under `wrangler dev`, each against
// the baseline under node:http, checked first, then timed. Method and results: docs/benchmarks.md.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { parseArgs } from "node:util";
import { SectionCache } from "../src/format/section-cache.ts";
import { Snapshot } from "../src/format/snapshot.ts";
import { fileSource } from "../src/storage/file-source.ts";
import { DEFAULT_SECTION_CACHE_MB } from "../src/storage/isolate-caches.ts";
import { compareAnswers, logMismatches } from "./bench/correctness.ts";
import { prepareDataset } from "./bench/dataset.ts";
import { engineAnswer } from "./bench/engine.ts";
import { engineMemory } from "./bench/engine-memory.ts";
import { coldFirstAnswer } from "./bench/engine-probes.ts";
import { type MixEntry, pickMix } from "./bench/mix.ts";
import { HTTP_SERVERS, type HttpServer, measureOverHttp } from "./bench/over-http.ts";
import { type BenchReport, checkTargets, type HttpResults, summary } from "./bench/report.ts";
import { SqliteBaseline } from "./bench/sqlite-baseline.ts";
import { measureSideBySide, type TimingOptions } from "./bench/timing.ts";

const MiB = 1024 * 1024;

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
    },
  });
  const objects = Number(values.objects);
  const seed = Number(values.seed);
  if (!Number.isInteger(objects) || objects < 1000 || objects > 20_000_000)
    throw new Error(`--objects must be an integer from 1000 to 20000000, got ${values.objects}`);
  if (!Number.isInteger(seed) || seed < 0) throw new Error(`--seed must be a non-negative integer, got ${values.seed}`);
  const timing: TimingOptions = values.quick
    ? { warmupRounds: 1, iterations: 6, maxSecondsPerClass: 5 }
    : { warmupRounds: 2, iterations: 100, maxSecondsPerClass: 30 };
  const servers = values["no-http"] ? [] : httpServers(values.http);
  const sectionCacheMB = Number(values["section-cache-mb"]);
  if (!(sectionCacheMB > 0))
    throw new Error(`--section-cache-mb must be a positive number of megabytes, got ${values["section-cache-mb"]}`);
  const budgetBytes = Math.floor(sectionCacheMB * MiB);
  const started = Date.now();
  const log = (line: string) =>
    process.stderr.write(`[bench ${((Date.now() - started) / 1000).toFixed(1)}s] ${line}\n`);
  const loadavgBefore = loadavg().map((x) => Number(x.toFixed(2)));

  const dir = values.reuse ? resolve(values.reuse) : await mkdtemp(join(tmpdir(), "appstruct-bench-"));
  const cleanups: (() => Promise<void> | void)[] = [];
  if (!values.reuse) cleanups.push(() => rm(dir, { recursive: true, force: true }));
  try {
    const dataset = await prepareDataset({ dir, objects, seed, reuse: values.reuse !== undefined, log });
    const mix = pickMix(dataset.database);
    const links = countLinks(dataset.database);
    log(`mix: ${mix.length} queries in ${new Set(mix.map((e) => e.cls)).size} classes`);

    const cold = await coldFirstAnswer(dataset.snapshot, mix.find((e) => e.cls === "contains-rare")!, budgetBytes);
    log(`cold first answer: ${cold.ms.toFixed(1)} ms, ${cold.bytesRead} bytes`);

    const snapshot = await Snapshot.open(await fileSource(dataset.snapshot), {
      sections: new SectionCache(budgetBytes),
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
    const mixReport: BenchReport["mix"] = mix.map((e) => ({
      cls: e.cls,
      path: e.path,
      ...(totals.has(e) ? { totalObjects: totals.get(e) } : {}),
    }));
    const out = resolve(values.out ?? join(dir, "report.json"));
    const fail = async (correctness: BenchReport["correctness"]) => {
      await writeFile(
        out,
        `${JSON.stringify({ failed: "the baseline answers differently from ours", mix: mixReport, correctness }, null, 2)}\n`,
      );
      log(
        `FAILED: the baseline answers differently from ours (see above and ${out}); no timings, since such a comparison proves nothing`,
      );
      return 1;
    };
    const noHttp = { node: null, wrangler: null };
    if (inProcessMismatches.length) return fail({ inProcess: inProcessMismatches, http: noHttp });

    log("timing in process …");
    const inProcess = Object.fromEntries(await measureSideBySide(mix, ours, theirs, timing, log));
    log("engine memory over the mix, in a fresh process …");
    const memory = await engineMemory(dataset.snapshot, mix, budgetBytes);
    const http: BenchReport["http"] = { ...noHttp };
    for (const server of servers) {
      const pass = await measureOverHttp(server, dataset, mix, sectionCacheMB, timing, log);
      if (pass.mismatches.length) return fail({ inProcess: [], http: { ...noHttp, [server]: pass.mismatches } });
      http[server] = {
        classes: pass.classes!,
        floor: pass.floor!,
        oursPeakRss: pass.oursPeakRss,
        baselineServerPeakRssBytes: pass.baselineServerPeakRssBytes,
      } satisfies HttpResults;
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
      data: { objects, links, seed, seconds: dataset.seconds, bytes: dataset.bytes, reused: dataset.reused },
      settings: { sectionCacheMB, ...timing, http: servers },
      mix: mixReport,
      correctness: { inProcess: [], http: { node: http.node ? [] : null, wrangler: http.wrangler ? [] : null } },
      inProcess,
      http,
      cold,
      memory,
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
