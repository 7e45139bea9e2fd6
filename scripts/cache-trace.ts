// @module `node scripts/cache-trace.ts`: where the mixed workload's reads go, one answer at a time: each class's sequential rounds and what each reads, re-reads of evicted pages against first touches, and what the section cache holds and evicts, by section.
//
//   node scripts/cache-trace.ts --reuse <dir> [--objects 1000000] [--queries 1000] [--warmup 300]
//                               [--section-cache-mb 64] [--latency-ms 20] [--pool 400] [--workload-seed 7]
//                               [--workload cache|http] [--answers FILE]
//
// The workload of scripts/cache-policy.ts (or with --workload http, that of the bench's mixed view,
// `npm run bench`: its cold then its warm sequence, the warm one measured, --queries and --warmup
// each) at concurrency 1, over a source that notes each read: its section (from the table of
// contents), its offset there, and its round (one deeper than the deepest read settled when it
// started, as StorageMeter counts; none for a prefetch's, which no answer waits for). A read of an
// (offset, section) read before in the run is a re-read: its page was evicted meanwhile. Beside
// the reads, the pages each answer inflated (rows, members, points, source text): what a page kept
// as stored costs each time it is used. `--answers` writes every answer, warm-up included, as JSON
// (its class, query, time, whether measured, reads and pages inflated): what to ask of them, such as
// whether an object's link page was read by an earlier answer, is then a few lines of script.
// With `--workload http --workload-seed 1` the sequences are those the bench sends at concurrency 1.
import { writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import type { TocEntry } from "../src/format/container.ts";
import { inflated } from "../src/format/inflate.ts";
import { SectionCache } from "../src/format/section-cache.ts";
import { type ByteSource, delayedSource, Snapshot } from "../src/format/snapshot.ts";
import { currentStorageMeter } from "../src/format/storage-meter.ts";
import { fileSource } from "../src/storage/file-source.ts";
import { DEFAULT_SECTION_CACHE_MB } from "../src/storage/isolate-caches.ts";
import { MIXED_CLASSES, mixedWorkload } from "./bench/cache-workload.ts";
import { prepareDataset } from "./bench/dataset.ts";
import { engineAnswer } from "./bench/engine.ts";
import { CLASSES, pickMix } from "./bench/mix.ts";
import { mixedSequence, pickPools } from "./bench/mixed-workload.ts";
import { integerOption } from "./bench/options.ts";
import type { BenchQuery } from "./bench/queries.ts";

const MiB = 1024 * 1024;

interface TracedRead {
  tag: string;
  at: number;
  length: number;
  /** 0 for a prefetch's read (StorageMeter): no answer waits for it. */
  round: number;
  reread: boolean;
  prefetch: boolean;
}

/** A source noting every read (section, offset, round), and whether that part was read before in the run. */
class TracingSource implements ByteSource {
  readonly key: string;
  readonly size: number;
  readonly connections: number | undefined;
  reads: TracedRead[] = [];
  private settled = 0;
  private readonly seen = new Set<string>();
  private readonly inner: ByteSource;
  private readonly entries: TocEntry[];

  constructor(inner: ByteSource, toc: Iterable<TocEntry>) {
    this.inner = inner;
    this.key = inner.key;
    this.size = inner.size;
    this.connections = inner.connections;
    this.entries = [...toc].sort((a, b) => a.offset - b.offset);
  }

  /** Starts the notes of the next answer. */
  reset(): TracedRead[] {
    const reads = this.reads;
    this.reads = [];
    this.settled = 0;
    return reads;
  }

  read(offset: number, length: number): Promise<Uint8Array> {
    const entry = this.entries.findLast((e) => e.offset <= offset) ?? { tag: "HEAD", offset: 0 };
    const at = offset - entry.offset;
    const key = `${entry.tag}@${at}`;
    const prefetch = currentStorageMeter()?.prefetching ?? false;
    const round = prefetch ? 0 : this.settled + 1;
    this.reads.push({ tag: entry.tag, at, length, round, reread: this.seen.has(key), prefetch });
    this.seen.add(key);
    return this.inner.read(offset, length).finally(() => {
      this.settled = Math.max(this.settled, round);
    });
  }
}

/** A cache key's section: a page `ROWP#12` is ROWP's. */
const sectionOf = (tag: string) => tag.split("#")[0];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? 0;
const mb = (bytes: number) => (bytes / MiB).toFixed(bytes < MiB ? 2 : 1);
const row = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
const table = (head: string[], rows: (string | number)[][]) =>
  [row(head), row(head.map(() => "---")), ...rows.map(row)].join("\n");

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      objects: { type: "string", default: "1000000" },
      seed: { type: "string", default: "1" },
      reuse: { type: "string" },
      queries: { type: "string", default: "1000" },
      warmup: { type: "string", default: "300" },
      "section-cache-mb": { type: "string", default: String(DEFAULT_SECTION_CACHE_MB) },
      "latency-ms": { type: "string", default: "20" },
      pool: { type: "string", default: "400" },
      "workload-seed": { type: "string", default: "7" },
      workload: { type: "string", default: "cache" },
      answers: { type: "string" },
    },
  });
  if (!values.reuse) throw new Error("--reuse <dir> is required: the trace reads a dataset made by the bench");
  const dir = resolve(values.reuse);
  const objects = integerOption("objects", values.objects, 1000);
  const count = integerOption("queries", values.queries, 1);
  const warmup = integerOption("warmup", values.warmup, 0);
  const latencyMs = Number(values["latency-ms"]);
  const budgetBytes = Math.floor(Number(values["section-cache-mb"]) * MiB);
  const log = (line: string) => process.stderr.write(`[cache-trace] ${line}\n`);

  const dataset = await prepareDataset({ dir, objects, seed: integerOption("seed", values.seed, 0), reuse: true, log });
  const picking = await Snapshot.open(await fileSource(dataset.snapshot));
  const workload = values.workload;
  if (workload !== "cache" && workload !== "http") throw new Error(`--workload is cache or http, got ${workload}`);
  const workloadSeed = integerOption("workload-seed", values["workload-seed"], 0);
  const poolSize = integerOption("pool", values.pool, 1);
  const classes: readonly string[] = workload === "http" ? CLASSES : MIXED_CLASSES;
  const queries: { cls: string; query: BenchQuery }[] =
    workload === "http"
      ? (() => {
          const pools = pickPools(dataset.database, workloadSeed, poolSize);
          return [...mixedSequence(pools, workloadSeed, warmup), ...mixedSequence(pools, workloadSeed + 1, count)];
        })()
      : await mixedWorkload(picking, pickMix(dataset.database), {
          count: warmup + count,
          poolSize,
          seed: workloadSeed,
        });
  const sections = new SectionCache(budgetBytes);
  const source = new TracingSource(delayedSource(await fileSource(dataset.snapshot), latencyMs), picking.toc.values());
  const snapshot = await Snapshot.open(source, { sections });

  interface Answer {
    cls: string;
    ms: number;
    reads: TracedRead[];
    /** Pages the answer inflated (rows, members, points, source text). */
    inflated: number;
  }
  const answers: Answer[] = [];
  /** Every answer, warm-up included, for --answers. */
  const written: (Answer & { query: BenchQuery; measured: boolean })[] = [];
  /** Bytes evicted and inserted during measured answers, by section, and by the class answering. */
  const evicted = new Map<string, { n: number; bytes: number }>();
  const insertedBy = new Map<string, { n: number; bytes: number }>();
  const add = (map: Map<string, { n: number; bytes: number }>, key: string, bytes: number) => {
    const sum = map.get(key) ?? { n: 0, bytes: 0 };
    sum.n++;
    sum.bytes += bytes;
    map.set(key, sum);
  };
  const held = () => new Map(sections.holdings().map((h) => [h.tag, h.bytes]));
  for (const [i, { cls, query }] of queries.entries()) {
    const measured = i >= warmup;
    const before = measured ? held() : undefined;
    source.reset();
    const inflatedBefore = inflated.pages;
    const started = performance.now();
    await engineAnswer(snapshot, query);
    const ms = performance.now() - started;
    const reads = source.reset();
    const answer = { cls, ms, reads, inflated: inflated.pages - inflatedBefore };
    if (values.answers) written.push({ ...answer, query, measured });
    if (!before) continue;
    answers.push(answer);
    const after = held();
    for (const [tag, bytes] of before) if (!after.has(tag)) add(evicted, `${sectionOf(tag)} (by ${cls})`, bytes);
    for (const [tag, bytes] of after) if (!before.has(tag)) add(insertedBy, `${cls} → ${sectionOf(tag)}`, bytes);
  }

  const out: string[] = [];
  out.push(`## Classes (${count} measured after ${warmup}, ${latencyMs} ms a read, ${mb(budgetBytes)} MiB)\n`);
  out.push(
    table(
      [
        "class",
        "n",
        "p50 ms",
        "p50 rounds",
        "answers by rounds 0/1/2/3/4+",
        "reads/answer",
        "first-touch reads",
        "re-reads",
        "pages inflated",
        "top round signatures",
      ],
      classes.map((cls) => {
        const mine = answers.filter((a) => a.cls === cls);
        const reads = mine.flatMap((a) => a.reads);
        const signatures = new Map<string, number>();
        for (const a of mine) {
          const rounds = Math.max(0, ...a.reads.map((r) => r.round));
          const sig = Array.from({ length: rounds }, (_, k) => {
            const inRound = a.reads.filter((r) => r.round === k + 1);
            const tags = [...new Set(inRound.map((r) => r.tag))].sort();
            return tags
              .map((t) => {
                const n = inRound.filter((r) => r.tag === t);
                const re = n.filter((r) => r.reread).length;
                return `${t}×${n.length}${re ? `(${re} re)` : ""}`;
              })
              .join("+");
          }).join(" → ");
          signatures.set(sig || "(none)", (signatures.get(sig || "(none)") ?? 0) + 1);
        }
        const top = [...signatures]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 3)
          .map(([s, n]) => `${n}: ${s}`)
          .join("<br>");
        return [
          cls,
          mine.length,
          median(mine.map((a) => a.ms)).toFixed(1),
          median(mine.map((a) => Math.max(0, ...a.reads.map((r) => r.round)))),
          [0, 1, 2, 3, 4]
            .map((k) => mine.filter((a) => Math.min(4, Math.max(0, ...a.reads.map((r) => r.round))) === k).length)
            .join("/"),
          (reads.length / mine.length).toFixed(1),
          reads.filter((r) => !r.reread).length,
          reads.filter((r) => r.reread).length,
          mine.reduce((sum, a) => sum + a.inflated, 0),
          top,
        ];
      }),
    ),
  );

  const all = answers.flatMap((a) => a.reads);
  const byTag = new Map<string, { n: number; bytes: number; re: number; reBytes: number }>();
  for (const r of all) {
    const s = byTag.get(r.tag) ?? { n: 0, bytes: 0, re: 0, reBytes: 0 };
    s.n++;
    s.bytes += r.length;
    if (r.reread) {
      s.re++;
      s.reBytes += r.length;
    }
    byTag.set(r.tag, s);
  }
  out.push("\n## Measured reads by section\n");
  out.push(
    table(
      ["section", "reads", "MiB", "re-reads", "re-read MiB"],
      [...byTag]
        .sort((a, b) => b[1].bytes - a[1].bytes)
        .map(([tag, s]) => [tag, s.n, mb(s.bytes), s.re, mb(s.reBytes)]),
    ),
  );

  const holdings = new Map<string, { n: number; bytes: number; small: number }>();
  for (const h of sections.holdings()) {
    const tag = sectionOf(h.tag);
    const s = holdings.get(tag) ?? { n: 0, bytes: 0, small: 0 };
    s.n++;
    s.bytes += h.bytes;
    if (h.queue === "small") s.small += h.bytes;
    holdings.set(tag, s);
  }
  out.push("\n## Held at the end, by section\n");
  out.push(
    table(
      ["section", "entries", "MiB", "of which in small"],
      [...holdings].sort((a, b) => b[1].bytes - a[1].bytes).map(([t, s]) => [t, s.n, mb(s.bytes), mb(s.small)]),
    ),
  );
  const top = (map: Map<string, { n: number; bytes: number }>) =>
    [...map]
      .sort((a, b) => b[1].bytes - a[1].bytes)
      .slice(0, 20)
      .map(([k, s]) => [k, s.n, mb(s.bytes)]);
  out.push("\n## Evicted during measured answers (section, by the class whose answer evicted it)\n");
  out.push(table(["section (by class)", "entries", "MiB"], top(evicted)));
  out.push("\n## Inserted during measured answers (class → section)\n");
  out.push(table(["class → section", "entries", "MiB"], top(insertedBy)));
  console.log(out.join("\n"));
  if (values.answers) await writeFile(values.answers, JSON.stringify(written));
}

try {
  await main();
} catch (error) {
  console.error(`cache-trace failed: ${(error as Error).stack ?? error}`);
  process.exitCode = 1;
}
