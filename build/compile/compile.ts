// @module compile: analysis file → validated model → snapshot bytes, and the atomic write of the result.
import { createHash } from "node:crypto";
import { closeSync, createReadStream, fsyncSync, openSync, writeSync } from "node:fs";
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import { MemorySink } from "../../src/format/container.ts";
import { writeSnapshot } from "../../src/format/encode.ts";
import { readWholeIdPages } from "../../src/format/id-pages.ts";
import type { SnapshotMeta, SnapshotModel } from "../../src/format/model.ts";
import { SECTIONS } from "../../src/format/sections.ts";
import { memorySource, Snapshot } from "../../src/format/snapshot.ts";
import type { ValidatedAnalysis } from "../analysis/collector.ts";
import { readAnalysis } from "../analysis/read.ts";
import { buildModel, type StatusBase } from "./build-model.ts";
import { collectGarbageNow } from "./heap-limits.ts";
import { PagePool } from "./page-pool.ts";

export interface CompiledSnapshot {
  bytes: Uint8Array;
  meta: SnapshotMeta;
  /** Content address: lower-case hex SHA-256 of the bytes. */
  sha256: string;
}

export type Stage = "read" | "model" | "encode";

/** Finds the analysis to compute statuses against, once the analysis's application and analyzedAt are known. */
export type PreviousResolver = (application: string, analyzedAtMs: number) => Promise<StatusBase | null>;

/**
 * Below this many objects the pages are encoded on the compiling thread: starting the workers
 * (some 170 ms measured on a 700-object analysis) costs more than they save.
 */
const PAGE_WORKERS_FROM = 20_000;

/**
 * Reads, validates and models an analysis, with the worker threads that will encode its pages when
 * it is large enough to gain from them: started before the model is built, which they take part in.
 * The analysis records are unreachable once this returns. With a pool they are collected first
 * (collectGarbageNow): with its largest indexes built on the workers, the compiling thread
 * allocates too little for V8 to collect them in time.
 */
async function modelAnalysis(
  path: string,
  previous: StatusBase | PreviousResolver | null,
  onProgress?: (stage: Stage, done: number, total: number) => void,
): Promise<{ model: SnapshotModel; pool: PagePool | undefined }> {
  let analysis: ValidatedAnalysis | null = await readAnalysis(path, (done, total) => onProgress?.("read", done, total));
  onProgress?.("model", 0, 1);
  const base =
    typeof previous === "function" ? await previous(analysis.header.application, analysis.analyzedAtMs) : previous;
  const pool = analysis.objects.length >= PAGE_WORKERS_FROM ? new PagePool() : undefined;
  try {
    const model = buildModel(analysis, base, pool?.groupCallees);
    analysis = null;
    if (pool) collectGarbageNow();
    return { model, pool };
  } catch (error) {
    await pool?.close();
    throw error;
  }
}

const sectionCount = Object.keys(SECTIONS).length;

/** Compiles an analysis into snapshot bytes in memory (publishing, serving a folder). */
export async function compileAnalysis(
  path: string,
  previous: StatusBase | PreviousResolver | null,
  onProgress?: (stage: Stage, done: number, total: number) => void,
): Promise<CompiledSnapshot> {
  const { model, pool } = await modelAnalysis(path, previous, onProgress);
  const sink = new MemorySink();
  let encoded = 0;
  try {
    writeSnapshot(model, sink, () => onProgress?.("encode", ++encoded, sectionCount), pool?.threads);
  } finally {
    await pool?.close();
  }
  const bytes = sink.bytes();
  return { bytes, meta: model.meta, sha256: sha256Hex(bytes) };
}

/**
 * Compiles an analysis straight into `out`: sections are written one by one into a temporary file
 * in the same folder (no whole snapshot in memory), which is renamed only once complete. A refused
 * analysis or any failure leaves no file behind.
 */
export async function compileAnalysisToFile(
  path: string,
  out: string,
  previous: StatusBase | PreviousResolver | null,
  onProgress?: (stage: Stage, done: number, total: number) => void,
): Promise<{ meta: SnapshotMeta; sha256: string; size: number }> {
  let model: SnapshotModel | null;
  let pool: PagePool | undefined;
  ({ model, pool } = await modelAnalysis(path, previous, onProgress));
  const { meta } = model;
  const temporary = `${out}.${process.pid}.${Date.now()}.tmp`;
  let fd: number;
  try {
    fd = openSync(temporary, "wx");
  } catch (error) {
    await pool?.close();
    throw new Error(
      `cannot write ${out}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "its folder does not exist" : (error as Error).message}`,
    );
  }
  try {
    let encoded = 0;
    const size = writeSnapshot(
      model,
      { write: (offset, bytes) => void writeSync(fd, bytes, 0, bytes.length, offset) },
      () => onProgress?.("encode", ++encoded, sectionCount),
      pool?.threads,
    );
    // Released before the file is hashed: every garbage collection while hashing would mark it all.
    model = null;
    fsyncSync(fd);
    closeSync(fd);
    const sha256 = await sha256File(temporary);
    await rename(temporary, out);
    return { meta, sha256, size };
  } catch (error) {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
    await rm(temporary, { force: true });
    throw error;
  } finally {
    await pool?.close();
  }
}

/** SHA-256 of a file, streamed: a snapshot of hundreds of MB is never held whole. */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 22 })) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Reads the checksums of a snapshot file to compute statuses against it (`compile --previous`). */
export async function loadStatusBase(bytes: Uint8Array): Promise<StatusBase> {
  const snapshot = await Snapshot.open(memorySource(bytes));
  const [order, status] = await Promise.all([readWholeIdPages(snapshot), snapshot.section("STAT")]);
  const checksums = new Map<string, string | null>();
  for (let i = 0; i < order.count; i++) checksums.set(order.id(i), status.checksum(order.rank(i)));
  return { key: sha256Hex(bytes), checksums };
}

export async function loadStatusBaseFile(path: string): Promise<StatusBase> {
  return loadStatusBase(new Uint8Array(await readFile(path)));
}

/** Writes `bytes` to `out` through a temporary file in the same folder, renamed only once complete. */
export async function writeAtomically(out: string, bytes: Uint8Array): Promise<void> {
  const temporary = `${out}.${process.pid}.${Date.now()}.tmp`;
  try {
    await writeFile(temporary, bytes, { flag: "wx" });
    await rename(temporary, out);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
