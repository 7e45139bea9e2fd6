// @module The benchmark report: its JSON shape, the issue's targets checked against it, and the tables printed.
import type { Mismatch } from "./correctness.ts";
import type { Dataset } from "./dataset.ts";
import type { ColdAnswer, MixMemory } from "./engine-probes.ts";
import { CLASSES, FIND_CLASSES, type QueryClass } from "./mix.ts";
import type { SideBySide } from "./timing.ts";

export interface BenchReport {
  command: string;
  at: string;
  machine: { cores: number; loadavgBefore: number[]; loadavgAfter: number[]; node: string; sqlite: string };
  data: Pick<Dataset, "objects" | "seed" | "seconds" | "bytes" | "reused"> & { links: number };
  settings: { sectionCacheMB: number; warmupRounds: number; iterations: number; maxSecondsPerClass: number; http: boolean };
  mix: { cls: QueryClass; path: string; totalObjects?: number }[];
  correctness: { inProcess: Mismatch[]; http: Mismatch[] | null };
  inProcess: Partial<Record<QueryClass, SideBySide>>;
  http: Partial<Record<QueryClass, SideBySide>> | null;
  /** GET /rest/ready on both servers: the price of an HTTP round trip alone. */
  httpFloor: SideBySide | null;
  cold: ColdAnswer;
  memory: { inProcess: MixMemory; workerd: { pid: number; peakRssBytes: number | null }[] | null; baselineServerPeakRssBytes: number | null };
  targets: Target[];
}

export interface Target {
  target: string;
  /** null: not measured in this run. */
  holds: boolean | null;
  detail: string;
}

const MiB = 1024 * 1024;
const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toFixed(3));
/** A ratio readable at any size: 540×, 3.2×, 0.0019× (below 1 we are slower). */
const times = (x: number) => (x >= 10 ? x.toFixed(0) : x >= 1 ? x.toFixed(1) : x.toPrecision(2)) + "×";
/** Sub-millisecond times in µs, longer ones in ms. */
const short = (x: number) => (x < 1 ? `${(x * 1000).toFixed(0)} µs` : `${ms(x)} ms`);

/** The issue's targets (issue 4, "Targets"), each with whether it holds and the figures behind it. */
export function checkTargets(r: Omit<BenchReport, "targets">): Target[] {
  const targets: Target[] = [];
  const p50 = (cls: QueryClass) => r.inProcess[cls]?.ours.medianMs ?? Number.NaN;
  const finds = CLASSES.filter((c) => FIND_CLASSES.has(c));
  const slowFinds = finds.filter((c) => !(p50(c) <= (c === "contains-common" ? 5 : 1)));
  targets.push({
    target: "in-process p50 ≤ 1 ms for every find class (contains-common ≤ 5 ms)",
    holds: slowFinds.length === 0,
    detail: (slowFinds.length ? `over: ${slowFinds.map((c) => `${c} ${short(p50(c))}`).join(", ")}` : finds.map((c) => `${c} ${short(p50(c))}`).join(", ")),
  });
  const lookups = ["characteristics", "callees"] as const;
  targets.push({
    target: "in-process p50 ≤ 50 µs for characteristics and callees",
    holds: lookups.every((c) => p50(c) <= 0.05),
    detail: lookups.map((c) => `${c} ${short(p50(c))}`).join(", "),
  });
  if (r.http) {
    const under = CLASSES.filter((c) => !(r.http![c]!.ratio >= 10));
    const floor = r.httpFloor ? ` (an HTTP round trip alone: ours ${ms(r.httpFloor.ours.medianMs)} ms, baseline ${ms(r.httpFloor.baseline.medianMs)} ms)` : "";
    // The other reading of the target: our engine in process against the baseline as a service.
    const engineVsService = CLASSES.map((c) => r.http![c]!.baseline.medianMs / p50(c));
    const alsoInProcess = `; our engine in process against SQLite over HTTP: lowest ${times(Math.min(...engineVsService))}, ${engineVsService.filter((x) => x >= 10).length} of ${CLASSES.length} classes ≥ 10×`;
    targets.push({
      target: "every class ≥ 10× faster than the SQLite baseline's median over HTTP",
      holds: under.length === 0,
      detail: (under.length ? `below 10×: ${under.map((c) => `${c} ${times(r.http![c]!.ratio)}`).join(", ")}${floor}` : `lowest ${times(Math.min(...CLASSES.map((c) => r.http![c]!.ratio)))}`) + alsoInProcess,
    });
  } else targets.push({ target: "every class ≥ 10× faster than the SQLite baseline's median over HTTP", holds: null, detail: "HTTP not measured (--no-http)" });
  targets.push({
    target: "cold first answer reads ≤ 10% of the snapshot's bytes",
    holds: r.cold.fractionOfSnapshot <= 0.1,
    detail: `${(r.cold.bytesRead / MiB).toFixed(1)} MiB = ${(r.cold.fractionOfSnapshot * 100).toFixed(1)}% in ${r.cold.reads} reads, ${ms(r.cold.ms)} ms`,
  });
  const peak = r.memory.inProcess.peakBytes;
  const workerd = r.memory.workerd?.map((w) => w.peakRssBytes ?? 0) ?? [];
  targets.push({
    target: "isolate memory for the whole mix ≤ 100 MB",
    holds: peak <= 100 * MiB,
    detail: `in process: peak heap + arrayBuffers ${(peak / MiB).toFixed(0)} MiB (section cache ${r.memory.inProcess.budgetBytes / MiB} MiB)${workerd.length ? `; workerd peak RSS (whole runtime, not the isolate alone) ${workerd.map((b) => `${(b / MiB).toFixed(0)} MiB`).join(", ")}` : ""}`,
  });
  return targets;
}

/** Per-class medians and p99 in milliseconds, both sides, in process and over HTTP, as a Markdown table. */
export function classTable(r: BenchReport): string {
  const lines = [
    "| Query class | ours p50 | ours p99 | SQLite p50 | SQLite p99 | × | HTTP ours p50 | HTTP ours p99 | HTTP SQLite p50 | HTTP SQLite p99 | × |",
    "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
  ];
  for (const cls of CLASSES) {
    const i = r.inProcess[cls];
    const h = r.http?.[cls];
    const side = (s: SideBySide | undefined) => (s ? [ms(s.ours.medianMs), ms(s.ours.p99Ms), ms(s.baseline.medianMs), ms(s.baseline.p99Ms), times(s.ratio)] : ["—", "—", "—", "—", "—"]);
    lines.push(`| ${cls} | ${[...side(i), ...side(h)].join(" | ")} |`);
  }
  if (r.httpFloor) lines.push(`| *HTTP round trip (/rest/ready)* | | | | | | ${[ms(r.httpFloor.ours.medianMs), ms(r.httpFloor.ours.p99Ms), ms(r.httpFloor.baseline.medianMs), ms(r.httpFloor.baseline.p99Ms), times(r.httpFloor.ratio)].join(" | ")} |`);
  return lines.join("\n");
}

/** The whole readable summary printed at the end of a run. */
export function summary(r: BenchReport): string {
  const d = r.data;
  const mem = r.memory;
  return [
    `appstruct bench — ${d.objects.toLocaleString("en")} objects, ${d.links.toLocaleString("en")} links (seed ${d.seed}${d.reused ? ", reused data" : ""}); load average ${r.machine.loadavgBefore.join(" ")} → ${r.machine.loadavgAfter.join(" ")} on ${r.machine.cores} cores`,
    `  generate ${d.seconds.generate.toFixed(1)} s, compile ${d.seconds.compile.toFixed(1)} s, SQLite build ${d.seconds.databaseBuild.toFixed(1)} s; snapshot ${(d.bytes.snapshot / MiB).toFixed(1)} MiB, SQLite database ${(d.bytes.database / MiB).toFixed(1)} MiB, NDJSON ${(d.bytes.ndjson / MiB).toFixed(1)} MiB`,
    `  correctness: ${r.mix.length} queries, ${r.correctness.inProcess.length} mismatches in process${r.correctness.http ? `, ${r.correctness.http.length} over HTTP` : ""}`,
    `  cold first answer: ${ms(r.cold.ms)} ms, ${(r.cold.bytesRead / MiB).toFixed(2)} MiB read (${(r.cold.fractionOfSnapshot * 100).toFixed(2)}% of the snapshot) for ${r.cold.path}`,
    `  memory: in process peak heap + arrayBuffers ${(mem.inProcess.peakBytes / MiB).toFixed(1)} MiB (before the mix ${(mem.inProcess.beforeBytes / MiB).toFixed(1)} MiB; cache ${mem.inProcess.cache.hits} hits, ${mem.inProcess.cache.misses} misses, ${mem.inProcess.cache.evictions} evictions)` +
      (mem.workerd ? `; workerd peak RSS ${mem.workerd.map((w) => `${((w.peakRssBytes ?? 0) / MiB).toFixed(0)} MiB`).join(", ")}` : "") +
      (mem.baselineServerPeakRssBytes ? `; baseline server peak RSS ${(mem.baselineServerPeakRssBytes / MiB).toFixed(0)} MiB` : ""),
    "",
    "Milliseconds; × = SQLite median / ours.",
    "",
    classTable(r),
    "",
    ...r.targets.map((t) => `  [${t.holds === null ? "not measured" : t.holds ? "holds" : "MISSED"}] ${t.target}: ${t.detail}`),
  ].join("\n");
}
