// @module objectCallees: direct callees per docs/api.md "Direct callees", one element per (callee, linkType), in name order.

import type { ApiCallee } from "../contract/api-schemas.ts";
import { LINK_DIRECT, LINK_ESCALATED, NONE } from "../format/model.ts";
import type { Snapshot } from "../format/snapshot.ts";
import { linkRows } from "./link-rows.ts";
import { rankOfId } from "./lookup.ts";
import { objectRowBatches } from "./object-rows.ts";
import { StreamedList } from "./streamed-list.ts";

export type { ApiCallee };

export interface CalleesResult {
  /** Read as they are written. */
  callees: StreamedList<ApiCallee>;
  /** Ranks of `callees`, for fetching their source locations. */
  ranks: number[];
}

/**
 * A callee (the object, across all its link types) is direct when one of its links is not escalated.
 * Without includeEscalated only callees with no escalated link at all are listed; with it, every
 * direct callee. Callees reached only through escalated links are never listed.
 */
export async function objectCallees(
  snapshot: Snapshot,
  id: string,
  options: { includeEscalated: boolean; withParent: boolean },
): Promise<CalleesResult> {
  const rank = await rankOfId(snapshot, id);
  const links = await linkRows(snapshot, [rank]);
  const { targets, types, targetFlags } = links.row(rank);
  // Targets ascend (then link types), so the listed ranks do too, as objectRowBatches wants them.
  const ranks: number[] = [];
  const linkTypes: string[] = [];
  for (let i = 0; i < targets.length; ) {
    const target = targets[i];
    let group = i;
    let flags = 0;
    while (group < targets.length && targets[group] === target) flags |= targetFlags[group++];
    const shown = flags & LINK_DIRECT && (options.includeEscalated || !(flags & LINK_ESCALATED));
    for (; i < group; i++)
      if (shown) {
        ranks.push(target);
        linkTypes.push(links.linkTypes[types[i]]);
      }
  }
  return { callees: linkedObjects(snapshot, ranks, linkTypes, options.withParent), ranks };
}

/**
 * The objects at `ranks` (non-decreasing) each with the link type at the same index, as callees
 * and callers list them, with their parent's type (`withParent`). A parent's type and typeId come
 * from the TYPE and TYID columns, asked for with the rows: from the parents' rows they would cost a
 * page each, read only once the rows naming the parents were in (one more round of storage reads).
 */
export function linkedObjects(
  snapshot: Snapshot,
  ranks: readonly number[],
  linkTypes: readonly string[],
  withParent: boolean,
): StreamedList<ApiCallee> {
  return new StreamedList(async function* () {
    const parentTypes = withParent ? Promise.all([snapshot.section("TYPE"), snapshot.section("TYID")]) : null;
    // Awaited only once the first rows are in: a failed read must not go unhandled meanwhile.
    parentTypes?.catch(() => {});
    let from = 0;
    for await (const rows of objectRowBatches(snapshot, ranks)) {
      const [types, typeIds] = parentTypes ? await parentTypes : [null, null];
      yield rows.map((row, k): ApiCallee => {
        const callee: ApiCallee = {
          id: row.id,
          name: row.name,
          type: row.type,
          typeId: row.typeId,
          linkType: linkTypes[from + k],
        };
        if (types && typeIds)
          // Every object has a type and a typeId (the empty string at the least): the columns hold no null.
          callee.parent =
            row.parent === NONE ? null : { type: types.get(row.parent)!, typeId: typeIds.get(row.parent)! };
        return callee;
      });
      from += rows.length;
    }
  });
}
