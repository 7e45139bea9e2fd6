// @module The worker's isolate-wide caches: opened snapshots and decoded sections, one pair per section budget.
import { SectionCache } from "../format/section-cache.ts";
import { SnapshotCache } from "./catalog.ts";

/** Budget of decoded sections per isolate when SECTION_CACHE_MB is unset: well under Workers' 128 MB. */
export const DEFAULT_SECTION_CACHE_MB = 64;

const MIB = 1024 * 1024;

/** Bytes of a SECTION_CACHE_MB setting (megabytes of 2^20 bytes, fractions allowed); unset or blank: the default. */
export function sectionBudgetBytes(setting: string | undefined): number {
  if (setting === undefined || setting.trim() === "") return DEFAULT_SECTION_CACHE_MB * MIB;
  const mb = Number(setting);
  if (!Number.isFinite(mb) || mb < 0)
    throw new Error(`SECTION_CACHE_MB must be a number of megabytes ≥ 0, not ${JSON.stringify(setting)}`);
  return Math.floor(mb * MIB);
}

export interface IsolateCaches {
  snapshots: SnapshotCache;
  sections: SectionCache;
}

const byBudget = new Map<number, IsolateCaches>();

/**
 * The caches of this isolate for a section budget, made on first use. Normally one budget (one
 * deployment's vars) is ever seen; a distinct budget gets caches of its own, with its own snapshots,
 * since an opened Snapshot is bound to the SectionCache it was opened with.
 */
export function isolateCaches(budgetBytes: number): IsolateCaches {
  let caches = byBudget.get(budgetBytes);
  if (!caches) {
    caches = { snapshots: new SnapshotCache(), sections: new SectionCache(budgetBytes) };
    byBudget.set(budgetBytes, caches);
  }
  return caches;
}
