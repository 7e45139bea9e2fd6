// @module Renders objects as the API writes them (docs/api.md "Find objects", "Start and end points", "Level nodes").

import type { ApiObject, ApiPoint } from "../contract/api-schemas.ts";
import type { Snapshot } from "../format/snapshot.ts";
import { objectRows } from "./object-rows.ts";

export type { ApiObject, ApiPoint };

export async function renderObjects(snapshot: Snapshot, ranks: readonly number[]): Promise<ApiObject[]> {
  return (await objectRows(snapshot, ranks)).map((row) => ({
    id: row.id,
    name: row.name,
    fullName: row.fullName,
    type: row.type,
    typeId: row.typeId,
    filePath: row.filePath,
    mangling: row.mangling,
    external: row.external,
    annotations: row.annotations,
    tags: row.tags,
  }));
}

export async function renderPoints(snapshot: Snapshot, ranks: readonly number[]): Promise<ApiPoint[]> {
  return (await objectRows(snapshot, ranks)).map((row) => ({
    id: row.id,
    name: row.name,
    fullName: row.fullName,
    type: row.type,
  }));
}
