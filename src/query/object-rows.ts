// @module objectRows: the displayed fields of some objects, from the row store (format 1.1) page by page, or from the columns in older files.
import { check } from "../format/errors.ts";
import type { ObjectRow } from "../format/object-rows.ts";
import type { Snapshot } from "../format/snapshot.ts";

export type { ObjectRow };

/** Consecutive missing pages are read together, up to this many bytes in one read. */
const MAX_RUN_BYTES = 256 * 1024;

/**
 * Past this share of all objects (a big level-5 node's members), whole columns cost less than
 * nearly every page: the answer is then read column by column.
 */
const PAGES_UP_TO_SHARE = 1 / 16;

/** Rows of `ranks`, in the order given (repeats allowed). */
export async function objectRows(snapshot: Snapshot, ranks: readonly number[]): Promise<ObjectRow[]> {
  if (ranks.length === 0) return [];
  const paged = snapshot.has("ROWD") && snapshot.has("ROWP") && ranks.length <= Math.max(64, snapshot.meta.counts.objects * PAGES_UP_TO_SHARE);
  return paged ? fromPages(snapshot, ranks) : fromColumns(snapshot, ranks);
}

interface CachedPage {
  rows: ObjectRow[];
  byteSize: number;
}

async function fromPages(snapshot: Snapshot, ranks: readonly number[]): Promise<ObjectRow[]> {
  const [directory, base] = await Promise.all([snapshot.section("ROWD"), pagesStart(snapshot)]);
  const pageOfRank = ranks.map((r) => directory.pageOf(r));
  const wanted = [...new Set(pageOfRank)].sort((a, b) => a - b);
  // Runs of consecutive pages share one read, made only if one of their pages is not cached.
  const pages = new Map<number, Promise<CachedPage>>();
  for (let i = 0; i < wanted.length; ) {
    let j = i + 1;
    while (j < wanted.length && wanted[j] === wanted[j - 1] + 1 && directory.offsets[wanted[j] + 1] - directory.offsets[wanted[i]] <= MAX_RUN_BYTES) j++;
    const first = wanted[i];
    const from = directory.offsets[first];
    let run: Promise<Uint8Array> | undefined;
    const runBytes = () => (run ??= snapshot.readPart("ROWP", base + from, directory.offsets[wanted[j - 1] + 1] - from));
    for (const p of wanted.slice(i, j))
      pages.set(
        p,
        snapshot.remember(`ROWP#${p}`, async () => {
          const bytes = (await runBytes()).subarray(directory.offsets[p] - from, directory.offsets[p + 1] - from);
          // Decoded rows take about four times their JSON bytes on the heap.
          return { rows: directory.decodePage(p, bytes), byteSize: 64 + bytes.length * 4 };
        }),
      );
    i = j;
  }
  const loaded = new Map<number, ObjectRow[]>();
  for (const [p, page] of pages) loaded.set(p, (await page).rows);
  return ranks.map((r, i) => {
    const row = loaded.get(pageOfRank[i])![r - directory.firstRanks[pageOfRank[i]]];
    check(row !== undefined, `rank ${r} is not an object`);
    return row;
  });
}

/** Offset of ROWP's one block (the pages) in its body, from its block table. */
function pagesStart(snapshot: Snapshot): Promise<number> {
  return snapshot
    .remember("ROWP#blocks", async () => {
      // The block table of SNAPSHOT-FORMAT.md §6, read alone: count 1, then block 0's offset and length.
      const head = await snapshot.readPart("ROWP", 0, 16);
      const table = new DataView(head.buffer, head.byteOffset, 16);
      const [count, start, length] = [table.getUint32(0, true), table.getUint32(8, true), table.getUint32(12, true)];
      check(count === 1 && start >= 16 && start % 8 === 0 && start + length <= snapshot.toc.get("ROWP")!.length, "ROWP: malformed block table");
      return { start, byteSize: 16 };
    })
    .then((b) => b.start);
}

async function fromColumns(snapshot: Snapshot, ranks: readonly number[]): Promise<ObjectRow[]> {
  const [core, name, full, type, typeId, filePath, mangling, annotations, tags, language, stat] = await Promise.all([
    snapshot.section("OBJC"),
    snapshot.section("NAME"),
    snapshot.section("FULL"),
    snapshot.section("TYPE"),
    snapshot.section("TYID"),
    snapshot.section("FPTH"),
    snapshot.section("MANG"),
    snapshot.section("ANNO"),
    snapshot.section("TAGS"),
    snapshot.section("LANG"),
    snapshot.section("STAT"),
  ]);
  return ranks.map((r) => {
    check(r >= 0 && r < core.count, `rank ${r} is not an object`);
    return {
      id: core.id(r),
      name: name.get(r),
      fullName: full.get(r),
      type: type.get(r) ?? "",
      typeId: typeId.get(r) ?? "",
      filePath: filePath.get(r),
      mangling: mangling.get(r),
      external: core.external(r),
      annotations: annotations.get(r),
      tags: tags.get(r) ?? [],
      language: language.get(r),
      parent: core.parent(r),
      explicitStatus: stat.explicitStatus(r),
      status: stat.status(r),
    };
  });
}
