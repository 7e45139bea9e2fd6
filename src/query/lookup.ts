// @module Resolves a path object id to its rank (and its parent's), or throws object_not_found.
import { ApiError } from "../contract/errors.ts";
import { parseObjectId } from "../format/id-pages.ts";
import type { Snapshot } from "../format/snapshot.ts";
import { loadPages } from "./pages.ts";

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

/** `id`'s rank and parent's from one id page (IDXP); null when no object has it. */
async function locate(snapshot: Snapshot, id: string): Promise<Located | null> {
  const wanted = parseObjectId(id);
  const directory = await snapshot.section("IDXD");
  if (wanted === null || directory.pageCount === 0) return null;
  const p = directory.pageOf(wanted);
  const pages = await loadPages(snapshot, "IDXP", directory, [p], (page, bytes) => directory.decodePage(page, bytes));
  return pages.get(p)!.find(wanted);
}
