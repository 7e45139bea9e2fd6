// @module FolderCatalog (Node): serves a folder of snapshots and analyses without any Cloudflare service.
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { SectionCache } from "../src/format/section-cache.ts";
import { type ByteSource, memorySource, Snapshot } from "../src/format/snapshot.ts";
import { type Catalog, SnapshotCache, type Version } from "../src/storage/catalog.ts";
import { fileSource } from "../src/storage/file-source.ts";
import { peekInput } from "./analysis/peek.ts";
import type { StatusBase } from "./compile/build-model.ts";
import {
  compileAnalysis,
  loadStatusBase,
  loadStatusBaseFile,
  type PreviousResolver,
  sha256File,
} from "./compile/compile.ts";

/** Where a version's bytes are: a snapshot file read by range (as the worker reads R2), or an analysis compiled in memory. */
interface Held {
  sha256: string;
  source(): Promise<ByteSource>;
  statusBase(): Promise<StatusBase>;
}

async function snapshotFile(path: string): Promise<Held> {
  const sha256 = await sha256File(path);
  return { sha256, source: () => fileSource(path, sha256), statusBase: () => loadStatusBaseFile(path) };
}

async function compiledInMemory(path: string, previous: PreviousResolver): Promise<Held> {
  const { bytes, sha256 } = await compileAnalysis(path, previous);
  return { sha256, source: async () => memorySource(bytes, sha256), statusBase: () => loadStatusBase(bytes) };
}

/**
 * Reads every `.snap`, `.json` and `.ndjson` of `folder` once at start: analyses are compiled in
 * memory in analyzedAt order, each application's statuses computed against its previous version;
 * snapshot files stay on disk, read by range. Decoded sections go to `sections` when given (a
 * byte-budgeted LRU, as in the worker), else each snapshot keeps all it decodes. `readThrough`
 * wraps the source every served snapshot is read through (serve's --read-latency-ms delays it).
 */
export async function loadFolderCatalog(
  folder: string,
  log: (line: string) => void,
  options: { sections?: SectionCache; readThrough?: (source: ByteSource) => ByteSource } = {},
): Promise<Catalog> {
  const readThrough = options.readThrough ?? ((source) => source);
  const names = (await readdir(folder)).filter((n) => /\.(snap|json|ndjson)$/i.test(n) && n !== "package.json").sort();
  const inputs = (await Promise.all(names.map((n) => peekInput(join(folder, n))))).sort(
    (a, b) => (a.analyzedAtMs ?? 0) - (b.analyzedAtMs ?? 0),
  );
  const heldBySha = new Map<string, Held>();
  const versions = new Map<string, Version[]>();
  for (const input of inputs) {
    const held =
      input.kind === "snapshot"
        ? await snapshotFile(input.path)
        : await compiledInMemory(input.path, async (application, at) => {
            const earlier = versions
              .get(application)
              ?.filter((v) => v.analyzedAtMs < at)
              .at(-1);
            return earlier ? heldBySha.get(earlier.sha256)!.statusBase() : null;
          });
    const source = await held.source();
    const { meta } = await Snapshot.open(source);
    heldBySha.set(held.sha256, held);
    const list = versions.get(meta.application) ?? [];
    versions.set(
      meta.application,
      [
        ...list.filter((v) => v.analyzedAtMs !== meta.analyzedAtMs),
        { sha256: held.sha256, analyzedAt: meta.analyzedAt, analyzedAtMs: meta.analyzedAtMs, size: source.size },
      ].sort((a, b) => a.analyzedAtMs - b.analyzedAtMs),
    );
    log(`${input.path}: ${meta.application} @ ${meta.analyzedAt}, ${meta.counts.objects} objects`);
  }
  const cache = new SnapshotCache(Number.POSITIVE_INFINITY);
  return {
    applications: async () => [...versions.keys()].sort(),
    versions: async (application) => versions.get(application) ?? null,
    open: (version) =>
      cache.get(version.sha256, async () =>
        Snapshot.open(readThrough(await heldBySha.get(version.sha256)!.source()), {
          sections: options.sections,
          readAhead: true,
        }),
      ),
  };
}
