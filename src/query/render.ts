// @module Renders objects as the API writes them (docs/api.md "Find objects", "Start and end points", "Level nodes"), a batch at a time as the answer is written.
import type { ApiObject, ApiPoint } from "../contract/api-schemas.ts";
import { parsePoints } from "../format/point-pages.ts";
import type { Snapshot } from "../format/snapshot.ts";
import { objectRowBatches } from "./object-rows.ts";
import { pointTextBatches } from "./point-texts.ts";
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

/**
 * The points at positions `points` (ascending, pointsOf), in that order: from the point pages, whose
 * text an answer writes as it is; made into objects only when asked for as batches (collect, MCP).
 */
export function renderPoints(snapshot: Snapshot, points: Uint32Array): StreamedList<ApiPoint> {
  const texts = () => pointTextBatches(snapshot, points);
  return new StreamedList(async function* () {
    for await (const json of texts()) yield parsePoints(json);
  }, texts);
}
