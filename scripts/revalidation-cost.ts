// @module What a revalidation costs `appstruct serve`: one answer of each class of the mix asked with If-None-Match naming its tag, first of a server that has answered nothing yet, then again: time, status, and the reads and cache lookups its Server-Timing reports.
//
//   npx node scripts/revalidation-cost.ts --reuse <bench folder> [--read-latency-ms 20] [--seed 1] [--sample 400]
//                                         [--section-cache-mb 64] [--against CHECKOUT]
//
// The bench folder is one `npm run bench --reuse` made (analysis.snap, baseline.sqlite). The answers
// are the first of each class in the bench's cold sequence (seed --seed). A first server answers each
// in full, for its tag and its time. Then a fresh server (and, with --against, a fresh one of another
// checkout, its build/bin/appstruct.js) is asked each with If-None-Match naming that tag: "cold" is
// the first time it hears of the answer (a browser revalidating after the isolate was recycled),
// "warm" the next. The tag depends only on the published versions and the request, so every
// checkout issues the same one. Each request is made alone, one after the other, over keep-alive.
import { get } from "node:http";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { readServerTiming, type StorageTiming } from "../src/http/server-timing.ts";
import { startAppstructServe } from "./bench/appstruct-serve.ts";
import type { ChildServer } from "./bench/child-server.ts";
import { CLASSES, type MixEntry } from "./bench/mix.ts";
import { mixedSequence, PASS_REQUESTS, pickPools } from "./bench/mixed-workload.ts";
import { integerOption } from "./bench/options.ts";

const { values } = parseArgs({
  options: {
    reuse: { type: "string" },
    "read-latency-ms": { type: "string", default: "20" },
    seed: { type: "string", default: "1" },
    sample: { type: "string", default: "400" },
    "section-cache-mb": { type: "string", default: "64" },
    against: { type: "string" },
  },
});
if (!values.reuse) {
  process.stderr.write(
    "usage: npx node scripts/revalidation-cost.ts --reuse <bench folder> [--read-latency-ms 20] [--seed 1] [--sample 400] [--section-cache-mb 64] [--against CHECKOUT]\n",
  );
  process.exit(2);
}
const dir = resolve(values.reuse);
const latencyMs = integerOption("read-latency-ms", values["read-latency-ms"], 0);
const seed = integerOption("seed", values.seed, 0);
const cacheMB = integerOption("section-cache-mb", values["section-cache-mb"], 1);
const pools = pickPools(join(dir, "baseline.sqlite"), seed, integerOption("sample", values.sample, 1));
const sequence = mixedSequence(pools, seed, PASS_REQUESTS);
const entries = CLASSES.map((cls) => sequence.find((entry) => entry.cls === cls)).filter(
  (entry): entry is MixEntry => entry !== undefined,
);

interface Reply {
  status: number;
  etag: string | undefined;
  ms: number;
  timing: StorageTiming | null;
}

/** GETs `path` of `server`, with If-None-Match when `tag` is given; the body read and dropped. */
function ask(server: ChildServer, path: string, tag?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const sent = performance.now();
    get(`${server.url}${path}`, { headers: tag ? { "If-None-Match": tag } : {} }, (response) => {
      response.resume();
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          etag: response.headers.etag,
          ms: performance.now() - sent,
          timing: readServerTiming(response.headers["server-timing"] as string | undefined),
        }),
      );
      response.on("error", reject);
    }).on("error", reject);
  });
}

const snapshot = join(dir, "analysis.snap");
const start = (executable?: string) =>
  startAppstructServe(snapshot, cacheMB, latencyMs, executable ? { executable } : {});
const describe = (reply: Reply) =>
  `${reply.status} · ${reply.ms.toFixed(1)} · ${reply.timing ? `${reply.timing.reads} / ${reply.timing.hits + reply.timing.misses}` : "—"}`;

const started: ChildServer[] = [];
try {
  const tagger = await start();
  started.push(tagger);
  const full = new Map<MixEntry, Reply>();
  for (const entry of entries) {
    const reply = await ask(tagger, entry.path);
    if (reply.status !== 200 || !reply.etag) throw new Error(`${entry.path} answered ${reply.status} without a tag`);
    full.set(entry, reply);
  }
  const sides: [string, ChildServer][] = [["this checkout", await start()]];
  if (values.against)
    sides.push(["--against", await start(join(resolve(values.against), "build", "bin", "appstruct.js"))]);
  started.push(...sides.map(([, server]) => server));
  const replies = new Map<string, Reply[]>();
  // Twice over: the first time each server hears of each answer (cold), then again (warm).
  for (let time = 0; time < 2; time++)
    for (const entry of entries)
      for (const [name, server] of sides) {
        const key = `${name} ${entry.cls}`;
        replies.set(key, [...(replies.get(key) ?? []), await ask(server, entry.path, full.get(entry)!.etag)]);
      }

  console.log(
    `appstruct serve over HTTP, ${dir}, reads +${latencyMs} ms, section budget ${cacheMB} MiB, seed ${seed}: each cell is status · ms · reads / cache lookups`,
  );
  console.log("");
  const header = ["class", "full answer (first server, cold)"];
  for (const [name] of sides) header.push(`${name}: revalidation cold`, `${name}: warm`);
  console.log(`| ${header.join(" | ")} |`);
  console.log(`|${header.map(() => "---").join("|")}|`);
  for (const entry of entries) {
    const row = [entry.cls, describe(full.get(entry)!)];
    for (const [name] of sides) row.push(...replies.get(`${name} ${entry.cls}`)!.map(describe));
    console.log(`| ${row.join(" | ")} |`);
  }
} finally {
  await Promise.all(started.map((server) => server.stop()));
}
