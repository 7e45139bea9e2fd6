// @module openReadOnly: the cross-check's database opened for serving, with a cache of prepared statements.
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { type Operator, textMatches } from "./text-filter.ts";

export interface ServingDatabase {
  db: DatabaseSync;
  /** The prepared statement for `sql`, prepared once. */
  statement(sql: string): StatementSync;
  application: string;
  objectCount: number;
  /** Distinct display types with their codes (find's `type` filter matches these first). */
  types: { code: number; lower: string }[];
  /** How many objects are internal ([0]) and external ([1]). */
  externalCounts: [number, number];
}

export function openReadOnly(path: string): ServingDatabase {
  const db = new DatabaseSync(path, { readOnly: true });
  // The whole file mapped and a 256 MiB page cache: a tuned read-only server, not a default one.
  db.exec("PRAGMA mmap_size = 4294967296; PRAGMA cache_size = -262144; PRAGMA temp_store = MEMORY;");
  // Filters without an index of their own (fullname, filepath, mangling) scan with JavaScript's
  // lower-casing, the one docs/api.md#text-matching prescribes.
  db.function("text_match", { deterministic: true }, (operator, field, value) =>
    typeof field === "string" && textMatches(operator as Operator, field.toLowerCase(), value as string) ? 1 : 0,
  );
  const statements = new Map<string, StatementSync>();
  const statement = (sql: string) => {
    let prepared = statements.get(sql);
    if (!prepared) statements.set(sql, (prepared = db.prepare(sql)));
    return prepared;
  };
  const meta = new Map(
    (statement("SELECT key, value FROM meta").all() as { key: string; value: string }[]).map((r) => [r.key, r.value]),
  );
  return {
    db,
    statement,
    application: meta.get("application")!,
    objectCount: Number(meta.get("objectCount")),
    types: statement("SELECT code, type_lower AS lower FROM types").all() as { code: number; lower: string }[],
    externalCounts: [0, 1].map(
      (e) => (statement("SELECT count(*) AS n FROM objects WHERE external = ?").get(e) as { n: number }).n,
    ) as [number, number],
  };
}
