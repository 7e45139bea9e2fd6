// @module Per-request cost of a cached answer: `appstruct serve` and the SQLite baseline server over keep-alive HTTP, and the app in process (no HTTP), in one run.
//
//   npx node scripts/request-cost.ts [--dir /tmp/final-300k] [--requests 2000] [--rounds 5] [--cpu-prof-dir DIR]
//
// Both servers run as their own processes on 127.0.0.1, each asked by one keep-alive connection,
// one request at a time. Per route and side: wall time per request (median of the rounds, the
// sides alternating within a round) and the server process's CPU time per request (from /proc,
// less sensitive to the machine's other load than wall time). In process: the same requests
// through `nodeFetch` (the app with the explorer's files before it, as serve runs it), without
// Node's HTTP server and its adapter; the difference to the HTTP figure is what HTTP costs.
// `--cpu-prof-dir` writes a CPU profile of `appstruct serve` there (summarize it with a
// .cpuprofile reader).
import { mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { nodeFetch } from "../build/serve.ts";
import { DEFAULT_SECTION_CACHE_MB } from "../src/storage/isolate-caches.ts";
import { startAppstructServe } from "./bench/appstruct-serve.ts";
import { startBaselineServer } from "./bench/baseline-server.ts";
import type { ChildServer } from "./bench/child-server.ts";
import { jsonClient } from "./bench/http-client.ts";
import { APPLICATION } from "./bench/queries.ts";
import { freePort } from "./dev-server.ts";

const { values } = parseArgs({
  options: {
    dir: { type: "string", default: "/tmp/final-300k" },
    requests: { type: "string", default: "2000" },
    rounds: { type: "string", default: "5" },
    "cpu-prof-dir": { type: "string" },
  },
});
const requests = Number(values.requests);
const rounds = Number(values.rounds);
if (!(requests > 0 && rounds > 0)) throw new Error("--requests and --rounds must be positive numbers");
const dir = resolve(values.dir);
const BASE = `/rest/applications/${encodeURIComponent(APPLICATION)}`;
/** Clock ticks per second of /proc/<pid>/stat's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** User + system CPU seconds `pid` has used so far. */
async function cpuSeconds(pid: number): Promise<number> {
  const { readFile } = await import("node:fs/promises");
  const stat = await readFile(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

interface Side {
  name: string;
  server: ChildServer;
  get(path: string): Promise<string>;
}

/** µs of wall time and of the server's CPU per request, over `requests` sequential requests of `path`. */
async function timeSide(side: Side, path: string): Promise<{ wallUs: number; cpuUs: number }> {
  const cpuBefore = await cpuSeconds(side.server.pid);
  const started = performance.now();
  for (let i = 0; i < requests; i++) await side.get(path);
  const wallUs = ((performance.now() - started) * 1000) / requests;
  const cpuUs = (((await cpuSeconds(side.server.pid)) - cpuBefore) * 1e6) / requests;
  return { wallUs, cpuUs };
}

/** µs of wall time and of this process's CPU per answer of `fetch`, body read, without HTTP. */
async function timeInProcess(
  fetch: (request: Request) => Response | Promise<Response>,
  path: string,
): Promise<{ wallUs: number; cpuUs: number }> {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < requests; i++) {
    const response = await fetch(new Request(`http://127.0.0.1${path}`));
    if (response.status !== 200) throw new Error(`in process: ${path} answered ${response.status}`);
    await response.text();
  }
  const wallUs = ((performance.now() - started) * 1000) / requests;
  const cpu = process.cpuUsage(cpuBefore);
  return { wallUs, cpuUs: (cpu.user + cpu.system) / requests };
}

const folder = await mkdtemp(join(tmpdir(), "appstruct-request-cost-"));
const profileFlags = values["cpu-prof-dir"]
  ? [
      "--cpu-prof",
      `--cpu-prof-dir=${resolve(values["cpu-prof-dir"])}`,
      // The profile is written on exit; SIGTERM (how the server is stopped) would skip it.
      "--import",
      'data:text/javascript,process.on("SIGTERM",()=>process.exit(0))',
    ]
  : [];
const ours = await startAppstructServe(join(dir, "analysis.snap"), DEFAULT_SECTION_CACHE_MB, 0, profileFlags);
const baseline = await startBaselineServer(join(dir, "baseline.sqlite"), await freePort());
const [ourClient, baselineClient] = [jsonClient(ours.url), jsonClient(baseline.url)];
try {
  // An object with callees: its characteristics and its callees are the two answers timed.
  const found = JSON.parse(await ourClient.get(`${BASE}/objects?limit=50`)) as { objects: { id: string }[] };
  let id: string | undefined;
  for (const object of found.objects)
    if ((JSON.parse(await ourClient.get(`${BASE}/objects/${object.id}/callees`)) as unknown[]).length) {
      id = object.id;
      break;
    }
  if (!id) throw new Error("none of the first 50 objects has callees");
  const paths = {
    ready: "/rest/ready",
    characteristics: `${BASE}/objects/${id}`,
    callees: `${BASE}/objects/${id}/callees`,
  };
  const sides: Side[] = [
    { name: "appstruct serve", server: ours, get: ourClient.get },
    { name: "SQLite server", server: baseline, get: baselineClient.get },
  ];
  for (const path of Object.values(paths)) for (const side of sides) for (let i = 0; i < 200; i++) await side.get(path);

  await symlink(join(dir, "analysis.snap"), join(folder, "bench.snap"));
  const inProcess = await nodeFetch({
    data: folder,
    sectionBudgetBytes: DEFAULT_SECTION_CACHE_MB * 1024 * 1024,
    readLatencyMs: 0,
  });
  for (const path of Object.values(paths)) await timeInProcess(inProcess.fetch, path);

  console.log(
    `${requests} sequential requests × ${rounds} rounds per route and side (${dir}, object ${id}); medians of the rounds, µs per request`,
  );
  console.log("route            | serve wall | serve CPU | SQLite wall | SQLite CPU | wall ratio | in process (CPU)");
  for (const [route, path] of Object.entries(paths)) {
    const samples = new Map<string, { wallUs: number; cpuUs: number }[]>();
    const record = (name: string, sample: { wallUs: number; cpuUs: number }) =>
      samples.set(name, [...(samples.get(name) ?? []), sample]);
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 ? [...sides].reverse() : sides;
      for (const side of order) record(side.name, await timeSide(side, path));
      record("in process", await timeInProcess(inProcess.fetch, path));
    }
    const m = (name: string, key: "wallUs" | "cpuUs") => median(samples.get(name)!.map((s) => s[key]));
    const [ourWall, theirWall] = [m("appstruct serve", "wallUs"), m("SQLite server", "wallUs")];
    console.log(
      `${route.padEnd(16)} | ${ourWall.toFixed(0).padStart(10)} | ${m("appstruct serve", "cpuUs").toFixed(0).padStart(9)} | ${theirWall.toFixed(0).padStart(11)} | ${m("SQLite server", "cpuUs").toFixed(0).padStart(10)} | ${(theirWall / ourWall).toFixed(2).padStart(10)} | ${m("in process", "wallUs").toFixed(0)} (${m("in process", "cpuUs").toFixed(0)})`,
    );
  }
} finally {
  ourClient.close();
  baselineClient.close();
  await Promise.all([ours.stop(), baseline.stop()]);
  await rm(folder, { recursive: true, force: true });
}
