// @module timeInterleaved: per class, the two sides answer the same queries in turn (who goes first alternating), after warm-up, within a time cap.
import type { MixQuery, QueryClass } from "./mix.ts";
import { Random } from "./random.ts";

/** One side under test: answers a mix query and says how many milliseconds it took. */
export type TimedSide = (query: MixQuery) => Promise<number>;

export interface TimingOptions {
  warmupRounds: number;
  /** Passes over a class's queries (each pass in a fresh random order). */
  rounds: number;
  /** A class stops after this many seconds, keeping the pairs it measured. */
  maxSecondsPerClass: number;
  seed: number;
}

export interface ClassSamples {
  cls: QueryClass;
  ours: number[];
  sqlite: number[];
  /** The same samples by query, to see which queries of a class make its figures. */
  byQuery: Map<string, { ours: number[]; sqlite: number[] }>;
}

export async function timeInterleaved(
  mix: MixQuery[],
  ours: TimedSide,
  sqlite: TimedSide,
  options: TimingOptions,
  log: (line: string) => void,
): Promise<ClassSamples[]> {
  const random = new Random(options.seed);
  const results: ClassSamples[] = [];
  let oursFirst = true;
  for (const cls of [...new Set(mix.map((q) => q.cls))]) {
    const queries = mix.filter((q) => q.cls === cls);
    const started = performance.now();
    for (let round = 0; round < options.warmupRounds; round++) {
      for (const q of queries) {
        await ours(q);
        await sqlite(q);
      }
    }
    const samples: ClassSamples = {
      cls,
      ours: [],
      sqlite: [],
      byQuery: new Map(queries.map((q) => [q.path, { ours: [], sqlite: [] }])),
    };
    outer: for (let round = 0; round < options.rounds; round++) {
      for (const q of random.shuffle([...queries])) {
        let a: number;
        let b: number;
        if (oursFirst) {
          a = await ours(q);
          b = await sqlite(q);
        } else {
          b = await sqlite(q);
          a = await ours(q);
        }
        samples.ours.push(a);
        samples.sqlite.push(b);
        samples.byQuery.get(q.path)!.ours.push(a);
        samples.byQuery.get(q.path)!.sqlite.push(b);
        oursFirst = !oursFirst;
        if ((performance.now() - started) / 1000 > options.maxSecondsPerClass) break outer;
      }
    }
    log(`${cls}: ${samples.ours.length} pairs in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    results.push(samples);
  }
  return results;
}
