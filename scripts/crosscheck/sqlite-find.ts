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

export const OBJECT_COLUMNS = "o.id, o.name, o.full_name, o.type, o.type_id, o.file_path, o.mangling, o.external, o.annotations, o.tags";

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
    id: r.id, name: r.name, fullName: r.full_name, type: r.type, typeId: r.type_id, filePath: r.file_path, mangling: r.mangling,
    external: r.external === 1, annotations: r.annotations === null ? null : (JSON.parse(r.annotations) as string[]), tags: JSON.parse(r.tags) as string[],
  };
}

/** Above every code point a lower-cased name continues with, so [p, p + MAX) holds the names starting with p. */
const MAX = "\u{10FFFF}";

export function findObjects(sql: ServingDatabase, q: FindRequest): { totalObjects: number; objects: ReturnType<typeof objectOf>[] } {
  const where: string[] = [];
  const params: (string | number)[] = [];
  if (q.name.length > 0) nameCondition(q.operator, q.name, where, params);
  if (q.type.length > 0) {
    const codes = sql.types.filter((t) => q.type.some((v) => textMatches(q.operator, t.lower, v))).map((t) => t.code);
    where.push("o.type_code IN (SELECT value FROM json_each(?))");
    params.push(JSON.stringify(codes));
  }
  for (const [column, values] of [["o.full_name", q.fullname], ["o.file_path", q.filepath], ["o.mangling", q.mangling]] as const) {
    if (values.length === 0) continue;
    where.push(`(${values.map(() => `text_match('${q.operator}', ${column}, ?)`).join(" OR ")})`);
    params.push(...values);
  }
  if (q.searchtype !== "all") where.push(`o.external = ${q.searchtype === "external" ? 1 : 0}`);

  if (where.length === 0) {
    // Unfiltered: ranks are dense, so a page is a key range and the total the stored count.
    const rows = q.limit === 0 ? [] : (sql.statement(`SELECT ${OBJECT_COLUMNS} FROM objects o WHERE o.rank >= ? ORDER BY o.rank LIMIT ?`).all(q.skip, q.limit) as unknown as ObjectRow[]);
    return { totalObjects: sql.objectCount, objects: rows.map(objectOf) };
  }
  const clause = where.join(" AND ");
  const total = (sql.statement(`SELECT count(*) AS n FROM objects o WHERE ${clause}`).get(...params) as { n: number }).n;
  const rows =
    q.limit === 0 || q.skip >= total
      ? []
      : (sql.statement(`SELECT ${OBJECT_COLUMNS} FROM objects o WHERE ${clause} ORDER BY o.rank LIMIT ? OFFSET ?`).all(...params, q.limit, q.skip) as unknown as ObjectRow[]);
  return { totalObjects: total, objects: rows.map(objectOf) };
}

function nameCondition(operator: Operator, values: string[], where: string[], params: (string | number)[]): void {
  switch (operator) {
    case "contains":
      if (values.every((v) => Array.from(v).length >= 3)) {
        // One FTS5 query: each value a quoted phrase of trigrams (= an exact substring), ORed.
        where.push("o.rank IN (SELECT rowid FROM name_trigrams WHERE name_trigrams MATCH ?)");
        params.push(values.map((v) => `"${v.replaceAll('"', '""')}"`).join(" OR "));
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
