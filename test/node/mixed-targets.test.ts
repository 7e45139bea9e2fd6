// @module The mixed view's targets judged on hand-made passes: throughput, par, the text searches at 5×, the 20 ms ceiling; each judged only where a pass measures it.
import { expect, test } from "vitest";
import { CLASSES, type QueryClass } from "../../scripts/bench/mix.ts";
import type { MixedReport, MixedSettingReport, SideFigures } from "../../scripts/bench/mixed-report.ts";
import { mixedTargets } from "../../scripts/bench/mixed-report.ts";

/** A side whose every class has p50 `ms` but those of `medians`, at `throughput` answers a second. */
function side(throughput: number, ms: number, medians: Partial<Record<QueryClass, number>> = {}): SideFigures {
  const figures = (medianMs: number) => ({ samples: 10, medianMs, p99Ms: medianMs, totalMs: 10 * medianMs });
  return {
    throughput,
    wallMs: 1000,
    all: figures(ms),
    classes: Object.fromEntries(CLASSES.map((c) => [c, figures(medians[c] ?? ms)])),
  };
}

function setting(readLatencyMs: number, ours: SideFigures, baseline: SideFigures): MixedSettingReport {
  return {
    readLatencyMs,
    concurrency: 1,
    passes: [{ phase: "warm", ours, baseline }],
    oursPeakRssBytes: null,
    baselinePeakRssBytes: null,
  };
}

const report = (settings: MixedSettingReport[]): MixedReport => ({
  requestsPerPass: 10,
  sampleSize: 10,
  checkedQueries: 10,
  settings,
});

test("the text searches hold at 5× SQLite's p50 and no less, each of the four", () => {
  // SQLite takes 10 ms everywhere; ours 1 ms, the text searches 2 ms (5×) but for one.
  const text = { "contains-rare": 2, "contains-medium": 2, "contains-common": 2, "contains-deep-skip": 2 } as const;
  const held = mixedTargets(report([setting(0, side(100, 1, text), side(10, 10))]));
  expect(held.map((t) => t.holds)).toEqual([true, true, true, null]);
  expect(held[2].target).toContain("text searches");
  expect(held[2].detail).toBe(
    "concurrency 1: contains-rare 5.0×, contains-medium 5.0×, contains-common 5.0×, contains-deep-skip 5.0×",
  );

  const missed = mixedTargets(report([setting(0, side(100, 1, { ...text, "contains-medium": 2.1 }), side(10, 10))]));
  expect(missed[2].holds).toBe(false);
  expect(missed[2].detail).toContain("contains-medium 4.8×");
  const deepMissed = mixedTargets(
    report([setting(0, side(100, 1, { ...text, "contains-deep-skip": 2.1 }), side(10, 10))]),
  );
  expect(deepMissed[2].holds).toBe(false);
  // Par still holds: 4.8× is well above it.
  expect(missed[1].holds).toBe(true);
});

test("a class slower than SQLite's misses par but not the text target when it is not a text search", () => {
  const judged = mixedTargets(report([setting(0, side(100, 1, { characteristics: 11 }), side(10, 10))]));
  expect(judged[1].holds).toBe(false);
  expect(judged[1].detail).toContain("characteristics 0.91×");
  expect(judged[2].holds).toBe(true);
});

test("no pass with reads as stored: throughput, par and the text searches are not judged", () => {
  const judged = mixedTargets(report([setting(20, side(100, 25), side(10, 10))]));
  expect(judged.map((t) => t.holds)).toEqual([null, null, null, true]);
  expect(judged[2].detail).toBe("no reads-as-stored pass in this run");
});
