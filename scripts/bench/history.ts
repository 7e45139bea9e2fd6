// @module History benchmark: pages of changes between two generated analyses, and line ranges of a large source file, timed in process with the default section budget.
//
// Usage: npx node scripts/bench/history.ts [--objects 300000] [--dir /tmp/bench-history] [--runs 50]
//        [--first DIR]  (the first analysis from a bench dataset: DIR/analysis.ndjson and DIR/analysis.snap, read only)
//
// The second analysis is the first (`appstruct generate`) with 1% of the objects gone (their links
// and post-its too, their children without parent), 2% of the checksums changed and 1% new objects.
// Both are compiled by the CLI (the second against the first), then opened as the server opens them.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createReadStream, createWriteStream, existsSync } from "node:fs";
import { mkdir, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { PROJECT_ROOT } from "../../build/store.ts";
import { SectionCache } from "../../src/format/section-cache.ts";
import { Snapshot } from "../../src/format/snapshot.ts";
import { changes } from "../../src/query/changes.ts";
import { fileText } from "../../src/query/source-file.ts";
import { fileSource } from "../../src/storage/file-source.ts";
import { childEnv } from "../dev-server.ts";

const { values } = parseArgs({
  options: {
    objects: { type: "string", default: "300000" },
    dir: { type: "string", default: "/tmp/bench-history" },
    runs: { type: "string", default: "50" },
    first: { type: "string" },
  },
});
const objects = Number(values.objects);
const runs = Number(values.runs);
const dir = `${values.dir}-${objects}`;
await mkdir(dir, { recursive: true });
const CLI = join(PROJECT_ROOT, "build", "bin", "appstruct.js");

function appstruct(args: string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, ...args], { cwd: PROJECT_ROOT, stdio: "inherit", env: childEnv() });
  return new Promise((resolve, reject) =>
    child.on("exit", (code) =>
      code === 0 ? resolve((performance.now() - started) / 1000) : reject(new Error(`appstruct ${args[0]}: ${code}`)),
    ),
  );
}

/** A stable share of ids: `salt` picks which. */
const pick = (id: string, salt: number, per: number) => {
  let h = salt;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x9e3779b1);
  return (h >>> 0) % per === 0;
};

/** The second analysis, from the first: 1% of objects gone, 2% of checksums changed, 1% new. */
async function secondAnalysis(from: string, to: string): Promise<void> {
  const gone = (id: unknown) => typeof id === "string" && pick(id, 1, 100);
  const out = createWriteStream(to);
  const write = async (line: string) => {
    if (!out.write(`${line}\n`)) await once(out, "drain");
  };
  const kept: Record<string, unknown>[] = [];
  let maxId = 0n;
  for await (const line of createInterface({ input: createReadStream(from) })) {
    const record = JSON.parse(line) as Record<string, unknown>;
    if (record.kind === undefined) {
      await write(JSON.stringify({ ...record, analyzedAt: "2026-02-01T00:00:00Z" }));
      continue;
    }
    if (record.kind === "object") {
      const id = record.id as string;
      if (BigInt(id) > maxId) maxId = BigInt(id);
      if (gone(id)) continue;
      if (typeof record.checksum === "string" && pick(id, 2, 50)) record.checksum = `${record.checksum}'`;
      if (gone(record.parent)) record.parent = null;
      if (kept.length < objects / 100) kept.push(record);
    }
    if (record.kind === "link" && (gone(record.from) || gone(record.to))) continue;
    if (record.kind === "postIt" && gone(record.object)) continue;
    await write(JSON.stringify(record));
  }
  // New objects copy kept ones, without parent.
  for (const [i, o] of kept.entries())
    await write(
      JSON.stringify({ ...o, id: String(maxId + BigInt(i + 1)), name: `${o.name}New`, parent: null, checksum: "new" }),
    );
  out.end();
  await once(out, "finish");
}

const v1 = values.first ? join(values.first, "analysis.ndjson") : join(dir, "v1.ndjson");
const v2 = join(dir, "v2.ndjson");
const s1 = values.first ? join(values.first, "analysis.snap") : join(dir, "v1.snap");
const s2 = join(dir, "v2.snap");
if (!existsSync(s2)) {
  if (!values.first) {
    console.log(`generating ${objects} objects …`);
    await appstruct(["generate", "--objects", String(objects), "-o", v1]);
    console.log(`compile v1: ${(await appstruct(["compile", v1, "-o", s1])).toFixed(1)} s`);
  }
  await secondAnalysis(v1, v2);
  console.log(`compile v2: ${(await appstruct(["compile", v2, "--previous", s1, "-o", s2])).toFixed(1)} s`);
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
const report = (label: string, ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  console.log(
    `${label.padEnd(58)} p50 ${pct(sorted, 0.5).toFixed(2).padStart(8)} ms  p99 ${pct(sorted, 0.99).toFixed(2).padStart(8)} ms  (${ms.length} runs)`,
  );
};
const time = async (f: () => Promise<unknown>) => {
  const started = performance.now();
  await f();
  return performance.now() - started;
};

// ---- changes -------------------------------------------------------------------------------------
{
  const sections = new SectionCache(64 << 20);
  const [older, newer] = await Promise.all([
    Snapshot.open(await fileSource(s1, "v1"), { sections }),
    Snapshot.open(await fileSource(s2, "v2"), { sections }),
  ]);
  const all = ["added", "deleted", "modified"] as const;
  const cold = await time(() => changes(older, newer, { statuses: all, skip: 0, limit: 100 }));
  const first = await changes(older, newer, { statuses: all, skip: 0, limit: 0 });
  console.log(`changes at ${objects} objects: ${JSON.stringify(first.totals)}`);
  report("changes, cold (compare both snapshots, first page of 100)", [cold]);
  const page = (statuses: readonly (typeof all)[number][], total: number) => async () => {
    const ms: number[] = [];
    for (let i = 0; i < runs; i++) {
      const skip = Math.floor(Math.random() * Math.max(1, total - 100));
      ms.push(await time(() => changes(older, newer, { statuses, skip, limit: 100 })));
    }
    return ms;
  };
  report("changes, warm, a page of 100 at a random skip", await page(all, first.totalObjects)());
  report("changes, warm, status=deleted, a page of 100", await page(["deleted"], first.totals.deleted)());
  report("changes, warm, status=modified, a page of 100", await page(["modified"], first.totals.modified)());
  const used = process.memoryUsage();
  console.log(
    `section cache ${(sections.budgetBytes / 2 ** 20).toFixed(0)} MiB budget; heap ${(used.heapUsed / 2 ** 20).toFixed(0)} MiB, rss ${(used.rss / 2 ** 20).toFixed(0)} MiB`,
  );
}

// ---- source text ---------------------------------------------------------------------------------
{
  // A large file: 60,000 lines of code-like text (about 2.6 MB), in an analysis of its own.
  const words = ["const", "value", "return", "await", "this.items", "count", "map", "filter", "=>", "if", "else"];
  const lines: string[] = [];
  for (let i = 0; i < 60_000; i++) {
    const indent = "  ".repeat(i % 5);
    lines.push(`${indent}${words[i % 11]} ${words[(i * 7) % 11]}_${i % 997} = ${words[(i * 3) % 11]}(${i});`);
  }
  const text = `${lines.join("\n")}\n`;
  const analysis = join(dir, "source.json");
  const snapshotPath = join(dir, "source.snap");
  const bare = join(dir, "source-bare.snap");
  const document = (withText: boolean) => ({
    format: "appstruct.analysis/1",
    application: "Source bench",
    analyzedAt: "2026-01-01T00:00:00Z",
    files: [{ id: "1", path: "src/big.ts", ...(withText ? { text } : {}) }],
    objects: [{ id: "1", name: "big", fullName: "big", type: "File", typeId: "FILE" }],
  });
  await writeFile(analysis, JSON.stringify(document(true)));
  await appstruct(["compile", analysis, "-o", snapshotPath]);
  await writeFile(analysis, JSON.stringify(document(false)));
  await appstruct(["compile", analysis, "-o", bare]);
  const textBytes = Buffer.byteLength(text);
  const added = (await stat(snapshotPath)).size - (await stat(bare)).size;
  console.log(
    `source text: ${textBytes} bytes, ${lines.length} lines; in the snapshot ${added} bytes (${((100 * added) / textBytes).toFixed(1)}%); whole-file deflate ${deflateRawSync(text).length} bytes`,
  );
  const ranges = Array.from({ length: runs }, () => 1 + Math.floor(Math.random() * (lines.length - 40)));
  const cold: number[] = [];
  for (const start of ranges) {
    // A fresh open and an empty cache: what a range costs when nothing of the file was read.
    const snapshot = await Snapshot.open(await fileSource(snapshotPath, `cold-${start}`), {
      sections: new SectionCache(64 << 20),
    });
    cold.push(await time(() => fileText(snapshot, "1", { startLine: start, endLine: start + 39 })));
  }
  report("source, 40 lines, cold (directory and pages read)", cold);
  const sections = new SectionCache(64 << 20);
  const warmSnapshot = await Snapshot.open(await fileSource(snapshotPath, "warm"), { sections });
  const warm: number[] = [];
  for (const start of ranges)
    warm.push(await time(() => fileText(warmSnapshot, "1", { startLine: start, endLine: start + 39 })));
  report("source, 40 lines, pages read before (first call reads)", warm);
  // The alternative measured: the file deflated whole (as one blob kept apart by content address would be).
  const whole = deflateRawSync(text);
  const inflateWhole: number[] = [];
  for (const start of ranges)
    inflateWhole.push(
      await time(async () =>
        inflateRawSync(whole)
          .toString("utf8")
          .split("\n")
          .slice(start - 1, start + 39)
          .join("\n"),
      ),
    );
  report("alternative: inflate the whole file, then cut 40 lines", inflateWhole);
}
