// @module objectRows: the displayed fields of some objects from the row store (ROWP), the file's only copy of their names, fullNames and manglings as written; whole, or a batch at a time for answers written as they are read; and ranksPassing: which candidates' rows pass a filter.
import type { ObjectRow, RowDirectory, RowPage } from "../format/object-rows.ts";
import { type LoadOptions, loadPages, readsToLoad } from "../format/page-loads.ts";
import type { Snapshot } from "../format/snapshot.ts";
import type { LowerNeedle } from "../format/string-list.ts";
import { distinctAscending, mapRanks } from "./rank-set.ts";
import { Turns } from "./turns.ts";

export type { ObjectRow };

/** Rows of `ranks`, in the order given (repeats allowed): those kept decoded at once, the others' pages read in one round. */
export async function objectRows(snapshot: Snapshot, ranks: readonly number[]): Promise<ObjectRow[]> {
  if (ranks.length === 0) return [];
  const directory = await snapshot.section("ROWD");
  return rowsOf(directory, await rowRound(snapshot, directory, ranks), ranks, true);
}

/**
 * Reads the pages of the rows of `ranks` (ascending) not kept decoded, and keeps them as stored: for
 * an answer that knows which objects it lists a round of reads before it can list them, so that the
 * two rounds go out as one. Only the first round's rows (ROWS_A_ROUND): a longer list reads the
 * rest as it is written.
 */
export async function loadRows(snapshot: Snapshot, ranks: ArrayLike<number>): Promise<void> {
  if (ranks.length === 0) return;
  await rowRound(snapshot, await snapshot.section("ROWD"), slice(ranks, 0, ROWS_A_ROUND));
}

/** How many reads the rows of `ranks` would take: those not kept decoded, their pages read as loadPages reads them (nothing is read). */
export async function readsForRows(snapshot: Snapshot, ranks: Uint32Array): Promise<number> {
  const directory = await snapshot.section("ROWD");
  const missing = ranks.filter((rank) => !directory.keeps(rank));
  return readsToLoad(snapshot, "ROWP", directory, pagesHolding(directory, missing));
}

/** A test of rows: the needles (lower-cased) one of which a passing row holds in one of its strings, and the test itself. */
export interface RowTest {
  needles: readonly LowerNeedle[];
  passes: (row: ObjectRow) => boolean;
}

/**
 * Row pages a filter goes through between two turns of the event loop (Turns): a few ms in the
 * mixed workload at 1M objects. A name beside a common fullName fragment checks some 2,000
 * candidates on their rows, which without turns would hold every other request for all of them.
 */
const PAGES_A_TURN = 128;

/**
 * The ranks of `candidates` (ascending) whose rows pass every test of `tests`, from the row store's
 * pages however many. A row whose bytes hold none of a test's needles fails it without being
 * decoded: most candidates of a filter do.
 */
export async function ranksPassing(
  snapshot: Snapshot,
  candidates: Uint32Array,
  tests: readonly RowTest[],
  pagesATurn = PAGES_A_TURN,
): Promise<Uint32Array> {
  if (candidates.length === 0) return candidates;
  const directory = await snapshot.section("ROWD");
  const { held, stored } = await rowRound(snapshot, directory, candidates);
  const turns = new Turns(pagesATurn);
  const passing = new Uint32Array(candidates.length);
  let count = 0;
  let last = -1;
  let page: RowPage | undefined;
  for (const r of candidates) {
    const row = held.get(r);
    let passes: boolean;
    if (row) passes = tests.every((test) => test.passes(row));
    else {
      const p = directory.pageOf(r);
      if (p !== last) {
        const turn = turns.after(1);
        if (turn) await turn;
        last = p;
        page = stored.get(p)!;
      }
      passes = tests.every((test) => page!.mayHold(r, test.needles));
      if (passes) {
        // Parsed once, for every test and for keeping.
        const decoded = page!.decoded(r);
        passes = tests.every((test) => test.passes(decoded.row));
        // The answer lists the rows that pass: they are kept decoded, those that fail are not.
        if (passes) directory.keep(r, decoded.row, decoded.bytes);
      }
    }
    if (passes) passing[count++] = r;
  }
  return passing.slice(0, count);
}

/** What answers listing many objects (start and end points, flows, changes) give of each. */
export type ObjectSummary = Pick<ObjectRow, "id" | "name" | "fullName" | "type" | "typeId">;

/** Objects an answer written as it is read takes at a time: some 100 KiB of JSON. */
const ROW_BATCH = 256;

/**
 * Rows whose pages an answer listing many asks for together: one round of reads. Pages are held as
 * stored, some 1 KB each, so 2,048 rows far apart in the name order (a graph's nodes, each on a page
 * of its own) hold some 2 MB, and a million rows take 489 rounds (fewer when they are near: pages
 * side by side share a read).
 */
const ROWS_A_ROUND = 2048;

/** Rounds of reads started ahead of the rows being written, so that storage latency overlaps the writing. */
const ROUNDS_AHEAD = 2;

/**
 * Rows of `ranks` (non-decreasing, repeats allowed) in that order, ROW_BATCH at a time, the pages of
 * those not kept decoded read ROWS_A_ROUND rows a round, ROUNDS_AHEAD rounds ahead. The rows of a
 * long list (more than a round) are decoded for it alone, not kept: they would push out those that
 * answers about a few objects list again.
 */
export async function* objectRowBatches(
  snapshot: Snapshot,
  ranks: ArrayLike<number>,
  load: LoadOptions = {},
): AsyncGenerator<ObjectRow[]> {
  if (ranks.length === 0) return;
  const directory = await snapshot.section("ROWD");
  const keep = ranks.length <= ROWS_A_ROUND;
  const rounds: (Promise<RowRound> | undefined)[] = [];
  const startRound = () => {
    const from = rounds.length * ROWS_A_ROUND;
    const pages = rowRound(snapshot, directory, slice(ranks, from, from + ROWS_A_ROUND), load);
    // A round read ahead whose rows nobody asks for any more (the answer was cut short) must not
    // fail unobserved; a failure the answer reaches is thrown where its round is awaited.
    pages.catch(() => {});
    rounds.push(pages);
  };
  for (let round = 0; round * ROWS_A_ROUND < ranks.length; round++) {
    while (rounds.length <= round + ROUNDS_AHEAD && rounds.length * ROWS_A_ROUND < ranks.length) startRound();
    const rows = (await rounds[round])!;
    rounds[round] = undefined;
    const end = Math.min(ranks.length, (round + 1) * ROWS_A_ROUND);
    for (let from = round * ROWS_A_ROUND; from < end; from += ROW_BATCH)
      yield rowsOf(directory, rows, slice(ranks, from, Math.min(end, from + ROW_BATCH)), keep);
  }
}

/** Summaries of `ranks` (non-decreasing, repeats allowed), in that order, a batch at a time; `load`: how their pages are read. */
export async function* summaryBatches(
  snapshot: Snapshot,
  ranks: ArrayLike<number>,
  load: LoadOptions = {},
): AsyncGenerator<ObjectSummary[]> {
  for await (const rows of objectRowBatches(snapshot, ranks, load))
    yield rows.map(({ id, name, fullName, type, typeId }) => ({ id, name, fullName, type, typeId }));
}

/** `ranks` [from, to), without copying a typed array. */
function slice(ranks: ArrayLike<number>, from: number, to: number): ArrayLike<number> {
  return ranks instanceof Uint32Array ? ranks.subarray(from, to) : Array.prototype.slice.call(ranks, from, to);
}

/**
 * What a round of rows is made from: the rows of its ranks kept decoded (held here, whatever the
 * directory lets go meanwhile), and the stored pages of the others, read together.
 */
interface RowRound {
  held: Map<number, ObjectRow>;
  stored: Map<number, RowPage>;
}

async function rowRound(
  snapshot: Snapshot,
  directory: RowDirectory,
  ranks: ArrayLike<number>,
  load: LoadOptions = {},
): Promise<RowRound> {
  const held = new Map<number, ObjectRow>();
  const missing: number[] = [];
  for (let i = 0; i < ranks.length; i++) {
    const row = directory.keptRow(ranks[i]);
    if (row) held.set(ranks[i], row);
    else missing.push(ranks[i]);
  }
  const stored = missing.length > 0 ? await storedRowPages(snapshot, directory, missing, load) : new Map();
  return { held, stored };
}

/** The rows of `ranks` from `round`: held, or decoded from their pages; those from pages are kept decoded when `keep`. */
function rowsOf(directory: RowDirectory, round: RowRound, ranks: ArrayLike<number>, keep: boolean): ObjectRow[] {
  const rows = new Array<ObjectRow>(ranks.length);
  let last = -1;
  let page: RowPage | undefined;
  for (let i = 0; i < ranks.length; i++) {
    const rank = ranks[i];
    const held = round.held.get(rank);
    if (held) {
      rows[i] = held;
      continue;
    }
    const p = directory.pageOf(rank);
    if (p !== last) {
      last = p;
      page = round.stored.get(p)!;
    }
    rows[i] = keep ? directory.row(page!, rank) : page!.row(rank);
  }
  return rows;
}

/** The row pages holding `ranks` (any order, repeats allowed), as stored, read together. */
function storedRowPages(snapshot: Snapshot, directory: RowDirectory, ranks: ArrayLike<number>, load: LoadOptions) {
  return loadPages(snapshot, "ROWP", directory, pagesHolding(directory, ranks), undefined, load);
}

/** The row pages holding `ranks` (any order, repeats allowed), ascending and distinct. */
function pagesHolding(directory: RowDirectory, ranks: ArrayLike<number>): Uint32Array {
  return distinctAscending(
    mapRanks(ranks, (r) => directory.pageOf(r)),
    directory.pageCount,
  );
}
