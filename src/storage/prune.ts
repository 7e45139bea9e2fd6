// @module removeVersions: drops versions from an application's manifest first, then deletes their snapshot objects.
import type { BlobStore } from "./blob-store.ts";
import type { ManifestVersion } from "./manifest.ts";
import { snapshotKey } from "./manifest.ts";
import { updateManifest } from "./publish.ts";

/** Which versions to remove: the oldest beyond the newest `keep`, and/or those analyzed at the given times. */
export interface VersionSelection {
  keep?: number;
  analyzedAtMs?: readonly number[];
}

export function selectVersions(versions: readonly ManifestVersion[], selection: VersionSelection): ManifestVersion[] {
  const dropped = new Set(selection.analyzedAtMs ?? []);
  // versions are ascending by analyzedAt: the oldest come first.
  const beyondKeep = selection.keep === undefined ? 0 : Math.max(0, versions.length - selection.keep);
  return versions.filter((v, i) => i < beyondKeep || dropped.has(v.analyzedAtMs));
}

/**
 * Removes the selected versions of `application`. The manifest is swapped first (conditional put,
 * retried), so readers never meet a version whose snapshot is gone; the objects are deleted after,
 * except one that a concurrent publish has listed again meanwhile.
 */
export async function removeVersions(store: BlobStore, application: string, selection: VersionSelection): Promise<{ removed: ManifestVersion[]; kept: ManifestVersion[] }> {
  let removed: ManifestVersion[] = [];
  const manifest = await updateManifest(store, application, (current) => {
    removed = selectVersions(current.versions, selection);
    if (removed.length === 0) return null;
    const gone = new Set(removed);
    return { ...current, versions: current.versions.filter((v) => !gone.has(v)) };
  });
  const listed = new Set(manifest.versions.map((v) => v.sha256));
  for (const version of removed) if (!listed.has(version.sha256)) await store.delete(snapshotKey(version.sha256));
  return { removed, kept: manifest.versions };
}
