// @module Resolves a path object id to its rank, or throws object_not_found.
import { ApiError } from "../contract/errors.ts";
import { parseObjectId } from "../format/id-pages.ts";
import type { Snapshot } from "../format/snapshot.ts";
import { loadPages } from "./pages.ts";

export async function rankOfId(snapshot: Snapshot, id: string): Promise<number> {
  const rank = await lookUp(snapshot, id);
  if (rank < 0)
    throw new ApiError("object_not_found", `application "${snapshot.meta.application}" has no object with id ${id}`, {
      parameter: "id",
    });
  return rank;
}

/** The rank of `id` or -1: from one id page (format 1.2), or from OBJC in older files. */
export async function lookUp(snapshot: Snapshot, id: string): Promise<number> {
  if (!(snapshot.has("IDXD") && snapshot.has("IDXP"))) return (await snapshot.section("OBJC")).rankOf(id);
  const wanted = parseObjectId(id);
  const directory = await snapshot.section("IDXD");
  if (wanted === null || directory.pageCount === 0) return -1;
  const p = directory.pageOf(wanted);
  const pages = await loadPages(snapshot, "IDXP", directory, [p], (page, bytes) => directory.decodePage(page, bytes));
  return pages.get(p)!.rankOf(wanted);
}
