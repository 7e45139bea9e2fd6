// @module `node scripts/impact-speed.ts <snapshot>`: warm in-process timings of callers, call hierarchy, paths, transaction and data graphs on objects drawn from the snapshot (p50/p99 per class), with the answers' sizes.
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { positionsByRank, readWholeIdPages } from "../src/format/id-pages.ts";
import { END, START } from "../src/format/object-core.ts";
import { SectionCache } from "../src/format/section-cache.ts";
import { Snapshot } from "../src/format/snapshot.ts";
import { callHierarchy } from "../src/query/call-hierarchy.ts";
import { objectCallers } from "../src/query/callers.ts";
import { DATA_GRAPH, flowGraph, TRANSACTION } from "../src/query/flows.ts";
import { objectPaths } from "../src/query/paths.ts";
import { collect } from "../src/query/streamed-list.ts";
import { fileSource } from "../src/storage/file-source.ts";
import { Random } from "./crosscheck/random.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    runs: { type: "string", default: "20" },
    sample: { type: "string", default: "30" },
    seed: { type: "string", default: "1" },
    "section-cache-mb": { type: "string", default: "64" },
    /** Only the classes whose name contains one of these (comma-separated), e.g. "transaction,data". */
    only: { type: "string" },
  },
});
const sections = new SectionCache(Number(values["section-cache-mb"]) << 20);
const snapshot = await Snapshot.open(await fileSource(positionals[0] ?? "/tmp/bench-1m/analysis.snap"), { sections });
const random = new Random(Number(values.seed));
const sample = Number(values.sample);
const core = await snapshot.section("OBJC");
const n = core.count;
const order = await readWholeIdPages(snapshot);
const positions = positionsByRank(order);
const idOf = (rank: number) => order.id(positions[rank]);
const withRole = (role: number) => {
  const ranks: number[] = [];
  for (let r = 0; r < n; r++) if (core.flags[r] & role) ranks.push(r);
  return ranks;
};
const pick = <T>(list: readonly T[], count: number) => Array.from({ length: count }, () => random.pick(list));
const starts = withRole(START);
const ends = withRole(END);
const objects = pick(
  Array.from({ length: n }, (_, r) => r),
  sample,
);
/** Paths ask from a start point to an end point its transaction reaches: the question a page-to-table path answers. */
const pairs: [string, string][] = [];
for (const s of pick(starts, sample)) {
  const reached = (await flowGraph(snapshot, TRANSACTION, idOf(s), 10000)).nodes.filter((node) => node.role === "end");
  if (reached.length) pairs.push([idOf(s), random.pick(reached).id]);
}

type Case = { cls: string; run: () => Promise<number> };
const allCases: Case[] = [
  ...objects.map((r) => ({
    cls: "callers",
    run: async () =>
      (await collect((await objectCallers(snapshot, idOf(r), { includeEscalated: false, withParent: false })).callers))
        .length,
  })),
  ...objects.map((r) => ({
    cls: "hierarchy callers 3 hops",
    run: async () =>
      (await callHierarchy(snapshot, idOf(r), { direction: "callers", hops: 3, linkTypes: [], limit: 1000 }))
        .totalNodes,
  })),
  ...objects.map((r) => ({
    cls: "hierarchy both 3 hops",
    run: async () =>
      (await callHierarchy(snapshot, idOf(r), { direction: "both", hops: 3, linkTypes: [], limit: 1000 })).totalNodes,
  })),
  ...pairs.map(([from, to]) => ({
    cls: "paths 8 hops",
    run: async () => (await objectPaths(snapshot, from, to, { hops: 8, limit: 10 })).totalPaths,
  })),
  ...pick(starts, sample).map((r) => ({
    cls: "transaction graph",
    run: async () => (await flowGraph(snapshot, TRANSACTION, idOf(r), 1000)).totalNodes,
  })),
  ...pick(ends, sample).map((r) => ({
    cls: "data graph",
    run: async () => (await flowGraph(snapshot, DATA_GRAPH, idOf(r), 1000)).totalNodes,
  })),
];
const only = values.only?.split(",");
const cases = only ? allCases.filter((c) => only.some((o) => c.cls.includes(o))) : allCases;

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
console.log(
  `${n} objects, ${starts.length} start and ${ends.length} end points; load before: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")}`,
);
for (const c of cases) await c.run();
const samples = new Map<string, number[]>();
// CPU time (user + system) beside wall time: on a machine shared with others it varies less.
const cpuSamples = new Map<string, number[]>();
const sizes = new Map<string, number[]>();
const add = (map: Map<string, number[]>, key: string, value: number) => map.set(key, [...(map.get(key) ?? []), value]);
// Rounds over every case in turn, so that the section cache sees the mix.
for (let round = 0; round < Number(values.runs); round++)
  for (const c of cases) {
    const cpu = process.cpuUsage();
    const t = performance.now();
    const size = await c.run();
    add(samples, c.cls, performance.now() - t);
    const used = process.cpuUsage(cpu);
    add(cpuSamples, c.cls, (used.user + used.system) / 1000);
    if (round === 0) add(sizes, c.cls, size);
  }
const fmt = (ms: number) => ms.toFixed(2).padStart(8);
for (const [cls, s] of samples) {
  s.sort((a, b) => a - b);
  const cpu = cpuSamples.get(cls)!.sort((a, b) => a - b);
  const size = sizes.get(cls)!.sort((a, b) => a - b);
  console.log(
    `${cls.padEnd(26)} p50 ${fmt(pct(s, 0.5))} p99 ${fmt(pct(s, 0.99))} ms (cpu p50 ${fmt(pct(cpu, 0.5))} p99 ${fmt(pct(cpu, 0.99))})  size p50 ${pct(size, 0.5)} max ${size[size.length - 1]}`,
  );
}
