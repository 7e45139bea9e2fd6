// @module Catalog: applications, their published versions and opened snapshots, cached in the isolate.
import { StorageUnavailableError } from "../contract/errors.ts";
import { check } from "../format/errors.ts";
import type { SectionCache } from "../format/section-cache.ts";
import { type ByteSource, FIRST_READ, Snapshot } from "../format/snapshot.ts";
import { meteredRead, WORKER_CONNECTIONS } from "../format/storage-meter.ts";
import { publishableNameProblem } from "../rules.ts";
import { SharedLoads } from "../shared-loads.ts";
import type { BlobStore } from "./blob-store.ts";
import {
  applicationFromSegment,
  bytesOfBase64,
  decodeManifest,
  MANIFEST_PREFIX,
  manifestKey,
  snapshotKey,
} from "./manifest.ts";

/** One published analysis of an application. */
export interface Version {
  sha256: string;
  analyzedAt: string;
  analyzedAtMs: number;
  size: number;
  /** The snapshot's opening bytes and its object's ETag, when the manifest gives them (its newest version). */
  opening?: { head: Uint8Array; etag: string };
}

export interface Catalog {
  applications(): Promise<string[]>;
  /** Versions in ascending analyzedAt order, or null when the application has none. */
  versions(application: string): Promise<Version[] | null>;
  open(version: Version): Promise<Snapshot>;
}

/** How long a request waits for another's open or manifest read before doing its own (see SharedLoads). */
const LOAD_DEADLINE_MS = 2000;

/** Manifests kept at most: the applications read recently (an unknown name is never kept). */
const MANIFESTS_KEPT = 512;

/**
 * How long past its TTL a manifest still answers while reading it again fails (stale-if-error).
 * Storage in trouble then costs no answer that isolate memory and the data centre's cache can
 * give; past this, an application's routes answer 503 until its manifest can be read.
 */
const MANIFEST_STALE_IF_ERROR_MS = 60_000;

/**
 * Keeps opened snapshots (header, TOC, metadata: small) by content address; immutable, so entries
 * never go stale. Their decoded sections live in the SectionCache they were opened with, if any.
 * Only opened snapshots are kept; an open under way is shared through SharedLoads.
 */
export class SnapshotCache {
  private readonly entries = new Map<string, Snapshot>();
  private readonly opening = new SharedLoads<string, Snapshot>();
  private readonly capacity: number;
  /** The key inserted last: the most recently used entry. */
  private lastUsed: string | undefined;

  constructor(capacity = 16) {
    this.capacity = capacity;
  }

  async get(sha256: string, open: () => Promise<Snapshot>): Promise<Snapshot> {
    const entry = this.entries.get(sha256);
    if (entry) {
      // Re-insert: Map iteration order makes the oldest entry the least recently used. The one used
      // last is in place already (most requests read the same snapshot as the one before).
      if (this.lastUsed !== sha256) {
        this.entries.delete(sha256);
        this.entries.set(sha256, entry);
        this.lastUsed = sha256;
      }
      return entry;
    }
    const snapshot = await this.opening.run(sha256, open, LOAD_DEADLINE_MS);
    this.entries.delete(sha256);
    this.entries.set(sha256, snapshot);
    this.lastUsed = sha256;
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    return snapshot;
  }
}

/** An application's manifest as read: when, its object's ETag, and the versions it lists. */
interface ReadManifest {
  fetchedAt: number;
  etag: string;
  versions: Version[];
  /** After a failed read of it: until when it answers without being read again. */
  failedUntil?: number;
}

/** A Catalog over manifests and content-addressed snapshots in a BlobStore (R2): a snapshot is read as R2 lets a Worker, six reads waiting at once. */
export class StoreCatalog implements Catalog {
  private readonly store: BlobStore;
  private readonly manifestTtlMs: number;
  private readonly staleIfErrorMs: number;
  /** Manifests read, by application, most recently used last; only settled answers of known applications. */
  private readonly manifests = new Map<string, ReadManifest>();
  private readonly manifestReads = new SharedLoads<string, ReadManifest | null>();
  private readonly snapshots: SnapshotCache;
  private readonly sections: SectionCache | undefined;

  /**
   * `snapshots` and `sections` go together: a cached Snapshot keeps the SectionCache it was opened
   * with, so one SnapshotCache must only ever be used with one SectionCache (or none).
   */
  constructor(
    store: BlobStore,
    options: {
      manifestTtlMs?: number;
      /** MANIFEST_STALE_IF_ERROR_MS unless given (tests shorten it). */
      staleIfErrorMs?: number;
      snapshots?: SnapshotCache;
      sections?: SectionCache;
    } = {},
  ) {
    this.store = store;
    this.manifestTtlMs = options.manifestTtlMs ?? 1000;
    this.staleIfErrorMs = options.staleIfErrorMs ?? MANIFEST_STALE_IF_ERROR_MS;
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

  async versions(application: string): Promise<Version[] | null> {
    const cached = this.manifests.get(application);
    const now = Date.now();
    if (cached && (now - cached.fetchedAt < this.manifestTtlMs || now < (cached.failedUntil ?? 0))) {
      this.manifests.delete(application);
      this.manifests.set(application, cached);
      return cached.versions;
    }
    let read: ReadManifest | null;
    try {
      read = await this.manifestReads.run(application, () => this.fetchVersions(application), LOAD_DEADLINE_MS);
    } catch (error) {
      const failedAt = Date.now();
      const held = this.manifests.get(application);
      if (!held || failedAt - held.fetchedAt >= this.manifestTtlMs + this.staleIfErrorMs) throw error;
      // The one held answers, and is not asked for again for a TTL: a request waits on no read bound to fail.
      held.failedUntil = failedAt + this.manifestTtlMs;
      console.error(
        `manifest of ${application} unreadable; answering from the one read ${failedAt - held.fetchedAt} ms ago:`,
        (error as Error).message,
      );
      return held.versions;
    }
    this.manifests.delete(application);
    if (read) {
      this.manifests.set(application, read);
      while (this.manifests.size > MANIFESTS_KEPT) this.manifests.delete(this.manifests.keys().next().value!);
    }
    return read?.versions ?? null;
  }

  open(version: Version): Promise<Snapshot> {
    return this.snapshots.get(version.sha256, async () => {
      const key = snapshotKey(version.sha256);
      if (version.opening) {
        // The manifest brought what opening reads: the first read is a query's own.
        const { head, etag } = version.opening;
        const source: ByteSource = {
          key: version.sha256,
          size: version.size,
          connections: WORKER_CONNECTIONS,
          read: (offset, length) => this.store.getRange(key, offset, length, etag),
        };
        return Snapshot.open(source, { sections: this.sections, first: head, readAhead: true });
      }
      // Its first bytes bring its size and ETag along: no head before them.
      const first = await meteredRead(this.store.getFirst(key, Math.min(version.size, FIRST_READ)), (object) =>
        object ? object.bytes.length : 0,
      );
      if (!first) throw new StorageUnavailableError(`snapshot ${key} listed in the manifest is missing from storage`);
      check(first.size === version.size, `snapshot ${key} is ${first.size} bytes, the manifest says ${version.size}`);
      const source: ByteSource = {
        key: version.sha256,
        size: first.size,
        connections: WORKER_CONNECTIONS,
        read: (offset, length) => this.store.getRange(key, offset, length, first.etag),
      };
      return Snapshot.open(source, { sections: this.sections, first: first.bytes, readAhead: true });
    });
  }

  private async fetchVersions(application: string): Promise<ReadManifest | null> {
    // A name too long to publish has no manifest, and its key would be too long for R2 to look up.
    if (publishableNameProblem(application)) return null;
    const key = manifestKey(application);
    const fetchedAt = Date.now();
    const object = await meteredRead(this.store.get(key), (found) => (found ? found.bytes.length : 0));
    if (!object) return null;
    // Unchanged since it was last read (most reads, one a second): the versions made of it then.
    // Decoding it again made a new list, whose digest the ETags of answers had to compute again,
    // and decoded the opening bytes of its newest snapshot again (some 20 KB of base64).
    const known = this.manifests.get(application);
    if (known?.etag === object.etag) return { fetchedAt, etag: object.etag, versions: known.versions };
    const manifest = decodeManifest(object.bytes, key);
    if (!manifest.versions.length) return null;
    const versions = manifest.versions.map(({ sha256, analyzedAt, analyzedAtMs, size, etag, head }) => ({
      sha256,
      analyzedAt,
      analyzedAtMs,
      size,
      ...(etag && head && { opening: { head: bytesOfBase64(head), etag } }),
    }));
    return { fetchedAt, etag: object.etag, versions };
  }
}

/** The version in force at `dateMs`: the newest analyzed at or before it (docs/api.md#history-and-date). */
export function versionAt(versions: readonly Version[], dateMs: number): Version | null {
  let found: Version | null = null;
  for (const v of versions) if (v.analyzedAtMs <= dateMs) found = v;
  return found;
}
