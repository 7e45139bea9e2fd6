// @module objectRows: the displayed fields of some objects, from the row store (ROWP) row by row, or from the columns; whole, or a batch at a time for answers written as they are read; and ranksPassing: which candidates' rows pass a filter.
import { check } from "../format/errors.ts";
import type { ObjectRow, RowDirectory, RowPage } from "../format/object-rows.ts";
import type { Snapshot } from "../format/snapshot.ts";
import type { LowerNeedle } from "../format/string-list.ts";
import { waitUntil } from "../wait-until.ts";
import { loadPages } from "./pages.ts";
import { distinctAscending } from "./rank-set.ts";
import { streamedColumns, streamedStrings, type TextColumnTag } from "./streamed-column.ts";

export type { ObjectRow };

/**
 * Past this share of all objects (the start and end points of a long walk), whole columns cost less than
 * nearly every page: the answer is then read column by column.
 */
const PAGES_UP_TO_SHARE = 1 / 16;

/** Whether `count` objects' rows are read from the row store's pages rather than from columns. */
function fromRowStore(snapshot: Snapshot, count: number): boolean {
  return count <= Math.max(64, snapshot.meta.counts.objects * PAGES_UP_TO_SHARE);
}

/** Rows of `ranks`, in the order given (repeats allowed). */
export async function objectRows(snapshot: Snapshot, ranks: readonly number[]): Promise<ObjectRow[]> {
  if (ranks.length === 0) return [];
  return fromRowStore(snapshot, ranks.length)
    ? fromPages(snapshot, await snapshot.section("ROWD"), ranks)
    : fromColumns(snapshot, ranks);
}

/** A test of rows: the needles (lower-cased) one of which a passing row holds in one of its strings, and the test itself. */
export interface RowTest {
  needles: readonly LowerNeedle[];
  passes: (row: ObjectRow) => boolean;
}

/**
 * The ranks of `candidates` (ascending) whose rows pass every test of `tests`, from the row store's
 * pages however many. A row whose bytes hold none of a test's needles fails it without being
 * decoded: most candidates of a filter do.
 */
export async function ranksPassing(
  snapshot: Snapshot,
  candidates: Uint32Array,
  tests: readonly RowTest[],
): Promise<Uint32Array> {
  if (candidates.length === 0) return candidates;
  const directory = await snapshot.section("ROWD");
  const pageOfRank = Uint32Array.from(candidates, (r) => directory.pageOf(r));
  const stored = await storedRowPages(snapshot, directory, pageOfRank);
  let last = -1;
  let page: RowPage | undefined;
  return candidates.filter((r, i) => {
    if (pageOfRank[i] !== last) page = directory.scannedPage((last = pageOfRank[i]), stored.get(last)!);
    const passes = tests.every((test) => page!.mayHold(r, test.needles) && test.passes(page!.row(r)));
    // The answer lists the rows that pass: their pages are kept inflated (with those rows decoded).
    if (passes) directory.keep(last, page!);
    return passes;
  });
}

/** What answers listing many objects (start and end points, flows, changes) give of each. */
export type ObjectSummary = Pick<ObjectRow, "id" | "name" | "fullName" | "type" | "typeId">;

/** Objects an answer written as it is read takes at a time: some 100 KiB of JSON. */
const ROW_BATCH = 256;

/**
 * Rows of `ranks` (non-decreasing, repeats allowed) in that order, a batch at a time: from the row
 * store, ROW_BATCH rows at a time, else from the columns as their text columns stream by. A batch's
 * pages are asked for together: they are held as stored (some 1 KB each, inflated one at a time),
 * so a batch of rows far apart in the name order (a graph's nodes), each on a page of its own,
 * holds some 256 KB, and 1,000 such rows take four rounds of reads, not one per 32 pages.
 */
export async function* objectRowBatches(snapshot: Snapshot, ranks: ArrayLike<number>): AsyncGenerator<ObjectRow[]> {
  if (ranks.length === 0) return;
  if (fromRowStore(snapshot, ranks.length)) {
    const directory = await snapshot.section("ROWD");
    for (let from = 0; from < ranks.length; from += ROW_BATCH)
      yield await fromPages(snapshot, directory, Array.from(slice(ranks, from, from + ROW_BATCH)));
    return;
  }
  const build = await columnRow(snapshot);
  yield* streamedColumnBatches(snapshot, ranks, ["NAME", "FULL", "MANG"], (r, [name, fullName, mangling]) =>
    build(r, name, fullName, mangling),
  );
}

/**
 * Starts reading the row pages of the first batch of each of `lists` (ranks, non-decreasing) all at
 * once, without waiting for them: an answer that writes the lists one after the other (start points,
 * then end points) then waits one round of reads for their rows, not one a list. Lists that
 * `summaryBatches` reads from columns are left to stream.
 */
export function readRowsAhead(snapshot: Snapshot, lists: readonly ArrayLike<number>[]): void {
  const count = lists.reduce((sum, list) => sum + list.length, 0);
  if (count === 0 || fromCachedText(snapshot, count)) return;
  const firsts = lists.filter((list) => fromRowStore(snapshot, list.length)).map((list) => slice(list, 0, ROW_BATCH));
  waitUntil(
    snapshot.section("ROWD").then((directory) =>
      storedRowPages(
        snapshot,
        directory,
        firsts.flatMap((ranks) => Array.from(ranks, (r) => directory.pageOf(r))),
      ),
    ),
  );
}

/** Summaries of some ranks (non-decreasing), a batch at a time. */
export type SummaryBatches = (ranks: ArrayLike<number>) => AsyncGenerator<ObjectSummary[]>;

/**
 * NAME and FULL are kept in the section cache to summarize many objects when together they take at
 * most this share of its budget (22 MB at 300k objects); beyond it (74 MB at 1M) they are streamed.
 */
const CACHED_TEXT_SHARE = 1 / 2;

/**
 * How the summaries of an answer listing `count` objects in all are read, chosen for the whole
 * answer even when it lists them in several lists (start and end points),
 * each read in its turn as the answer is written. Up to a batch: from the row store's pages. More,
 * when NAME and FULL fit in the cache: from five columns, those two cached. The objects of such
 * answers are scattered over the name order, so pages cost a page decoded per object: at 300k
 * objects, 13.8k start and end points took 2 s from pages (the cache is smaller than the row
 * store), 0.1 s from the cached columns. Where those do not fit, each list is
 * read as its size says: a few objects from pages, many with NAME and FULL streamed by.
 */
export function summaryBatches(snapshot: Snapshot, count: number): SummaryBatches {
  const fromRows = (ranks: ArrayLike<number>) => summariesOfRows(snapshot, ranks);
  if (fromCachedText(snapshot, count)) return (ranks) => summariesOfColumns(snapshot, ranks, true);
  if (fromRowStore(snapshot, count)) return fromRows;
  return (ranks) =>
    fromRowStore(snapshot, ranks.length) ? fromRows(ranks) : summariesOfColumns(snapshot, ranks, false);
}

/**
 * Objects an answer lists past which NAME and FULL are loaded to summarize them, when they are not
 * held already: loading them reads their megabytes (22 MB at 300k objects) and pushes as much out of
 * the cache, where a few thousand objects cost as many row pages. A 3-hop walk listing 335 points at
 * 300k objects took 253 ms and 43 MiB of buffers loading the columns, 48 ms from pages.
 */
const LOAD_TEXT_FROM = 4096;

/** Whether summaries of `count` objects come from columns, NAME and FULL kept in the cache (loaded for a large answer). */
function fromCachedText(snapshot: Snapshot, count: number): boolean {
  const textBytes = ["NAME", "FULL"].reduce((sum, tag) => sum + (snapshot.toc.get(tag)?.length ?? 0), 0);
  return (
    count > ROW_BATCH &&
    textBytes <= snapshot.budgetBytes * CACHED_TEXT_SHARE &&
    (count > LOAD_TEXT_FROM || (snapshot.holds("NAME") && snapshot.holds("FULL")))
  );
}

async function* summariesOfRows(snapshot: Snapshot, ranks: ArrayLike<number>): AsyncGenerator<ObjectSummary[]> {
  for await (const rows of objectRowBatches(snapshot, ranks))
    yield rows.map(({ id, name, fullName, type, typeId }) => ({ id, name, fullName, type, typeId }));
}

/** From OBJC, TYPE and TYID, with NAME and FULL loaded in the cache (`cachedText`) or streamed. */
async function* summariesOfColumns(
  snapshot: Snapshot,
  ranks: ArrayLike<number>,
  cachedText: boolean,
): AsyncGenerator<ObjectSummary[]> {
  if (ranks.length === 0) return;
  const [core, type, typeId] = await Promise.all([
    snapshot.section("OBJC"),
    snapshot.section("TYPE"),
    snapshot.section("TYID"),
  ]);
  const summary = (r: number, name: string, fullName: string): ObjectSummary => ({
    id: core.id(r),
    name,
    fullName,
    type: type.get(r) ?? "",
    typeId: typeId.get(r) ?? "",
  });
  if (!cachedText) {
    yield* streamedColumnBatches(snapshot, ranks, ["NAME", "FULL"], (r, [name, fullName]) =>
      summary(r, name, fullName),
    );
    return;
  }
  const [names, fullNames] = await Promise.all([snapshot.textColumn("NAME"), snapshot.textColumn("FULL")]);
  for (let from = 0; from < ranks.length; from += ROW_BATCH) {
    const batch: ObjectSummary[] = [];
    for (let i = from; i < Math.min(ranks.length, from + ROW_BATCH); i++) {
      const r = ranks[i];
      check(r >= 0 && r < snapshot.meta.counts.objects, `rank ${r} is not an object`);
      batch.push(summary(r, names.get(r), fullNames.get(r)));
    }
    yield batch;
  }
}

/** `ranks` [from, to), without copying a typed array. */
function slice(ranks: ArrayLike<number>, from: number, to: number): ArrayLike<number> {
  return ranks instanceof Uint32Array ? ranks.subarray(from, to) : Array.prototype.slice.call(ranks, from, to);
}

/** Items built by `item` from the strings of text columns `tags` at `ranks` (non-decreasing), as the columns stream by. */
async function* streamedColumnBatches<T>(
  snapshot: Snapshot,
  ranks: ArrayLike<number>,
  tags: readonly TextColumnTag[],
  item: (rank: number, strings: string[]) => T,
): AsyncGenerator<T[]> {
  const distinct: number[] = [];
  for (let i = 0; i < ranks.length; i++) if (i === 0 || ranks[i] !== ranks[i - 1]) distinct.push(ranks[i]);
  let at = 0;
  let d = 0;
  for await (const columns of streamedColumns(snapshot, tags, distinct)) {
    const items: T[] = [];
    for (let i = 0; i < columns[0].length; i++, d++) {
      const strings = columns.map((strings) => strings[i]);
      for (; at < ranks.length && ranks[at] === distinct[d]; at++) items.push(item(distinct[d], strings));
    }
    yield items;
  }
}

async function fromPages(snapshot: Snapshot, directory: RowDirectory, ranks: readonly number[]): Promise<ObjectRow[]> {
  const pageOfRank = ranks.map((r) => directory.pageOf(r));
  // The cache keeps pages as stored; each is inflated once here (or kept inflated by the directory).
  const stored = await storedRowPages(snapshot, directory, pageOfRank);
  let last = -1;
  let page: RowPage | undefined;
  return ranks.map((r, i) => {
    if (pageOfRank[i] !== last) page = directory.page((last = pageOfRank[i]), stored.get(last)!);
    return page!.row(r);
  });
}

/** The row pages listed in `pages` (a page a rank, repeats allowed), as stored, read together. */
function storedRowPages(snapshot: Snapshot, directory: RowDirectory, pages: ArrayLike<number>) {
  const wanted = distinctAscending(Uint32Array.from(pages), directory.pageCount);
  return loadPages(snapshot, "ROWP", directory, wanted, (p, bytes) => directory.storedPage(p, bytes));
}

async function fromColumns(snapshot: Snapshot, ranks: readonly number[]): Promise<ObjectRow[]> {
  for (const r of ranks) check(r >= 0 && r < snapshot.meta.counts.objects, `rank ${r} is not an object`);
  // The text columns (94 MB at 1M objects) are streamed for the strings wanted, not loaded and kept.
  const distinct = Array.from(distinctAscending(Uint32Array.from(ranks), snapshot.meta.counts.objects));
  const indexOf = new Map(distinct.map((r, i) => [r, i]));
  const [build, names, fullNames, manglings] = await Promise.all([
    columnRow(snapshot),
    streamedStrings(snapshot, "NAME", distinct),
    streamedStrings(snapshot, "FULL", distinct),
    streamedStrings(snapshot, "MANG", distinct),
  ]);
  return ranks.map((r) => {
    const i = indexOf.get(r)!;
    return build(r, names[i], fullNames[i], manglings[i]);
  });
}

/** Builds a rank's row from the columns (loaded here) and its three text strings (streamed by the caller). */
async function columnRow(
  snapshot: Snapshot,
): Promise<(rank: number, name: string, fullName: string, mangling: string) => ObjectRow> {
  const [core, type, typeId, filePath, annotations, tags, language, stat] = await Promise.all([
    snapshot.section("OBJC"),
    snapshot.section("TYPE"),
    snapshot.section("TYID"),
    snapshot.section("FPTH"),
    snapshot.section("ANNO"),
    snapshot.section("TAGS"),
    snapshot.section("LANG"),
    snapshot.section("STAT"),
  ]);
  return (r, name, fullName, mangling) => ({
    id: core.id(r),
    name,
    fullName,
    type: type.get(r) ?? "",
    typeId: typeId.get(r) ?? "",
    filePath: filePath.get(r),
    mangling,
    external: core.external(r),
    annotations: annotations.get(r),
    tags: tags.get(r) ?? [],
    language: language.get(r),
    parent: core.parent(r),
    explicitStatus: stat.explicitStatus(r),
    status: stat.status(r),
  });
}
