// @module changes: the objects added, deleted and modified between two snapshots of one application, by name (docs/api.md "Changes between two analyses").
import type { ApiChangedObject } from "../contract/api-schemas.ts";
import { readWholeIdPages } from "../format/id-pages.ts";
import { compareIds, compareNames } from "../format/name-order.ts";
import type { Snapshot } from "../format/snapshot.ts";
import { type ObjectSummary, objectRowBatches, summaryBatches } from "./object-rows.ts";

export const CHANGE_STATUSES = ["added", "deleted", "modified"] as const;
export type ChangeStatus = (typeof CHANGE_STATUSES)[number];
const LABEL = { added: "Added", deleted: "Deleted", modified: "Modified" } as const;
const ADDED = 0;
const DELETED = 1;
const MODIFIED = 2;

/**
 * Every change between two snapshots, in name order: its status, and its rank in `to` (added,
 * modified) or in `from` (deleted). Computed once per pair and kept like a section.
 */
export interface ChangeList {
  statuses: Uint8Array;
  ranks: Uint32Array;
  totals: Record<ChangeStatus, number>;
  byteSize: number;
}

export interface ChangesPage {
  totals: Record<ChangeStatus, number>;
  totalObjects: number;
  objects: ApiChangedObject[];
}

/** The page [skip, skip + limit) of the changes of the statuses asked, between `from` and `to`. */
export async function changes(
  from: Snapshot,
  to: Snapshot,
  options: { statuses: readonly ChangeStatus[]; skip: number; limit: number },
): Promise<ChangesPage> {
  const list = await changeList(from, to);
  const wanted = new Uint8Array(3);
  for (const s of options.statuses) wanted[CHANGE_STATUSES.indexOf(s)] = 1;
  let totalObjects = 0;
  for (const s of CHANGE_STATUSES) if (wanted[CHANGE_STATUSES.indexOf(s)]) totalObjects += list.totals[s];
  // The page's positions in the whole list: all of it when every status is asked, else those of the statuses asked.
  const page: number[] = [];
  if (totalObjects === list.statuses.length) {
    const end = Math.min(list.statuses.length, options.skip + options.limit);
    for (let i = options.skip; i < end; i++) page.push(i);
  } else
    for (let i = 0, seen = 0; i < list.statuses.length && page.length < options.limit; i++)
      if (wanted[list.statuses[i]] && seen++ >= options.skip) page.push(i);
  const side = (deleted: boolean) => page.filter((i) => (list.statuses[i] === DELETED) === deleted);
  const [before, after] = await Promise.all([
    summaries(
      from,
      side(true).map((i) => list.ranks[i]),
    ),
    summaries(
      to,
      side(false).map((i) => list.ranks[i]),
    ),
  ]);
  let [b, a] = [0, 0];
  const objects = page.map((i) => {
    const status = CHANGE_STATUSES[list.statuses[i]];
    const { id, name, fullName, type, typeId } = status === "deleted" ? before[b++] : after[a++];
    return { id, name, fullName, type, typeId, status: LABEL[status] };
  });
  return { totals: list.totals, totalObjects, objects };
}

/** The summaries of `ranks` (ascending) of `snapshot`, in that order. */
async function summaries(snapshot: Snapshot, ranks: number[]): Promise<ObjectSummary[]> {
  const out: ObjectSummary[] = [];
  for await (const batch of summaryBatches(snapshot, ranks)) out.push(...batch);
  return out;
}

function changeList(from: Snapshot, to: Snapshot): Promise<ChangeList> {
  if (from.source.key === to.source.key)
    return Promise.resolve({
      statuses: new Uint8Array(0),
      ranks: new Uint32Array(0),
      totals: { added: 0, deleted: 0, modified: 0 },
      byteSize: 0,
    });
  return to.remember(`changes from ${from.source.key}`, () => compare(from, to));
}

/** The ranks marked (non-zero) in `marks`, ascending. */
function marked(marks: Uint8Array): Uint32Array {
  const ranks: number[] = [];
  for (let r = 0; r < marks.length; r++) if (marks[r] !== 0) ranks.push(r);
  return Uint32Array.from(ranks);
}

/** The names and ids of `ranks` (ascending), what changes are ordered by, from their rows. */
async function sortKeysOf(snapshot: Snapshot, ranks: Uint32Array): Promise<{ names: string[]; ids: string[] }> {
  const names: string[] = [];
  const ids: string[] = [];
  for await (const rows of objectRowBatches(snapshot, ranks))
    for (const row of rows) names.push(row.name), ids.push(row.id);
  return { names, ids };
}

/**
 * Walks both id orders at once, as a merge of two sorted lists, marking each object of `to` added
 * or modified and each of `from` deleted; then merges the two sides' marks, each in rank order (name
 * order), by name.
 */
async function compare(from: Snapshot, to: Snapshot): Promise<ChangeList> {
  const [orderA, orderB, statA, statB] = await Promise.all([
    readWholeIdPages(from),
    readWholeIdPages(to),
    from.section("STAT"),
    to.section("STAT"),
  ]);
  const [checksumsA, checksumsB] = [statA.checksums, statB.checksums];
  const [countA, countB] = [orderA.count, orderB.count];
  const deleted = new Uint8Array(countA);
  // 1 + status of each object of `to` that changed, 0 for the others.
  const changedB = new Uint8Array(countB);
  const totals = { added: 0, deleted: 0, modified: 0 };
  let i = 0;
  let j = 0;
  while (i < countA || j < countB) {
    const ra = i < countA ? orderA.rank(i) : -1;
    const rb = j < countB ? orderB.rank(j) : -1;
    const order = i === countA ? 1 : j === countB ? -1 : orderA.compareIds(i, orderB, j);
    if (order < 0) {
      deleted[ra] = 1;
      totals.deleted++;
      i++;
    } else if (order > 0) {
      changedB[rb] = 1 + ADDED;
      totals.added++;
      j++;
    } else {
      if (checksumsA.bothPresentAndDiffer(ra, checksumsB, rb)) {
        changedB[rb] = 1 + MODIFIED;
        totals.modified++;
      }
      i++;
      j++;
    }
  }
  const count = totals.added + totals.deleted + totals.modified;
  const statuses = new Uint8Array(count);
  const ranks = new Uint32Array(count);
  const [deletedRanks, changedRanks] = [marked(deleted), marked(changedB)];
  const [sideA, sideB] = await Promise.all([sortKeysOf(from, deletedRanks), sortKeysOf(to, changedRanks)]);
  // The head of each side, with its name lower-cased once.
  const head = ({ names, ids }: { names: string[]; ids: string[] }, at: number) => {
    const name = at < names.length ? names[at] : "";
    return { name, lower: name.toLowerCase(), id: at < ids.length ? ids[at] : "" };
  };
  let [a, b] = [0, 0];
  let keyA = head(sideA, a);
  let keyB = head(sideB, b);
  for (let k = 0; k < count; k++) {
    const takeA =
      b === changedRanks.length ||
      (a < deletedRanks.length &&
        (compareNames(keyA.lower, keyA.name, keyB.lower, keyB.name) || compareIds(keyA.id, keyB.id)) < 0);
    if (takeA) {
      statuses[k] = DELETED;
      ranks[k] = deletedRanks[a];
      keyA = head(sideA, ++a);
    } else {
      statuses[k] = changedB[changedRanks[b]] - 1;
      ranks[k] = changedRanks[b];
      keyB = head(sideB, ++b);
    }
  }
  return { statuses, ranks, totals, byteSize: 64 + statuses.byteLength + ranks.byteLength };
}
