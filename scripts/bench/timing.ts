// @module Interleaved timing of two sides over the mix: warm-up, then alternating requests per class; median and p99.

export interface Stats {
  samples: number;
  medianMs: number;
  p99Ms: number;
}

export interface SideBySide {
  ours: Stats;
  baseline: Stats;
  /** baseline median / our median: how many times faster we are. */
  ratio: number;
}

export interface TimingOptions {
  /** Rounds over the class's entries, per side, before measuring. */
  warmupRounds: number;
  /** Measured requests per side and class (entries taken in turn). */
  iterations: number;
  /** A class stops early after this long (warm-up and both sides together), keeping what it measured; each entry is measured at least once. */
  maxSecondsPerClass: number;
}

/** Nearest-rank percentile of sorted samples. */
function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

export function stats(samples: readonly number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { samples: sorted.length, medianMs: median, p99Ms: percentile(sorted, 0.99) };
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

/**
 * Times `ours` and `baseline` on each class's entries, request by request in alternation (who goes
 * first alternates too), so that whatever else the machine does hits both sides alike.
 */
export async function measureSideBySide<E extends { cls: string }>(
  entries: readonly E[],
  ours: (e: E) => Promise<unknown>,
  baseline: (e: E) => Promise<unknown>,
  options: TimingOptions,
  progress: (line: string) => void = () => {},
): Promise<Map<E["cls"], SideBySide>> {
  const byClass = new Map<E["cls"], E[]>();
  for (const e of entries) byClass.set(e.cls, [...(byClass.get(e.cls) ?? []), e]);
  const results = new Map<E["cls"], SideBySide>();
  for (const [cls, list] of byClass) {
    // The time cap covers the warm-up too: a class whose queries take seconds still ends.
    const deadline = performance.now() + options.maxSecondsPerClass * 1000;
    for (let round = 0; round < options.warmupRounds && (round === 0 || performance.now() < deadline); round++)
      for (const e of list) await ours(e), await baseline(e);
    const samples = { ours: [] as number[], baseline: [] as number[] };
    for (let i = 0; i < options.iterations && (i < list.length || performance.now() < deadline); i++) {
      const e = list[i % list.length];
      if (i % 2 === 0) {
        samples.ours.push(await timed(() => ours(e)));
        samples.baseline.push(await timed(() => baseline(e)));
      } else {
        samples.baseline.push(await timed(() => baseline(e)));
        samples.ours.push(await timed(() => ours(e)));
      }
    }
    const o = stats(samples.ours);
    const b = stats(samples.baseline);
    results.set(cls, { ours: o, baseline: b, ratio: b.medianMs / o.medianMs });
    progress(
      `${cls}: ${o.samples} samples, median ours ${o.medianMs.toFixed(3)} ms, baseline ${b.medianMs.toFixed(3)} ms`,
    );
  }
  return results;
}
