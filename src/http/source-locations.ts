// @module The source code service as routes ask it: sourceLocations added to rendered objects (docs/api.md#source-locations), and the service's absence and failures as the API's errors.
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
  return withLocations(items, await locationsOf(sources, version, ranks));
}

/** Copies of `items` with the `locations` of the same index, where there are some. */
export function withLocations<T extends object>(
  items: readonly T[],
  locations: readonly (WireLocation[] | null)[],
): (T & { sourceLocations?: WireLocation[] })[] {
  return items.map((item, i) => (locations[i] ? { ...item, sourceLocations: locations[i]! } : item));
}

/** The source locations of the objects of `ranks` from the source code service, its failures turned into the API's errors. */
export async function locationsOf(
  sources: SourceLocator | null,
  version: Version,
  ranks: number[],
): Promise<(WireLocation[] | null)[]> {
  if (!sources) throw sourceServiceOff("select=source-locations", "select");
  return askSourceService(() => sources.locations(version, ranks), "try again, or ask without select=source-locations");
}

/** The error of a request that needs the source code service (`what` it asked for) where the server has none. */
export function sourceServiceOff(what: string, parameter?: string): ApiError {
  return new ApiError(
    "source_service_unavailable",
    `${what} needs the source code service, which is disabled or not configured on this server`,
    parameter ? { parameter } : undefined,
  );
}

/** What `ask` gets from the source code service; its failure an error saying so and what to do (`then`). */
export async function askSourceService<T>(ask: () => Promise<T>, then: string): Promise<T> {
  try {
    return await ask();
  } catch (error) {
    // The snapshot storage failing behind the service is a storage fault (503), not a broken service.
    if (error instanceof StorageUnavailableError || error instanceof CorruptSnapshotError) throw error;
    throw new ApiError("source_service_unavailable", `the source code service did not answer; ${then}`);
  }
}
