// @module The least an answer costs inside the mixed workload over HTTP, on both servers: `/rest/ready` asked after every answer of the bench's sequences, timed beside each class's answers.
//
//   npx node scripts/floor-in-mix.ts --reuse <bench folder> [--seed 1] [--sample 400] [--section-cache-mb 64]
//
// The bench folder is one `npm run bench --reuse` made (analysis.snap, baseline.sqlite). Both servers
// run as the bench runs them (`appstruct serve` with the section budget, reads as stored, and the
// SQLite baseline server), each asked by one keep-alive client: the bench's cold then warm sequences
// (seed --seed), in chunks of 50, the two sides alternating which goes first, as `npm run bench`
// does at concurrency 1. After every answer the same client asks for `/rest/ready`, whose answer
// (`true`) neither engine looks anything up for: on our side Node's HTTP, the adapter, Hono and the
// middleware every answer passes; on the baseline's, Node's HTTP and a handler. Timed where it falls,
// it is the floor of an answer in the mix on that server: what no engine work can go under. Medians
// of the warm pass, ms, from sending to the last byte. Each class's answer here comes after a `ready`
// rather than after another class's answer: what one answer leaves the next to wait for (its last
// writes, the collection of its garbage) falls on the `ready`, so classes are faster here than in the
// bench, on both sides.
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { startAppstructServe } from "./bench/appstruct-serve.ts";
import { startBaselineServer } from "./bench/baseline-server.ts";
import type { ChildServer } from "./bench/child-server.ts";
import { type JsonClient, jsonClient } from "./bench/http-client.ts";
import { CLASSES, type MixEntry } from "./bench/mix.ts";
import { mixedPasses, pickPools } from "./bench/mixed-workload.ts";
import { integerOption } from "./bench/options.ts";
import { stats } from "./bench/timing.ts";
import { freePort } from "./dev-server.ts";

/** Requests each side answers in a row before the other side takes its turn, as the bench's chunks. */
const CHUNK = 50;

const { values } = parseArgs({
  options: {
    reuse: { type: "string" },
    seed: { type: "string", default: "1" },
    sample: { type: "string", default: "400" },
    "section-cache-mb": { type: "string", default: "64" },
  },
});
if (!values.reuse) {
  process.stderr.write(
    "usage: npx node scripts/floor-in-mix.ts --reuse <bench folder> [--seed N] [--sample N] [--section-cache-mb MB]\n",
  );
  process.exit(2);
}
const dir = resolve(values.reuse);
const seed = integerOption("seed", values.seed, 0);
const cacheMB = integerOption("section-cache-mb", values["section-cache-mb"], 1);
const pools = pickPools(join(dir, "baseline.sqlite"), seed, integerOption("sample", values.sample, 1));
const sequences = mixedPasses(pools, seed);

const FLOOR = "ready (the floor)";

interface Side {
  name: string;
  server: ChildServer;
  client: JsonClient;
  /** ms of the warm pass's answers, by class, and of the `ready` after each under FLOOR. */
  ms: Map<string, number[]>;
}

/** `entries` on `side`, each followed by `/rest/ready`; timed when `timed`. */
async function answer(side: Side, entries: readonly MixEntry[], timed: boolean): Promise<void> {
  const time = async (path: string, key: string) => {
    const sent = performance.now();
    await side.client.get(path);
    if (timed) side.ms.set(key, [...(side.ms.get(key) ?? []), performance.now() - sent]);
  };
  for (const entry of entries) {
    await time(entry.path, entry.cls);
    await time("/rest/ready", FLOOR);
  }
}

const started: ChildServer[] = [];
try {
  started.push(await startAppstructServe(join(dir, "analysis.snap"), cacheMB, 0));
  started.push(await startBaselineServer(join(dir, "baseline.sqlite"), await freePort()));
  const sides: Side[] = ["appstruct", "SQLite"].map((name, i) => ({
    name,
    server: started[i],
    client: jsonClient(started[i].url),
    ms: new Map(),
  }));
  for (const [pass, sequence] of Object.entries(sequences))
    for (let from = 0, k = 0; from < sequence.length; from += CHUNK, k++)
      for (const side of k % 2 ? [...sides].reverse() : sides)
        await answer(side, sequence.slice(from, from + CHUNK), pass === "warm");
  for (const side of sides) side.client.close();

  const [ours, theirs] = sides;
  console.log(
    `Over HTTP, ${dir}, section budget ${cacheMB} MiB, seed ${seed}, concurrency 1: median ms of the warm pass, each answer followed by /rest/ready`,
  );
  console.log("");
  console.log("| answer | appstruct | SQLite | SQLite / appstruct |");
  console.log("|---|--:|--:|--:|");
  for (const key of [FLOOR, ...CLASSES]) {
    const [a, b] = [stats(ours.ms.get(key)!).medianMs, stats(theirs.ms.get(key)!).medianMs];
    console.log(`| ${key} | ${a.toFixed(3)} | ${b.toFixed(3)} | ${(b / a).toFixed(2)} |`);
  }
} finally {
  await Promise.all(started.map((server) => server.stop()));
}
