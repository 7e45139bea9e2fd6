// @module pointTexts: the JSON text of start and end points as their answer lists them, from the point pages (PNTP), a batch at a time: no row read, no object made.
import { check } from "../format/errors.ts";
import { firstFailing } from "../format/page-directory.ts";
import { loadPages } from "../format/page-loads.ts";
import { type PointDirectory, type PointPage, pointsJson } from "../format/point-pages.ts";
import type { Snapshot } from "../format/snapshot.ts";
import { waitUntil } from "../wait-until.ts";

/** Which of FLOW's lists a point is in: start points first, then end points. */
export type PointRole = "start" | "end";

/** Points written a batch at a time; each batch's pages are read in one round, the next batch's while this one is written. */
const POINTS_A_BATCH = 1024;

/** The positions in the point pages (FLOW's order: start points, then end points) of `ranks` (ascending), which are all `role` points. */
export async function pointsOf(snapshot: Snapshot, ranks: ArrayLike<number>, role: PointRole): Promise<Uint32Array> {
  const flows = await snapshot.section("FLOW");
  const list = role === "start" ? flows.starts : flows.ends;
  const first = role === "start" ? 0 : flows.starts.length;
  const points = new Uint32Array(ranks.length);
  // Both ascend: each rank is searched for past the last one found (a walk lists some hundred of 40k points).
  let j = 0;
  for (let i = 0; i < ranks.length; i++) {
    const rank = ranks[i];
    j = firstFailing(j, list.length, (k) => list[k] < rank);
    check(j < list.length && list[j] === rank, () => `rank ${rank} is not one of FLOW's ${role} points`);
    points[i] = first + j;
  }
  return points;
}

/** The pages holding `points` (ascending): distinct, ascending. */
function pagesOf(directory: PointDirectory, points: Uint32Array): number[] {
  const pages: number[] = [];
  for (const point of points) {
    const p = directory.pageOf(point);
    if (pages[pages.length - 1] !== p) pages.push(p);
  }
  return pages;
}

function loadPointPages(
  snapshot: Snapshot,
  directory: PointDirectory,
  points: Uint32Array,
): Promise<Map<number, PointPage>> {
  return loadPages(snapshot, "PNTP", directory, pagesOf(directory, points));
}

/**
 * The points at positions `points` (ascending, pointsOf), in that order, as JSON arrays of their
 * objects exactly as JSON.stringify writes {id, name, fullName, type}, in UTF-8: a batch a text.
 */
export async function* pointTextBatches(snapshot: Snapshot, points: Uint32Array): AsyncGenerator<Uint8Array> {
  if (points.length === 0) return;
  const directory = await snapshot.section("PNTD");
  let next = loadPointPages(snapshot, directory, points.subarray(0, POINTS_A_BATCH));
  for (let from = 0; from < points.length; from += POINTS_A_BATCH) {
    const batch = points.subarray(from, from + POINTS_A_BATCH);
    const pages = await next;
    if (from + POINTS_A_BATCH < points.length) {
      next = loadPointPages(snapshot, directory, points.subarray(from + POINTS_A_BATCH, from + 2 * POINTS_A_BATCH));
      // Not awaited until the loop comes round: a failed read must not go unhandled meanwhile.
      next.catch(() => {});
    }
    yield pointsJson(batch, (point) => pages.get(directory.pageOf(point))!);
  }
}

/**
 * Starts reading the pages of the first batch of each of `lists` (positions, pointsOf), without
 * waiting: an answer writes its lists one after the other, and the second's pages are then read in
 * the round of the first's.
 */
export function readPointPagesAhead(snapshot: Snapshot, lists: readonly Uint32Array[]): void {
  const firsts = lists.filter((points) => points.length > 0).map((points) => points.subarray(0, POINTS_A_BATCH));
  if (firsts.length === 0) return;
  waitUntil(
    snapshot
      .section("PNTD")
      .then((directory) => Promise.all(firsts.map((points) => loadPointPages(snapshot, directory, points)))),
  );
}
