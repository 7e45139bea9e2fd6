// @module findObjects over SQLite: trigram index for name contains, B-tree ranges for equals/startswith/endswith, type codes, rank order.
import { reversed } from "./name-order.ts";
import type { ServingDatabase } from "./sqlite-db.ts";
import { type Operator, textMatches } from "./text-filter.ts";

export interface FindRequest {
  limit: number;
  skip: number;
  operator: Operator;
  searchtype: "all" | "internal" | "external";
  /** Lower-cased values per filter; values of one filter combine with OR, filters with AND. */
  name: string[];
  fullname: string[];
  type: string[];
  filepath: string[];
  mangling: string[];
}

export const OBJECT_COLUMNS =
  "o.id, o.name, o.full_name, o.type, o.type_id, o.file_path, o.mangling, o.external, o.annotations, o.tags";

export interface ObjectRow {
  id: string;
  name: string;
  full_name: string;
  type: string;
  type_id: string;
  file_path: string | null;
  mangling: string;
  external: number;
  annotations: string | null;
  tags: string;
}

export function objectOf(r: ObjectRow) {
  return {
    id: r.id,
    name: r.name,
    fullName: r.full_name,
    type: r.type,
    typeId: r.type_id,
    filePath: r.file_path,
    mangling: r.mangling,
    external: r.external === 1,
    annotations: r.annotations === null ? null : (JSON.parse(r.annotations) as string[]),
    tags: JSON.parse(r.tags) as string[],
  };
}

/** Above every code point a lower-cased name continues with, so [p, p + MAX) holds the names starting with p. */
const MAX = "\u{10FFFF}";

export function findObjects(
  sql: ServingDatabase,
  q: FindRequest,
): { totalObjects: number; objects: ReturnType<typeof objectOf>[] } {
  const where: string[] = [];
  const params: (string | number)[] = [];
  const trigramQuery = q.name.length > 0 ? nameCondition(q.operator, q.name, where, params) : undefined;
  if (q.type.length > 0) {
    // A few dozen display types: match them here, then select by code, as literals so that the
    // planner walks the type index (it does not for an IN over a bound list).
    const codes = sql.types.filter((t) => q.type.some((v) => textMatches(q.operator, t.lower, v))).map((t) => t.code);
    where.push(`o.type_code IN (${codes.join(", ")})`);
  }
  for (const [column, values] of [
    ["o.full_name", q.fullname],
    ["o.file_path", q.filepath],
    ["o.mangling", q.mangling],
  ] as const) {
    if (values.length === 0) continue;
    where.push(`(${values.map(() => `text_match('${q.operator}', ${column}, ?)`).join(" OR ")})`);
    params.push(...values);
  }
  if (q.searchtype !== "all") where.push(`o.external = ${q.searchtype === "external" ? 1 : 0}`);

  let total: number;
  let ranks: number[];
  if (where.length === 0) {
    // Unfiltered: ranks are dense, so a page is a key range and the total the stored count.
    total = sql.objectCount;
    ranks = Array.from({ length: Math.max(0, Math.min(q.limit, total - q.skip)) }, (_, i) => q.skip + i);
  } else if (where.length === 1 && trigramQuery !== undefined) {
    // Name contains alone: the trigram index counts, and yields rowids (= ranks) in order, so a page stops early.
    total = (
      sql.statement("SELECT count(*) AS n FROM name_trigrams WHERE name_trigrams MATCH ?").get(trigramQuery) as {
        n: number;
      }
    ).n;
    ranks = pageOf(
      sql,
      "SELECT rowid AS rank FROM name_trigrams WHERE name_trigrams MATCH ? ORDER BY rowid LIMIT ? OFFSET ?",
      [trigramQuery],
      q,
      total,
    );
  } else {
    const clause = where.join(" AND ");
    // searchtype alone: the count of internal (external) objects is known at start.
    total =
      where.length === 1 && q.searchtype !== "all"
        ? sql.externalCounts[q.searchtype === "external" ? 1 : 0]
        : (sql.statement(`SELECT count(*) AS n FROM objects o WHERE ${clause}`).get(...params) as { n: number }).n;
    // Ranks first (from an index alone where the filters allow), then the page's rows by rank.
    ranks = pageOf(
      sql,
      `SELECT o.rank FROM objects o WHERE ${clause} ORDER BY o.rank LIMIT ? OFFSET ?`,
      params,
      q,
      total,
    );
  }
  const rows =
    ranks.length === 0
      ? []
      : (sql
          .statement(
            `SELECT ${OBJECT_COLUMNS} FROM objects o WHERE o.rank IN (SELECT value FROM json_each(?)) ORDER BY o.rank`,
          )
          .all(JSON.stringify(ranks)) as unknown as ObjectRow[]);
  return { totalObjects: total, objects: rows.map(objectOf) };
}

function pageOf(
  sql: ServingDatabase,
  query: string,
  params: (string | number)[],
  q: FindRequest,
  total: number,
): number[] {
  if (q.limit === 0 || q.skip >= total) return [];
  return (sql.statement(query).all(...params, q.limit, q.skip) as { rank: number }[]).map((r) => r.rank);
}

/** Adds the name filter to `where`; returns the FTS5 query when the trigram index answers it. */
function nameCondition(
  operator: Operator,
  values: string[],
  where: string[],
  params: (string | number)[],
): string | undefined {
  switch (operator) {
    case "contains":
      if (values.every((v) => Array.from(v).length >= 3)) {
        // One FTS5 query: each value a quoted phrase of trigrams (= an exact substring), ORed.
        const match = values.map((v) => `"${v.replaceAll('"', '""')}"`).join(" OR ");
        where.push("o.rank IN (SELECT rowid FROM name_trigrams WHERE name_trigrams MATCH ?)");
        params.push(match);
        return match;
      } else {
        // The trigram index cannot answer values shorter than 3 characters: scan the column.
        where.push(`(${values.map(() => "instr(o.name_lower, ?) > 0").join(" OR ")})`);
        params.push(...values);
      }
      return;
    case "equals":
      where.push(`o.name_lower IN (${values.map(() => "?").join(", ")})`);
      params.push(...values);
      return;
    case "startswith":
      where.push(`(${values.map(() => "(o.name_lower >= ? AND o.name_lower < ?)").join(" OR ")})`);
      for (const v of values) params.push(v, v + MAX);
      return;
    case "endswith":
      where.push(`(${values.map(() => "(o.name_rev >= ? AND o.name_rev < ?)").join(" OR ")})`);
      for (const v of values) {
        const r = reversed(v);
        params.push(r, r + MAX);
      }
      return;
  }
}
