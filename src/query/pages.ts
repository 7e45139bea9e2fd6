// @module loadPages: pages of a paged section (ROWP, LNKP, IDXP) read by range, checked and decoded once, kept in the section cache.
import { check } from "../format/errors.ts";
import type { PageDirectory } from "../format/page-directory.ts";
import type { Snapshot } from "../format/snapshot.ts";

export type PagedTag = "ROWP" | "LNKP" | "IDXP";

/** Consecutive missing pages are read together, up to this many bytes in one read. */
const MAX_RUN_BYTES = 256 * 1024;

/**
 * Pages `wanted` (ascending, distinct) of section `tag`, decoded by `decode` (which checks them
 * against `directory`). A run of consecutive pages shares one read, made only if one of them is
 * not cached already.
 */
export async function loadPages<T extends { byteSize: number }>(
  snapshot: Snapshot,
  tag: PagedTag,
  directory: PageDirectory,
  wanted: readonly number[],
  decode: (page: number, bytes: Uint8Array) => T,
): Promise<Map<number, T>> {
  const base = await pagesStart(snapshot, tag);
  const pages = new Map<number, Promise<T>>();
  const { offsets } = directory;
  for (let i = 0; i < wanted.length; ) {
    let j = i + 1;
    while (j < wanted.length && wanted[j] === wanted[j - 1] + 1 && offsets[wanted[j] + 1] - offsets[wanted[i]] <= MAX_RUN_BYTES) j++;
    const from = offsets[wanted[i]];
    const to = offsets[wanted[j - 1] + 1];
    let run: Promise<Uint8Array> | undefined;
    const runBytes = () => (run ??= snapshot.readPart(tag, base + from, to - from));
    for (let k = i; k < j; k++) {
      const p = wanted[k];
      check(p >= 0 && p < directory.pageCount, `${tag}: no page ${p}`);
      pages.set(p, snapshot.remember(`${tag}#${p}`, async () => decode(p, (await runBytes()).subarray(offsets[p] - from, offsets[p + 1] - from))));
    }
    i = j;
  }
  const loaded = new Map<number, T>();
  for (const [p, page] of pages) loaded.set(p, await page);
  return loaded;
}

/** Offset of a paged section's one block (its pages) in its body, from its block table. */
function pagesStart(snapshot: Snapshot, tag: PagedTag): Promise<number> {
  return snapshot
    .remember(`${tag}#blocks`, async () => {
      // The block table of SNAPSHOT-FORMAT.md §6, read alone: count 1, then block 0's offset and length.
      const head = await snapshot.readPart(tag, 0, 16);
      const table = new DataView(head.buffer, head.byteOffset, 16);
      const [count, start, length] = [table.getUint32(0, true), table.getUint32(8, true), table.getUint32(12, true)];
      check(count === 1 && start >= 16 && start % 8 === 0 && start + length <= snapshot.toc.get(tag)!.length, `${tag}: malformed block table`);
      return { start, byteSize: 16 };
    })
    .then((b) => b.start);
}
