// @module fieldMatcher: whether one object's values of a filter field match, read from the field's column (or row), for checking a few candidates instead of matching the whole index.

import type { FilterName, Operator } from "../contract/params.ts";
import type { ObjectRow } from "../format/object-rows.ts";
import type { SectionTag } from "../format/sections.ts";
import type { Snapshot } from "../format/snapshot.ts";
import { valueMatches } from "./text-match.ts";

/**
 * Fields whose values are in key pages (name, fullName, mangling): never checked on their column, a
 * whole section of 18 to 56 MB at 1M objects where the keys of a few candidates take a few pages.
 */
export type PageKeyedField = "name" | "fullname" | "mangling";
export const PAGE_KEYED: ReadonlySet<FilterName> = new Set<PageKeyedField>(["name", "fullname", "mangling"]);
/** Filter fields checked on their column. */
export type ColumnField = Exclude<FilterName, PageKeyedField>;

/** The column each column-checked field's values are read from. */
export const VALUE_COLUMN = {
  type: ["TYPE"],
  filepath: ["FPTH"],
  annotation: ["ANNO"],
  tag: ["TAGS"],
  "post-it": ["PSTI"],
} as const satisfies Record<ColumnField, readonly SectionTag[]>;

/** Whether the object at `rank` has a value of the field matching the filter. */
export type RankMatcher = (rank: number) => boolean;

/**
 * A matcher for `operator` and the lower-cased, distinct `wanted` values (any of them). Dictionary
 * columns decide once per dictionary entry met, then read one code per object.
 */
export async function fieldMatcher(
  snapshot: Snapshot,
  field: ColumnField,
  operator: Operator,
  wanted: readonly string[],
): Promise<RankMatcher> {
  const matchesValue = (value: string) => {
    const key = value.toLowerCase();
    return wanted.some((w) => valueMatches(operator, key, w));
  };
  switch (field) {
    case "type":
    case "filepath": {
      const column = await snapshot.section(field === "type" ? "TYPE" : "FPTH");
      const { dictionary } = column;
      // Per dictionary entry: 0 not decided yet, 1 no match, 2 match.
      const decided = new Uint8Array(dictionary.length);
      return (rank) => {
        const code = column.codeOf(rank);
        if (code < 0) return false;
        if (decided[code] === 0) decided[code] = matchesValue(dictionary.get(code)) ? 2 : 1;
        return decided[code] === 2;
      };
    }
    case "annotation":
    case "tag": {
      const column = await snapshot.section(field === "annotation" ? "ANNO" : "TAGS");
      return (rank) => (column.get(rank) ?? []).some(matchesValue);
    }
    case "post-it": {
      const column = await snapshot.section("PSTI");
      return (rank) => column.get(rank).some((p) => matchesValue(p.title));
    }
  }
}

/** Filter fields a row holds (post-it titles are not in rows). */
export type RowField = Exclude<FilterName, "post-it">;

function rowValues(row: ObjectRow, field: RowField): readonly string[] {
  switch (field) {
    case "name":
      return [row.name];
    case "fullname":
      return [row.fullName];
    case "mangling":
      return [row.mangling];
    case "type":
      return [row.type];
    case "filepath":
      return row.filePath === null ? [] : [row.filePath];
    case "annotation":
      return row.annotations ?? [];
    case "tag":
      return row.tags;
  }
}

/**
 * The same test as fieldMatcher, on an object's row (the row store): for a few candidates whose
 * rows are read anyway, instead of the field's column or index, which may not fit the section
 * budget beside the others (fullName's key pages and trigrams: 61 MB at 1M objects).
 */
export function rowMatcher(
  field: RowField,
  operator: Operator,
  wanted: readonly string[],
): (row: ObjectRow) => boolean {
  return (row) =>
    rowValues(row, field).some((value) => {
      const key = value.toLowerCase();
      return wanted.some((w) => valueMatches(operator, key, w));
    });
}
