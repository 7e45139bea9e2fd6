// @module Edge tiers under `wrangler dev`: each class's first answer in a fresh isolate, the data centre's cache (Workers Cache API) empty, then holding what the first run put there; every R2 call late as behind a deployed Worker.
//
// npx node scripts/edge-tiers.ts --reuse <bench folder> [--latency-ms 20] [--per-class 1] [--out edge-tiers.json]
//
// The bench folder is one `npm run bench --reuse` made (analysis.snap, baseline.sqlite): its
// snapshot is published once into a wrangler persistence folder of its own, the queries are the
// first of each class in the mixed workload (as the cold view of `npm run bench`). For each query,
// `wrangler dev` starts fresh twice over that folder: first with the cache folder removed (cold
// everything: isolate memory, data centre cache, only R2), then again (a cold isolate, the cache
// warm from the first run, since wrangler keeps it on disk). Each answer is timed from the request
// to its last byte, with what its Server-Timing said.
import { existsSync } from "node:fs";
import { readdir, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { readServerTiming, type StorageTiming } from "../src/http/server-timing.ts";
import { CLASSES, type MixEntry, type QueryClass } from "./bench/mix.ts";
import { mixedSequence, pickPools } from "./bench/mixed-workload.ts";
import { stats } from "./bench/timing.ts";
import { type DevServer, startDevServer } from "./dev-server.ts";

export interface TierAnswer {
  cls: QueryClass;
  path: string;
  ms: number;
  timing: StorageTiming | null;
}

/** Time for the answer's cache puts (waitUntil) to land before wrangler stops. */
const SETTLE_MS = 1500;

async function timedAnswer(server: DevServer, entry: MixEntry): Promise<TierAnswer> {
  const started = performance.now();
  const response = await fetch(server.url + entry.path);
  await response.arrayBuffer();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`${entry.path}: status ${response.status}`);
  return { cls: entry.cls, path: entry.path, ms, timing: readServerTiming(response.headers.get("Server-Timing")) };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      reuse: { type: "string" },
      "latency-ms": { type: "string", default: "20" },
      "per-class": { type: "string", default: "1" },
      out: { type: "string" },
    },
  });
  if (!values.reuse)
    throw new Error("--reuse <bench folder> is required (one holding analysis.snap and baseline.sqlite)");
  const dir = resolve(values.reuse);
  const perClass = Number(values["per-class"]);
  const log = (line: string) => process.stderr.write(`[edge-tiers] ${line}\n`);
  const pools = pickPools(join(dir, "baseline.sqlite"), 1, 400);
  const sequence = mixedSequence(pools, 1, 1400);
  const entries = CLASSES.flatMap((cls) =>
    [...new Map(sequence.filter((e) => e.cls === cls).map((e) => [e.path, e])).values()].slice(0, perClass),
  );
  const persistDir = join(dir, "edge-tiers-state");
  await rm(persistDir, { recursive: true, force: true });
  const vars = { STORAGE_LATENCY_MS: values["latency-ms"]! };
  const cacheDir = join(persistDir, "v3", "cache");
  const runs: { cold: TierAnswer[]; warmCache: TierAnswer[] } = { cold: [], warmCache: [] };
  let published = false;
  const answerFresh = async (entry: MixEntry) => {
    const server = await startDevServer({
      files: published ? [] : [join(dir, "analysis.snap")],
      persistDir,
      vars,
      log,
    });
    published = true;
    try {
      const answer = await timedAnswer(server, entry);
      await new Promise((done) => setTimeout(done, SETTLE_MS));
      return answer;
    } finally {
      await server.stop();
    }
  };
  for (const entry of entries) {
    await rm(cacheDir, { recursive: true, force: true });
    const cold = await answerFresh(entry);
    if (!existsSync(cacheDir))
      log(`no cache folder at ${cacheDir}: ${(await readdir(join(persistDir, "v3"))).join(", ")}`);
    const warm = await answerFresh(entry);
    runs.cold.push(cold);
    runs.warmCache.push(warm);
    log(`${entry.cls}: cold ${cold.ms.toFixed(0)} ms, warm cache ${warm.ms.toFixed(0)} ms`);
  }
  await rm(persistDir, { recursive: true, force: true });
  const rows = CLASSES.map((cls) => {
    const of = (answers: TierAnswer[]) => answers.filter((a) => a.cls === cls);
    const median = (answers: TierAnswer[], f: (a: TierAnswer) => number) => stats(answers.map(f)).medianMs;
    const cell = (answers: TierAnswer[]) =>
      `${median(answers, (a) => a.ms).toFixed(0)} | ${median(answers, (a) => a.timing?.storageMs ?? Number.NaN).toFixed(0)} | ${median(answers, (a) => a.timing?.rounds ?? Number.NaN)}`;
    return `| ${cls} | ${cell(of(runs.cold))} | ${cell(of(runs.warmCache))} |`;
  });
  const table = [
    `Each class's first answer in a fresh \`wrangler dev\` isolate, R2 calls +${values["latency-ms"]} ms: ms to the last byte | storage ms (Server-Timing) | rounds.`,
    "",
    "| Query class | cold everything: ms | storage ms | rounds | warm data-centre cache: ms | storage ms | rounds |",
    "|---|--:|--:|--:|--:|--:|--:|",
    ...rows,
  ].join("\n");
  console.log(table);
  if (values.out) await writeFile(resolve(values.out), `${JSON.stringify(runs, null, 2)}\n`);
}

await main();
