// @module FolderCatalog (Node): serves a folder of snapshots and analyses without any Cloudflare service.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { Snapshot, memorySource } from "../src/format/snapshot.ts";
import { type Catalog, SnapshotCache, type Version } from "../src/storage/catalog.ts";
import { sha256Hex } from "../src/storage/publish.ts";
import { peekInput } from "./analysis/peek.ts";
import { compileAnalysis, loadStatusBase } from "./compile/compile.ts";

/**
 * Reads every `.snap`, `.json` and `.ndjson` of `folder` once at start: analyses are compiled in
 * memory in analyzedAt order, each application's statuses computed against its previous version.
 */
export async function loadFolderCatalog(folder: string, log: (line: string) => void): Promise<Catalog> {
  const names = (await readdir(folder)).filter((n) => /\.(snap|json|ndjson)$/i.test(n) && n !== "package.json").sort();
  const inputs = (await Promise.all(names.map((n) => peekInput(join(folder, n))))).sort((a, b) => (a.analyzedAtMs ?? 0) - (b.analyzedAtMs ?? 0));
  const bytesBySha = new Map<string, Uint8Array>();
  const versions = new Map<string, Version[]>();
  for (const input of inputs) {
    let bytes: Uint8Array;
    if (input.kind === "snapshot") bytes = new Uint8Array(await readFile(input.path));
    else {
      bytes = (
        await compileAnalysis(input.path, async (application, at) => {
          const earlier = versions.get(application)?.filter((v) => v.analyzedAtMs < at).at(-1);
          return earlier ? loadStatusBase(bytesBySha.get(earlier.sha256)!) : null;
        })
      ).bytes;
    }
    const sha256 = await sha256Hex(bytes);
    const { meta } = await Snapshot.open(memorySource(bytes, sha256));
    bytesBySha.set(sha256, bytes);
    const list = versions.get(meta.application) ?? [];
    versions.set(meta.application, [...list.filter((v) => v.analyzedAtMs !== meta.analyzedAtMs), { sha256, analyzedAt: meta.analyzedAt, analyzedAtMs: meta.analyzedAtMs, size: bytes.length }].sort((a, b) => a.analyzedAtMs - b.analyzedAtMs));
    log(`${input.path}: ${meta.application} @ ${meta.analyzedAt}, ${meta.counts.objects} objects`);
  }
  const cache = new SnapshotCache(Number.POSITIVE_INFINITY);
  return {
    applications: async () => [...versions.keys()].sort(),
    versions: async (application) => versions.get(application) ?? null,
    open: (version) => cache.get(version.sha256, () => Snapshot.open(memorySource(bytesBySha.get(version.sha256)!, version.sha256))),
  };
}
