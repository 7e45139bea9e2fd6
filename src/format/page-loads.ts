// @module loadPages: pages of a paged section (ROWP, LNKP, IDXP, KNAM, KFUL, KMNG, PNTP, SRCP, a trigram index's posting chunks) read by range, checked and decoded once, kept in the section cache.
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
  for (let i = 0; i < missing.length; ) {
    let j = i + 1;
    while (
      j < missing.length &&
      missing[j] === missing[j - 1] + 1 &&
      offsets[missing[j] + 1] - offsets[missing[i]] <= MAX_RUN_BYTES
    )
      j++;
    const from = offsets[missing[i]];
    const to = offsets[missing[j - 1] + 1];
    let run: Promise<Uint8Array> | undefined;
    const runBytes = () => (run ??= snapshot.readPart(tag, base + from, to - from));
    for (let k = i; k < j; k++) {
      const p = missing[k];
      pages.set(
        p,
        snapshot.remember(pageName(tag, p), async () =>
          directory.decodePage(p, (await runBytes()).subarray(offsets[p] - from, offsets[p + 1] - from)),
        ),
      );
    }
    i = j;
  }
  for (const [p, page] of pages) loaded.set(p, await page);
  return loaded;
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
