// @module FolderCatalog (Node): serves a folder of snapshots and analyses without any Cloudflare service.
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { SectionCache } from "../src/format/section-cache.ts";
import { type ByteSource, Snapshot, memorySource } from "../src/format/snapshot.ts";
import { type Catalog, SnapshotCache, type Version } from "../src/storage/catalog.ts";
import { fileSource } from "../src/storage/file-source.ts";
import { sha256Hex } from "../src/storage/publish.ts";
import { peekInput } from "./analysis/peek.ts";
import type { StatusBase } from "./compile/build-model.ts";
import { compileAnalysis, loadStatusBase, loadStatusBaseFile } from "./compile/compile.ts";

/** SHA-256 of a file, streamed: a snapshot of hundreds of MB is never held whole. */
async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** Where a version's bytes are: a snapshot file read by range (as the worker reads R2), or an analysis compiled in memory. */
interface Held {
  source(): Promise<ByteSource>;
  statusBase(): Promise<StatusBase>;
}

/**
 * Reads every `.snap`, `.json` and `.ndjson` of `folder` once at start: analyses are compiled in
 * memory in analyzedAt order, each application's statuses computed against its previous version;
 * snapshot files stay on disk, read by range. Decoded sections go to `sections` when given (a
 * byte-budgeted LRU, as in the worker), else each snapshot keeps all it decodes.
 */
export async function loadFolderCatalog(folder: string, log: (line: string) => void, options: { sections?: SectionCache } = {}): Promise<Catalog> {
  const names = (await readdir(folder)).filter((n) => /\.(snap|json|ndjson)$/i.test(n) && n !== "package.json").sort();
  const inputs = (await Promise.all(names.map((n) => peekInput(join(folder, n))))).sort((a, b) => (a.analyzedAtMs ?? 0) - (b.analyzedAtMs ?? 0));
  const heldBySha = new Map<string, Held>();
  const versions = new Map<string, Version[]>();
  for (const input of inputs) {
    let held: Held;
    let sha256: string;
    if (input.kind === "snapshot") {
      sha256 = await sha256OfFile(input.path);
      const key = sha256;
      held = { source: () => fileSource(input.path, key), statusBase: () => loadStatusBaseFile(input.path) };
    } else {
      const { bytes } = await compileAnalysis(input.path, async (application, at) => {
        const earlier = versions.get(application)?.filter((v) => v.analyzedAtMs < at).at(-1);
        return earlier ? heldBySha.get(earlier.sha256)!.statusBase() : null;
      });
      sha256 = await sha256Hex(bytes);
      const key = sha256;
      held = { source: async () => memorySource(bytes, key), statusBase: () => loadStatusBase(bytes) };
    }
    const source = await held.source();
    const { meta } = await Snapshot.open(source);
    heldBySha.set(sha256, held);
    const list = versions.get(meta.application) ?? [];
    versions.set(meta.application, [...list.filter((v) => v.analyzedAtMs !== meta.analyzedAtMs), { sha256, analyzedAt: meta.analyzedAt, analyzedAtMs: meta.analyzedAtMs, size: source.size }].sort((a, b) => a.analyzedAtMs - b.analyzedAtMs));
    log(`${input.path}: ${meta.application} @ ${meta.analyzedAt}, ${meta.counts.objects} objects`);
  }
  const cache = new SnapshotCache(Number.POSITIVE_INFINITY);
  return {
    applications: async () => [...versions.keys()].sort(),
    versions: async (application) => versions.get(application) ?? null,
    open: (version) => cache.get(version.sha256, async () => Snapshot.open(await heldBySha.get(version.sha256)!.source(), { sections: options.sections })),
  };
}
