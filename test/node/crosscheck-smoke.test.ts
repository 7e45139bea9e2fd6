// @module Smoke test of `npm run crosscheck --check-only` at 5,000 objects: appstruct serve and the independent SQLite server answer the whole mix identically, over HTTP, in process and engine to engine.
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, expect, test } from "vitest";
import type { Mismatch } from "../../scripts/crosscheck/check-answers.ts";
import { CLASSES, type MixQuery } from "../../scripts/crosscheck/mix.ts";

const ROOT = resolve(import.meta.dirname, "../..");
let dir: string | undefined;
afterAll(() => dir && rm(dir, { recursive: true, force: true }));

test("crosscheck --check-only at 5k objects: every class picked, no answer differs", { timeout: 60_000 }, async () => {
  dir = await mkdtemp(join(tmpdir(), "crosscheck-smoke-"));
  const out = join(dir, "report.json");
  const args = ["--objects", "5000", "--queries", "3", "--dir", dir, "--check-only", "--in-process", "--out", out];
  const { code, output } = await new Promise<{ code: number | null; output: string }>((done) => {
    const child = spawn(process.execPath, [join(ROOT, "scripts/crosscheck/main.ts"), ...args], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d));
    child.stderr.on("data", (d: Buffer) => (output += d));
    child.on("exit", (code) => done({ code, output }));
  });
  expect(code, output).toBe(0);
  const report = JSON.parse(await readFile(out, "utf8")) as { mix: MixQuery[]; mismatches: Mismatch[] };
  expect(report.mismatches).toEqual([]);
  expect(new Set(report.mix.map((q) => q.cls))).toEqual(new Set(CLASSES));
  expect(report.mix.filter((q) => q.cls === "level-graph")).toHaveLength(5);
  // Over HTTP, in process (whole requests) and engine to engine.
  for (const where of ["over HTTP", "in process", "engine to engine"])
    expect(output).toContain(`answers compared ${where}: 0 mismatches`);
});
