// @module The benchmark's data: a generated analysis, its snapshot (appstruct CLI) and the SQLite baseline database, each timed; reusable across runs.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, open, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { PROJECT_ROOT } from "../../build/store.ts";
import { FORMAT_MINOR, FORMAT_VERSION } from "../../src/format/container.ts";
import { childEnv } from "../dev-server.ts";
import { readAnalysisTables } from "./analysis-tables.ts";
import { BASELINE_SCHEMA, buildBaselineDatabase } from "./sqlite-build.ts";

export interface Dataset {
  dir: string;
  ndjson: string;
  snapshot: string;
  database: string;
  objects: number;
  seed: number;
  /** Seconds each step took when it ran (in this run or the one that made a reused folder). */
  seconds: { generate: number; compile: number; databaseBuild: number };
  bytes: { ndjson: number; snapshot: number; database: number };
  /** Whether the files came from an earlier run (--reuse). */
  reused: boolean;
}

const CLI = join(PROJECT_ROOT, "build", "bin", "appstruct.js");

/** "version.minor" of a snapshot file, from its header (SNAPSHOT-FORMAT.md §3.1). */
async function snapshotRevision(path: string): Promise<string> {
  const file = await open(path, "r");
  try {
    const { buffer } = await file.read(Buffer.alloc(12), 0, 12, 0);
    return `${buffer.readUInt16LE(8)}.${buffer.readUInt16LE(10)}`;
  } finally {
    await file.close();
  }
}

/** Runs the appstruct CLI; resolves with its wall time in seconds. */
function appstruct(args: string[]): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: PROJECT_ROOT,
      stdio: ["ignore", "ignore", "pipe"],
      env: childEnv(),
    });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err = (err + d).slice(-4000)));
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0
        ? resolve((performance.now() - started) / 1000)
        : reject(new Error(`appstruct ${args.join(" ")} exited ${code}: ${err.trim()}`)),
    );
  });
}

/**
 * The analysis, snapshot and database for `objects` objects in `dir`. With `reuse`, files already
 * there (made by an earlier run for the same size and seed) are kept and their recorded timings reported.
 */
export async function prepareDataset(options: {
  dir: string;
  objects: number;
  seed: number;
  reuse: boolean;
  log: (line: string) => void;
}): Promise<Dataset> {
  const { dir, objects, seed, log } = options;
  await mkdir(dir, { recursive: true });
  const ndjson = join(dir, "analysis.ndjson");
  const snapshot = join(dir, "analysis.snap");
  const database = join(dir, "baseline.sqlite");
  const record = join(dir, "dataset.json");
  if (options.reuse && existsSync(record) && existsSync(ndjson) && existsSync(snapshot) && existsSync(database)) {
    const previous = JSON.parse(await readFile(record, "utf8")) as Dataset;
    if (previous.objects !== objects || previous.seed !== seed)
      throw new Error(
        `--reuse ${dir} holds ${previous.objects} objects (seed ${previous.seed}), not ${objects} (seed ${seed}): give the same --objects or another folder`,
      );
    log(`reusing ${dir} (${objects} objects, seed ${seed})`);
    const reused: Dataset = { ...previous, dir, ndjson, snapshot, database, reused: true };
    const written = await snapshotRevision(snapshot);
    if (written !== `${FORMAT_VERSION}.${FORMAT_MINOR}`) {
      // A snapshot of an older format would measure the old reader paths: compile it again.
      log(
        `  its snapshot is format ${written}, this build writes ${FORMAT_VERSION}.${FORMAT_MINOR}: compiling again …`,
      );
      reused.seconds = { ...previous.seconds, compile: await appstruct(["compile", ndjson, "-o", snapshot]) };
      reused.bytes = { ...previous.bytes, snapshot: (await stat(snapshot)).size };
      await writeFile(record, `${JSON.stringify({ ...reused, reused: false }, null, 2)}\n`);
    }
    if (baselineSchema(database) !== BASELINE_SCHEMA) {
      // A database of an earlier layout would time the old SQL plans: build it again.
      log(
        `  its SQLite database is of layout ${baselineSchema(database) ?? "1"}, this build writes ${BASELINE_SCHEMA}: building it again …`,
      );
      const started = performance.now();
      buildBaselineDatabase(await readAnalysisTables(ndjson), database);
      reused.seconds = { ...reused.seconds, databaseBuild: (performance.now() - started) / 1000 };
      reused.bytes = { ...reused.bytes, database: (await stat(database)).size };
      await writeFile(record, `${JSON.stringify({ ...reused, reused: false }, null, 2)}\n`);
    }
    return reused;
  }

  log(`generating ${objects} objects (seed ${seed}) …`);
  const generate = await appstruct(["generate", "--objects", String(objects), "--seed", String(seed), "-o", ndjson]);
  log(`  ${generate.toFixed(1)} s; compiling …`);
  const compile = await appstruct(["compile", ndjson, "-o", snapshot]);
  log(`  ${compile.toFixed(1)} s; building the SQLite baseline …`);
  const started = performance.now();
  buildBaselineDatabase(await readAnalysisTables(ndjson), database);
  const databaseBuild = (performance.now() - started) / 1000;
  log(`  ${databaseBuild.toFixed(1)} s`);
  const size = async (path: string) => (await stat(path)).size;
  const dataset: Dataset = {
    dir,
    ndjson,
    snapshot,
    database,
    objects,
    seed,
    seconds: { generate, compile, databaseBuild },
    bytes: { ndjson: await size(ndjson), snapshot: await size(snapshot), database: await size(database) },
    reused: false,
  };
  await writeFile(record, `${JSON.stringify(dataset, null, 2)}\n`);
  return dataset;
}

/** The layout stamp of a baseline database (`meta` key `schema`), or null when it has none (the first layout). */
function baselineSchema(path: string): number | null {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const row = db.prepare("SELECT value FROM meta WHERE key = 'schema'").get();
    return row ? Number(row.value) : null;
  } finally {
    db.close();
  }
}
