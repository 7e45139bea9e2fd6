// @module Renders objects as the API writes them (docs/api.md "Find objects", "Start and end points", "Level nodes"), a batch at a time as the answer is written.
import type { ApiObject, ApiPoint } from "../contract/api-schemas.ts";
import type { Snapshot } from "../format/snapshot.ts";
import { objectRowBatches, summaryBatches } from "./object-rows.ts";
import { StreamedList } from "./streamed-list.ts";

export type { ApiObject, ApiPoint };

/** The objects at `ranks` (non-decreasing), in that order. */
export function renderObjects(snapshot: Snapshot, ranks: ArrayLike<number>): StreamedList<ApiObject> {
  return new StreamedList(() => objectRowBatches(snapshot, ranks)).mapBatches((rows) =>
    rows.map((row) => ({
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
    })),
  );
}

/** The points at `ranks` (non-decreasing), in that order. */
export function renderPoints(snapshot: Snapshot, ranks: ArrayLike<number>): StreamedList<ApiPoint> {
  return new StreamedList(() => summaryBatches(snapshot, ranks)).mapBatches((summaries) =>
    summaries.map((s) => ({ id: s.id, name: s.name, fullName: s.fullName, type: s.type })),
  );
}
