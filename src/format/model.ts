// @module SnapshotModel: the logical content of one snapshot, what the encoder takes and a full decode gives back.

export type Status = "Added" | "Modified" | "Unchanged";
export const STATUSES: readonly Status[] = ["Added", "Modified", "Unchanged"];

/** How STAT and row pages store a status: 0 for none, then 1 + its index in STATUSES. */
export const statusCode = (s: Status | null): number => (s === null ? 0 : STATUSES.indexOf(s) + 1);
export const statusFromCode = (code: number): Status | null => (code === 0 ? null : STATUSES[code - 1]);
export type Role = "start" | "end";

/** Sentinel for "no value" in u32 columns (no parent, null dictionary entry). */
export const NONE = 0xffffffff;

export interface SourceLocation {
  /** Index into SnapshotModel.files. */
  file: number;
  startLine: number;
  endLine: number;
}

export interface PostIt {
  title: string;
  text: string | null;
}

/** One object; its position in SnapshotModel.objects is its rank in the name order of docs/api.md#order. */
export interface ObjectRecord {
  id: string;
  name: string;
  fullName: string;
  type: string;
  typeId: string;
  language: string | null;
  filePath: string | null;
  mangling: string;
  external: boolean;
  annotations: string[] | null;
  tags: string[];
  /** Rank of the parent, or NONE. */
  parent: number;
  /** Index of the level-5 taxonomy node. */
  level5: number;
  role: Role | null;
  checksum: string | null;
  /** Status given in the analysis; wins over the computed one. */
  explicitStatus: Status | null;
  /** Status as served: explicit, else computed against the snapshot named by meta.statusBase. */
  status: Status | null;
  sourceLocations: SourceLocation[];
  postIts: PostIt[];
}

export interface TaxonomyNode {
  key: string;
  name: string;
  fullName: string;
  /** Index of the parent in the level above, or NONE at level 1. */
  parent: number;
}

export interface SourceFile {
  id: string;
  path: string;
  language: string | null;
  /** The file's source text, when the analysis gives it (absent, not null, otherwise). */
  text?: string;
}

/** Outgoing links grouped by caller rank (CSR), one entry per distinct (target, linkType). */
export interface CalleeLinks {
  offsets: Uint32Array;
  targets: Uint32Array;
  /** Index into linkTypes, which is sorted, so entries sort by (target rank, linkType). */
  types: Uint32Array;
  /** LINK_DIRECT and/or LINK_ESCALATED: which kinds of link of this type exist. */
  flags: Uint8Array;
  linkTypes: string[];
}
export const LINK_DIRECT = 1;
export const LINK_ESCALATED = 2;

export interface SnapshotMeta {
  application: string;
  analyzedAt: string;
  /** analyzedAt as milliseconds since the epoch, for ordering versions. */
  analyzedAtMs: number;
  analyzer: { name: string; version: string } | null;
  /** Content address (sha256 hex) of the snapshot statuses were computed against; null for a first analysis. */
  statusBase: string | null;
  /** True when the analysis had no taxonomy and the default rules of docs/default-taxonomy.md made one. */
  taxonomyDerived: boolean;
  counts: { objects: number; links: number; files: number; postIts: number; levels: number[] };
}

export interface SnapshotModel {
  meta: SnapshotMeta;
  objects: ObjectRecord[];
  /** levels[0] is level 1 ... levels[4] is level 5; a node's index is its volatile `_id`, in name order. */
  levels: TaxonomyNode[][];
  files: SourceFile[];
  callees: CalleeLinks;
}
