// @module Catalog: applications, their published versions and opened snapshots, cached in the isolate.
import { StorageUnavailableError } from "../api-error.ts";
import { check } from "../format/errors.ts";
import type { SectionCache } from "../format/section-cache.ts";
import { type ByteSource, Snapshot } from "../format/snapshot.ts";
import type { BlobStore } from "./blob-store.ts";
import { applicationFromSegment, decodeManifest, MANIFEST_PREFIX, manifestKey, snapshotKey } from "./manifest.ts";

/** One published analysis of an application. */
export interface Version {
  sha256: string;
  analyzedAt: string;
  analyzedAtMs: number;
  size: number;
}

export interface Catalog {
  applications(): Promise<string[]>;
  /** Versions in ascending analyzedAt order, or null when the application has none. */
  versions(application: string): Promise<Version[] | null>;
  open(version: Version): Promise<Snapshot>;
}

/**
 * Keeps opened snapshots (header, TOC, metadata: small) by content address; immutable, so entries
 * never go stale. Their decoded sections live in the SectionCache they were opened with, if any.
 */
export class SnapshotCache {
  private readonly entries = new Map<string, Promise<Snapshot>>();
  private readonly capacity: number;

  constructor(capacity = 16) {
    this.capacity = capacity;
  }

  get(sha256: string, open: () => Promise<Snapshot>): Promise<Snapshot> {
    let entry = this.entries.get(sha256);
    if (entry) {
      // Re-insert: Map iteration order makes the oldest entry the least recently used.
      this.entries.delete(sha256);
      this.entries.set(sha256, entry);
      return entry;
    }
    entry = open();
    entry.catch(() => this.entries.delete(sha256));
    this.entries.set(sha256, entry);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    return entry;
  }
}

/** A Catalog over manifests and content-addressed snapshots in a BlobStore (R2). */
export class StoreCatalog implements Catalog {
  private readonly store: BlobStore;
  private readonly manifestTtlMs: number;
  private readonly manifests = new Map<string, { fetchedAt: number; versions: Promise<Version[] | null> }>();
  private readonly snapshots: SnapshotCache;
  private readonly sections: SectionCache | undefined;

  /**
   * `snapshots` and `sections` go together: a cached Snapshot keeps the SectionCache it was opened
   * with, so one SnapshotCache must only ever be used with one SectionCache (or none).
   */
  constructor(
    store: BlobStore,
    options: { manifestTtlMs?: number; snapshots?: SnapshotCache; sections?: SectionCache } = {},
  ) {
    this.store = store;
    this.manifestTtlMs = options.manifestTtlMs ?? 1000;
    this.snapshots = options.snapshots ?? new SnapshotCache();
    this.sections = options.sections;
  }

  async applications(): Promise<string[]> {
    const keys = await this.store.list(MANIFEST_PREFIX);
    return keys
      .map((k) => /^apps\/([^/]+)\/manifest\.json$/.exec(k)?.[1])
      .filter((s): s is string => s !== undefined)
      .map(applicationFromSegment)
      .sort();
  }

  versions(application: string): Promise<Version[] | null> {
    const now = Date.now();
    const cached = this.manifests.get(application);
    if (cached && now - cached.fetchedAt < this.manifestTtlMs) return cached.versions;
    const versions = this.fetchVersions(application);
    versions.catch(() => this.manifests.delete(application));
    this.manifests.set(application, { fetchedAt: now, versions });
    return versions;
  }

  open(version: Version): Promise<Snapshot> {
    return this.snapshots.get(version.sha256, async () => {
      const key = snapshotKey(version.sha256);
      const info = await this.store.head(key);
      if (!info) throw new StorageUnavailableError(`snapshot ${key} listed in the manifest is missing from storage`);
      check(info.size === version.size, `snapshot ${key} is ${info.size} bytes, the manifest says ${version.size}`);
      const source: ByteSource = {
        key: version.sha256,
        size: info.size,
        read: (offset, length) => this.store.getRange(key, offset, length, info.etag),
      };
      return Snapshot.open(source, { sections: this.sections });
    });
  }

  private async fetchVersions(application: string): Promise<Version[] | null> {
    const key = manifestKey(application);
    const object = await this.store.get(key);
    if (!object) return null;
    const manifest = decodeManifest(object.bytes, key);
    return manifest.versions.length ? manifest.versions : null;
  }
}

/** The version in force at `dateMs`: the newest analyzed at or before it (docs/api.md#history-and-date). */
export function versionAt(versions: readonly Version[], dateMs: number): Version | null {
  let found: Version | null = null;
  for (const v of versions) if (v.analyzedAtMs <= dateMs) found = v;
  return found;
}
