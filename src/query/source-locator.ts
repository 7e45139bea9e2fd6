// @module SourceLocator: the source code service's contract, and the implementation that reads a snapshot's SLOC.
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
