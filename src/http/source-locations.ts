// @module Adds sourceLocations to rendered objects through the source code service (docs/api.md#source-locations).
import { ApiError, StorageUnavailableError } from "../contract/errors.ts";
import { CorruptSnapshotError } from "../format/errors.ts";
import type { SourceLocator, WireLocation } from "../query/source-locator.ts";
import type { Version } from "../storage/catalog.ts";

/** Copies of `items` with `sourceLocations` where the service has some; omitted (not []) where it has none. */
export async function attachLocations<T extends object>(
  sources: SourceLocator | null,
  version: Version,
  items: readonly T[],
  ranks: number[],
): Promise<(T & { sourceLocations?: WireLocation[] })[]> {
  if (!sources)
    throw new ApiError(
      "source_service_unavailable",
      "the source code service is disabled or not configured on this server",
    );
  let locations: (WireLocation[] | null)[];
  try {
    locations = await sources.locations(version, ranks);
  } catch (error) {
    // The snapshot storage failing behind the service is a storage fault (503), not a broken service.
    if (error instanceof StorageUnavailableError || error instanceof CorruptSnapshotError) throw error;
    throw new ApiError(
      "source_service_unavailable",
      "the source code service did not answer; try again, or ask without select=source-locations",
    );
  }
  return items.map((item, i) => (locations[i] ? { ...item, sourceLocations: locations[i]! } : item));
}
