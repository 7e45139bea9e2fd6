// @module prepareData: the analysis (given, or made by `appstruct generate`), its snapshot (`appstruct compile`) and the cross-check's SQLite database, in one folder.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { buildDatabase } from "./sqlite-load.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const CLI = join(ROOT, "build/bin/appstruct.js");

export interface DataSet {
  analysis: string;
  /** Folder `appstruct serve` serves: the snapshot alone. */
  servedDir: string;
  snapshot: string;
  database: string;
  seconds: { generate?: number; compile?: number; databaseBuild?: number };
  bytes: { analysis: number; snapshot: number; database: number };
}

export interface DataOptions {
  dir: string;
  /** An existing NDJSON analysis; otherwise one is generated with `objects` and `seed`. */
  analysis?: string;
  objects: number;
  seed: number;
  /** Keep a snapshot and database already in `dir` that are newer than the analysis (and, for the snapshot, of this build's format code). */
  reuse: boolean;
  log: (line: string) => void;
}

export async function prepareData(options: DataOptions): Promise<DataSet> {
  const { dir, log } = options;
  await mkdir(join(dir, "served"), { recursive: true });
  const seconds: DataSet["seconds"] = {};
  let analysis = options.analysis
    ? resolve(options.analysis)
    : join(dir, `generated-${options.objects}-seed${options.seed}.ndjson`);
  if (!options.analysis && !(options.reuse && existsSync(analysis))) {
    log(`generating ${options.objects} objects (seed ${options.seed})`);
    seconds.generate = await run([
      CLI,
      "generate",
      "--objects",
      String(options.objects),
      "--seed",
      String(options.seed),
      "-o",
      analysis,
    ]);
  }
  analysis = resolve(analysis);
  const servedDir = join(dir, "served");
  const snapshot = join(servedDir, "analysis.snap");
  const formatStamp = `${snapshot}.format`;
  const format = formatCodeVersion();
  const snapshotFresh =
    options.reuse &&
    newer(snapshot, analysis) &&
    existsSync(formatStamp) &&
    readFileSync(formatStamp, "utf8").trim() === format;
  if (!snapshotFresh) {
    log(`compiling ${analysis} with appstruct compile`);
    await rm(snapshot, { force: true });
    seconds.compile = await run([CLI, "compile", analysis, "-o", snapshot]);
    await writeFile(formatStamp, `${format}\n`);
  } else log(`reusing ${snapshot}`);
  const database = join(dir, "crosscheck.sqlite");
  if (!(options.reuse && newer(database, analysis))) {
    log("building the SQLite database");
    const started = performance.now();
    await buildDatabase(analysis, database, (line) => log(`sqlite: ${line}`));
    seconds.databaseBuild = (performance.now() - started) / 1000;
  } else log(`reusing ${database}`);
  return {
    analysis,
    servedDir,
    snapshot,
    database,
    seconds,
    bytes: { analysis: statSync(analysis).size, snapshot: statSync(snapshot).size, database: statSync(database).size },
  };
}

function newer(file: string, than: string): boolean {
  return existsSync(file) && statSync(file).mtimeMs >= statSync(than).mtimeMs;
}

/** The git tree of src/format (what decides the snapshot's bytes), or "unknown" outside a checkout. */
function formatCodeVersion(): string {
  try {
    return execFileSync("git", ["rev-parse", "HEAD:src/format"], { cwd: ROOT, encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
}

/** Runs `node args…` (the CLI), inheriting stderr; resolves with its wall time in seconds. */
function run(args: string[]): Promise<number> {
  const started = performance.now();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "inherit"] });
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0
        ? resolvePromise((performance.now() - started) / 1000)
        : reject(new Error(`${args.slice(0, 2).join(" ")} exited with ${code}`)),
    );
  });
}
