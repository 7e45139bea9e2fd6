// @module Per-request cost of a cached answer: `appstruct serve` and the SQLite baseline server over keep-alive HTTP, and the app in process (no HTTP), in one run.
//
//   npx node scripts/request-cost.ts [--dir /tmp/final-300k] [--requests 2000] [--rounds 5] [--cpu-prof-dir DIR]
//                                    [--routes ready,characteristics,callees] [--against CHECKOUT]
//
// `--against` also serves from another checkout of appstruct (its build/bin/appstruct.js), timed
// in the same rounds: a change measured before and after in one run.
//
// Both servers run as their own processes on 127.0.0.1, each asked by one keep-alive connection,
// one request at a time. Per route and side: wall time per request (median of the rounds, the
// sides alternating within a round) and the server process's CPU time per request (from /proc,
// less sensitive to the machine's other load than wall time). In process: the same requests
// through `nodeFetch` (the app with the explorer's files before it, as serve runs it) and the
// adapter (@hono/node-server's request listener), handed stand-ins for Node's request and response:
// the difference to the HTTP figure is what Node's HTTP server and the sockets cost.
// `--cpu-prof-dir` writes a CPU profile of `appstruct serve` there (summarize it with a
// .cpuprofile reader).
import { mkdtemp, readFile, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { getRequestListener } from "@hono/node-server";
import { nodeFetch } from "../build/serve.ts";
import { DEFAULT_SECTION_CACHE_MB } from "../src/storage/isolate-caches.ts";
import { profilingFlags, startAppstructServe } from "./bench/appstruct-serve.ts";
import { startBaselineServer } from "./bench/baseline-server.ts";
import type { ChildServer } from "./bench/child-server.ts";
import { jsonClient } from "./bench/http-client.ts";
import { APPLICATION } from "./bench/queries.ts";
import { type Listener, throughAdapter } from "./bench/through-adapter.ts";
import { freePort } from "./dev-server.ts";

const { values } = parseArgs({
  options: {
    dir: { type: "string", default: "/tmp/final-300k" },
    requests: { type: "string", default: "2000" },
    rounds: { type: "string", default: "5" },
    "cpu-prof-dir": { type: "string" },
    routes: { type: "string", default: "ready,characteristics,callees" },
    against: { type: "string" },
  },
});
const requests = Number(values.requests);
const rounds = Number(values.rounds);
if (!(requests > 0 && rounds > 0)) throw new Error("--requests and --rounds must be positive numbers");
const dir = resolve(values.dir);
const BASE = `/rest/applications/${encodeURIComponent(APPLICATION)}`;
/** Clock ticks per second of /proc/<pid>/stat's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** User and system CPU seconds `pid` has used so far. */
async function cpuSeconds(pid: number): Promise<{ user: number; system: number }> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { user: Number(fields[11]) / TICKS_PER_SECOND, system: Number(fields[12]) / TICKS_PER_SECOND };
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

/** µs per request: wall time, CPU time of the answering process, and the part of it spent in the kernel. */
interface Sample {
  wallUs: number;
  cpuUs: number;
  systemUs: number;
}

/** µs of wall time and of the server's CPU per request, over `requests` sequential requests of `path`. */
async function timeSide(side: Side, path: string): Promise<Sample> {
  const before = await cpuSeconds(side.server.pid);
  const started = performance.now();
  for (let i = 0; i < requests; i++) await side.get(path);
  const wallUs = ((performance.now() - started) * 1000) / requests;
  const after = await cpuSeconds(side.server.pid);
  const perRequest = (seconds: number) => (seconds * 1e6) / requests;
  return {
    wallUs,
    cpuUs: perRequest(after.user + after.system - before.user - before.system),
    systemUs: perRequest(after.system - before.system),
  };
}

/** µs of wall time and of this process's CPU per answer through `listener`, without HTTP. */
async function timeInProcess(listener: Listener, path: string): Promise<Sample> {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < requests; i++) {
    const status = await throughAdapter(listener, path);
    if (status !== 200) throw new Error(`in process: ${path} answered ${status}`);
  }
  const wallUs = ((performance.now() - started) * 1000) / requests;
  const cpu = process.cpuUsage(cpuBefore);
  return { wallUs, cpuUs: (cpu.user + cpu.system) / requests, systemUs: cpu.system / requests };
}

const folder = await mkdtemp(join(tmpdir(), "appstruct-request-cost-"));
const ours = await startAppstructServe(join(dir, "analysis.snap"), DEFAULT_SECTION_CACHE_MB, 0, {
  nodeFlags: values["cpu-prof-dir"] ? profilingFlags(values["cpu-prof-dir"]) : [],
});
const other = values.against
  ? await startAppstructServe(join(dir, "analysis.snap"), DEFAULT_SECTION_CACHE_MB, 0, {
      executable: join(resolve(values.against), "build", "bin", "appstruct.js"),
    })
  : null;
const baseline = await startBaselineServer(join(dir, "baseline.sqlite"), await freePort());
const [ourClient, baselineClient] = [jsonClient(ours.url), jsonClient(baseline.url)];
const otherClient = other && jsonClient(other.url);
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
  const routes: Record<string, string> = {
    ready: "/rest/ready",
    characteristics: `${BASE}/objects/${id}`,
    callees: `${BASE}/objects/${id}/callees`,
  };
  const paths = Object.fromEntries(
    values.routes.split(",").map((route) => {
      if (!routes[route]) throw new Error(`--routes: ${route} is not one of ${Object.keys(routes).join(", ")}`);
      return [route, routes[route]];
    }),
  );
  const sides: Side[] = [
    { name: "appstruct serve", server: ours, get: ourClient.get },
    { name: "SQLite server", server: baseline, get: baselineClient.get },
    ...(other && otherClient ? [{ name: "against", server: other, get: otherClient.get }] : []),
  ];
  for (const path of Object.values(paths)) for (const side of sides) for (let i = 0; i < 200; i++) await side.get(path);

  await symlink(join(dir, "analysis.snap"), join(folder, "bench.snap"));
  // As `serve` does: the adapter's Request and Response stand in for the global ones from here on.
  const listener = getRequestListener(
    (await nodeFetch({ data: folder, sectionBudgetBytes: DEFAULT_SECTION_CACHE_MB * 1024 * 1024, readLatencyMs: 0 }))
      .fetch,
  );
  for (const path of Object.values(paths)) for (let i = 0; i < 200; i++) await throughAdapter(listener, path);

  console.log(
    `${requests} sequential requests × ${rounds} rounds per route and side (${dir}, object ${id}); medians of the rounds, µs per request`,
  );
  const columns = [
    "route          ",
    "serve wall",
    "serve CPU (kernel)",
    "SQLite wall",
    "SQLite CPU (kernel)",
    "SQLite/serve wall",
    ...(other ? ["against wall", "against CPU (kernel)"] : []),
    "adapter in process wall, CPU",
  ];
  console.log(columns.join(" | "));
  for (const [route, path] of Object.entries(paths)) {
    const samples = new Map<string, Sample[]>();
    const record = (name: string, sample: Sample) => samples.set(name, [...(samples.get(name) ?? []), sample]);
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 ? [...sides].reverse() : sides;
      for (const side of order) record(side.name, await timeSide(side, path));
      record("in process", await timeInProcess(listener, path));
    }
    const m = (name: string, key: keyof Sample) => median(samples.get(name)!.map((s) => s[key]));
    const cpu = (name: string) => `${m(name, "cpuUs").toFixed(0)} (${m(name, "systemUs").toFixed(0)})`;
    const cells = [
      route,
      m("appstruct serve", "wallUs").toFixed(0),
      cpu("appstruct serve"),
      m("SQLite server", "wallUs").toFixed(0),
      cpu("SQLite server"),
      (m("SQLite server", "wallUs") / m("appstruct serve", "wallUs")).toFixed(2),
      ...(other ? [m("against", "wallUs").toFixed(0), cpu("against")] : []),
      `${m("in process", "wallUs").toFixed(0)}, ${m("in process", "cpuUs").toFixed(0)}`,
    ];
    console.log(cells.map((cell, i) => cell.padStart(columns[i].length)).join(" | "));
  }
} finally {
  ourClient.close();
  baselineClient.close();
  otherClient?.close();
  await Promise.all([ours.stop(), baseline.stop(), other?.stop()]);
  await rm(folder, { recursive: true, force: true });
}
