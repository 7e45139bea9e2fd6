// @module status.id of an object (docs/api.md#status): explicit, else against the previous published analysis.
import type { Status } from "../format/model.ts";
import type { ObjectRow } from "../format/object-rows.ts";
import type { Snapshot } from "../format/snapshot.ts";
import { lookUp } from "./lookup.ts";

/**
 * The snapshot stores statuses computed against the analysis named by meta.statusBase. When the
 * application's history has another previous version (published out of order, or pruned), the status
 * is computed here against that version instead, so the answer always follows the published history.
 */
export async function statusOf(
  snapshot: Snapshot,
  rank: number,
  row: Pick<ObjectRow, "id" | "explicitStatus" | "status">,
  previous: { key: string; open(): Promise<Snapshot> } | null,
): Promise<Status | null> {
  if (row.explicitStatus) return row.explicitStatus;
  if (snapshot.meta.statusBase === (previous?.key ?? null)) return row.status;
  if (!previous) return "Added";
  const stat = await snapshot.section("STAT");
  const before = await previous.open();
  const beforeRank = await lookUp(before, row.id);
  if (beforeRank < 0) return "Added";
  const [now, then] = [stat.checksum(rank), (await before.section("STAT")).checksum(beforeRank)];
  if (now === null || then === null) return null;
  return now === then ? "Unchanged" : "Modified";
}
