// @module loadPages: pages of a paged section (ROWP, LNKP, IDXP, KNAM, KFUL, KMNG, PNTP, SRCP, a trigram index's posting chunks) read by range, checked and decoded once, kept in the section cache.

import { waitUntil } from "../wait-until.ts";
import { check } from "./errors.ts";
import type { PageDirectory } from "./page-directory.ts";
import type { SectionTag } from "./sections.ts";
import type { PagesBlock, Snapshot } from "./snapshot.ts";

/**
 * A paged section's directory as loadPages reads its pages: where each lies, and what is kept of
 * one. The query engine hands a directory and page numbers over, and gets the pages' values back: it
 * never sees their offsets or bytes.
 */
export interface PagedDirectory<T> {
  /** Byte offset of each page in the section's pages (P + 1, strictly increasing from 0). */
  readonly offsets: Uint32Array;
  readonly pageCount: number;
  /** What is kept of page `p`, made from its stored bytes exactly and checked against the directory (length, checksum). */
  decodePage(p: number, bytes: Uint8Array): T;
}

/** Consecutive missing pages are read together, up to this many bytes in one read. */
const MAX_RUN_BYTES = 256 * 1024;

/**
 * A load of more runs than its source lets wait at once (ByteSource.connections: R2 behind a
 * Worker lets six) waits for them in turns, a round trip each: at 1M objects a cold `contains`
 * verified its candidates' keys in 290 reads of KNAM, 49 turns. Runs at most this many bytes apart
 * are then read as one, the pages between read and dropped (a few KiB cost less than a turn of 20 ms) ...
 */
export const JOIN_GAP_BYTES = 64 * 1024;

/** ... into reads of at most this many bytes. */
export const JOIN_SPAN_BYTES = 1024 * 1024;

/**
 * A sweeping load (loadPages' `sweeping`) joins runs this far apart: a few hundred KiB cost less
 * than a turn of 20 ms. Joined at 64 KiB and the pages between dropped, a cold 32-hop walk at 1M
 * objects read 704 times, 61 MB (41 of them twice) for 32 MB of link pages.
 */
const SWEEP_GAP_BYTES = 256 * 1024;

/** How a load reads what it misses. */
export interface LoadOptions {
  /**
   * The load is one of many pages of the section for one answer (a walk's frontier, the rows of a
   * graph's nodes): its runs are joined up to SWEEP_GAP_BYTES apart. `"keep"`: the pages a joined
   * read brings between those wanted are kept too, for a walk with levels left to expand, which
   * wants most of them before it ends; `"drop"`: they are not, and the cache is left as it was.
   */
  sweeping?: "keep" | "drop";
}

/**
 * Pages `wanted` (ascending, distinct) of section `tag`, as `directory` decodes them. A run of
 * consecutive pages shares one read, made only if one of them is not cached already. The pages are
 * the section's one block, unless `locate` says where they are.
 */
export async function loadPages<T extends { byteSize: number }>(
  snapshot: Snapshot,
  tag: SectionTag,
  directory: PagedDirectory<T>,
  wanted: ArrayLike<number>,
  locate: () => PagesBlock = () => snapshot.pagesBlock(tag, directory.offsets[directory.pageCount]),
  { sweeping }: LoadOptions = {},
): Promise<Map<number, T>> {
  const loaded = new Map<number, T>();
  // Cached pages are taken synchronously: a warm answer about 30 objects costs no 30 promises.
  const missing: number[] = [];
  for (let i = 0; i < wanted.length; i++) {
    const p = wanted[i];
    // Tested before calling check: its message would be written for every page of every walk's step.
    if (!(p >= 0 && p < directory.pageCount)) check(false, `${tag}: no page ${p}`);
    const page = recallPage<T>(snapshot, tag, p);
    if (page) loaded.set(p, page);
    else missing.push(p);
  }
  if (missing.length === 0) return loaded;
  const { start: base, length } = locate();
  const { offsets } = directory;
  check(
    offsets[directory.pageCount] === length,
    `${tag}: its directory's pages end at ${offsets[directory.pageCount]}, its block at ${length}`,
  );
  const pages = new Map<number, Promise<T>>();
  const joinGap = sweeping ? SWEEP_GAP_BYTES : JOIN_GAP_BYTES;
  for (const span of spansOf(runsOf(missing, offsets), snapshot.connections, joinGap)) {
    let read: Promise<Uint8Array> | undefined;
    const spanBytes = () => (read ??= snapshot.readPart(tag, base + span.from, span.to - span.from));
    const pageIn = (p: number) =>
      snapshot.remember(pageName(tag, p), async () =>
        directory.decodePage(p, (await spanBytes()).subarray(offsets[p] - span.from, offsets[p + 1] - span.from)),
      );
    for (const p of span.pages) pages.set(p, pageIn(p));
    if (sweeping === "keep") keepBetween(snapshot, tag, span.pages, pageIn);
  }
  for (const [p, page] of pages) loaded.set(p, await page);
  return loaded;
}

/**
 * How many reads loadPages would make for pages `wanted` (ascending, distinct) of section `tag`, as
 * `directory` locates them: those not held, in runs joined as it joins them. Nothing is read: what
 * a query weighs one way of answering against another by.
 */
export function readsToLoad(
  snapshot: Snapshot,
  tag: SectionTag,
  directory: Pick<PagedDirectory<unknown>, "offsets">,
  wanted: ArrayLike<number>,
): number {
  const missing: number[] = [];
  for (let i = 0; i < wanted.length; i++) if (!holdsPage(snapshot, tag, wanted[i])) missing.push(wanted[i]);
  return missing.length === 0
    ? 0
    : spansOf(runsOf(missing, directory.offsets), snapshot.connections, JOIN_GAP_BYTES).length;
}

/**
 * Keeps the pages a joined read brings between `wanted` (ascending) and not held already, through
 * `pageIn`; nothing waits for them, and one that fails its check is simply not kept.
 */
function keepBetween<T>(
  snapshot: Snapshot,
  tag: SectionTag,
  wanted: readonly number[],
  pageIn: (p: number) => Promise<T>,
): void {
  for (let p = wanted[0] + 1, k = 1; p < wanted[wanted.length - 1]; p++) {
    if (wanted[k] === p) k++;
    else if (!holdsPage(snapshot, tag, p)) waitUntil(pageIn(p));
  }
}

/** Bytes [from, to) of a paged section's block, read at once, and the pages wanted in them. */
interface Span {
  from: number;
  to: number;
  pages: number[];
}

/** Pages `missing` (ascending, distinct) as runs of consecutive pages, each at most MAX_RUN_BYTES (or one page). */
function runsOf(missing: readonly number[], offsets: Uint32Array): Span[] {
  const runs: Span[] = [];
  for (let i = 0; i < missing.length; ) {
    let j = i + 1;
    while (
      j < missing.length &&
      missing[j] === missing[j - 1] + 1 &&
      offsets[missing[j] + 1] - offsets[missing[i]] <= MAX_RUN_BYTES
    )
      j++;
    runs.push({ from: offsets[missing[i]], to: offsets[missing[j - 1] + 1], pages: missing.slice(i, j) });
    i = j;
  }
  return runs;
}

/**
 * `runs` (ascending) as at most `connections` reads where it can: while there are more, the two
 * nearest neighbours are joined, if at most `joinGap` bytes apart and JOIN_SPAN_BYTES long together.
 * Fewer runs, or any number from a source without a limit, are read as they are: they go out at once.
 */
function spansOf(runs: Span[], connections: number | undefined, joinGap: number): Span[] {
  if (connections === undefined || runs.length <= connections) return runs;
  // Joins go nearest first; each joins a run to its right neighbour as it is by then.
  const byGap = runs
    .slice(0, -1)
    .map((_, i) => i)
    .filter((i) => runs[i + 1].from - runs[i].to <= joinGap)
    .sort((a, b) => runs[a + 1].from - runs[a].to - (runs[b + 1].from - runs[b].to) || a - b);
  // The span each run is in, by the index of its first run: joined spans point to the one they joined.
  const joinedTo = runs.map((_, i) => i);
  const spanOf = (i: number): number => (joinedTo[i] === i ? i : (joinedTo[i] = spanOf(joinedTo[i])));
  const spans = runs.map((r) => ({ ...r, pages: [...r.pages] }));
  let count = runs.length;
  for (const i of byGap) {
    if (count <= connections) break;
    const left = spans[spanOf(i)];
    const right = spans[i + 1];
    if (right.to - left.from > JOIN_SPAN_BYTES) continue;
    left.to = right.to;
    left.pages.push(...right.pages);
    joinedTo[i + 1] = spanOf(i);
    count--;
  }
  return spans.filter((_, i) => joinedTo[i] === i);
}

/** Every page of section `tag` in one read, back to back, not yet checked: each is, against its directory, as it is decoded. */
export function readAllPages(snapshot: Snapshot, tag: SectionTag, directory: PageDirectory): Promise<Uint8Array> {
  const { start, length } = snapshot.pagesBlock(tag, directory.pagesBytes);
  return snapshot.readPart(tag, start, length);
}

/** The name page `p` of section `tag` is kept under in the cache. */
const pageName = (tag: SectionTag, p: number) => `${tag}#${p}`;

/** Whether page `p` of section `tag` is kept now: nothing is read, and no use is counted. */
export function holdsPage(snapshot: Snapshot, tag: SectionTag, p: number): boolean {
  return snapshot.holds(pageName(tag, p));
}

/** Page `p` of section `tag` as `loadPages` keeps it, if it is at hand; else undefined (nothing is read). */
export function recallPage<T extends object>(snapshot: Snapshot, tag: SectionTag, p: number): T | undefined {
  return snapshot.recall<T>(pageName(tag, p));
}
