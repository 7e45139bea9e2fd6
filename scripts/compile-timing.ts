// @module `node scripts/compile-timing.ts`: one compile's wall time, the CPU of the compiling thread and of the whole process (its deflate workers, V8's helpers), peak RSS and load (docs/benchmarks.md#compiling-1m-objects--49m-links).
//
//   node --max-semi-space-size=64 scripts/compile-timing.ts <analysis.ndjson> <out.snap> [--threads]
//
// The compiling thread's CPU is what a quiet machine's wall time cannot go below; on a shared
// machine it is a steadier figure than the wall. With --threads (Linux), each thread's time on a
// core and waiting for one, read four times a second by a sampler thread (whose own CPU and memory,
// a fraction of a second and an isolate's, the process's figures then count): the compiling
// thread's wait for a core is time the compile lost to its own workers or to other work on the
// machine, and the workers' times say which of them the compile waited on.
import { loadavg } from "node:os";
import { compileAnalysisToFile } from "../build/compile/compile.ts";
import { countExternalMemoryInHeapLimit } from "../build/compile/heap-limits.ts";
import { sampleThreads, threadTimesKept } from "./bench/thread-times.ts";

const args = process.argv.slice(2);
const threadsWanted = args.includes("--threads");
const [analysis, out, ...rest] = args.filter((arg) => arg !== "--threads");
if (!analysis || !out || rest.length) {
  process.stderr.write("usage: node scripts/compile-timing.ts <analysis.ndjson> <out.snap> [--threads]\n");
  process.exit(2);
}
if (threadsWanted && !threadTimesKept()) {
  process.stderr.write(
    "--threads reads each thread's scheduling times from /proc/self/task/*/schedstat, which this system does not keep\n",
  );
  process.exit(2);
}
/** A figure to a tenth, as every one of the report is given. */
const round = (value: number) => Number(value.toFixed(1));
const seconds = (usage: NodeJS.CpuUsage) => round((usage.user + usage.system) / 1e6);
// As `appstruct compile` runs.
countExternalMemoryInHeapLimit();
const load = loadavg()[0];
const sampler = threadsWanted ? sampleThreads() : null;
const started = performance.now();
const compiled = await compileAnalysisToFile(analysis, out, null);
const wallSeconds = (performance.now() - started) / 1000;
const threads = (await sampler?.stop()) ?? null;
console.log(
  JSON.stringify({
    wallSeconds: round(wallSeconds),
    compilingThreadCpuSeconds: seconds(process.threadCpuUsage()),
    processCpuSeconds: seconds(process.cpuUsage()),
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    bytes: compiled.size,
    sha256: compiled.sha256,
    loadAverage: [load, loadavg()[0]].map(round),
    ...(threads && {
      compilingThreadWaitForCoreSeconds: round(threads.find((t) => t.tid === process.pid)?.waitForCoreSeconds ?? 0),
      // Threads that ran a tenth of a second or more, as first seen: the compiling thread, V8's
      // helpers, then the link reader, the page workers and the keys' worker as they start.
      threads: threads
        .filter((t) => t.cpuSeconds >= 0.1)
        .map((t) => ({
          name: t.name,
          seconds: [round(t.fromSeconds), round(t.toSeconds)],
          cpuSeconds: round(t.cpuSeconds),
          waitForCoreSeconds: round(t.waitForCoreSeconds),
        })),
    }),
  }),
);
