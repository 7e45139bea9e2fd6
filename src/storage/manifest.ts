// @module Manifest: the small per-application object listing its published versions; and the store's key scheme.
import { z } from "zod";
import { CorruptSnapshotError } from "../format/errors.ts";

export const MANIFEST_FORMAT = "appstruct.manifest/1";

const VersionSchema = z.object({
  /** Content address: SHA-256 of the snapshot bytes, lower-case hex. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  analyzedAt: z.string(),
  analyzedAtMs: z.number(),
  size: z.number().int().nonnegative(),
  counts: z.object({ objects: z.number(), links: z.number() }),
  publishedAt: z.string(),
  /** The snapshot object's ETag in storage, which reads of it are pinned to. */
  etag: z.string().min(1).optional(),
  /**
   * The snapshot's opening bytes (header, TOC, META, id directory; SNAPSHOT-FORMAT §3), base64: a
   * reader that has the manifest opens it without reading its start or its id directory, two
   * storage round trips less for a cold answer about an object. Only the newest version carries
   * them (some KiB to tens of KiB each, and the manifest is read often).
   */
  head: z.string().base64().optional(),
});
const ManifestSchema = z.object({
  format: z.literal(MANIFEST_FORMAT),
  application: z.string(),
  /** Ascending by analyzedAtMs: the last one is what routes read without `date`. */
  versions: z.array(VersionSchema),
});

export type ManifestVersion = z.infer<typeof VersionSchema>;
/** A version as the publish API lists it: without what only the store's readers use (ETag, opening bytes). */
export type ListedVersion = Omit<ManifestVersion, "etag" | "head">;

export function listedVersion({ etag: _etag, head: _head, ...version }: ManifestVersion): ListedVersion {
  return version;
}
export type Manifest = z.infer<typeof ManifestSchema>;

/** Standard base64 of `bytes` (a version's `head`; application names, made URL-safe). */
export function base64Of(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The bytes of base64 `text` (standard alphabet, padding optional). */
export function bytesOfBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  // By index: Uint8Array.from over the string made a string of each character.
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** base64url of the UTF-8 name: any application name becomes one safe key segment ('/', '%', '&', unicode...). */
function applicationSegment(application: string): string {
  return base64Of(new TextEncoder().encode(application)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function applicationFromSegment(segment: string): string {
  return new TextDecoder().decode(bytesOfBase64(segment.replace(/-/g, "+").replace(/_/g, "/")));
}

export const MANIFEST_PREFIX = "apps/";
export const manifestKey = (application: string) =>
  `${MANIFEST_PREFIX}${applicationSegment(application)}/manifest.json`;
export const snapshotKey = (sha256: string) => `snapshots/${sha256}.snap`;
/** Whether `key` is a snapshot's: named by its content, so its bytes never change. */
export const isSnapshotKey = (key: string) => /^snapshots\/[0-9a-f]{64}\.snap$/.test(key);

export function encodeManifest(manifest: Manifest): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(ManifestSchema.parse(manifest), null, 1));
}

export function decodeManifest(bytes: Uint8Array, key: string): Manifest {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new CorruptSnapshotError(`manifest ${key} is not JSON`);
  }
  const parsed = ManifestSchema.safeParse(json);
  if (!parsed.success)
    throw new CorruptSnapshotError(
      `manifest ${key} is malformed: ${parsed.error.issues[0].path.join(".")} ${parsed.error.issues[0].message}`,
    );
  return parsed.data;
}

/**
 * Inserts `version` in analyzedAt order; one analyzedAt holds one version (a newer publish replaces
 * it). Only the newest keeps its opening bytes (`head`).
 */
export function withVersion(manifest: Manifest, version: ManifestVersion): Manifest {
  const versions = manifest.versions.filter((v) => v.analyzedAtMs !== version.analyzedAtMs);
  versions.push(version);
  versions.sort((a, b) => a.analyzedAtMs - b.analyzedAtMs);
  const newest = versions.length - 1;
  return { ...manifest, versions: versions.map(({ head, ...v }, i) => (i === newest && head ? { ...v, head } : v)) };
}
