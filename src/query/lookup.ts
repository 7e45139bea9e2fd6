// @module Resolves a path object id to its rank, or throws object_not_found.
import { ApiError } from "../api-error.ts";
import type { Snapshot } from "../format/snapshot.ts";

export async function rankOfId(snapshot: Snapshot, id: string): Promise<number> {
  const rank = (await snapshot.section("OBJC")).rankOf(id);
  if (rank < 0) throw new ApiError("object_not_found", `application "${snapshot.meta.application}" has no object with id ${id}`, { parameter: "id" });
  return rank;
}
