// @module One SQL statement read with node-sql-parser (PostgreSQL, then MySQL, then SQLite): the tables and views it creates, reads and writes.
import mysql from "node-sql-parser/build/mysql.js";
import postgresql from "node-sql-parser/build/postgresql.js";
import sqlite from "node-sql-parser/build/sqlite.js";

/** A table or view named by a statement: `name` as written (without quotes), `schema` when it was qualified. */
export interface TableName {
  schema: string | null;
  name: string;
}

export interface StatementFacts {
  creates: { table: TableName; kind: "table" | "view" }[];
  reads: TableName[];
  writes: TableName[];
  /** The dialect that parsed it, or null when none did and only its `CREATE TABLE/VIEW` head was read. */
  dialect: string | null;
}

/** Each dialect's own parser: the package's per-dialect builds, a tenth of the size of the all-dialect one. */
const DIALECTS = [
  ["postgresql", new postgresql.Parser()],
  ["mysql", new mysql.Parser()],
  ["sqlite", new sqlite.Parser()],
] as const;

const WRITES = new Set(["insert", "update", "delete", "replace", "truncate", "alter", "drop"]);

/** `db::name` of node-sql-parser's table list, the schema `null` when absent. */
const tableName = (db: string | null | undefined, name: string): TableName => ({
  schema: db && db !== "null" ? db : null,
  name,
});

/** Names bound by `WITH x AS (...)` anywhere in the statement: they read like tables but are not. */
function commonTableNames(ast: unknown, names = new Set<string>()): Set<string> {
  if (Array.isArray(ast)) for (const a of ast) commonTableNames(a, names);
  else if (ast && typeof ast === "object") {
    const node = ast as Record<string, unknown>;
    if (Array.isArray(node.with))
      for (const w of node.with as { name?: { value?: string } | string }[]) {
        const name = typeof w.name === "string" ? w.name : w.name?.value;
        if (name) names.add(name.toLowerCase());
      }
    for (const value of Object.values(node)) if (value && typeof value === "object") commonTableNames(value, names);
  }
  return names;
}

interface CreateNode {
  type?: string;
  keyword?: string;
  table?: { db: string | null; table: string }[] | null;
  view?: { db: string | null; view: string } | null;
}

function created(ast: CreateNode): StatementFacts["creates"] {
  if (ast.type !== "create") return [];
  if (ast.keyword === "table")
    return (ast.table ?? []).map((t) => ({ table: tableName(t.db, t.table), kind: "table" as const }));
  if (ast.keyword === "view" && ast.view) return [{ table: tableName(ast.view.db, ast.view.view), kind: "view" }];
  return [];
}

/** `ALTER TABLE x ...` changes x, but the parser's table list leaves it out. */
const altered = (ast: CreateNode): TableName[] =>
  ast.type === "alter" ? (ast.table ?? []).map((t) => tableName(t.db, t.table)) : [];

const IDENTIFIER = String.raw`(?:"[^"]+"|\x60[^\x60]+\x60|\[[^\]]+\]|[A-Za-z_][\w$]*)`;
const CREATE_HEAD = new RegExp(
  String.raw`^\s*CREATE\s+(?:OR\s+REPLACE\s+)?(?:(?:GLOBAL|LOCAL)\s+)?(?:TEMP(?:ORARY)?\s+|UNLOGGED\s+)?(MATERIALIZED\s+VIEW|VIEW|TABLE)\s+(?:IF\s+NOT\s+EXISTS\s+)?(${IDENTIFIER}(?:\s*\.\s*${IDENTIFIER})?)`,
  "i",
);
const unquote = (identifier: string) => identifier.trim().replace(/^["`[]|["`\]]$/g, "");

/** What a statement no dialect parses still says for sure: the table or view its `CREATE` head names. */
function createHead(sql: string): StatementFacts | null {
  const head = CREATE_HEAD.exec(sql);
  if (!head) return null;
  const parts = head[2].split(/\s*\.\s*/).map(unquote);
  const table = parts.length === 2 ? { schema: parts[0], name: parts[1] } : { schema: null, name: parts[0] };
  return { creates: [{ table, kind: /VIEW/i.test(head[1]) ? "view" : "table" }], reads: [], writes: [], dialect: null };
}

export class SqlParseError extends Error {}

/** Named parameters of pg-promise (`${id}`, `$(id)`, `$<id>`, `$[id]`, `$/id/`): values, parsed as `0` (a value wherever SQL takes one, `LIMIT` included). */
const NAMED_PARAMETER = /\$(?:\{[^}\n]*\}|\([^)\n]*\)|<[^>\n]*>|\[[^\]\n]*\]|\/[^/\n]*\/)/g;

/** The facts of one statement (one `;`-free SQL text); throws SqlParseError, with the first dialect's message, when no dialect parses it and it is no `CREATE TABLE/VIEW`. */
export function readStatement(sql: string): StatementFacts {
  let firstError: string | null = null;
  const text = sql.replace(NAMED_PARAMETER, "0");
  for (const [dialect, parser] of DIALECTS) {
    let parsed: ReturnType<typeof parser.parse>;
    try {
      parsed = parser.parse(text, { database: dialect });
    } catch (error) {
      firstError ??= (error as Error).message;
      continue;
    }
    const asts = (Array.isArray(parsed.ast) ? parsed.ast : [parsed.ast]) as CreateNode[];
    const creates = asts.flatMap(created);
    const local = commonTableNames(parsed.ast);
    const reads: TableName[] = [];
    const writes: TableName[] = asts.flatMap(altered);
    for (const entry of parsed.tableList) {
      const [action, db, name] = entry.split("::");
      if (local.has(name.toLowerCase())) continue;
      const kind = action.toLowerCase();
      if (kind === "select") reads.push(tableName(db, name));
      else if (WRITES.has(kind)) writes.push(tableName(db, name));
    }
    return { creates, reads, writes, dialect };
  }
  const head = createHead(sql);
  if (head) return head;
  throw new SqlParseError(firstError ?? "not SQL");
}
