// @module objectCharacteristics: one object with status, language and parent (interface.md "Object characteristics").
import { NONE } from "../format/model.ts";
import type { Snapshot } from "../format/snapshot.ts";
import type { ApiCharacteristics } from "./api-schemas.ts";
import { rankOfId } from "./lookup.ts";
import { statusOf } from "./status.ts";

export type { ApiCharacteristics };

export async function objectCharacteristics(
  snapshot: Snapshot,
  id: string,
  previous: Parameters<typeof statusOf>[2],
): Promise<{ object: ApiCharacteristics; rank: number }> {
  const rank = await rankOfId(snapshot, id);
  const [core, name, full, mangling, type, typeId, annotations, language] = await Promise.all([
    snapshot.section("OBJC"),
    snapshot.section("NAME"),
    snapshot.section("FULL"),
    snapshot.section("MANG"),
    snapshot.section("TYPE"),
    snapshot.section("TYID"),
    snapshot.section("ANNO"),
    snapshot.section("LANG"),
  ]);
  const p = core.parent(rank);
  return {
    rank,
    object: {
      id: core.id(rank),
      name: name.get(rank),
      fullName: full.get(rank),
      mangling: mangling.get(rank),
      type: type.get(rank) ?? "",
      typeId: typeId.get(rank) ?? "",
      annotations: annotations.get(rank),
      status: { id: await statusOf(snapshot, rank, previous) },
      external: core.external(rank),
      programmingLanguage: { name: language.get(rank) },
      parent: p === NONE ? null : { id: core.id(p), name: name.get(p), type: type.get(p) ?? "", typeId: typeId.get(p) ?? "" },
    },
  };
}
