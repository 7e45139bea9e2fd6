// @module DecodedRows: the rows a row directory keeps decoded, under a byte budget: rows that several answers list stay, rows one answer lists once leave first.
//
// A row missed is decoded again from its page (some 60 µs cold with its JSON parsed), or read again
// once its page has left the cache. In the mixed workload, answers come back to the same rows
// hundreds of answers apart: a filter's first page, the objects people look at, their parents and
// callees. Between two such answers, others list thousands of rows once (a walk's points, a rare
// word's matches, a deep page). Kept least recently used first, those push the reused rows out: at
// 1M objects a medium word's page of 50 rows, asked again every 230 answers or so, would decode its
// 50 rows from their pages each time.
//
// So the policy is segmented, as S3-FIFO's queues are (section-cache.ts): a row decoded joins
// probation; listed again by another request while there, it moves to the protected part; rows
// leaving probation unused leave their rank behind as a ghost, and a ghost's row decoded again goes
// straight to the protected part. The protected part keeps its rows least recently used first and
// hands the oldest back to probation when it outgrows its share.
import type { ObjectRow } from "./object-rows.ts";
import { requestNumber } from "./storage-meter.ts";

/** The protected part's share of the budget; probation has the rest. */
const PROTECTED_SHARE = 3 / 4;

/**
 * Past the budget, rows leave until this share of it is kept (and ghosts past their bound, until
 * this share of it): a pass over a Map's oldest entries steps over the slots of every entry deleted
 * since the Map last compacted, and leaving one row per row decoded made that pass for each.
 */
const KEPT_SHARE = 7 / 8;

/** What a ghost (a rank in a Set) weighs, counted in the budget. */
const GHOST_BYTES = 24;

/** Ghosts kept at most: one for each this many bytes of the budget. */
const BYTES_A_GHOST = 512;

interface Kept {
  row: ObjectRow;
  bytes: number;
  /** The request that decoded or last listed it (0 outside any): a use counts only from another. */
  user: number;
}

/** Rows by rank, decoded, under a budget of `budgetBytes` (rows, and the ghosts' ranks). */
export class DecodedRows {
  readonly budgetBytes: number;
  /** Oldest first. */
  private readonly probation = new Map<number, Kept>();
  /** Least recently used first. */
  private readonly protected = new Map<number, Kept>();
  /** Ranks of rows that left probation unused, oldest first. */
  private readonly ghosts = new Set<number>();
  private probationBytes = 0;
  private protectedBytes = 0;

  constructor(budgetBytes: number) {
    this.budgetBytes = budgetBytes;
  }

  /** Bytes the rows and ghosts take. */
  get bytes(): number {
    return this.probationBytes + this.protectedBytes + this.ghosts.size * GHOST_BYTES;
  }

  /** Rows kept. */
  get size(): number {
    return this.probation.size + this.protected.size;
  }

  /** Whether the row of `rank` is kept (no use is counted). */
  has(rank: number): boolean {
    return this.protected.has(rank) || this.probation.has(rank);
  }

  /** The row of `rank` if kept, a use counted; else undefined. */
  get(rank: number): ObjectRow | undefined {
    const guarded = this.protected.get(rank);
    if (guarded) {
      this.protected.delete(rank);
      this.protected.set(rank, guarded);
      return guarded.row;
    }
    const kept = this.probation.get(rank);
    if (!kept) return undefined;
    const user = requestNumber();
    if (user === 0 || user !== kept.user) {
      this.probation.delete(rank);
      this.probationBytes -= kept.bytes;
      kept.user = user;
      this.protect(rank, kept);
    }
    return kept.row;
  }

  /** Keeps `row`, decoded for `rank` and weighing `bytes`: on probation, or protected if its rank is a ghost. */
  add(rank: number, row: ObjectRow, bytes: number): void {
    if (this.has(rank)) return;
    const kept: Kept = { row, bytes, user: requestNumber() };
    if (this.ghosts.delete(rank)) this.protect(rank, kept);
    else {
      this.probation.set(rank, kept);
      this.probationBytes += bytes;
    }
    if (this.bytes > this.budgetBytes) this.shrink();
  }

  private protect(rank: number, kept: Kept): void {
    this.protected.set(rank, kept);
    this.protectedBytes += kept.bytes;
    if (this.protectedBytes <= this.budgetBytes * PROTECTED_SHARE) return;
    // Handed back to probation as its newest: one more chance to be listed again before leaving.
    const keep = this.budgetBytes * PROTECTED_SHARE * KEPT_SHARE;
    for (const [r, old] of this.protected) {
      if (this.protectedBytes <= keep) break;
      this.protected.delete(r);
      this.protectedBytes -= old.bytes;
      this.probation.set(r, old);
      this.probationBytes += old.bytes;
    }
  }

  /** Rows leave probation, oldest first, until KEPT_SHARE of the budget is kept; then the protected part's, if need be. */
  private shrink(): void {
    const keep = this.budgetBytes * KEPT_SHARE;
    for (const [r, old] of this.probation) {
      if (this.bytes <= keep) break;
      this.probation.delete(r);
      this.probationBytes -= old.bytes;
      this.ghosts.add(r);
    }
    for (const [r, old] of this.protected) {
      if (this.bytes <= keep) break;
      this.protected.delete(r);
      this.protectedBytes -= old.bytes;
    }
    const maxGhosts = Math.floor(this.budgetBytes / BYTES_A_GHOST);
    if (this.ghosts.size <= maxGhosts) return;
    const ghostsKept = Math.floor(maxGhosts * KEPT_SHARE);
    for (const r of this.ghosts) {
      if (this.ghosts.size <= ghostsKept) break;
      this.ghosts.delete(r);
    }
  }
}
