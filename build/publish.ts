// @module publishFiles: compiles what is an analysis (status against the newest earlier published version) and publishes each.
import { readFile } from "node:fs/promises";
import type { BlobStore } from "../src/storage/blob-store.ts";
import { snapshotKey } from "../src/storage/manifest.ts";
import { type PublishResult, publishSnapshot, readManifest } from "../src/storage/publish.ts";
import { peekInput } from "./analysis/peek.ts";
import { compileAnalysis, loadStatusBase } from "./compile/compile.ts";
import type { StatusBase } from "./compile/build-model.ts";

/** The status base for an analysis: the newest version of its application published before `analyzedAtMs`. */
async function previousVersion(store: BlobStore, application: string, analyzedAtMs: number): Promise<StatusBase | null> {
  const manifest = await readManifest(store, application);
  const earlier = manifest?.versions.filter((v) => v.analyzedAtMs < analyzedAtMs).at(-1);
  if (!earlier) return null;
  const stored = await store.get(snapshotKey(earlier.sha256));
  if (!stored) throw new Error(`the manifest of ${application} lists ${earlier.sha256}, which is missing from the store`);
  return loadStatusBase(stored.bytes);
}

export interface PublishedFile extends PublishResult {
  path: string;
}

/** Publishes `paths` in analyzedAt order per application, so each analysis's status compares with the one before. */
export async function publishFiles(store: BlobStore, paths: string[], log: (line: string) => void): Promise<PublishedFile[]> {
  const inputs = await Promise.all(paths.map(peekInput));
  inputs.sort((a, b) => (a.analyzedAtMs ?? 0) - (b.analyzedAtMs ?? 0));
  const results: PublishedFile[] = [];
  for (const input of inputs) {
    let bytes: Uint8Array;
    if (input.kind === "snapshot") {
      bytes = new Uint8Array(await readFile(input.path));
    } else {
      bytes = (await compileAnalysis(input.path, (application, at) => previousVersion(store, application, at))).bytes;
    }
    const result = await publishSnapshot(store, bytes);
    const v = result.version;
    log(`${input.path}: ${result.outcome === "published" ? "published" : "already published"} ${result.application} @ ${v.analyzedAt} (${v.counts.objects} objects, ${v.counts.links} links, sha256 ${v.sha256.slice(0, 12)})`);
    results.push({ path: input.path, ...result });
  }
  return results;
}

/** Applications in the store with their versions, oldest first. */
export async function listStore(store: BlobStore): Promise<{ application: string; versions: { analyzedAt: string; sha256: string; objects: number; links: number; size: number }[] }[]> {
  const { StoreCatalog } = await import("../src/storage/catalog.ts");
  const catalog = new StoreCatalog(store);
  const out = [];
  for (const application of await catalog.applications()) {
    const manifest = await readManifest(store, application);
    out.push({ application, versions: (manifest?.versions ?? []).map((v) => ({ analyzedAt: v.analyzedAt, sha256: v.sha256, objects: v.counts.objects, links: v.counts.links, size: v.size })) });
  }
  return out;
}

