// @module Burst: concurrent clients against `wrangler dev` with R2's latency, a share of them hanging up mid-request; then every URL must still answer.
//
// npx node scripts/burst.ts [--objects 300000] [--clients 50] [--duration 40] [--latency-ms 20] [--abort-share 0.33] [--section-cache-mb 64]
//                           [--edge-cache on|off]
//
// What it reproduces: a request that waits on a load another request started, when that other
// request is cancelled (its client hung up) and its I/O never settles. Local R2 answers in
// microseconds, so `STORAGE_LATENCY_MS` holds every storage call as long as R2 does behind a Worker,
// and a client hanging up does cancel a request whose reads are in flight. The run fails if any
// answer is a 5xx, or if afterwards, with no load, any URL fails to answer 200 within 15 s. It also
// prints each URL's answer times during the burst (median and most, slowest first): what the answers
// that were not hung up waited while the others were in flight.
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { generateAnalysis } from "../build/generate.ts";
import { Random } from "./crosscheck/random.ts";
import { type DevServer, startDevServer } from "./dev-server.ts";

const APPLICATION = "Synthetic Enterprise";
const AFTERWARDS_TIMEOUT_MS = 15_000;

export interface BurstOptions {
  objects: number;
  clients: number;
  durationMs: number;
  latencyMs: number;
  /** Share of requests whose client hangs up after 1 to 2 × latencyMs. */
  abortShare: number;
  /** The worker's SECTION_CACHE_MB: a small budget keeps loads in flight at a small scale, as a large application does at 64. */
  sectionCacheMb?: number;
  /** The worker's EDGE_CACHE: whether ranges also go through the data centre's cache (wrangler dev emulates it). */
  edgeCache?: boolean;
  log?: (line: string) => void;
}

export interface BurstReport {
  urls: string[];
  /** Answers during the burst by status ("aborted": hung up by the client, as intended). */
  statuses: Record<string, number>;
  /** Each URL's answers during the burst that were not hung up: how many, their times (ms) at the median and the most, and the slowest one's Server-Timing. */
  times: {
    url: string;
    answers: number;
    p50Ms: number | null;
    maxMs: number | null;
    slowestServerTiming: string | null;
  }[];
  /** Answers of the 5xx class during the burst, with their body's first 200 characters. */
  serverErrors: { url: string; status: number; body: string }[];
  /** Each URL afterwards, one at a time: its status, or "timeout". */
  afterwards: { url: string; status: number | "timeout"; ms: number }[];
  /** What the worker logged of its internal errors (the last lines wrangler printed). */
  serverLog: string[];
}

async function generated(folder: string, objects: number): Promise<string> {
  const path = join(folder, "burst.ndjson");
  const out = createWriteStream(path);
  await generateAnalysis(out, { objects, seed: 7, application: APPLICATION });
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return path;
}

/** Ids of `count` objects spread over the application, from its own find route. */
async function sampleIds(server: DevServer, objects: number, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let k = 0; k < count; k++) {
    const skip = Math.floor(((k + 0.5) * objects) / count);
    const response = await fetch(
      `${server.url}/rest/applications/${encodeURIComponent(APPLICATION)}/objects?limit=1&skip=${skip}`,
    );
    const body = (await response.json()) as { objects: { id: string }[] };
    if (body.objects[0]) ids.push(body.objects[0].id);
  }
  return ids;
}

export async function runBurst(options: BurstOptions): Promise<BurstReport> {
  const log = options.log ?? (() => {});
  const folder = await mkdtemp(join(tmpdir(), "appstruct-burst-"));
  let server: DevServer | undefined;
  try {
    log(`generating ${options.objects} objects`);
    const file = await generated(folder, options.objects);
    log("publishing and starting wrangler dev");
    server = await startDevServer({
      files: [file],
      persistDir: join(folder, "state"),
      vars: {
        STORAGE_LATENCY_MS: String(options.latencyMs),
        ...(options.sectionCacheMb === undefined ? {} : { SECTION_CACHE_MB: String(options.sectionCacheMb) }),
        ...(options.edgeCache === false ? { EDGE_CACHE: "off" } : {}),
      },
      log,
    });
    const base = `${server.url}/rest/applications/${encodeURIComponent(APPLICATION)}`;
    const urls = [
      ...(await sampleIds(server, options.objects, 12)).flatMap((id) => [
        `${base}/objects/${id}/start-end-points?hops=32`,
        `${base}/objects/${id}/start-end-points?hops=3`,
        `${base}/objects/${id}?select=source-locations`,
        `${base}/objects/${id}/callees?select=source-locations`,
        `${base}/objects/${id}/callees`,
      ]),
      // Finds whose matches are kept with the sections, shared between requests as they are worked out.
      `${base}/objects?limit=50&name=service`,
      `${base}/objects?limit=50&skip=50&name=service`,
      `${base}/objects?limit=50&name=ler&operator=endswith`,
      // Finds that read key pages, or a trigram index's head, ahead of what waits on them.
      `${base}/objects?limit=50&name=se`,
      `${base}/objects?limit=50&name=get&fullname=acme.bill`,
    ];
    const statuses: Record<string, number> = {};
    const took = new Map<string, number[]>(urls.map((url) => [url, []]));
    // Each URL's slowest answer so far, with its Server-Timing: how much of it was storage.
    const slowest = new Map<string, { ms: number; serverTiming: string | null }>();
    const serverErrors: BurstReport["serverErrors"] = [];
    const end = Date.now() + options.durationMs;
    const client = async (c: number) => {
      const random = new Random(c + 1);
      while (Date.now() < end) {
        const url = random.pick(urls);
        const hangUp = random.next() < options.abortShare;
        const signal = hangUp
          ? AbortSignal.timeout(Math.round(options.latencyMs * (1 + random.next())))
          : AbortSignal.timeout(60_000);
        let status: string;
        const started = Date.now();
        try {
          const response = await fetch(url, { signal });
          const body = await response.text();
          status = String(response.status);
          const ms = Date.now() - started;
          took.get(url)!.push(ms);
          if (ms > (slowest.get(url)?.ms ?? -1))
            slowest.set(url, { ms, serverTiming: response.headers.get("Server-Timing") });
          if (response.status >= 500) serverErrors.push({ url, status: response.status, body: body.slice(0, 200) });
        } catch (error) {
          status = signal.aborted && hangUp ? "aborted" : `failed: ${(error as Error).message}`;
        }
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    };
    log(`${options.clients} clients for ${options.durationMs / 1000} s over ${urls.length} URLs`);
    await Promise.all(Array.from({ length: options.clients }, (_, c) => client(c)));
    const afterwards: BurstReport["afterwards"] = [];
    for (const url of urls) {
      const started = Date.now();
      let status: number | "timeout";
      try {
        const response = await fetch(url, { signal: AbortSignal.timeout(AFTERWARDS_TIMEOUT_MS) });
        await response.arrayBuffer();
        status = response.status;
      } catch {
        status = "timeout";
      }
      afterwards.push({ url: url.slice(server.url.length), status, ms: Date.now() - started });
    }
    const serverLog = server
      .output()
      .split("\n")
      .filter((line) => /error/i.test(line));
    const times = [...took].map(([url, ms]) => {
      const sorted = ms.sort((a, b) => a - b);
      return {
        url: url.slice(server!.url.length),
        answers: sorted.length,
        p50Ms: sorted[sorted.length >> 1] ?? null,
        maxMs: sorted.at(-1) ?? null,
        slowestServerTiming: slowest.get(url)?.serverTiming ?? null,
      };
    });
    return { urls: urls.map((u) => u.slice(server!.url.length)), statuses, times, serverErrors, afterwards, serverLog };
  } finally {
    await server?.stop();
    await rm(folder, { recursive: true, force: true });
  }
}

/** Whether the report shows the service healthy: no 5xx during the burst, every URL 200 afterwards. */
export function burstHealthy(report: BurstReport): boolean {
  return report.serverErrors.length === 0 && report.afterwards.every((a) => a.status === 200);
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      objects: { type: "string", default: "300000" },
      clients: { type: "string", default: "50" },
      duration: { type: "string", default: "40" },
      "latency-ms": { type: "string", default: "20" },
      "abort-share": { type: "string", default: "0.33" },
      "section-cache-mb": { type: "string" },
      "edge-cache": { type: "string", default: "on" },
    },
  });
  if (values["edge-cache"] !== "on" && values["edge-cache"] !== "off") {
    process.stderr.write(`--edge-cache is "on" or "off", not ${JSON.stringify(values["edge-cache"])}\n`);
    process.exit(2);
  }
  const report = await runBurst({
    objects: Number(values.objects),
    clients: Number(values.clients),
    durationMs: Number(values.duration) * 1000,
    latencyMs: Number(values["latency-ms"]),
    abortShare: Number(values["abort-share"]),
    sectionCacheMb: values["section-cache-mb"] === undefined ? undefined : Number(values["section-cache-mb"]),
    edgeCache: values["edge-cache"] === "on",
    log: (line) => process.stderr.write(`${line}\n`),
  });
  const failedAfterwards = report.afterwards.filter((a) => a.status !== 200);
  console.log(`statuses during the burst: ${JSON.stringify(report.statuses)}`);
  console.log("answers during the burst by URL (not hung up): count, median and most ms");
  // Slowest first; URLs with no answer (every one hung up, or none finished) last.
  for (const t of [...report.times].sort((a, b) => (b.p50Ms ?? -1) - (a.p50Ms ?? -1)))
    console.log(
      `  ${String(t.answers).padStart(5)} ${String(t.p50Ms ?? "—").padStart(7)} ${String(t.maxMs ?? "—").padStart(7)}  ${t.url}`,
    );
  console.log("the slowest answers' Server-Timing (storage waited, reads; the rest was the worker and the way there):");
  for (const t of [...report.times].sort((a, b) => (b.maxMs ?? -1) - (a.maxMs ?? -1)).slice(0, 5))
    console.log(`  ${String(t.maxMs).padStart(7)}  ${t.url}\n           ${t.slowestServerTiming}`);
  for (const e of report.serverErrors.slice(0, 5)) console.log(`  ${e.status} ${e.url}: ${e.body}`);
  if (report.serverLog.length) console.log(`the worker logged:\n  ${report.serverLog.slice(-20).join("\n  ")}`);
  console.log(
    `afterwards: ${report.afterwards.length - failedAfterwards.length} of ${report.afterwards.length} URLs answered 200, the slowest in ${Math.max(...report.afterwards.map((a) => a.ms))} ms` +
      failedAfterwards.map((a) => `\n  ${a.status} ${a.url}`).join(""),
  );
  process.exitCode = burstHealthy(report) ? 0 : 1;
}
