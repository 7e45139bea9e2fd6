// @module externalRanks: the ranks of the external objects, derived once from OBJC and kept on their own, for `searchtype`.
import type { Snapshot } from "../format/snapshot.ts";
import { filterRanks } from "./rank-set.ts";

/**
 * Ascending ranks of the objects flagged external. OBJC (4.8 MB at 1M objects) is read once for
 * them; the list (4 bytes per external object) then answers every `searchtype` alone, and a deep
 * page of internal objects is a binary search in it instead of a pass over a million flags.
 */
export async function externalRanks(snapshot: Snapshot): Promise<Uint32Array> {
  const kept = await snapshot.remember("OBJC#external", async () => {
    const core = await snapshot.section("OBJC");
    const ranks = filterRanks(null, core.count, (r) => core.external(r));
    return { ranks, byteSize: 64 + ranks.byteLength };
  });
  return kept.ranks;
}
