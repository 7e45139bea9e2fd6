// @module Light answers beside heavy ones: `appstruct serve` asked by clients wanting light answers while a few others want heavy ones (32-hop walks, the largest level-5 nodes with their children), each client one request at a time; the times of both.
//
//   npx node scripts/fairness.ts --reuse <bench folder> [--light 48] [--heavy 2] [--seconds 20]
//                                [--latency-ms 0] [--against CHECKOUT]
//
// The bench folder is one `npm run bench --reuse` made (analysis.snap, baseline.sqlite). The light
// answers are those of the mixed workload's light classes (characteristics, callees, 1- and 3-hop
// walks, equals, medium words), drawn as the bench draws them (seed 1); the heavy ones are 32-hop
// walks from its sampled objects and the level-5 nodes holding the most objects. What it shows: how
// long a light answer waits while heavy ones are worked out beside it, which no benchmark of one
// request at a time can. `--against` runs the same clients against another checkout's `appstruct
// serve` afterwards (its build/bin/appstruct.js): a change measured before and after.

import { join, resolve } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { parseArgs } from "node:util";
import { DEFAULT_SECTION_CACHE_MB } from "../src/storage/isolate-caches.ts";
import { startAppstructServe } from "./bench/appstruct-serve.ts";
import type { QueryClass } from "./bench/mix.ts";
import { mixedSequence, pickPools } from "./bench/mixed-workload.ts";
import { integerOption } from "./bench/options.ts";
import { pathOf } from "./bench/queries.ts";
import { Random } from "./crosscheck/random.ts";

const LIGHT_CLASSES: ReadonlySet<QueryClass> = new Set([
  "characteristics",
  "callees",
  "points-hops-1",
  "points-hops-3",
  "equals",
  "contains-medium",
]);

/** How long one answer may take before the client gives up on it (counted as failed). */
const ANSWER_TIMEOUT_MS = 120_000;

const { values } = parseArgs({
  options: {
    reuse: { type: "string" },
    light: { type: "string", default: "48" },
    heavy: { type: "string", default: "2" },
    seconds: { type: "string", default: "20" },
    "latency-ms": { type: "string", default: "0" },
    against: { type: "string" },
  },
});
if (!values.reuse) {
  process.stderr.write(
    "usage: node scripts/fairness.ts --reuse <bench folder> [--light N] [--heavy N] [--seconds S] [--latency-ms L] [--against CHECKOUT]\n",
  );
  process.exit(2);
}
const dir = resolve(values.reuse);
const lightClients = integerOption("light", values.light, 0);
const heavyClients = integerOption("heavy", values.heavy, 0);
const seconds = integerOption("seconds", values.seconds, 1);
const latencyMs = integerOption("latency-ms", values["latency-ms"], 0);

const database = join(dir, "baseline.sqlite");
const pools = pickPools(database, 1, 400);
const light = mixedSequence(pools, 1, 4000).filter((e) => LIGHT_CLASSES.has(e.cls));
const largestNodes = (() => {
  const db = new DatabaseSync(database, { readOnly: true });
  try {
    return db
      .prepare("SELECT idx FROM level_nodes WHERE level = 5 ORDER BY nb_objects DESC LIMIT 4")
      .all()
      .map((r) => Number(r.idx));
  } finally {
    db.close();
  }
})();
const heavy: { kind: string; path: string }[] = [
  ...pools.sample.slice(0, 12).map((o) => ({
    kind: "walk, 32 hops",
    path: pathOf({ route: "points", id: o.id, hops: 32 }),
  })),
  ...largestNodes.map((nodeId) => ({
    kind: "largest level-5 nodes",
    path: pathOf({ route: "level-nodes", level: 5, nodeId }),
  })),
];

interface Times {
  [kind: string]: number[];
}

/** The clients against the server at `origin` for `seconds`: each kind's answer times (ms), and the answers that failed. */
async function run(origin: string): Promise<{ times: Times; failed: number }> {
  const times: Times = {};
  let failed = 0;
  const end = Date.now() + seconds * 1000;
  const ask = async (kind: string, path: string) => {
    const started = performance.now();
    try {
      const response = await fetch(origin + path, { signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS) });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
      (times[kind] ??= []).push(performance.now() - started);
    } catch {
      failed++;
    }
  };
  const client = async (c: number, isHeavy: boolean) => {
    const random = new Random(c + 1);
    while (Date.now() < end) {
      if (isHeavy) {
        const q = random.pick(heavy);
        await ask(q.kind, q.path);
      } else {
        const q = random.pick(light);
        await ask(q.cls, q.path);
      }
    }
  };
  await Promise.all([
    ...Array.from({ length: lightClients }, (_, c) => client(c, false)),
    ...Array.from({ length: heavyClients }, (_, c) => client(lightClients + c, true)),
  ]);
  return { times, failed };
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

async function serveAndRun(executable?: string): Promise<void> {
  const server = await startAppstructServe(join(dir, "analysis.snap"), DEFAULT_SECTION_CACHE_MB, latencyMs, {
    executable,
  });
  try {
    const { times, failed } = await run(server.url);
    const all = Object.values(times).flat();
    console.log(
      `${executable ?? "this checkout"}: ${all.length} answers in ${seconds} s, ${failed} failed; ms at the median, 90th percentile and most:`,
    );
    const lightTimes = Object.entries(times)
      .filter(([kind]) => LIGHT_CLASSES.has(kind as QueryClass))
      .flatMap(([, t]) => t);
    for (const [kind, t] of [...Object.entries(times).sort(), ["all light answers", lightTimes] as const]) {
      const sorted = [...t].sort((a, b) => a - b);
      if (sorted.length === 0) continue;
      console.log(
        `  ${kind.padEnd(24)} ${String(sorted.length).padStart(6)}  ${quantile(sorted, 0.5).toFixed(1).padStart(8)}  ${quantile(sorted, 0.9).toFixed(1).padStart(8)}  ${sorted.at(-1)!.toFixed(1).padStart(8)}`,
      );
    }
  } finally {
    await server.stop();
  }
}

console.log(
  `${lightClients} clients asking light answers, ${heavyClients} asking heavy ones, ${seconds} s, reads ${latencyMs ? `+${latencyMs} ms` : "as stored"}`,
);
await serveAndRun();
if (values.against) await serveAndRun(join(resolve(values.against), "build", "bin", "appstruct.js"));
