// @module Smoke test of `npm run bench` at 20k objects (--quick): it completes, the SQLite baseline answers exactly as we do, the report has every class, both HTTP passes and the engine memory probe.
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

test("npm run bench --quick at 20k objects: completes, answers agree, every class measured in process and over both HTTP servers", {
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
  expect(report.correctness).toEqual({ inProcess: [], http: { node: [], wrangler: [] } });
  expect(new Set(report.mix.map((e) => e.cls))).toEqual(new Set(CLASSES));
  // Substring classes are picked to match something: rare few, common many.
  const totals = (cls: string) => report.mix.filter((e) => e.cls === cls).map((e) => e.totalObjects!);
  for (const t of totals("contains-rare")) expect(t).toBeGreaterThanOrEqual(2);
  expect(Math.min(...totals("contains-common"))).toBeGreaterThan(Math.max(...totals("contains-rare")));
  for (const cls of CLASSES) {
    for (const side of [report.inProcess[cls]!, report.http.node!.classes[cls]!, report.http.wrangler!.classes[cls]!]) {
      expect(side.ours.samples, cls).toBeGreaterThan(0);
      expect(side.baseline.samples, cls).toBe(side.ours.samples);
      expect(side.ratio).toBeGreaterThan(0);
    }
  }
  expect(report.cold.bytesRead).toBeGreaterThan(0);
  expect(report.cold.bytesRead).toBeLessThanOrEqual(report.data.bytes.snapshot);
  for (const pass of [report.http.node!, report.http.wrangler!]) {
    expect(pass.floor.ours.samples).toBeGreaterThan(0);
    expect(pass.oursPeakRss.length).toBeGreaterThan(0);
    for (const p of pass.oursPeakRss) expect(p.peakRssBytes).toBeGreaterThan(0);
  }
  // appstruct serve is one Node process; wrangler dev runs workerd processes.
  expect(report.http.node!.oursPeakRss).toHaveLength(1);
  // The engine memory probe ran the whole mix in its own process, with the run's section budget.
  const memory = report.memory;
  expect(memory.queries).toBe(report.mix.length);
  expect(memory.budgetBytes).toBe(report.settings.sectionCacheMB * 1024 * 1024);
  expect(memory.cache.misses).toBeGreaterThan(0);
  expect(memory.retainedBytes).toBeGreaterThan(0);
  expect(report.mix.map((e) => e.path)).toContain(memory.retainedAfter);
  expect(memory.peakRssBytes).toBeGreaterThan(memory.baselineRssBytes);
  expect(report.targets.map((t) => t.holds === null)).toEqual([false, false, false, false, false]);
});
