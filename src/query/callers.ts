// @module objectCallers: direct callers per docs/api.md "Direct callers", one element per (caller, linkType), in name order: the mirror of callees.

import type { ApiCaller } from "../contract/api-schemas.ts";
import { LINK_DIRECT, LINK_ESCALATED } from "../format/model.ts";
import type { Snapshot } from "../format/snapshot.ts";
import { linkedObjects } from "./callees.ts";
import { linkRows } from "./link-rows.ts";
import { rankOfId } from "./lookup.ts";
import { loadRows } from "./object-rows.ts";
import type { StreamedList } from "./streamed-list.ts";

export interface CallersResult {
  /** Read as they are written. */
  callers: StreamedList<ApiCaller>;
  /** Ranks of `callers`, for fetching their source locations. */
  ranks: number[];
}

/**
 * The object's page lists its distinct callers; each caller's page says with which link types and
 * kinds it calls the object. A caller is direct when one of its links to the object is not
 * escalated; without includeEscalated only callers with no escalated link to it are listed.
 */
export async function objectCallers(
  snapshot: Snapshot,
  id: string,
  options: { includeEscalated: boolean; withParent: boolean },
): Promise<CallersResult> {
  const rank = await rankOfId(snapshot, id);
  const distinct: number[] = [];
  (await linkRows(snapshot, [rank])).forEachCaller(rank, (caller) => distinct.push(caller));
  // Which of them are listed is known once their pages are in; nearly all are, so their rows (and
  // the parents' types, when asked) are read beside those pages rather than a round after.
  const [links] = await Promise.all([
    linkRows(snapshot, distinct),
    loadRows(snapshot, distinct),
    options.withParent && Promise.all([snapshot.section("TYPE"), snapshot.section("TYID")]),
  ]);
  // Callers ascend, and each one's entries to the object ascend by link type.
  const ranks: number[] = [];
  const linkTypes: string[] = [];
  for (const caller of distinct) {
    const types: number[] = [];
    let flags = 0;
    links.forEachLinkTo(caller, [rank], (_target, type, kinds) => {
      types.push(type);
      flags |= kinds;
    });
    if (!(flags & LINK_DIRECT) || (!options.includeEscalated && flags & LINK_ESCALATED)) continue;
    for (const type of types) {
      ranks.push(caller);
      linkTypes.push(links.linkTypes[type]);
    }
  }
  return { callers: linkedObjects(snapshot, ranks, linkTypes, options.withParent), ranks };
}
