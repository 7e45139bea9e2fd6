// @module `node scripts/find-speed.ts <snapshot>`: warm in-process timings of find objects on the bench mix's find queries (p50/p99 per query and class), with a digest of each answer.
import { createHash } from "node:crypto";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import type { FilterName, Operator } from "../src/contract/params.ts";
import { SectionCache } from "../src/format/section-cache.ts";
import { Snapshot } from "../src/format/snapshot.ts";
import { findObjects } from "../src/query/find-objects.ts";
import { collect } from "../src/query/streamed-list.ts";
import { fileSource } from "../src/storage/file-source.ts";

interface FindCase {
  cls: string;
  filters: Partial<Record<FilterName, string[]>>;
  operator: Operator;
  skip: number;
}

/** The find queries of the 1M-object bench mix (scripts/bench/mix.ts picked them from seed 1). */
const CASES: FindCase[] = [
  ...["date2.jspf", "livejalt.jspf", "statements"].map((name) => ({
    cls: "contains-rare",
    filters: { name: [name] },
    operator: "contains" as const,
    skip: 0,
  })),
  ...["config", "tracking", "zeagait"].map((name) => ({
    cls: "contains-medium",
    filters: { name: [name] },
    operator: "contains" as const,
    skip: 0,
  })),
  ...["deckglobrel", "catalog", "de"].map((name) => ({
    cls: "contains-common",
    filters: { name: [name] },
    operator: "contains" as const,
    skip: 0,
  })),
  ...["config", "tracking", "zeagait"].map((name) => ({
    cls: "multi-filter",
    filters: { name: [name], type: ["method"] },
    operator: "contains" as const,
    skip: 0,
  })),
  ...["findAllByDralziond", "loadHaickhaiCloheng", "setSasteejetJafagox"].map((name) => ({
    cls: "equals",
    filters: { name: [name] },
    operator: "equals" as const,
    skip: 0,
  })),
  ...["fromPr", "Praibl", "toStri"].map((name) => ({
    cls: "startswith",
    filters: { name: [name] },
    operator: "startswith" as const,
    skip: 0,
  })),
  ...["Flowuthen", "Summary", "Creesslund"].map((name) => ({
    cls: "endswith",
    filters: { name: [name] },
    operator: "endswith" as const,
    skip: 0,
  })),
  ...[900000, 898766].map((skip) => ({ cls: "deep-skip", filters: {}, operator: "contains" as const, skip })),
];

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { runs: { type: "string", default: "100" }, only: { type: "string" } },
});
const runs = Number(values.runs);
const sections = new SectionCache(64 << 20);
const snapshot = await Snapshot.open(await fileSource(positionals[0] ?? "/tmp/bench-1m/analysis.snap"), { sections });
const cases = CASES.filter((c) => !values.only || c.cls === values.only);
const label = (c: FindCase) =>
  `${c.cls} ${Object.entries(c.filters)
    .map(([k, v]) => `${k}=${v}`)
    .join("&")}${c.skip ? ` skip=${c.skip}` : ""}`;
// The page read too, as the route writes it.
const run = (c: FindCase) =>
  findObjects(snapshot, { filters: c.filters, operator: c.operator, searchtype: "all", skip: c.skip, limit: 50 }).then(
    collect,
  );

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
const fmt = (ms: number) => ms.toFixed(3).padStart(8);
console.log(
  `load before: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")}`,
);
for (const c of cases) for (let i = 0; i < 3; i++) await run(c);
const byClass = new Map<string, number[]>();
const cpuByClass = new Map<string, number[]>();
// Rounds over every case in turn (as the bench takes a class's entries in turn), so caches see the mix.
const samples = new Map<FindCase, number[]>(cases.map((c) => [c, []]));
// CPU time (user + system) beside wall time: on a machine shared with others it varies less.
const cpuSamples = new Map<FindCase, number[]>(cases.map((c) => [c, []]));
for (let round = 0; round < runs; round++)
  for (const c of cases) {
    const cpu = process.cpuUsage();
    const t = performance.now();
    await run(c);
    samples.get(c)!.push(performance.now() - t);
    const used = process.cpuUsage(cpu);
    cpuSamples.get(c)!.push((used.user + used.system) / 1000);
  }
for (const c of cases) {
  const answer = await run(c);
  const digest = createHash("sha256").update(JSON.stringify(answer)).digest("hex").slice(0, 12);
  const s = samples.get(c)!.sort((a, b) => a - b);
  const cpu = cpuSamples.get(c)!.sort((a, b) => a - b);
  byClass.set(c.cls, [...(byClass.get(c.cls) ?? []), ...s]);
  cpuByClass.set(c.cls, [...(cpuByClass.get(c.cls) ?? []), ...cpu]);
  console.log(
    `${label(c).padEnd(44)} p50 ${fmt(pct(s, 0.5))} p99 ${fmt(pct(s, 0.99))} ms (cpu p50 ${fmt(pct(cpu, 0.5))})  total ${String(answer.totalObjects).padStart(7)}  ${digest}`,
  );
}
for (const [cls, s] of byClass) {
  s.sort((a, b) => a - b);
  const cpu = cpuByClass.get(cls)!.sort((a, b) => a - b);
  console.log(
    `class ${cls.padEnd(16)} p50 ${fmt(pct(s, 0.5))} p99 ${fmt(pct(s, 0.99))} ms (cpu p50 ${fmt(pct(cpu, 0.5))})`,
  );
}
console.log(
  `load after: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")}  cache: ${JSON.stringify(sections.stats())}`,
);
