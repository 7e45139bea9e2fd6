// @module A change against another checkout over HTTP: both `appstruct serve`s answer the bench's mixed sequences, each request asked of both in a random order, so that the machine's drift falls on both alike.
//
//   npx node scripts/ab-over-http.ts --reuse <bench folder> --against CHECKOUT [--passes 2]
//                                    [--section-cache-mb 64] [--read-latency-ms 0] [--seed 1] [--sample 400]
//
// The bench folder is one `npm run bench --reuse` made (analysis.snap, baseline.sqlite). This
// checkout's `appstruct serve` and the one of CHECKOUT (its build/bin/appstruct.js, which must be
// able to open the snapshot: the same format) run as the bench runs them, each in its own process
// with the section budget and read latency given, each asked by one keep-alive client. The bench's
// cold then warm sequences (seed --seed) are sent --passes times over, one request at a time, each
// to both servers, the first chosen at random; the warm passes are timed, from sending to the last
// byte. Both answers to a request must be the same bytes, or the run stops. Per class: the median
// ms of each side, their ratio (this checkout's against the other's: below 1 is faster), and the ms
// each side spent on the class in all.
//
// Where scripts/ab-in-process.ts leaves Node's HTTP server and the socket out, this keeps them in, as
// the bench does: what a change to the headers, the writes or the work done after an answer costs.
// Two runs of the bench minutes apart differ by more than a change of a few percent; here both
// sides meet the same moments.
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { DEFAULT_SECTION_CACHE_MB } from "../src/storage/isolate-caches.ts";
import { startAppstructServe } from "./bench/appstruct-serve.ts";
import { printComparison, requireFolders, timeBothSides } from "./bench/checkouts-compared.ts";
import type { ChildServer } from "./bench/child-server.ts";
import { type JsonClient, jsonClient } from "./bench/http-client.ts";
import { mixedPasses, pickPools } from "./bench/mixed-workload.ts";
import { integerOption } from "./bench/options.ts";

const { values } = parseArgs({
  options: {
    reuse: { type: "string" },
    against: { type: "string" },
    passes: { type: "string", default: "2" },
    "section-cache-mb": { type: "string", default: String(DEFAULT_SECTION_CACHE_MB) },
    "read-latency-ms": { type: "string", default: "0" },
    seed: { type: "string", default: "1" },
    sample: { type: "string", default: "400" },
  },
});
if (!values.reuse || !values.against) {
  process.stderr.write(
    "usage: npx node scripts/ab-over-http.ts --reuse <bench folder> --against CHECKOUT [--passes N] [--section-cache-mb MB] [--read-latency-ms MS] [--seed N] [--sample N]\n",
  );
  process.exit(2);
}
const dir = resolve(values.reuse);
const otherExecutable = join(resolve(values.against), "build/bin/appstruct.js");
requireFolders(dir, otherExecutable);
const passes = integerOption("passes", values.passes, 1);
const cacheMB = integerOption("section-cache-mb", values["section-cache-mb"], 1);
const latencyMs = integerOption("read-latency-ms", values["read-latency-ms"], 0);
const seed = integerOption("seed", values.seed, 0);
const pools = pickPools(join(dir, "baseline.sqlite"), seed, integerOption("sample", values.sample, 1));
const { cold, warm } = mixedPasses(pools, seed);

interface Side {
  name: string;
  server: ChildServer;
  client: JsonClient;
}

const sides: Side[] = [];
try {
  for (const [name, executable] of [
    ["this checkout", undefined],
    [resolve(values.against), otherExecutable],
  ] as const) {
    const server = await startAppstructServe(join(dir, "analysis.snap"), cacheMB, latencyMs, { executable });
    sides.push({ name, server, client: jsonClient(server.url) });
  }
  const [ours, theirs] = await timeBothSides(
    [sides[0], sides[1]],
    { cold, warm },
    passes,
    (side, path) => side.client.get(path),
    ([mine, other], path) => {
      if (mine !== other) throw new Error(`the two checkouts answer ${path} differently`);
    },
  );
  printComparison(
    `Over HTTP, ${dir}, ${cacheMB} MiB, reads +${latencyMs} ms, seed ${seed}, ${passes} warm passes: this checkout against ${sides[1].name}`,
    ours,
    theirs,
    "ms",
  );
} finally {
  for (const side of sides) {
    side.client.close();
    await side.server.stop();
  }
}
