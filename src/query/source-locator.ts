// @module SourceLocator: the source code service's contract, and the implementation that reads a snapshot's location pages, file table and source text.
import { StorageUnavailableError } from "../contract/errors.ts";
import { CorruptSnapshotError } from "../format/errors.ts";
import type { WireLocation } from "../format/location-pages.ts";
import { loadPages } from "../format/page-loads.ts";
import type { Snapshot } from "../format/snapshot.ts";
import type { Catalog, Version } from "../storage/catalog.ts";
import { type FileText, fileText, type LineRange } from "./source-file.ts";

export type { FileText, LineRange, WireLocation };

export interface SourceLocator {
  /** Source locations of objects (by rank) of one published version; null for an object without locations. */
  locations(version: Version, ranks: number[]): Promise<(WireLocation[] | null)[]>;
  /** Lines of one file of one published version; null when the version does not list it, or lists it without text. */
  file(version: Version, fileId: string, range: LineRange): Promise<FileText | null>;
}

/** Reads locations straight from the snapshot: what the SourceService entrypoint and Node mode run. */
export class SnapshotSourceLocator implements SourceLocator {
  private readonly catalog: Catalog;

  constructor(catalog: Catalog) {
    this.catalog = catalog;
  }

  async locations(version: Version, ranks: number[]): Promise<(WireLocation[] | null)[]> {
    if (ranks.length === 0) return [];
    return objectLocations(await this.catalog.open(version), ranks);
  }

  async file(version: Version, fileId: string, range: LineRange): Promise<FileText | null> {
    return fileText(await this.catalog.open(version), fileId, range);
  }
}

/**
 * The source locations of the objects of `ranks` (null for one without any, or no object), as the
 * API writes them: the pages holding them read in one round, beside the file ids they name files by.
 */
export async function objectLocations(
  snapshot: Snapshot,
  ranks: readonly number[],
): Promise<(WireLocation[] | null)[]> {
  const count = snapshot.meta.counts.objects;
  const isObject = (r: number) => Number.isInteger(r) && r >= 0 && r < count;
  // The pages need the directory alone: they are asked for once it is in, while the file ids load.
  // A failure of the ids is thrown where they are awaited, not left unobserved meanwhile.
  const ids = snapshot.section("SFID");
  ids.catch(() => {});
  const directory = await snapshot.section("SLCD");
  const wanted = [...new Set(ranks.filter(isObject).map((r) => directory.pageOf(r)))].sort((a, b) => a - b);
  const [pages, fileIds] = await Promise.all([loadPages(snapshot, "SLCP", directory, wanted), ids]);
  return ranks.map((r) => {
    if (!isObject(r)) return null;
    const locations = pages.get(directory.pageOf(r))!.locations(r);
    if (locations.length === 0) return null;
    return locations.map((l) => ({ fileId: fileIds.get(l.file), startLine: l.startLine, endLine: l.endLine }));
  });
}

/**
 * What the source code service answers over RPC. Failures of the storage behind it travel as data:
 * error classes do not survive an RPC boundary, and the API must still answer them as 503 or 500
 * corrupt_snapshot, not as a broken source service.
 */
export type ServiceAnswer<T> = { answer: T } | { failure: "storage_unavailable" | "corrupt_snapshot"; detail: string };
export type LocationsAnswer = ServiceAnswer<(WireLocation[] | null)[]>;
export type FileAnswer = ServiceAnswer<FileText | null>;

/** What `ask` answers, or the storage failure it met, as data for the RPC boundary. */
export async function serviceAnswer<T>(ask: () => Promise<T>): Promise<ServiceAnswer<T>> {
  try {
    return { answer: await ask() };
  } catch (error) {
    if (error instanceof StorageUnavailableError) return { failure: "storage_unavailable", detail: error.message };
    if (error instanceof CorruptSnapshotError) return { failure: "corrupt_snapshot", detail: error.message };
    throw error;
  }
}

/** The caller's side of serviceAnswer: the answer, or the typed storage error again. */
export function answerOf<T>(answer: ServiceAnswer<T>): T {
  if ("answer" in answer) return answer.answer;
  throw answer.failure === "storage_unavailable"
    ? new StorageUnavailableError(answer.detail)
    : new CorruptSnapshotError(answer.detail);
}
