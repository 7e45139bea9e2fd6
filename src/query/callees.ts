// @module objectCallees: direct callees per semantics.md §4, one element per (callee, linkType), in name order.
import { LINK_DIRECT, LINK_ESCALATED, NONE } from "../format/model.ts";
import type { Snapshot } from "../format/snapshot.ts";
import type { ApiCallee } from "./api-schemas.ts";
import { rankOfId } from "./lookup.ts";

export type { ApiCallee };

export interface CalleesResult {
  callees: ApiCallee[];
  ranks: number[];
}

/**
 * A callee (the object, across all its link types) is direct when one of its links is not escalated.
 * Without includeEscalated only callees with no escalated link at all are listed; with it, every
 * direct callee. Callees reached only through escalated links are never listed.
 */
export async function objectCallees(snapshot: Snapshot, id: string, options: { includeEscalated: boolean; withParent: boolean }): Promise<CalleesResult> {
  const rank = await rankOfId(snapshot, id);
  const [links, core, name, type, typeId] = await Promise.all([
    snapshot.section("CALE"),
    snapshot.section("OBJC"),
    snapshot.section("NAME"),
    snapshot.section("TYPE"),
    snapshot.section("TYID"),
  ]);
  const callees: ApiCallee[] = [];
  const ranks: number[] = [];
  const end = links.offsets[rank + 1];
  for (let i = links.offsets[rank]; i < end; ) {
    const target = links.targets[i];
    let group = i;
    let flags = 0;
    while (group < end && links.targets[group] === target) flags |= links.flags[group++];
    const listed = flags & LINK_DIRECT && (options.includeEscalated || !(flags & LINK_ESCALATED));
    for (; i < group; i++) {
      if (!listed) continue;
      const callee: ApiCallee = { id: core.id(target), name: name.get(target), type: type.get(target) ?? "", typeId: typeId.get(target) ?? "", linkType: links.linkTypes[links.types[i]] };
      if (options.withParent) {
        const p = core.parent(target);
        callee.parent = p === NONE ? null : { type: type.get(p) ?? "", typeId: typeId.get(p) ?? "" };
      }
      callees.push(callee);
      ranks.push(target);
    }
  }
  return { callees, ranks };
}
