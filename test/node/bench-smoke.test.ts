// @module Smoke test of `npm run bench` at 20k objects (--quick): it completes, the SQLite baseline answers exactly as we do, the mixed view has every setting with Server-Timing read from every answer, the cold view every class in rounds, the fairness view light answers alone and beside heavy ones, the classes-apart view every class, both HTTP passes and the engine memory probe.
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, expect, test } from "vitest";
import { CLASSES } from "../../scripts/bench/mix.ts";
import type { BenchReport } from "../../scripts/bench/report.ts";

const ROOT = resolve(import.meta.dirname, "../..");
let dir: string | undefined;
afterAll(() => dir && rm(dir, { recursive: true, force: true }));

test("npm run bench --quick at 20k objects: completes, answers agree, the mixed workload measured in every setting, every class apart in process and over both HTTP servers", {
  timeout: 180_000,
}, async () => {
  dir = await mkdtemp(join(tmpdir(), "appstruct-bench-smoke-"));
  const out = join(dir, "report.json");
  const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((done) => {
    const child = spawn(
      process.execPath,
      ["--expose-gc", join(ROOT, "scripts", "bench.ts"), "--objects", "20000", "--quick", "--out", out],
      { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d));
    child.on("exit", (code) => done({ code, stderr }));
  });
  expect(code, stderr).toBe(0);
  const report = JSON.parse(await readFile(out, "utf8")) as BenchReport;
  expect(report.data.objects).toBe(20000);
  expect(report.settings.http).toEqual(["node", "wrangler"]);
  expect(report.settings.views).toEqual(["mixed", "cold", "fairness", "classes"]);

  // The mixed view: both read latencies at both concurrencies, each cold then warm, every request answered on both sides.
  const mixed = report.mixed!;
  expect(mixed.checkedQueries).toBeGreaterThan(CLASSES.length);
  // Every timed answer of ours compared with the checked one, in every setting.
  expect(stderr.match(/every timed answer of ours was the checked one/g)).toHaveLength(4);
  expect(mixed.settings.map((s) => [s.readLatencyMs, s.concurrency])).toEqual([
    [0, 1],
    [0, 4],
    [20, 1],
    [20, 4],
  ]);
  for (const setting of mixed.settings) {
    expect(setting.passes.map((p) => p.phase)).toEqual(["cold", "warm"]);
    expect(setting.oursPeakRssBytes).toBeGreaterThan(0);
    expect(setting.baselinePeakRssBytes).toBeGreaterThan(0);
    for (const pass of setting.passes) {
      expect(pass.ours.all.samples).toBe(mixed.requestsPerPass);
      expect(pass.baseline.all.samples).toBe(mixed.requestsPerPass);
      expect(pass.ours.throughput).toBeGreaterThan(0);
      // Every answer of ours said what it read (Server-Timing); the baseline says nothing.
      expect(pass.ours.all.storage).toBeDefined();
      expect(pass.baseline.all.storage).toBeUndefined();
      const perClass = Object.values(pass.ours.classes).reduce((sum, c) => sum + c.samples, 0);
      expect(perClass).toBe(mixed.requestsPerPass);
    }
    // A fresh server reads from storage on its first answers.
    expect(setting.passes[0].ours.all.storage!.readsPerAnswer).toBeGreaterThan(0);
  }

  // The cold view: every class answered cold, each answer's reads counted in rounds, 20 ms each.
  const cold = report.cold!;
  expect(cold.readLatencyMs).toBe(20);
  expect(Object.keys(cold.classes).sort()).toEqual([...CLASSES].sort());
  for (const cls of CLASSES)
    for (const answer of cold.classes[cls]!.samples) {
      // The manifest (with the snapshot's opening bytes), then what the query reads.
      expect(answer.rounds, answer.path).toBeGreaterThanOrEqual(2);
      expect(answer.reads, answer.path).toBeGreaterThanOrEqual(answer.rounds);
      expect(answer.ms, answer.path).toBeGreaterThanOrEqual(answer.rounds * cold.readLatencyMs);
    }

  // The fairness view: light answers in both phases, and heavy ones asked beside them.
  const fairness = report.fairness!;
  expect(fairness.lightAlone!.answers).toBeGreaterThan(0);
  expect(fairness.lightBeside!.answers).toBeGreaterThan(0);
  expect(Object.values(fairness.heavy).reduce((sum, t) => sum + t.answers, 0)).toBeGreaterThan(0);
  expect(fairness.failed).toBe(0);

  const apart = report.classesApart!;
  expect(apart.correctness).toEqual({ inProcess: [], http: { node: [], wrangler: [] } });
  expect(new Set(apart.mix.map((e) => e.cls))).toEqual(new Set(CLASSES));
  // Substring classes are picked to match something: rare few, common many.
  const totals = (cls: string) => apart.mix.filter((e) => e.cls === cls).map((e) => e.totalObjects!);
  for (const t of totals("contains-rare")) expect(t).toBeGreaterThanOrEqual(2);
  expect(Math.min(...totals("contains-common"))).toBeGreaterThan(Math.max(...totals("contains-rare")));
  // Deep pages of the common words: three quarters into their matches, so never empty.
  for (const e of apart.mix.filter((e) => e.cls === "contains-deep-skip")) {
    const skip = Number(new URLSearchParams(e.path.split("?")[1]).get("skip"));
    expect(skip, e.path).toBe(Math.floor(e.totalObjects! * 0.75));
    expect(skip, e.path).toBeGreaterThan(0);
  }
  for (const cls of CLASSES) {
    for (const side of [apart.inProcess[cls]!, apart.http.node!.classes[cls]!, apart.http.wrangler!.classes[cls]!]) {
      expect(side.ours.samples, cls).toBeGreaterThan(0);
      expect(side.baseline.samples, cls).toBe(side.ours.samples);
      expect(side.ratio).toBeGreaterThan(0);
    }
  }
  expect(apart.cold.bytesRead).toBeGreaterThan(0);
  expect(apart.cold.bytesRead).toBeLessThanOrEqual(report.data.bytes.snapshot);
  for (const pass of [apart.http.node!, apart.http.wrangler!]) {
    expect(pass.floor.ours.samples).toBeGreaterThan(0);
    expect(pass.oursPeakRss.length).toBeGreaterThan(0);
    for (const p of pass.oursPeakRss) expect(p.peakRssBytes).toBeGreaterThan(0);
  }
  // appstruct serve is one Node process; wrangler dev runs workerd processes.
  expect(apart.http.node!.oursPeakRss).toHaveLength(1);
  // The engine memory probe ran the whole mix in its own process, with the run's section budget.
  const memory = apart.memory;
  expect(memory.queries).toBe(apart.mix.length);
  expect(memory.budgetBytes).toBe(report.settings.sectionCacheMB * 1024 * 1024);
  expect(memory.cache.misses).toBeGreaterThan(0);
  expect(memory.retainedBytes).toBeGreaterThan(0);
  expect(apart.mix.map((e) => e.path)).toContain(memory.retainedAfter);
  expect(memory.peakRssBytes).toBeGreaterThan(memory.baselineRssBytes);
  // Every target judged: the four of the mixed view first, the cold view's, the fairness view's, then the five of each class apart.
  expect(report.targets).toHaveLength(11);
  expect(report.targets.map((t) => t.holds === null)).toEqual(Array(11).fill(false));
  expect(report.targets[2].target).toContain("text searches");
  expect(report.targets[5].target).toContain("beside heavy ones");
  expect(report.targets[0].target).toContain("mixed workload");
});
