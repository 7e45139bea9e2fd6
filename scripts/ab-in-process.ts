// @module A change against another checkout in one process: both apps answer the bench's mixed sequences through Node's adapter, each request asked of both in a random order, so that the machine's drift falls on both alike.
//
//   npx node scripts/ab-in-process.ts --reuse <bench folder> --against CHECKOUT [--passes 3]
//                                     [--section-cache-mb 64] [--seed 1] [--sample 400]
//
// The bench folder is one `npm run bench --reuse` made (analysis.snap, baseline.sqlite). This
// checkout's `appstruct serve` app and the one of CHECKOUT (its build/serve.ts, which must be able
// to open the snapshot: the same format) are loaded side by side, each with its own section cache
// (--section-cache-mb, the default budget unless given), and asked the bench's cold then warm
// sequences (seed --seed) --passes times
// over, reads as stored. Each request goes to both, the first chosen at random; the warm passes are
// timed. Per class: the median µs of each side, their ratio (this checkout's against the other's:
// below 1 is faster), and the ms each side spent on the class in all.
//
// Why in one process: on a shared, noisy machine two runs of the bench minutes apart differ by more
// than most changes do (SQLite's own p50 moves by a fifth). Here the two sides meet the same moments,
// and what is left between them is their code. They share a heap, so each may collect the other's
// garbage; the random order shares that out. Node's HTTP server and the socket are left out: a
// change to what they write (the headers) is measured here only in part, by the bench in full.
import { mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { getRequestListener } from "@hono/node-server";
import { DEFAULT_SECTION_CACHE_MB } from "../src/storage/isolate-caches.ts";
import { printComparison, requireFolders, timeBothSides } from "./bench/checkouts-compared.ts";
import { mixedPasses, pickPools } from "./bench/mixed-workload.ts";
import { integerOption } from "./bench/options.ts";
import { type Listener, throughAdapter } from "./bench/through-adapter.ts";

const { values } = parseArgs({
  options: {
    reuse: { type: "string" },
    against: { type: "string" },
    passes: { type: "string", default: "3" },
    "section-cache-mb": { type: "string", default: String(DEFAULT_SECTION_CACHE_MB) },
    seed: { type: "string", default: "1" },
    sample: { type: "string", default: "400" },
  },
});
if (!values.reuse || !values.against) {
  process.stderr.write(
    "usage: npx node scripts/ab-in-process.ts --reuse <bench folder> --against CHECKOUT [--passes N] [--section-cache-mb MB] [--seed N] [--sample N]\n",
  );
  process.exit(2);
}
const dir = resolve(values.reuse);
requireFolders(dir, join(resolve(values.against), "build/serve.ts"));
const passes = integerOption("passes", values.passes, 1);
const budgetBytes = integerOption("section-cache-mb", values["section-cache-mb"], 1) * 1024 * 1024;
const seed = integerOption("seed", values.seed, 0);
const pools = pickPools(join(dir, "baseline.sqlite"), seed, integerOption("sample", values.sample, 1));
const { cold, warm } = mixedPasses(pools, seed);

interface Side {
  name: string;
  listener: Listener;
}

/** The app `appstruct serve` runs, from the checkout at `root`, over the snapshots in `data`. */
async function sideOf(name: string, root: string, data: string): Promise<Side> {
  const { nodeFetch } = (await import(join(root, "build/serve.ts"))) as typeof import("../build/serve.ts");
  const { fetch } = await nodeFetch({ data, sectionBudgetBytes: budgetBytes, readLatencyMs: 0 });
  return { name, listener: getRequestListener(fetch) };
}

const folder = await mkdtemp(join(tmpdir(), "appstruct-ab-"));
try {
  await symlink(join(dir, "analysis.snap"), join(folder, "bench.snap"));
  const sides: [Side, Side] = [
    await sideOf("this checkout", resolve(import.meta.dirname, ".."), folder),
    await sideOf(resolve(values.against), resolve(values.against), folder),
  ];
  const [ours, theirs] = await timeBothSides(sides, { cold, warm }, passes, async (side, path) => {
    const status = await throughAdapter(side.listener, path);
    if (status !== 200) throw new Error(`${side.name}: ${path} answered ${status}`);
  });
  printComparison(
    `In process, ${dir}, ${budgetBytes / 1024 / 1024} MiB, seed ${seed}, ${passes} warm passes: this checkout against ${sides[1].name}`,
    ours,
    theirs,
    "µs",
  );
} finally {
  await rm(folder, { recursive: true, force: true });
}
