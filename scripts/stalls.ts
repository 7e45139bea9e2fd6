// @module How long each class of the mixed workload holds the event loop: the longest stretch without a turn while an answer is worked out, in process, reads as stored.
//
//   npx node scripts/stalls.ts --reuse <bench folder> [--section-cache-mb 64] [--against CHECKOUT]
//
// The bench folder is one `npm run bench --reuse` made (analysis.snap, baseline.sqlite). The bench's
// two mixed sequences (seed 1) are answered one at a time through `appstruct serve`'s fetch; the
// second one is measured. A timer of the event loop's check phase (setImmediate, rescheduled at every
// turn) notes the longest time between two turns from the request to its response, and while its
// body is read, chunk by chunk with a turn between them, as a socket would take it. Whatever runs
// that long without a turn, every other request of the process waits for: scripts/fairness.ts
// measures what that costs them. `--against` measures another checkout's fetch the same way
// afterwards: a change before and after.
import { mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { nodeFetch as NodeFetch } from "../build/serve.ts";
import { DEFAULT_SECTION_CACHE_MB } from "../src/storage/isolate-caches.ts";
import { mixedPasses, pickPools } from "./bench/mixed-workload.ts";
import { integerOption } from "./bench/options.ts";

const { values } = parseArgs({
  options: {
    reuse: { type: "string" },
    "section-cache-mb": { type: "string", default: String(DEFAULT_SECTION_CACHE_MB) },
    against: { type: "string" },
  },
});
if (!values.reuse) {
  process.stderr.write(
    "usage: node scripts/stalls.ts --reuse <bench folder> [--section-cache-mb MB] [--against CHECKOUT]\n",
  );
  process.exit(2);
}
const dir = resolve(values.reuse);
const budgetMb = integerOption("section-cache-mb", values["section-cache-mb"], 1);

/** The longest time (ms) between two turns of the event loop while `work` runs. */
async function longestWithoutTurn(work: () => Promise<void>): Promise<number> {
  let longest = 0;
  let last = performance.now();
  let running = true;
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  await work();
  running = false;
  return Math.max(longest, performance.now() - last);
}

const pools = pickPools(join(dir, "baseline.sqlite"), 1, 400);
const { cold, warm } = mixedPasses(pools, 1);
const passes = [cold, warm];

/** Each class's stretches over the warm pass, answered by the `nodeFetch` of the checkout at `tree`. */
async function measure(tree: string): Promise<void> {
  const { nodeFetch } = (await import(join(tree, "build", "serve.ts"))) as { nodeFetch: typeof NodeFetch };
  const folder = await mkdtemp(join(tmpdir(), "appstruct-stalls-"));
  try {
    await symlink(join(dir, "analysis.snap"), join(folder, "bench.snap"));
    const { fetch } = await nodeFetch({ data: folder, sectionBudgetBytes: budgetMb * 2 ** 20, readLatencyMs: 0 });
    const byClass = new Map<string, { ms: number; path: string }[]>();
    for (const [pass, sequence] of passes.entries())
      for (const entry of sequence) {
        const ms = await longestWithoutTurn(async () => {
          const response = await fetch(new Request(`http://localhost${entry.path}`));
          const reader = response.body!.getReader();
          while (!(await reader.read()).done) await new Promise((next) => setImmediate(next));
        });
        if (pass === 1) byClass.set(entry.cls, [...(byClass.get(entry.cls) ?? []), { ms, path: entry.path }]);
      }
    console.log(
      `${tree}: the longest stretch without a turn of the event loop, ms, over the warm pass (${budgetMb} MiB):`,
    );
    console.log(
      `  ${"class".padEnd(16)} ${"median".padStart(7)} ${"90th".padStart(7)} ${"most".padStart(7)}  the query that took the most`,
    );
    for (const [cls, answers] of byClass) {
      const sorted = answers.sort((a, b) => a.ms - b.ms);
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].ms.toFixed(1);
      console.log(
        `  ${cls.padEnd(16)} ${at(0.5).padStart(7)} ${at(0.9).padStart(7)} ${sorted.at(-1)!.ms.toFixed(1).padStart(7)}  ${sorted.at(-1)!.path}`,
      );
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

await measure(resolve(import.meta.dirname, ".."));
if (values.against) await measure(resolve(values.against));
