// @module removeVersions: drops versions from an application's manifest first, then deletes their snapshot objects.
import type { BlobStore } from "./blob-store.ts";
import { type ListedVersion, listedVersion, type ManifestVersion } from "./manifest.ts";
import { deleteUnlisted, updateManifest } from "./publish.ts";

/** Which versions to remove: the oldest beyond the newest `keep`, and/or those analyzed at the given times. */
export interface VersionSelection {
  keep?: number;
  analyzedAtMs?: readonly number[];
}

function selectVersions(versions: readonly ManifestVersion[], selection: VersionSelection): ManifestVersion[] {
  const dropped = new Set(selection.analyzedAtMs ?? []);
  // versions are ascending by analyzedAt: the oldest come first.
  const beyondKeep = selection.keep === undefined ? 0 : Math.max(0, versions.length - selection.keep);
  return versions.filter((v, i) => i < beyondKeep || dropped.has(v.analyzedAtMs));
}

/**
 * Removes the selected versions of `application`. The manifest is swapped first (conditional put,
 * retried), so a reader that reads the new manifest never meets a version whose snapshot is gone;
 * the objects are deleted after, except one that a concurrent publish has listed again meanwhile. A
 * reader still holding the old manifest (up to MANIFEST_TTL_MS) may meet a deleted one: it answers
 * 503 storage_unavailable for that moment, never a wrong answer.
 */
export async function removeVersions(
  store: BlobStore,
  application: string,
  selection: VersionSelection,
): Promise<{ removed: ListedVersion[]; kept: ListedVersion[] }> {
  let removed: ManifestVersion[] = [];
  const manifest = await updateManifest(store, application, (current) => {
    removed = selectVersions(current.versions, selection);
    if (removed.length === 0) return null;
    const gone = new Set(removed);
    return { ...current, versions: current.versions.filter((v) => !gone.has(v)) };
  });
  await deleteUnlisted(
    store,
    application,
    removed.map((v) => v.sha256),
    manifest,
  );
  return { removed: removed.map(listedVersion), kept: manifest.versions.map(listedVersion) };
}
