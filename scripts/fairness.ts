// @module Light answers beside heavy ones (the bench's fairness view, scripts/bench/fairness.ts) on its own, with the settings at hand and another checkout to compare.
//
//   npx node scripts/fairness.ts --reuse <bench folder> [--light 48] [--heavy 2] [--phase-seconds 5]
//                                [--rounds 2] [--latency-ms 0] [--section-cache-mb 64] [--seed 1] [--sample 400]
//                                [--against CHECKOUT]
//
// The bench folder is one `npm run bench --reuse` made (analysis.snap, baseline.sqlite). `--against`
// runs the same view against another checkout's `appstruct serve` afterwards (its
// build/bin/appstruct.js): a change measured before and after.
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { DEFAULT_SECTION_CACHE_MB } from "../src/storage/isolate-caches.ts";
import { fairnessTable, fairnessView } from "./bench/fairness.ts";
import { integerOption } from "./bench/options.ts";

const { values } = parseArgs({
  options: {
    reuse: { type: "string" },
    light: { type: "string", default: "48" },
    heavy: { type: "string", default: "2" },
    "phase-seconds": { type: "string", default: "5" },
    rounds: { type: "string", default: "2" },
    "latency-ms": { type: "string", default: "0" },
    "section-cache-mb": { type: "string", default: String(DEFAULT_SECTION_CACHE_MB) },
    seed: { type: "string", default: "1" },
    sample: { type: "string", default: "400" },
    against: { type: "string" },
  },
});
if (!values.reuse) {
  process.stderr.write(
    "usage: node scripts/fairness.ts --reuse <bench folder> [--light N] [--heavy N] [--phase-seconds S] [--rounds N] [--latency-ms L] [--section-cache-mb MB] [--seed S] [--sample K] [--against CHECKOUT]\n",
  );
  process.exit(2);
}
const dir = resolve(values.reuse);
const dataset = { snapshot: join(dir, "analysis.snap"), database: join(dir, "baseline.sqlite") };
const settings = {
  seed: integerOption("seed", values.seed, 0),
  sampleSize: integerOption("sample", values.sample, 1),
  lightClients: integerOption("light", values.light, 1),
  heavyClients: integerOption("heavy", values.heavy, 0),
  phaseSeconds: integerOption("phase-seconds", values["phase-seconds"], 1),
  rounds: integerOption("rounds", values.rounds, 1),
  readLatencyMs: integerOption("latency-ms", values["latency-ms"], 0),
  sectionCacheMB: integerOption("section-cache-mb", values["section-cache-mb"], 1),
};
const log = (line: string) => process.stderr.write(`${line}\n`);
console.log(`this checkout:\n${fairnessTable(await fairnessView(dataset, settings, log))}`);
if (values.against) {
  const executable = join(resolve(values.against), "build", "bin", "appstruct.js");
  console.log(`\n${values.against}:\n${fairnessTable(await fairnessView(dataset, settings, log, executable))}`);
}
