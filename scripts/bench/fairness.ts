// @module The fairness view: light answers asked by many clients while a few others ask heavy ones (32-hop walks, the largest level-5 nodes with their children), against their times with no heavy ones beside, on one `appstruct serve`.
//
// What no benchmark of one request at a time shows: a heavy answer worked out beside light ones
// makes them wait. The light clients ask all along; the heavy clients ask in every other phase
// only, and each light answer counts for the phase it started in (none while heavy answers of the
// phase before are still being finished). Alone and beside alternate, so that the machine's speed,
// which moves between minutes here, moves both alike.
import { DatabaseSync } from "node:sqlite";
import { Random } from "../crosscheck/random.ts";
import { startAppstructServe } from "./appstruct-serve.ts";
import type { Dataset } from "./dataset.ts";
import type { QueryClass } from "./mix.ts";
import { mixedSequence, pickPools } from "./mixed-workload.ts";
import { pathOf } from "./queries.ts";

/** The mixed workload's classes whose answers are light: one object or one page of a find. */
const LIGHT_CLASSES: ReadonlySet<QueryClass> = new Set([
  "characteristics",
  "callees",
  "callers",
  "points-hops-1",
  "points-hops-3",
  "equals",
  "contains-medium",
]);

/** How long one answer may take before its client gives up on it (counted as failed). */
const ANSWER_TIMEOUT_MS = 120_000;

export interface FairnessSettings {
  /** The mixed workload's seed and objects sampled, as the mixed view draws them (npm run bench's --seed and --sample). */
  seed: number;
  sampleSize: number;
  lightClients: number;
  heavyClients: number;
  /** Seconds of each phase; phases alternate alone, beside, `rounds` times. */
  phaseSeconds: number;
  rounds: number;
  readLatencyMs: number;
  sectionCacheMB: number;
}

/** Answers of one kind: how many, and their times in ms. */
export interface AnswerTimes {
  answers: number;
  p50Ms: number;
  p90Ms: number;
  maxMs: number;
}

export interface FairnessReport {
  settings: FairnessSettings;
  /** The light answers with no heavy one asked beside them, and with the heavy ones asked. */
  lightAlone: AnswerTimes | null;
  lightBeside: AnswerTimes | null;
  /** The heavy answers, by kind. */
  heavy: Record<string, AnswerTimes>;
  /** Answers that failed or took longer than ANSWER_TIMEOUT_MS. */
  failed: number;
}

/**
 * The light and heavy requests of `dataset`: the mixed workload's light classes; 32-hop walks from
 * each of its sampled objects (a walk asked again is kept by the server, so walks come from many
 * origins, most asked once) and its four largest level-5 nodes, each kind asked half of the time.
 */
function requestsOf(
  dataset: Pick<Dataset, "database">,
  { seed, sampleSize }: Pick<FairnessSettings, "seed" | "sampleSize">,
): { light: string[]; heavy: { kind: string; paths: string[] }[] } {
  const pools = pickPools(dataset.database, seed, sampleSize);
  const light = mixedSequence(pools, seed, 4000)
    .filter((e) => LIGHT_CLASSES.has(e.cls))
    .map((e) => e.path);
  const db = new DatabaseSync(dataset.database, { readOnly: true });
  let largest: number[];
  try {
    largest = db
      .prepare("SELECT idx FROM level_nodes WHERE level = 5 ORDER BY nb_objects DESC LIMIT 4")
      .all()
      .map((r) => Number(r.idx));
  } finally {
    db.close();
  }
  return {
    light,
    heavy: [
      { kind: "32-hop walks", paths: pools.sample.map((o) => pathOf({ route: "points", id: o.id, hops: 32 })) },
      {
        kind: "largest level-5 nodes",
        paths: largest.map((nodeId) => pathOf({ route: "level-nodes", level: 5, nodeId })),
      },
    ],
  };
}

function answerTimes(ms: number[]): AnswerTimes | null {
  if (ms.length === 0) return null;
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { answers: sorted.length, p50Ms: at(0.5), p90Ms: at(0.9), maxMs: sorted[sorted.length - 1] };
}

/** The fairness view on a fresh `appstruct serve` over `dataset` (`executable`: another checkout's, to compare). */
export async function fairnessView(
  dataset: Pick<Dataset, "snapshot" | "database">,
  settings: FairnessSettings,
  log: (line: string) => void,
  executable?: string,
): Promise<FairnessReport> {
  const { light, heavy } = requestsOf(dataset, settings);
  log(
    `fairness: ${settings.lightClients} clients asking light answers, ${settings.heavyClients} asking heavy ones every other phase, ${settings.rounds} × 2 phases of ${settings.phaseSeconds} s`,
  );
  const server = await startAppstructServe(dataset.snapshot, settings.sectionCacheMB, settings.readLatencyMs, {
    executable,
  });
  try {
    const sleep = (ms: number) => new Promise((next) => setTimeout(next, ms));
    const phase = { beside: false, draining: false, over: false };
    const lightMs = { alone: [] as number[], beside: [] as number[] };
    const heavyMs: Record<string, number[]> = {};
    let failed = 0;
    let heavyInFlight = 0;
    const ask = async (path: string): Promise<number | null> => {
      const started = performance.now();
      try {
        const response = await fetch(server.url + path, { signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS) });
        await response.arrayBuffer();
        if (response.status === 200) return performance.now() - started;
      } catch {
        // counted below
      }
      failed++;
      return null;
    };
    const lightClient = async (c: number) => {
      const random = new Random(c + 1);
      while (!phase.over) {
        const during = phase.draining ? null : phase.beside ? lightMs.beside : lightMs.alone;
        const ms = await ask(random.pick(light));
        if (ms !== null) during?.push(ms);
      }
    };
    const heavyClient = async (c: number) => {
      const random = new Random(1000 + c);
      while (!phase.over) {
        if (!phase.beside) {
          await sleep(10);
          continue;
        }
        const { kind, paths } = random.pick(heavy);
        heavyInFlight++;
        const ms = await ask(random.pick(paths));
        heavyInFlight--;
        if (ms !== null) (heavyMs[kind] ??= []).push(ms);
      }
    };
    const clients = [
      ...Array.from({ length: settings.lightClients }, (_, c) => lightClient(c)),
      ...Array.from({ length: settings.heavyClients }, (_, c) => heavyClient(c)),
    ];
    for (let round = 0; round < settings.rounds; round++) {
      phase.beside = false;
      await sleep(settings.phaseSeconds * 1000);
      phase.beside = true;
      await sleep(settings.phaseSeconds * 1000);
      // The heavy answers asked in the phase are finished before the next alone one starts.
      phase.beside = false;
      phase.draining = true;
      while (heavyInFlight > 0) await sleep(10);
      phase.draining = false;
    }
    phase.over = true;
    await Promise.all(clients);
    return {
      settings,
      lightAlone: answerTimes(lightMs.alone),
      lightBeside: answerTimes(lightMs.beside),
      heavy: Object.fromEntries(Object.entries(heavyMs).map(([kind, ms]) => [kind, answerTimes(ms)!])),
      failed,
    };
  } finally {
    await server.stop();
  }
}

/** The view as printed: the light answers alone and beside, then the heavy ones. */
export function fairnessTable(r: FairnessReport): string {
  const s = r.settings;
  const row = (label: string, t: AnswerTimes | null) =>
    `| ${label} | ${t ? [t.answers, t.p50Ms.toFixed(1), t.p90Ms.toFixed(1), t.maxMs.toFixed(0)].join(" | ") : "— | — | — | —"} |`;
  return [
    `Fairness: ${s.lightClients} clients asking light answers (${[...LIGHT_CLASSES].join(", ")}), ${s.heavyClients} asking heavy ones in every other phase; ${s.rounds} × 2 phases of ${s.phaseSeconds} s, reads ${s.readLatencyMs ? `+${s.readLatencyMs} ms` : "as stored"}; ${r.failed} failed. Milliseconds.`,
    "",
    "| Answers | count | p50 | p90 | most |",
    "|---|--:|--:|--:|--:|",
    row("light, alone", r.lightAlone),
    row("light, beside heavy ones", r.lightBeside),
    ...Object.entries(r.heavy).map(([kind, t]) => row(`heavy: ${kind}`, t)),
  ].join("\n");
}

/** How many times their p90 alone the light answers' p90 beside heavy ones may be. */
export const FAIRNESS_TARGET = 2;
