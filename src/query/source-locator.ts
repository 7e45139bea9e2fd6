// @module SourceLocator: the source code service's contract, and the implementation that reads a snapshot's SLOC.
import { StorageUnavailableError } from "../contract/errors.ts";
import { CorruptSnapshotError } from "../format/errors.ts";
import type { WireLocation } from "../format/source-locations.ts";
import type { Catalog, Version } from "../storage/catalog.ts";

export type { WireLocation };

/** Source locations of objects (by rank) of one published version; null for an object without locations. */
export interface SourceLocator {
  locations(version: Version, ranks: number[]): Promise<(WireLocation[] | null)[]>;
}

/** Reads locations straight from the snapshot: what the SourceService entrypoint and Node mode run. */
export class SnapshotSourceLocator implements SourceLocator {
  private readonly catalog: Catalog;

  constructor(catalog: Catalog) {
    this.catalog = catalog;
  }

  async locations(version: Version, ranks: number[]): Promise<(WireLocation[] | null)[]> {
    if (ranks.length === 0) return [];
    const snapshot = await this.catalog.open(version);
    const locations = await snapshot.section("SLOC");
    const count = snapshot.meta.counts.objects;
    return ranks.map((r) => (Number.isInteger(r) && r >= 0 && r < count ? locations.forObject(r) : null));
  }
}

/**
 * What the source code service answers over RPC. Failures of the storage behind it travel as data:
 * error classes do not survive an RPC boundary, and the API must still answer them as 503 or 500
 * corrupt_snapshot, not as a broken source service.
 */
export type LocationsAnswer =
  | { locations: (WireLocation[] | null)[] }
  | { failure: "storage_unavailable" | "corrupt_snapshot"; detail: string };

export async function answerLocations(
  locator: SourceLocator,
  version: Version,
  ranks: number[],
): Promise<LocationsAnswer> {
  try {
    return { locations: await locator.locations(version, ranks) };
  } catch (error) {
    if (error instanceof StorageUnavailableError) return { failure: "storage_unavailable", detail: error.message };
    if (error instanceof CorruptSnapshotError) return { failure: "corrupt_snapshot", detail: error.message };
    throw error;
  }
}

/** The caller's side of answerLocations: the locations, or the typed storage error again. */
export function locationsOf(answer: LocationsAnswer): (WireLocation[] | null)[] {
  if ("locations" in answer) return answer.locations;
  throw answer.failure === "storage_unavailable"
    ? new StorageUnavailableError(answer.detail)
    : new CorruptSnapshotError(answer.detail);
}
