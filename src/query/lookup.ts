// @module Resolves a path object id to its rank (and its parent's), or throws object_not_found.
import { ApiError } from "../contract/errors.ts";
import { CorruptSnapshotError } from "../format/errors.ts";
import { heldWholeIdPages, parseObjectId, readWholeIdPages, type WholeIdPages } from "../format/id-pages.ts";
import { loadPages } from "../format/page-loads.ts";
import type { Snapshot } from "../format/snapshot.ts";
import { waitUntil } from "../wait-until.ts";

/** An object found by id: its rank and its parent's (NONE, from format/model.ts: none). */
export interface Located {
  rank: number;
  parent: number;
}

export async function rankOfId(snapshot: Snapshot, id: string): Promise<number> {
  return (await locateId(snapshot, id)).rank;
}

/** The rank of `id` and its parent's, or object_not_found. */
export async function locateId(snapshot: Snapshot, id: string): Promise<Located> {
  const located = await locate(snapshot, id);
  if (!located)
    throw new ApiError("object_not_found", `application "${snapshot.meta.application}" has no object with id ${id}`, {
      parameter: "id",
    });
  return located;
}

/** The rank of `id` or -1. */
export async function lookUp(snapshot: Snapshot, id: string): Promise<number> {
  return (await locate(snapshot, id))?.rank ?? -1;
}

/**
 * The id pages are read whole, and kept as one entry, while they take at most this share of the
 * section budget (15.6 MB at 1M objects, of 64 MiB). Nearly every answer about an object starts with
 * its id, and at the edge each id page missing from the cache is a round trip before the object's
 * own row or links can be asked for: page by page, most light answers at 1M objects met an id page
 * not read before, in a mix over a few hundred objects.
 */
const WHOLE_ID_PAGES_SHARE = 1 / 4;

/** `id`'s rank and parent's from its id page (IDXP); null when no object has it. */
async function locate(snapshot: Snapshot, id: string): Promise<Located | null> {
  const wanted = parseObjectId(id);
  const directory = await snapshot.section("IDXD");
  if (wanted === null || directory.pageCount === 0) return null;
  if (directory.pagesBytes <= snapshot.budgetBytes * WHOLE_ID_PAGES_SHARE && !refused.has(snapshot)) {
    const whole = heldWholeIdPages(snapshot);
    if (whole) return whole.find(wanted);
    // Not held yet: this answer reads its own page, not megabytes, and the whole comes behind it
    // for the answers after (joined, not read twice, by those that ask meanwhile).
    waitUntil(wholeIdPages(snapshot));
  }
  const p = directory.pageOf(wanted);
  const pages = await loadPages(snapshot, "IDXP", directory, [p]);
  return pages.get(p)!.find(wanted);
}

/**
 * Snapshots whose id pages, read whole, failed their checks: their ids are looked up page by page
 * from then on, where a damaged page fails only the ids it holds, rather than megabytes read again
 * at every lookup. A read that failed on its way (storage unreachable) is tried again.
 */
const refused = new WeakSet<Snapshot>();

/** Every id page from one read of IDXP's block, kept as one entry; a snapshot whose pages fail their checks is noted. */
function wholeIdPages(snapshot: Snapshot): Promise<WholeIdPages> {
  const whole = readWholeIdPages(snapshot);
  whole.catch((error) => {
    if (error instanceof CorruptSnapshotError) refused.add(snapshot);
  });
  return whole;
}
