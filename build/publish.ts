// @module publishFiles: compiles what is an analysis (status against the newest earlier published version) and publishes each.
import { readFile } from "node:fs/promises";
import type { SnapshotMeta } from "../src/format/model.ts";
import type { BlobStore } from "../src/storage/blob-store.ts";
import { type ManifestVersion, snapshotKey } from "../src/storage/manifest.ts";
import { type PublishResult, publishSnapshot, readManifest, verifySnapshot } from "../src/storage/publish.ts";
import { peekInput } from "./analysis/peek.ts";
import type { StatusBase } from "./compile/build-model.ts";
import { compileAnalysis, loadStatusBase } from "./compile/compile.ts";

export interface PublishedFile extends PublishResult {
  path: string;
}

/** An input that failed to compile, with the file it came from. */
export class InputRefused extends Error {
  readonly path: string;

  constructor(path: string, cause: unknown) {
    super(`${path}: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.path = path;
  }
}

/**
 * Where publishFiles publishes: a BlobStore directly (`--local`, `--remote`) or the worker's publish
 * API (`--url`). `versions` and `snapshot` give the status base; `publish` stores one snapshot.
 */
export interface PublishTarget {
  /** Published versions of `application`, oldest first. */
  versions(application: string): Promise<ManifestVersion[]>;
  /** The bytes of the published snapshot `sha256`. */
  snapshot(sha256: string): Promise<Uint8Array>;
  /** Stores one snapshot (read from `path`) and lists it in its application's manifest. */
  publish(bytes: Uint8Array, path: string): Promise<PublishResult>;
}

export function storeTarget(store: BlobStore): PublishTarget {
  return {
    versions: async (application) => (await readManifest(store, application))?.versions ?? [],
    async snapshot(sha256) {
      const stored = await store.get(snapshotKey(sha256));
      if (!stored) throw new Error(`a manifest lists ${sha256}, which is missing from the store`);
      return stored.bytes;
    },
    publish: (bytes) => publishSnapshot(store, bytes),
  };
}

/** publishFiles into a BlobStore. */
export function publishFiles(store: BlobStore, paths: string[], log: (line: string) => void): Promise<PublishedFile[]> {
  return publishFilesTo(storeTarget(store), paths, log);
}

/**
 * Publishes `paths`. Every input is compiled and verified first, in analyzedAt order, each analysis's
 * status computed against the newest earlier version of its application — published already or
 * earlier in this batch — so one refused input publishes nothing. Then the snapshots are published
 * in that order.
 */
export async function publishFilesTo(
  target: PublishTarget,
  paths: string[],
  log: (line: string) => void,
): Promise<PublishedFile[]> {
  const inputs = await Promise.all(paths.map(peekInput));
  inputs.sort((a, b) => (a.analyzedAtMs ?? 0) - (b.analyzedAtMs ?? 0));
  const compiled: { path: string; bytes: Uint8Array; meta: SnapshotMeta }[] = [];
  for (const input of inputs) {
    try {
      const bytes =
        input.kind === "snapshot"
          ? new Uint8Array(await readFile(input.path))
          : (await compileAnalysis(input.path, (application, at) => previousVersion(target, compiled, application, at)))
              .bytes;
      compiled.push({ path: input.path, bytes, meta: await verifySnapshot(bytes) });
    } catch (error) {
      throw new InputRefused(input.path, error);
    }
  }
  const results: PublishedFile[] = [];
  for (const { path, bytes } of compiled) {
    const result = await target.publish(bytes, path);
    const v = result.version;
    log(
      `${path}: ${result.outcome === "published" ? "published" : "already published"} ${result.application} @ ${v.analyzedAt} (${v.counts.objects} objects, ${v.counts.links} links, sha256 ${v.sha256})`,
    );
    results.push({ path, ...result });
  }
  return results;
}

/** The status base for an analysis: the newest earlier version of its application, in this batch or published. */
async function previousVersion(
  target: PublishTarget,
  batch: readonly { bytes: Uint8Array; meta: SnapshotMeta }[],
  application: string,
  analyzedAtMs: number,
): Promise<StatusBase | null> {
  const inBatch = batch.filter((c) => c.meta.application === application && c.meta.analyzedAtMs < analyzedAtMs).at(-1);
  const published = (await target.versions(application)).filter((v) => v.analyzedAtMs < analyzedAtMs).at(-1);
  if (inBatch && (!published || inBatch.meta.analyzedAtMs >= published.analyzedAtMs))
    return loadStatusBase(inBatch.bytes);
  if (!published) return null;
  return loadStatusBase(await target.snapshot(published.sha256));
}

/** Applications in the store with their versions, oldest first. */
export async function listStore(store: BlobStore): Promise<
  {
    application: string;
    versions: { analyzedAt: string; sha256: string; objects: number; links: number; size: number }[];
  }[]
> {
  const { StoreCatalog } = await import("../src/storage/catalog.ts");
  const catalog = new StoreCatalog(store);
  const out = [];
  for (const application of await catalog.applications()) {
    const manifest = await readManifest(store, application);
    out.push({
      application,
      versions: (manifest?.versions ?? []).map((v) => ({
        analyzedAt: v.analyzedAt,
        sha256: v.sha256,
        objects: v.counts.objects,
        links: v.counts.links,
        size: v.size,
      })),
    });
  }
  return out;
}
