// @module `node scripts/find-side-by-side.ts <data folder> [--only equals,startswith]`: the bench's in-process find classes only, ours and the SQLite baseline in alternation (as `npm run bench` times them), on a folder `npm run bench -- --reuse` filled.
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { SectionCache } from "../src/format/section-cache.ts";
import { Snapshot } from "../src/format/snapshot.ts";
import { fileSource } from "../src/storage/file-source.ts";
import { DEFAULT_SECTION_CACHE_MB } from "../src/storage/isolate-caches.ts";
import { compareAnswers, logMismatches } from "./bench/correctness.ts";
import { engineAnswer } from "./bench/engine.ts";
import { FIND_CLASSES, type MixEntry, pickMix } from "./bench/mix.ts";
import { SqliteBaseline } from "./bench/sqlite-baseline.ts";
import { measureSideBySide } from "./bench/timing.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { iterations: { type: "string", default: "100" }, only: { type: "string" } },
});
const dir = positionals[0] ?? "/tmp/bench-1m";
const log = (line: string) => process.stderr.write(`${line}\n`);
const mix = pickMix(join(dir, "baseline.sqlite")).filter(
  (e) => FIND_CLASSES.has(e.cls) && (!values.only || values.only.split(",").includes(e.cls)),
);
const snapshot = await Snapshot.open(await fileSource(join(dir, "analysis.snap")), {
  sections: new SectionCache(DEFAULT_SECTION_CACHE_MB * 1024 * 1024),
});
const baseline = new SqliteBaseline(join(dir, "baseline.sqlite"));
try {
  const ours = (e: MixEntry) => engineAnswer(snapshot, e.query);
  const theirs = async (e: MixEntry) => baseline.answer(e.query);
  const mismatches = await compareAnswers(mix, ours, theirs, log);
  logMismatches("in process", mismatches, log);
  if (mismatches.length) process.exitCode = 1;
  log(
    `load before: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")}`,
  );
  const results = await measureSideBySide(mix, ours, theirs, {
    warmupRounds: 2,
    iterations: Number(values.iterations),
    maxSecondsPerClass: 30,
  });
  for (const [cls, r] of results)
    console.log(
      `${cls.padEnd(16)} ours p50 ${r.ours.medianMs.toFixed(3)} p99 ${r.ours.p99Ms.toFixed(3)} ms   baseline p50 ${r.baseline.medianMs.toFixed(3)} ms   ×${r.ratio.toFixed(1)}`,
    );
  log(
    `load after: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")}`,
  );
} finally {
  baseline.close();
}
