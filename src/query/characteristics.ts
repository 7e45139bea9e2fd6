// @module objectCharacteristics: one object with status, language and parent (docs/api.md "Object characteristics").

import type { ApiCharacteristics } from "../contract/api-schemas.ts";
import { NONE } from "../format/model.ts";
import type { Snapshot } from "../format/snapshot.ts";
import { prefetchLinks } from "./link-rows.ts";
import { locateId } from "./lookup.ts";
import { objectRows } from "./object-rows.ts";
import { statusOf } from "./status.ts";

export type { ApiCharacteristics };

export async function objectCharacteristics(
  snapshot: Snapshot,
  id: string,
  previous: Parameters<typeof statusOf>[3],
): Promise<{ object: ApiCharacteristics; rank: number }> {
  // The id page gives the parent too: both rows are asked for at once, one round of reads.
  const { rank, parent: parentRank } = await locateId(snapshot, id);
  const rows = objectRows(snapshot, parentRank === NONE ? [rank] : [rank, parentRank]);
  prefetchLinks(snapshot, rank);
  const [row, parent = null] = await rows;
  return {
    rank,
    object: {
      id: row.id,
      name: row.name,
      fullName: row.fullName,
      mangling: row.mangling,
      type: row.type,
      typeId: row.typeId,
      annotations: row.annotations,
      status: { id: await statusOf(snapshot, rank, row, previous) },
      external: row.external,
      programmingLanguage: { name: row.language },
      parent: parent && { id: parent.id, name: parent.name, type: parent.type, typeId: parent.typeId },
    },
  };
}
