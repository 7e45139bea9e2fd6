// @module Where each class's answers spend `appstruct serve`'s CPU inside the mixed workload over HTTP: a CPU profile of the server, its samples charged to the answer being worked on when each was taken.
//
//   npx node scripts/class-profile.ts --reuse <bench folder> [--classes endswith,deep-skip] [--seed 1] [--sample 400]
//                                     [--section-cache-mb 64] [--interval-us 50] [--top 25]
//
// The bench folder is one `npm run bench --reuse` made (analysis.snap, baseline.sqlite). `appstruct
// serve` runs as the bench runs it (reads as stored), with a V8 CPU profile and a hook that notes, for
// every request, when Node's HTTP server handed it over and when its answer's last byte was written
// (on the clock the profile's samples are timed on). One keep-alive client sends the bench's cold then
// warm sequences (seed --seed), one request at a time, as `npm run bench` does at concurrency 1. Each
// sample taken within a warm answer's window is charged to that answer's class: per class, the CPU
// an answer used (µs, from the samples' intervals; the profiler samples about every 100 µs under
// load whatever the interval asked), then the functions it went to, self and inclusive, in µs per
// answer. Only one answer is in the server at a time, so a window holds its answer's work and
// whatever the runtime did meanwhile (a collection, a timer).
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { profilingFlags, startAppstructServe } from "./bench/appstruct-serve.ts";
import { profileTimes, readCpuProfile, topEntries } from "./bench/cpu-profile.ts";
import { jsonClient } from "./bench/http-client.ts";
import { CLASSES, type QueryClass } from "./bench/mix.ts";
import { mixedPasses, pickPools } from "./bench/mixed-workload.ts";
import { integerOption } from "./bench/options.ts";

/**
 * Notes each request's window (µs on process.hrtime's clock, V8's profiler's own on Linux) in the
 * server, written as JSON to $WINDOWS_FILE when the process exits.
 */
const WINDOWS_HOOK = `
import http from "node:http";
import { writeFileSync } from "node:fs";
const windows = [];
const now = () => Number(process.hrtime.bigint() / 1000n);
const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, request, response) {
  if (event === "request") {
    const w = [now(), 0, request.url];
    windows.push(w);
    response.on("finish", () => { w[1] = now(); });
  }
  return emit.apply(this, arguments);
};
process.on("exit", () => writeFileSync(process.env.WINDOWS_FILE, JSON.stringify(windows)));
`;

const { values } = parseArgs({
  options: {
    reuse: { type: "string" },
    classes: { type: "string" },
    seed: { type: "string", default: "1" },
    sample: { type: "string", default: "400" },
    "section-cache-mb": { type: "string", default: "64" },
    "interval-us": { type: "string", default: "50" },
    top: { type: "string", default: "25" },
  },
});
if (!values.reuse) {
  process.stderr.write(
    "usage: npx node scripts/class-profile.ts --reuse <bench folder> [--classes a,b] [--seed N] [--sample N] [--section-cache-mb MB] [--interval-us N] [--top N]\n",
  );
  process.exit(2);
}
const classes = (values.classes?.split(",") ?? [...CLASSES]) as QueryClass[];
for (const cls of classes)
  if (!CLASSES.includes(cls)) {
    process.stderr.write(`--classes: ${cls} is not a class of the mix; they are ${CLASSES.join(", ")}\n`);
    process.exit(2);
  }
const dir = resolve(values.reuse);
const seed = integerOption("seed", values.seed, 0);
const top = integerOption("top", values.top, 1);
const pools = pickPools(join(dir, "baseline.sqlite"), seed, integerOption("sample", values.sample, 1));
const { cold, warm } = mixedPasses(pools, seed);

const folder = await mkdtemp(join(tmpdir(), "appstruct-class-profile-"));
try {
  process.env.WINDOWS_FILE = join(folder, "windows.json");
  // A file, not a data: URL, so that the profile names its frames briefly.
  const hook = join(folder, "windows-hook.mjs");
  await writeFile(hook, WINDOWS_HOOK);
  const server = await startAppstructServe(
    join(dir, "analysis.snap"),
    integerOption("section-cache-mb", values["section-cache-mb"], 1),
    0,
    {
      nodeFlags: [
        ...profilingFlags(folder),
        `--cpu-prof-interval=${integerOption("interval-us", values["interval-us"], 1)}`,
        "--import",
        hook,
      ],
    },
  );
  const client = jsonClient(server.url);
  try {
    for (const entry of [...cold, ...warm]) await client.get(entry.path);
  } finally {
    client.close();
    await server.stop();
  }

  // At concurrency 1 the server took the requests in the order they were sent: the warm ones last.
  const windows = (JSON.parse(await readFile(process.env.WINDOWS_FILE, "utf8")) as [number, number, string][]).slice(
    -warm.length,
  );
  windows.forEach(([, end, url], i) => {
    if (url !== warm[i].path) throw new Error(`request ${i} of the warm pass was ${url}, not ${warm[i].path}`);
    if (!end) throw new Error(`request ${i} of the warm pass (${url}) was never answered in full`);
  });
  const profileFile = (await readdir(folder)).find((name) => name.endsWith(".cpuprofile"));
  if (!profileFile) throw new Error("appstruct serve wrote no CPU profile");
  const profile = readCpuProfile(join(folder, profileFile));

  console.log(
    `appstruct serve over HTTP, ${dir}, seed ${seed}, concurrency 1, reads as stored: CPU sampled within each warm answer, µs per answer`,
  );
  for (const cls of classes) {
    const mine = windows.filter((_, i) => warm[i].cls === cls);
    // Windows follow one another: a binary search finds the one a sample falls in.
    const within = (at: number) => {
      let [lo, hi] = [0, mine.length - 1];
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (at < mine[mid][0]) hi = mid - 1;
        else if (at > mine[mid][1]) lo = mid + 1;
        else return true;
      }
      return false;
    };
    const times = profileTimes(profile, within);
    const perAnswer = (micros: number) => (micros / mine.length).toFixed(0).padStart(6);
    console.log(`\n## ${cls}: ${mine.length} answers, ${perAnswer(times.busy).trim()} µs of CPU an answer`);
    console.log("\nself");
    for (const [key, micros] of topEntries(times.self, top)) console.log(`${perAnswer(micros)}  ${key}`);
    console.log("\ninclusive");
    for (const [key, micros] of topEntries(times.inclusive, top)) console.log(`${perAnswer(micros)}  ${key}`);
  }
} finally {
  await rm(folder, { recursive: true, force: true });
}
