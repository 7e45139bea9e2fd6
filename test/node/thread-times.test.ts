// @module sampleThreads: a thread busy with synchronous work is timed by the sampler's own thread, as the kernel counts it; and `compile-timing --threads` reports the compiling thread so.
import { spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { currentThreadId, sampleThreads, scheduledNs, threadTimesKept } from "../../scripts/bench/thread-times.ts";

const ROOT = join(import.meta.dirname, "../..");

describe.skipIf(!threadTimesKept())("each thread's times from /proc", () => {
  it("times this thread while it works synchronously, reading its own schedstat", async () => {
    const tid = currentThreadId();
    // No reading between the first and the one the stop makes: what is checked is that one.
    const sampler = sampleThreads(60_000);
    await sampler.ready;
    // Busy, with no turn of the event loop: what a compile's sections do, and why the sampler has a thread of its own.
    const until = performance.now() + 400;
    while (performance.now() < until);
    const before = scheduledNs(tid);
    const threads = await sampler.stop();
    const after = scheduledNs(tid);
    const mine = threads.find((thread) => thread.tid === tid);
    expect(mine).toBeDefined();
    // Its last reading comes after `before` (the stop) and before `after`: this thread's counters, no other's.
    expect(mine!.cpuSeconds).toBeGreaterThanOrEqual(before!.runNs / 1e9);
    expect(mine!.cpuSeconds).toBeLessThanOrEqual(after!.runNs / 1e9);
    expect(mine!.waitForCoreSeconds).toBeLessThanOrEqual(after!.waitNs / 1e9);
    expect(mine!.fromSeconds).toBeLessThanOrEqual(mine!.toSeconds);
    // Every thread once, the sampler's own left out.
    expect(new Set(threads.map((thread) => thread.tid)).size).toBe(threads.length);
  });

  it("keeps a thread that ended before the stop, as its readings left it", async () => {
    const sampler = sampleThreads(20);
    await sampler.ready;
    // A thread that runs some 200 ms on a core, says which it is, and ends: only the readings made meanwhile saw it.
    const created = performance.now();
    const worker = new Worker(
      `const { readlinkSync } = require("node:fs");
       const { parentPort } = require("node:worker_threads");
       while (process.threadCpuUsage().user < 200_000);
       parentPort.postMessage(Number(readlinkSync("/proc/thread-self").split("/").pop()));`,
      { eval: true },
    );
    const [tid] = (await once(worker, "message")) as [number];
    await once(worker, "exit");
    const lived = (performance.now() - created) / 1000;
    const threads = await sampler.stop();
    const ended = threads.find((thread) => thread.tid === tid);
    expect(ended).toBeDefined();
    expect(ended!.cpuSeconds).toBeGreaterThan(0);
    // A thread runs no longer than it lives: this is its own reading.
    expect(ended!.cpuSeconds).toBeLessThanOrEqual(lived);
    expect(scheduledNs(tid)).toBeNull();
  });

  it("compile-timing --threads reports the compiling thread's time as its own CPU figure does", async () => {
    const dir = await mkdtemp(join(tmpdir(), "compile-timing-"));
    try {
      const child = spawnSync(
        process.execPath,
        [
          join(ROOT, "scripts/compile-timing.ts"),
          join(ROOT, "test/fixtures/examples/petstore-v1.json"),
          join(dir, "out.snap"),
          "--threads",
        ],
        { encoding: "utf8", timeout: 60_000 },
      );
      expect(child.stderr).toBe("");
      const report = JSON.parse(child.stdout);
      const main = report.threads.find((thread: { name: string }) => thread.name === "MainThread");
      expect(main).toBeDefined();
      // Two readings of one thread's CPU (schedstat, getrusage) a moment apart, each to a tenth.
      expect(Math.abs(main.cpuSeconds - report.compilingThreadCpuSeconds)).toBeLessThanOrEqual(0.2);
      // The compiling thread's wait is that thread's own reading, found by its id.
      expect(report.compilingThreadWaitForCoreSeconds).toBe(main.waitForCoreSeconds);
      expect(report.bytes).toBeGreaterThan(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("compile-timing refuses arguments it does not know", () => {
    const child = spawnSync(
      process.execPath,
      [join(ROOT, "scripts/compile-timing.ts"), "a.ndjson", "b.snap", "--thread"],
      {
        encoding: "utf8",
        timeout: 60_000,
      },
    );
    expect(child.status).toBe(2);
    expect(child.stderr).toContain("usage: node scripts/compile-timing.ts <analysis.ndjson> <out.snap> [--threads]");
  });
});
