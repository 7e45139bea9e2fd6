// @module `node scripts/compile-timing.ts`: one compile's wall time, the CPU of the compiling thread and of the whole process (its deflate workers, V8's helpers), peak RSS and load (docs/benchmarks.md#compiling-1m-objects--49m-links).
//
//   node --max-semi-space-size=64 scripts/compile-timing.ts <analysis.ndjson> <out.snap>
//
// The compiling thread's CPU is what a quiet machine's wall time cannot go below; on a shared
// machine it is a steadier figure than the wall.
import { loadavg } from "node:os";
import { compileAnalysisToFile } from "../build/compile/compile.ts";
import { countExternalMemoryInHeapLimit } from "../build/compile/heap-limits.ts";

const [analysis, out] = process.argv.slice(2);
if (!analysis || !out) {
  process.stderr.write("usage: node scripts/compile-timing.ts <analysis.ndjson> <out.snap>\n");
  process.exit(2);
}
const seconds = (usage: NodeJS.CpuUsage) => Number(((usage.user + usage.system) / 1e6).toFixed(1));
// As `appstruct compile` runs.
countExternalMemoryInHeapLimit();
const load = loadavg()[0];
const started = performance.now();
const compiled = await compileAnalysisToFile(analysis, out, null);
console.log(
  JSON.stringify({
    wallSeconds: Number(((performance.now() - started) / 1000).toFixed(1)),
    compilingThreadCpuSeconds: seconds(process.threadCpuUsage()),
    processCpuSeconds: seconds(process.cpuUsage()),
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    bytes: compiled.size,
    sha256: compiled.sha256,
    loadAverage: [load, loadavg()[0]].map((l) => Number(l.toFixed(1))),
  }),
);
