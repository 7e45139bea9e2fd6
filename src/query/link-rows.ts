// @module linkRows: the links of some objects, both ways, from the link pages (LNKP, by windows or pages).

import { type CalleeEntries, LINK_PAGES_PER_WINDOW, type LinkPage, type LinkRow } from "../format/link-pages.ts";
import { type LoadOptions, loadPages } from "../format/page-loads.ts";
import type { Snapshot } from "../format/snapshot.ts";
import { prefetch } from "../format/storage-meter.ts";
import { distinctAscending } from "./rank-set.ts";

export type { CalleeEntries, LinkRow };

export interface LinkRows {
  /** Link type names; LinkRow.types index them. */
  linkTypes: readonly string[];
  /** The links of `rank`, which must be one of the ranks asked for, copied into columns. */
  row(rank: number): LinkRow;
  /** The object's own flags (OBJC block 0). */
  flagsOf(rank: number): number;
  /**
   * The same links read in place, for walks: each callee entry of `rank` (returning their count);
   * the entries of `rank` to any of `targets` (ascending); each distinct caller of `rank`, ascending, with
   * SOURCE_IS_START or 0 (returning their count).
   */
  forEachCallee(rank: number, visit: (target: number, type: number, flags: number) => void): number;
  /**
   * The callee entries of `ranks` decoded into `into`, one rank after the other, the entries of
   * `ranks[k]` ending at `ends[k]`: forEachCallee for many ranks, without a call per entry or rank.
   */
  calleesOf(ranks: ArrayLike<number>, into: CalleeEntries, ends: Uint32Array): void;
  forEachLinkTo(
    rank: number,
    targets: ArrayLike<number>,
    visit: (target: number, type: number, flags: number) => void,
  ): void;
  forEachCaller(rank: number, visit: (caller: number, flags: number) => void): number;
}

/**
 * Link pages are read and kept by windows of LINK_PAGES_PER_WINDOW while the whole link section
 * takes at most this share of the section cache's budget; beyond it, page by page. A window is
 * worth its bytes when it stays cached, its other pages read ahead for the walks that follow: at
 * 300k objects (10 MB of link pages under 64 MiB), 3-hop walks took one round of reads at the
 * median by windows, two by pages. When the section outgrows the cache, a window weighs 16 pages
 * (72 KB) for the one a walk wants, and walks push each other's windows out: at 1M objects (32 MB),
 * 1,251 of the 1,334 window reads of 1,000 answers read again a window evicted since (85 MiB);
 * page by page, 4 did.
 */
const WINDOWS_UP_TO_SHARE = 1 / 4;

/** Pages per window for `snapshot`'s link pages under its cache's budget. */
function pagesPerWindow(snapshot: Snapshot): number {
  const linkBytes = snapshot.toc.get("LNKP")?.length ?? 0;
  return linkBytes <= snapshot.budgetBytes * WINDOWS_UP_TO_SHARE ? LINK_PAGES_PER_WINDOW : 1;
}

/** The links of `ranks` (repeats allowed); `sweeping`: a walk's frontier (see loadPages). */
export async function linkRows(
  snapshot: Snapshot,
  ranks: ArrayLike<number>,
  { sweeping }: LoadOptions = {},
): Promise<LinkRows> {
  const directory = await snapshot.section("LNKD");
  // Ranks mostly come ascending: a rank on the page of the one before costs no search.
  const pageOfRank = new Uint32Array(ranks.length);
  for (let i = 0, p = -1, end = 0; i < ranks.length; i++) {
    const r = ranks[i];
    if (p < 0 || r < directory.firstRanks[p] || r >= end) end = directory.endOf((p = directory.pageOf(r)));
    pageOfRank[i] = p;
  }
  const pages = distinctAscending(pageOfRank, directory.pageCount);
  const windows = directory.windows(pagesPerWindow(snapshot));
  const wanted = distinctAscending(
    pages.map((p) => windows.of(p)),
    windows.pageCount,
  );
  const loaded = await loadPages(snapshot, "LNKP", windows, wanted, undefined, { sweeping });
  // Walks ask rank after rank in ascending order: the page of the last one asked usually holds the next.
  let last: LinkPage | undefined;
  const page = (rank: number) => {
    if (last?.holds(rank)) return last;
    const p = directory.pageOf(rank);
    last = loaded.get(windows.of(p))!.page(p);
    return last;
  };
  // The ranks asked for are checked now, not at their first entry read: a bad page fails the load.
  for (let i = 0; i < ranks.length; i++) page(ranks[i]).walkTo(ranks[i]);
  return {
    linkTypes: directory.linkTypes,
    row: (rank) => page(rank).row(rank),
    flagsOf: (rank) => page(rank).flagsOf(rank),
    forEachCallee: (rank, visit) => page(rank).forEachCallee(rank, visit),
    calleesOf: (ranks, into, ends) => {
      into.count = 0;
      for (let k = 0; k < ranks.length; k++) {
        page(ranks[k]).calleesInto(ranks[k], into);
        ends[k] = into.count;
      }
    },
    forEachLinkTo: (rank, targets, visit) => page(rank).forEachLinkTo(rank, targets, visit),
    forEachCaller: (rank, visit) => page(rank).forEachCaller(rank, visit),
  };
}

/**
 * Starts loading the link page of `rank` for the answers likely to come next: whoever reads an
 * object, or walks from it without reading its links, mostly asks for its callees or callers soon
 * after. In the mixed workload at 1M objects with 20 ms reads, a third of the callees answers and
 * of the 3-hop walks that took two rounds asked about an object that an earlier answer had read
 * without its links; prefetched, they take one. A page already held counts as used, as by the
 * answer it is prefetched for, so the cache keeps it as long.
 *
 * Nothing is prefetched from a source whose reads have no connection limit (a local file, memory):
 * a later answer reads the page itself as fast, and read now, in the answer's own turn of the event
 * loop, its window costs this answer. In process at 1M objects, without it characteristics and
 * 1-hop walks took some 10% less (their median in the mix), callees no more.
 */
export function prefetchLinks(snapshot: Snapshot, rank: number): void {
  if (snapshot.connections === undefined) return;
  prefetch(async () => {
    const directory = await snapshot.section("LNKD");
    const windows = directory.windows(pagesPerWindow(snapshot));
    await loadPages(snapshot, "LNKP", windows, [windows.of(directory.pageOf(rank))]);
  });
}
