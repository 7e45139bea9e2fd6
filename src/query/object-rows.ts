// @module objectRows: the displayed fields of some objects, from the row store (format 1.1) page by page, or from the columns in older files.
import { check } from "../format/errors.ts";
import type { ObjectRow } from "../format/object-rows.ts";
import type { Snapshot } from "../format/snapshot.ts";
import { loadPages } from "./pages.ts";
import { distinctAscending } from "./rank-set.ts";

export type { ObjectRow };

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

async function fromPages(snapshot: Snapshot, ranks: readonly number[]): Promise<ObjectRow[]> {
  const directory = await snapshot.section("ROWD");
  const pageOfRank = ranks.map((r) => directory.pageOf(r));
  const wanted = distinctAscending(Uint32Array.from(pageOfRank), directory.pageCount);
  // Decoded rows take about twice their JSON's bytes on the heap (strings, arrays and objects with headers).
  const pages = await loadPages(snapshot, "ROWP", directory, wanted, (p, bytes) => ({ rows: directory.decodePage(p, bytes), byteSize: 64 + directory.rawLengths[p] * 2 }));
  return ranks.map((r, i) => {
    const row = pages.get(pageOfRank[i])!.rows[r - directory.firstRanks[pageOfRank[i]]];
    check(row !== undefined, `rank ${r} is not an object`);
    return row;
  });
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

