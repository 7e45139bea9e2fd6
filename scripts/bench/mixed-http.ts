// @module The mixed workload over HTTP: `appstruct serve` and the baseline server, fresh for each setting (read latency × concurrency), timed cold then warm, the two sides alternating chunk by chunk, every timed answer of ours the one checked.
import { createHash } from "node:crypto";
import { freePort } from "../dev-server.ts";
import { profilingFlags, startAppstructServe } from "./appstruct-serve.ts";
import { startBaselineServer } from "./baseline-server.ts";
import type { ChildServer } from "./child-server.ts";
import { compareAnswers, type Mismatch } from "./correctness.ts";
import type { Dataset } from "./dataset.ts";
import { type JsonClient, jsonClient } from "./http-client.ts";
import type { MixEntry, QueryClass } from "./mix.ts";
import { peakRssBytes } from "./process-memory.ts";

/** How our server is run, and how many requests are in flight at once (each on its own connection). */
export interface MixedSetting {
  readLatencyMs: number;
  concurrency: number;
}

/** One request: its class, its time from sending to the last byte, and (ours) its Server-Timing header. */
export interface Sample {
  cls: QueryClass;
  ms: number;
  serverTiming: string | undefined;
}

/** One side's pass over a sequence: every request, and the wall time its chunks took together. */
export interface SideRun {
  samples: Sample[];
  wallMs: number;
}

export interface MixedSettingRun extends MixedSetting {
  cold: { ours: SideRun; baseline: SideRun };
  warm: { ours: SideRun; baseline: SideRun };
  /** Timed answers of ours that differ from the one the check got for the same query (none, or the run fails). */
  changed: Mismatch[];
  /** Peak RSS of each server process over both passes. */
  oursPeakRssBytes: number | null;
  baselinePeakRssBytes: number | null;
}

/** Both servers over `dataset`, fresh: ours with `sectionCacheMB` and `readLatencyMs`, profiled into `profileDir` when given. */
async function startPair(
  dataset: Dataset,
  sectionCacheMB: number,
  readLatencyMs: number,
  profileDir?: string,
): Promise<{ ours: ChildServer; baseline: ChildServer; stop(): Promise<void> }> {
  const [ours, baseline] = await Promise.allSettled([
    startAppstructServe(dataset.snapshot, sectionCacheMB, readLatencyMs, {
      nodeFlags: profileDir ? profilingFlags(profileDir) : [],
    }),
    freePort().then((port) => startBaselineServer(dataset.database, port)),
  ]);
  if (ours.status === "rejected" || baseline.status === "rejected") {
    for (const started of [ours, baseline]) if (started.status === "fulfilled") await started.value.stop();
    throw ours.status === "rejected" ? ours.reason : (baseline as PromiseRejectedResult).reason;
  }
  return {
    ours: ours.value,
    baseline: baseline.value,
    stop: async () => void (await Promise.all([ours.value.stop(), baseline.value.stop()])),
  };
}

/** SHA-1 of an answer's text: what a timed answer is compared by, without keeping every checked answer (a level-5 node's is up to 19 MB). */
const digestOf = (body: string) => createHash("sha1").update(body).digest("base64");

/** Our checked answers: each distinct query's digest, which every timed answer to it must have. */
export type CheckedDigests = ReadonlyMap<string, string>;

/**
 * Every distinct query of `entries` asked of both servers (fresh, on their own), then each once more:
 * what the first answers keep (a filter's matches, a level graph's text) must answer the same, and
 * ours the same bytes. The mismatches, and the digest of each of our answers.
 */
export async function checkMixedAnswers(
  dataset: Dataset,
  entries: readonly MixEntry[],
  sectionCacheMB: number,
  log: (line: string) => void,
): Promise<{ mismatches: Mismatch[]; digests: CheckedDigests }> {
  const distinct = [...new Map(entries.map((e) => [e.path, e])).values()];
  log(`mixed: checking the ${distinct.length} distinct queries of the workload against the baseline, twice …`);
  const pair = await startPair(dataset, sectionCacheMB, 0);
  const [ours, theirs] = [jsonClient(pair.ours.url), jsonClient(pair.baseline.url)];
  const digests = new Map<string, string>();
  const unstable: Mismatch[] = [];
  try {
    const mismatches = await compareAnswers(
      [...distinct, ...distinct],
      async (e) => {
        const body = await ours.get(e.path);
        const digest = digestOf(body);
        const first = digests.get(e.path);
        if (first === undefined) digests.set(e.path, digest);
        else if (first !== digest)
          unstable.push({ cls: e.cls, path: e.path, detail: "ours: asked again, another text than the first time" });
        return JSON.parse(body);
      },
      async (e) => JSON.parse(await theirs.get(e.path)),
      (line) => log(`  ${line}`),
    );
    return { mismatches: [...mismatches, ...unstable], digests };
  } finally {
    ours.close();
    theirs.close();
    await pair.stop();
  }
}

/**
 * `entries` through `clients`, each with one request in flight, taking the next entry as it is free.
 * With `checked`, each answer is then compared with the checked one, once the chunk's time is taken:
 * those that differ are added to `changed`.
 */
async function drive(
  clients: readonly JsonClient[],
  entries: readonly MixEntry[],
  into: SideRun,
  checked?: { digests: CheckedDigests; changed: Mismatch[] },
): Promise<void> {
  let next = 0;
  const bodies: string[] = [];
  const started = performance.now();
  await Promise.all(
    clients.map(async (client) => {
      for (let i = next++; i < entries.length; i = next++) {
        const sent = performance.now();
        const { body, serverTiming } = await client.answer(entries[i].path);
        into.samples.push({ cls: entries[i].cls, ms: performance.now() - sent, serverTiming });
        if (checked) bodies[i] = body;
      }
    }),
  );
  into.wallMs += performance.now() - started;
  if (!checked) return;
  for (const [i, e] of entries.entries())
    if (digestOf(bodies[i]) !== checked.digests.get(e.path))
      checked.changed.push({ cls: e.cls, path: e.path, detail: "ours: a timed answer differs from the checked one" });
}

/**
 * `sequence` through both sides, `chunk` requests at a time, alternating which side goes first: so
 * whatever else the machine does meanwhile falls on both alike.
 */
async function pass(
  sequence: readonly MixEntry[],
  ours: readonly JsonClient[],
  baseline: readonly JsonClient[],
  chunk: number,
  checked: { digests: CheckedDigests; changed: Mismatch[] },
): Promise<{ ours: SideRun; baseline: SideRun }> {
  const runs = { ours: { samples: [], wallMs: 0 } as SideRun, baseline: { samples: [], wallMs: 0 } as SideRun };
  for (let from = 0, k = 0; from < sequence.length; from += chunk, k++) {
    const part = sequence.slice(from, from + chunk);
    if (k % 2 === 0) await drive(ours, part, runs.ours, checked), await drive(baseline, part, runs.baseline);
    else await drive(baseline, part, runs.baseline), await drive(ours, part, runs.ours, checked);
  }
  return runs;
}

/**
 * Fresh servers for `setting`: `cold` timed first (nothing decoded yet), then `warm` on the same
 * servers. Each of our answers must be the one `digests` holds for its query, whatever the
 * concurrency, latency and cache did. With `profileDir`, our server writes a CPU profile of both
 * passes there when it stops.
 */
export async function measureMixedSetting(
  dataset: Dataset,
  setting: MixedSetting,
  sequences: { cold: readonly MixEntry[]; warm: readonly MixEntry[] },
  digests: CheckedDigests,
  options: { sectionCacheMB: number; chunk: number; profileDir?: string },
  log: (line: string) => void,
): Promise<MixedSettingRun> {
  const pair = await startPair(dataset, options.sectionCacheMB, setting.readLatencyMs, options.profileDir);
  const clients = (url: string) => Array.from({ length: setting.concurrency }, () => jsonClient(url));
  const [ours, baseline] = [clients(pair.ours.url), clients(pair.baseline.url)];
  try {
    const label = `reads +${setting.readLatencyMs} ms, concurrency ${setting.concurrency}`;
    log(`mixed (${label}): cold pass, ${sequences.cold.length} requests a side …`);
    const checked = { digests, changed: [] as Mismatch[] };
    const cold = await pass(sequences.cold, ours, baseline, options.chunk, checked);
    log(`mixed (${label}): warm pass …`);
    const warm = await pass(sequences.warm, ours, baseline, options.chunk, checked);
    return {
      ...setting,
      cold,
      warm,
      changed: checked.changed,
      oursPeakRssBytes: peakRssBytes(pair.ours.pid),
      baselinePeakRssBytes: peakRssBytes(pair.baseline.pid),
    };
  } finally {
    for (const client of [...ours, ...baseline]) client.close();
    await pair.stop();
  }
}
