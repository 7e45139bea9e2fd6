// @module objectRows: the displayed fields of some objects, from the row store (format 1.1) page by page, or from the columns in older files.
import { check } from "../format/errors.ts";
import type { ObjectRow } from "../format/object-rows.ts";
import type { Snapshot } from "../format/snapshot.ts";
import { loadPages } from "./pages.ts";
import { distinctAscending } from "./rank-set.ts";
import { streamedStrings } from "./streamed-column.ts";

export type { ObjectRow };

/**
 * Past this share of all objects (a big level-5 node's members), whole columns cost less than
 * nearly every page: the answer is then read column by column.
 */
const PAGES_UP_TO_SHARE = 1 / 16;

/** Whether `count` objects' rows are read from the row store's pages rather than from columns. */
function fromRowStore(snapshot: Snapshot, count: number): boolean {
  return (
    snapshot.has("ROWD") &&
    snapshot.has("ROWP") &&
    count <= Math.max(64, snapshot.meta.counts.objects * PAGES_UP_TO_SHARE)
  );
}

/** Rows of `ranks`, in the order given (repeats allowed). */
export async function objectRows(snapshot: Snapshot, ranks: readonly number[]): Promise<ObjectRow[]> {
  if (ranks.length === 0) return [];
  return fromRowStore(snapshot, ranks.length) ? fromPages(snapshot, ranks) : fromColumns(snapshot, ranks);
}

/** What a level-5 node lists of each of its objects. */
export type ObjectSummary = Pick<ObjectRow, "id" | "name" | "fullName" | "type" | "typeId">;

/**
 * Summaries of `ranks` (ascending, distinct: a level-5 node's members). Many of them (121k in one
 * node at 1M objects) are read from five columns only, the two text ones streamed, not from all
 * eleven: one answer then holds what it returns, not 170 MB of columns.
 */
export async function objectSummaries(snapshot: Snapshot, ranks: readonly number[]): Promise<ObjectSummary[]> {
  if (ranks.length === 0) return [];
  if (fromRowStore(snapshot, ranks.length))
    return (await fromPages(snapshot, ranks)).map(({ id, name, fullName, type, typeId }) => ({
      id,
      name,
      fullName,
      type,
      typeId,
    }));
  const [core, type, typeId, names, fullNames] = await Promise.all([
    snapshot.section("OBJC"),
    snapshot.section("TYPE"),
    snapshot.section("TYID"),
    streamedStrings(snapshot, "NAME", ranks),
    streamedStrings(snapshot, "FULL", ranks),
  ]);
  return ranks.map((r, i) => ({
    id: core.id(r),
    name: names[i],
    fullName: fullNames[i],
    type: type.get(r) ?? "",
    typeId: typeId.get(r) ?? "",
  }));
}

async function fromPages(snapshot: Snapshot, ranks: readonly number[]): Promise<ObjectRow[]> {
  const directory = await snapshot.section("ROWD");
  const pageOfRank = ranks.map((r) => directory.pageOf(r));
  const wanted = distinctAscending(Uint32Array.from(pageOfRank), directory.pageCount);
  // Decoded rows take about twice their JSON's bytes on the heap (strings, arrays and objects with headers).
  const pages = await loadPages(snapshot, "ROWP", directory, wanted, (p, bytes) => ({
    rows: directory.decodePage(p, bytes),
    byteSize: 64 + directory.rawLengths[p] * 2,
  }));
  return ranks.map((r, i) => {
    const row = pages.get(pageOfRank[i])!.rows[r - directory.firstRanks[pageOfRank[i]]];
    check(row !== undefined, `rank ${r} is not an object`);
    return row;
  });
}

async function fromColumns(snapshot: Snapshot, ranks: readonly number[]): Promise<ObjectRow[]> {
  for (const r of ranks) check(r >= 0 && r < snapshot.meta.counts.objects, `rank ${r} is not an object`);
  // The text columns (94 MB at 1M objects) are streamed for the strings wanted, not loaded and kept.
  const distinct = Array.from(distinctAscending(Uint32Array.from(ranks), snapshot.meta.counts.objects));
  const indexOf = new Map(distinct.map((r, i) => [r, i]));
  const text = async (tag: "NAME" | "FULL" | "MANG") => {
    const strings = await streamedStrings(snapshot, tag, distinct);
    return { get: (r: number) => strings[indexOf.get(r)!] };
  };
  const [core, name, full, type, typeId, filePath, mangling, annotations, tags, language, stat] = await Promise.all([
    snapshot.section("OBJC"),
    text("NAME"),
    text("FULL"),
    snapshot.section("TYPE"),
    snapshot.section("TYID"),
    snapshot.section("FPTH"),
    text("MANG"),
    snapshot.section("ANNO"),
    snapshot.section("TAGS"),
    snapshot.section("LANG"),
    snapshot.section("STAT"),
  ]);
  return ranks.map((r) => {
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
