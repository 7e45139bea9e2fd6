// @module The section cache's workload (scripts/cache-policy.ts), in process: every query class interleaved in a seeded random order, over storage that answers each read after a delay, as R2 does.
import { positionsByRank, readWholeIdPages } from "../../src/format/id-pages.ts";
import type { Snapshot } from "../../src/format/snapshot.ts";
import { engineAnswer } from "./engine.ts";
import type { MixEntry } from "./mix.ts";
import type { BenchQuery } from "./queries.ts";
import { type Stats, stats } from "./timing.ts";

/**
 * Light answers (by id), find answers of every weight, and level-5 children, which read many row
 * pages (or stream whole columns for the largest nodes): the heavy one-off loads that must not
 * flush the light answers' working set.
 */
export const MIXED_CLASSES = [
  "characteristics",
  "callees",
  "points-hops-1",
  "points-hops-3",
  "contains-common",
  "contains-rare",
  "equals",
  "multi-filter",
  "level5-children",
] as const;
export type MixedClass = (typeof MIXED_CLASSES)[number];

/** Find classes whose values are the bench mix's (picked from the data by frequency). */
const FIND_CLASSES_FROM_MIX: readonly MixedClass[] = ["contains-common", "contains-rare", "equals", "multi-filter"];

export interface MixedQuery {
  cls: MixedClass;
  query: BenchQuery;
}

/** A pseudo-random generator in [0, 1) (mulberry32): the same seed, the same workload. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/**
 * `count` queries, classes drawn uniformly: lookups about a pool of `poolSize` random objects (the
 * working set of light answers), find values from the bench `mix`, level-5 nodes drawn uniformly
 * among the non-empty ones (so the largest come up too).
 */
export async function mixedWorkload(
  snapshot: Snapshot,
  mix: readonly MixEntry[],
  options: { count: number; poolSize: number; seed: number },
): Promise<MixedQuery[]> {
  const random = seededRandom(options.seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const order = await readWholeIdPages(snapshot);
  const positions = positionsByRank(order);
  const objects = snapshot.meta.counts.objects;
  const pool = Array.from({ length: options.poolSize }, () => order.id(positions[Math.floor(random() * objects)]));
  const level5 = (await snapshot.taxonomy()).levels[4];
  const nodes = Array.from({ length: level5.count }, (_, i) => i).filter((i) => level5.nbObjects[i] > 0);
  const finds = new Map(
    FIND_CLASSES_FROM_MIX.map((cls) => [cls, mix.filter((e) => e.cls === cls).map((e) => e.query)] as const),
  );
  for (const [cls, queries] of finds)
    if (queries.length === 0) throw new Error(`the bench mix has no ${cls} query to draw from`);

  const query = (cls: MixedClass): BenchQuery => {
    switch (cls) {
      case "characteristics":
        return { route: "characteristics", id: pick(pool), withLocations: false };
      case "callees":
        return { route: "callees", id: pick(pool), includeEscalated: random() < 0.5, withParent: random() < 0.5 };
      case "points-hops-1":
        return { route: "points", id: pick(pool), hops: 1 };
      case "points-hops-3":
        return { route: "points", id: pick(pool), hops: 3 };
      case "level5-children":
        return { route: "level-nodes", level: 5, nodeId: pick(nodes) };
      default:
        return pick(finds.get(cls)!);
    }
  };
  return Array.from({ length: options.count }, () => {
    const cls = pick(MIXED_CLASSES);
    return { cls, query: query(cls) };
  });
}

export interface MixedRun {
  /** Wall time of the whole run. */
  seconds: number;
  classes: Record<MixedClass, Stats>;
}

/**
 * Answers `queries` with `concurrency` of them in flight (each worker takes the next one in order),
 * timing each answer by its class. A failed answer fails the run: every query asks about what exists.
 */
export async function runMixed(
  snapshot: Snapshot,
  queries: readonly MixedQuery[],
  concurrency: number,
): Promise<MixedRun> {
  const samples = new Map<MixedClass, number[]>(MIXED_CLASSES.map((cls) => [cls, []]));
  let next = 0;
  const worker = async () => {
    while (next < queries.length) {
      const { cls, query } = queries[next++];
      const started = performance.now();
      await engineAnswer(snapshot, query);
      samples.get(cls)!.push(performance.now() - started);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const classes = Object.fromEntries(MIXED_CLASSES.map((cls) => [cls, stats(samples.get(cls)!)])) as Record<
    MixedClass,
    Stats
  >;
  return { seconds: (performance.now() - started) / 1000, classes };
}
