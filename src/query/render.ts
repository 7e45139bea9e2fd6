// @module Renders objects as the API writes them (interface.md "Object", "Point", level-5 children).
import type { Snapshot } from "../format/snapshot.ts";
import type { ApiObject, ApiPoint } from "./api-schemas.ts";

export type { ApiObject, ApiPoint };

export async function renderObjects(snapshot: Snapshot, ranks: readonly number[]): Promise<ApiObject[]> {
  if (ranks.length === 0) return [];
  const [core, name, full, type, typeId, filePath, mangling, annotations, tags] = await Promise.all([
    snapshot.section("OBJC"),
    snapshot.section("NAME"),
    snapshot.section("FULL"),
    snapshot.section("TYPE"),
    snapshot.section("TYID"),
    snapshot.section("FPTH"),
    snapshot.section("MANG"),
    snapshot.section("ANNO"),
    snapshot.section("TAGS"),
  ]);
  return ranks.map((r) => ({
    id: core.id(r),
    name: name.get(r),
    fullName: full.get(r),
    type: type.get(r) ?? "",
    typeId: typeId.get(r) ?? "",
    filePath: filePath.get(r),
    mangling: mangling.get(r),
    external: core.external(r),
    annotations: annotations.get(r),
    tags: tags.get(r) ?? [],
  }));
}

export async function renderPoints(snapshot: Snapshot, ranks: readonly number[]): Promise<ApiPoint[]> {
  if (ranks.length === 0) return [];
  const [core, name, full, type] = await Promise.all([snapshot.section("OBJC"), snapshot.section("NAME"), snapshot.section("FULL"), snapshot.section("TYPE")]);
  return ranks.map((r) => ({ id: core.id(r), name: name.get(r), fullName: full.get(r), type: type.get(r) ?? "" }));
}
