// @module `node scripts/find-cpu.ts --reuse DIR [--tree DIR]…`: CPU per answer of the mixed workload's finds, in process, by class; with two source trees, both in one process, alternating, their answers compared.
//
// The finds of the bench's two mixed sequences (same pools and seeds as `npm run bench --views
// mixed`), answered as the route writes them (the page's objects read too), each class's queries in
// turn, rounds over all of them. On a machine shared with others, CPU time (user + system) varies
// less than wall time, and comparing two trees within one process, round by round, cancels the load
// both see. `--tree` names a copy of the project's src/ and scripts/ (e.g. `git archive COMMIT src
// scripts | tar -x -C DIR`, node_modules linked beside them) to load beside this one; `--cpu-prof`
// of this script then profiles both, told apart by their paths.
import { createHash } from "node:crypto";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { FIND_CLASSES, type MixEntry } from "./bench/mix.ts";
import { mixedSequence, pickPools } from "./bench/mixed-workload.ts";

const { values } = parseArgs({
  options: {
    reuse: { type: "string", default: "/tmp/b1m" },
    tree: { type: "string", multiple: true },
    rounds: { type: "string", default: "20" },
    only: { type: "string" },
    requests: { type: "string", default: "700" },
    seed: { type: "string", default: "1" },
    "section-cache-mb": { type: "string", default: "64" },
  },
});
const seed = Number(values.seed);
const requests = Number(values.requests);
const trees = (values.tree ?? [join(import.meta.dirname, "..")]).map((s) => resolve(s));

interface Engine {
  name: string;
  answer: (e: MixEntry) => Promise<unknown>;
}

/** The tree's engine on its own Snapshot and section cache, answering as the bench's in-process side does. */
async function engine(tree: string): Promise<Engine> {
  const { SectionCache } = await import(join(tree, "src/format/section-cache.ts"));
  const { Snapshot } = await import(join(tree, "src/format/snapshot.ts"));
  const { fileSource } = await import(join(tree, "src/storage/file-source.ts"));
  const { engineAnswer } = await import(join(tree, "scripts/bench/engine.ts"));
  const snapshot = await Snapshot.open(await fileSource(join(values.reuse!, "analysis.snap")), {
    sections: new SectionCache(Number(values["section-cache-mb"]) << 20),
  });
  return { name: tree, answer: (e) => engineAnswer(snapshot, e.query) };
}

const pools = pickPools(join(values.reuse!, "baseline.sqlite"), seed, 400);
const entries = [...mixedSequence(pools, seed, requests), ...mixedSequence(pools, seed + 1, requests)].filter(
  (e) => FIND_CLASSES.has(e.cls) && (!values.only || values.only.split(",").includes(e.cls)),
);
const byPath = new Map(entries.map((e) => [e.path, e]));
const distinct = [...byPath.values()];
const engines = await Promise.all(trees.map(engine));
const digest = (answer: unknown) => createHash("sha256").update(JSON.stringify(answer)).digest("hex");
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");
console.log(`load before: ${load()}; ${distinct.length} distinct finds, ${entries.length} in the sequences`);

// Answers first: every tree's equal to the first's.
let differ = 0;
for (const e of distinct) {
  const answers: string[] = [];
  for (const en of engines) answers.push(digest(await en.answer(e)));
  if (answers.some((a) => a !== answers[0])) {
    differ++;
    console.log(`DIFFERENT ${e.path}`);
  }
}
if (engines.length > 1) console.log(`answers: ${distinct.length - differ} of ${distinct.length} identical`);

// CPU microseconds per answer, per engine and class.
const cpu = engines.map(() => new Map<string, number[]>());
const rounds = Number(values.rounds);
for (let round = 0; round < rounds; round++)
  for (const e of distinct)
    for (let i = 0; i < engines.length; i++) {
      // Alternate which tree goes first, so neither always follows the other's cache effects.
      const en = engines[(i + round) % engines.length];
      const start = process.cpuUsage();
      await en.answer(e);
      const used = process.cpuUsage(start);
      const byClass = cpu[engines.indexOf(en)];
      if (!byClass.has(e.cls)) byClass.set(e.cls, []);
      byClass.get(e.cls)!.push((used.user + used.system) / 1000);
    }
const median = (xs: number[]) => {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
};
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const classes = [...FIND_CLASSES].filter((c) => cpu[0].has(c));
console.log(`class             ${engines.map((_, i) => `tree ${i} p50 / mean ms`.padStart(24)).join("")}`);
for (const c of classes)
  console.log(
    `${c.padEnd(18)}${cpu
      .map((m) => `${median(m.get(c)!).toFixed(3)} / ${mean(m.get(c)!).toFixed(3)}`.padStart(24))
      .join("")}`,
  );
engines.forEach((en, i) => console.log(`tree ${i}: ${en.name}`));
console.log(`load after: ${load()}`);
