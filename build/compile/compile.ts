// @module compile: analysis file → validated model → snapshot bytes, and the atomic write of the result.
import { createHash } from "node:crypto";
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import { encodeSnapshot } from "../../src/format/encode.ts";
import { SECTIONS } from "../../src/format/sections.ts";
import type { SnapshotMeta } from "../../src/format/model.ts";
import { Snapshot, memorySource } from "../../src/format/snapshot.ts";
import { type Progress, readAnalysis } from "../analysis/read.ts";
import { type StatusBase, buildModel } from "./build-model.ts";

export interface CompiledSnapshot {
  bytes: Uint8Array;
  meta: SnapshotMeta;
  /** Content address: lower-case hex SHA-256 of the bytes. */
  sha256: string;
}

export type Stage = "read" | "model" | "encode";

/** Finds the analysis to compute statuses against, once the analysis's application and analyzedAt are known. */
export type PreviousResolver = (application: string, analyzedAtMs: number) => Promise<StatusBase | null>;

export async function compileAnalysis(
  path: string,
  previous: StatusBase | PreviousResolver | null,
  onProgress?: (stage: Stage, done: number, total: number) => void,
): Promise<CompiledSnapshot> {
  const progress: Progress = (done, total) => onProgress?.("read", done, total);
  const analysis = await readAnalysis(path, progress);
  onProgress?.("model", 0, 1);
  const base = typeof previous === "function" ? await previous(analysis.header.application, analysis.analyzedAtMs) : previous;
  const model = buildModel(analysis, base);
  let encoded = 0;
  const bytes = encodeSnapshot(model, () => onProgress?.("encode", ++encoded, Object.keys(SECTIONS).length));
  return { bytes, meta: model.meta, sha256: sha256Hex(bytes) };
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Reads the checksums of a snapshot file to compute statuses against it (`compile --previous`). */
export async function loadStatusBase(bytes: Uint8Array): Promise<StatusBase> {
  const snapshot = await Snapshot.open(memorySource(bytes));
  const [core, status] = await Promise.all([snapshot.section("OBJC"), snapshot.section("STAT")]);
  const checksums = new Map<string, string | null>();
  for (let r = 0; r < core.count; r++) checksums.set(core.id(r), status.checksum(r));
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
