// @module What the mix costs a light answer, in process, for appstruct and for the SQLite baseline alike: each light class timed inside the bench's mixed sequence, asked alone (its answers one after the other), and alone after the CPU's caches were flushed.
//
//   npx node scripts/mix-penalty.ts --reuse <bench folder> [--section-cache-mb 4096] [--seed 1] [--sample 400]
//
// The bench folder is one `npm run bench --reuse` made (analysis.snap, baseline.sqlite). Both sides
// answer in this process, without HTTP: appstruct through serve's request listener (the app, its
// middleware and Node's adapter, as `appstruct serve` runs them), the baseline through its query
// functions and JSON.stringify, as its server does. Each first answers the bench's cold and warm
// sequences (seed --seed) twice, untimed, so that what a class meets is the same in every phase:
// with the default budget of 4 GiB everything it reads is decoded and kept, and storage takes no
// part. Then, per side:
//
// - "mix": the warm sequence once more, each light answer timed where it falls;
// - "alone": each light class's answers of both sequences one after the other, the best of three rounds;
// - "flushed": the same, each answer after 64 MiB of memory was written (every cache line of it),
//   which leaves nothing of what the last answer used in the CPU's caches or its TLB.
//
// What the mix adds to an answer beside "alone" is what its code and data lost to the answers
// before it; "flushed" is that cost at its most. Medians in µs.
import { mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { getRequestListener } from "@hono/node-server";
import { nodeFetch } from "../build/serve.ts";
import type { MixEntry, QueryClass } from "./bench/mix.ts";
import { mixedPasses, pickPools } from "./bench/mixed-workload.ts";
import { integerOption } from "./bench/options.ts";
import { queryOfPath } from "./bench/queries.ts";
import { SqliteBaseline } from "./bench/sqlite-baseline.ts";
import { throughAdapter } from "./bench/through-adapter.ts";

/** The classes whose answers are one object or one short list: those the mix leaves below SQLite's at concurrency 1. */
const LIGHT: readonly QueryClass[] = ["characteristics", "callees", "points-hops-1", "equals", "level-graph"];

/** Bytes written between two answers in the "flushed" phase: well past any CPU's last-level cache. */
const FLUSH_BYTES = 64 * 1024 * 1024;

const { values } = parseArgs({
  options: {
    reuse: { type: "string" },
    "section-cache-mb": { type: "string", default: "4096" },
    seed: { type: "string", default: "1" },
    sample: { type: "string", default: "400" },
  },
});
if (!values.reuse) {
  process.stderr.write(
    "usage: npx node scripts/mix-penalty.ts --reuse <bench folder> [--section-cache-mb MB] [--seed N] [--sample N]\n",
  );
  process.exit(2);
}
const dir = resolve(values.reuse);
const cacheMB = integerOption("section-cache-mb", values["section-cache-mb"], 1);
const seed = integerOption("seed", values.seed, 0);
const pools = pickPools(join(dir, "baseline.sqlite"), seed, integerOption("sample", values.sample, 1));
const { cold, warm } = mixedPasses(pools, seed);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
};

const flushed = new Float64Array(FLUSH_BYTES / 8);
/** Writes every cache line of FLUSH_BYTES. */
function flushCaches(): void {
  for (let i = 0; i < flushed.length; i += 8) flushed[i]++;
}

/** One side: how it answers a path (resolved once answered), by name. */
interface Side {
  name: string;
  answer(path: string): Promise<unknown>;
}

/** µs of each light class's answers inside `sequence`, where they fall. */
async function inTheMix(side: Side, sequence: readonly MixEntry[]): Promise<Map<QueryClass, number>> {
  const times = new Map<QueryClass, number[]>(LIGHT.map((cls) => [cls, []]));
  for (const entry of sequence) {
    const started = performance.now();
    await side.answer(entry.path);
    times.get(entry.cls)?.push((performance.now() - started) * 1000);
  }
  return new Map([...times].map(([cls, us]) => [cls, median(us)]));
}

/** µs of `paths` answered one after the other (each after a flush if `flush`), the best median of three rounds. */
async function alone(side: Side, paths: readonly string[], flush: boolean): Promise<number> {
  const rounds: number[] = [];
  for (let round = 0; round < 3; round++) {
    const us: number[] = [];
    for (const path of paths) {
      if (flush) flushCaches();
      const started = performance.now();
      await side.answer(path);
      us.push((performance.now() - started) * 1000);
    }
    rounds.push(median(us));
  }
  return Math.min(...rounds);
}

async function measure(side: Side): Promise<Map<QueryClass, { mix: number; alone: number; flushed: number }>> {
  for (const sequence of [cold, warm, cold, warm]) for (const entry of sequence) await side.answer(entry.path);
  const mix = await inTheMix(side, warm);
  const out = new Map<QueryClass, { mix: number; alone: number; flushed: number }>();
  for (const cls of LIGHT) {
    const paths = [...cold, ...warm].filter((entry) => entry.cls === cls).map((entry) => entry.path);
    out.set(cls, {
      mix: mix.get(cls)!,
      alone: await alone(side, paths, false),
      flushed: await alone(side, paths, true),
    });
  }
  return out;
}

const folder = await mkdtemp(join(tmpdir(), "appstruct-mix-penalty-"));
try {
  await symlink(join(dir, "analysis.snap"), join(folder, "bench.snap"));
  const { fetch } = await nodeFetch({ data: folder, sectionBudgetBytes: cacheMB * 1024 * 1024, readLatencyMs: 0 });
  const listener = getRequestListener(fetch);
  const baseline = new SqliteBaseline(join(dir, "baseline.sqlite"));
  const sides: Side[] = [
    {
      name: "appstruct",
      answer: async (path) => {
        const status = await throughAdapter(listener, path);
        if (status !== 200) throw new Error(`${path} answered ${status}`);
      },
    },
    { name: "SQLite", answer: async (path) => JSON.stringify(baseline.answer(queryOfPath(path))) },
  ];
  const results = [];
  for (const side of sides) results.push(await measure(side));
  console.log(
    `In process, ${dir}, section budget ${cacheMB} MiB, seed ${seed}: median µs of each light class's answers`,
  );
  console.log("");
  console.log(`| class | ${sides.map((s) => `${s.name} mix | alone | flushed`).join(" | ")} |`);
  console.log(`|---|${sides.map(() => "--:|--:|--:").join("|")}|`);
  for (const cls of LIGHT)
    console.log(
      `| ${cls} | ${results
        .map((r) => {
          const { mix, alone: quiet, flushed: cold } = r.get(cls)!;
          return `${mix.toFixed(0)} | ${quiet.toFixed(0)} | ${cold.toFixed(0)}`;
        })
        .join(" | ")} |`,
    );
} finally {
  await rm(folder, { recursive: true, force: true });
}
