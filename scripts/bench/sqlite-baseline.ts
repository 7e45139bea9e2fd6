// @module The SQLite baseline's query side: each mix query as SQL over the database sqlite-build.ts writes, answering the API's JSON.
import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import type { Operator } from "../../src/contract/params.ts";
import type { BenchQuery, HierarchyDirection, TextFilters } from "./queries.ts";
import { reversed } from "./sqlite-build.ts";

/** An unknown object id: the baseline server answers 404 object_not_found. */
export class ObjectNotFound extends Error {}

type Row = Record<string, SQLInputValue>;

/** Nodes a call hierarchy lists when the request names no limit (docs/api.md). */
const HIERARCHY_LIMIT = 1000;

/** Numeric order of two object ids in decimal without leading zeros. */
const byNumericId = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

/** Condition and arguments of one filter, in SQL over `objects o`. */
interface Condition {
  sql: string;
  args: SQLInputValue[];
}

const TRUE: Condition = { sql: "1", args: [] };

/** `column` starts with `prefix`: a range scan on its index (code-point order is UTF-8 byte order). */
function prefixRange(column: string, prefix: string): Condition {
  if (prefix === "") return TRUE;
  const points = Array.from(prefix);
  let last = points.pop()!.codePointAt(0)! + 1;
  if (last === 0xd800) last = 0xe000;
  if (last > 0x10ffff)
    return { sql: `${column} >= ? AND substr(${column}, 1, ?) = ?`, args: [prefix, Array.from(prefix).length, prefix] };
  return { sql: `${column} >= ? AND ${column} < ?`, args: [prefix, points.join("") + String.fromCodePoint(last)] };
}

/** An FTS5 phrase for "contains `value`" (3+ characters): the trigram tokenizer makes it an exact substring match. */
const containsPhrase = (value: string) => `"${value.replace(/"/g, '""')}"`;

function textMatches(operator: Operator, text: string, value: string): boolean {
  switch (operator) {
    case "contains":
      return text.includes(value);
    case "equals":
      return text === value;
    case "startswith":
      return text.startsWith(value);
    case "endswith":
      return text.endsWith(value);
  }
}

export class SqliteBaseline {
  private readonly db: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();
  private readonly objectCount: number;
  private readonly types: { code: number; lower: string }[];

  constructor(path: string) {
    this.db = new DatabaseSync(path, { readOnly: true });
    // The whole file memory-mapped and a large page cache: what one would give a read-only service.
    this.db.exec("PRAGMA mmap_size=17179869184; PRAGMA cache_size=-262144; PRAGMA temp_store=MEMORY;");
    this.objectCount = Number(this.sql("SELECT value FROM meta WHERE key = 'objects'").get()!.value);
    this.types = this.sql("SELECT code, type_lc FROM types")
      .all()
      .map((r) => ({ code: Number(r.code), lower: String(r.type_lc) }));
  }

  close(): void {
    this.db.close();
  }

  /** The prepared statement for `text`, prepared once. */
  private sql(text: string): StatementSync {
    let statement = this.statements.get(text);
    if (!statement) this.statements.set(text, (statement = this.db.prepare(text)));
    return statement;
  }

  answer(q: BenchQuery): unknown {
    switch (q.route) {
      case "find":
        return this.find(q.filters, q.operator, q.skip, q.limit);
      case "characteristics":
        return this.characteristics(q.id, q.withLocations);
      case "callees":
        return this.callees(q.id, q.includeEscalated, q.withParent);
      case "callers":
        return this.callers(q.id, q.includeEscalated, q.withParent);
      case "call-hierarchy":
        return this.callHierarchy(q.id, q.direction, q.hops);
      case "points":
        return this.points(q.id, q.hops);
      case "level-nodes":
        return this.levelNodes(q.level, q.name, q.nodeId);
      case "level-graph":
        return this.levelGraph(q.level);
    }
  }

  private find(filters: TextFilters, operator: Operator, skip: number, limit: number) {
    let phrase: string | null = null;
    const conditions: Condition[] = [];
    if (filters.name !== undefined) {
      const value = filters.name.toLowerCase();
      // The trigram index needs 3 characters; shorter values scan, as any plan would.
      if (operator === "contains" && Array.from(value).length >= 3) phrase = containsPhrase(value);
      else conditions.push(this.textCondition("o.name_lc", "o.name_rev", operator, value));
    }
    if (filters.fullname !== undefined)
      conditions.push(this.textCondition("o.full_lc", null, operator, filters.fullname.toLowerCase()));
    if (filters.type !== undefined) {
      const value = filters.type.toLowerCase();
      const codes = this.types.filter((t) => textMatches(operator, t.lower, value)).map((t) => t.code);
      conditions.push({ sql: codes.length ? `o.type_code IN (${codes.join(",")})` : "0", args: [] });
    }

    let total: number;
    let ords: number[];
    if (phrase === null && conditions.length === 0) {
      // ord is dense 0..n-1 in name order: a page is a key range, the total a stored count.
      total = this.objectCount;
      ords = [];
      for (let r = skip; r < Math.min(total, skip + limit); r++) ords.push(r);
    } else {
      const plan = this.findPlan(phrase, conditions);
      total = Number(this.sql(`SELECT count(*) AS n ${plan.clause}`).get(...plan.args)!.n);
      ords =
        limit === 0 || skip >= total
          ? []
          : this.sql(`SELECT ${plan.ord} AS ord ${plan.clause} ORDER BY ${plan.ord} LIMIT ? OFFSET ?`)
              .all(...plan.args, limit, skip)
              .map((r) => Number(r.ord));
    }
    const row = this.sql(
      "SELECT id, name, full_name, type, type_id, file_path, mangling, external, annotations, tags FROM objects WHERE ord = ?",
    );
    const objects = ords.map((r) => {
      const o = row.get(r)!;
      return {
        id: o.id,
        name: o.name,
        fullName: o.full_name,
        type: o.type,
        typeId: o.type_id,
        filePath: o.file_path,
        mangling: o.mangling,
        external: o.external === 1,
        annotations: o.annotations === null ? null : JSON.parse(String(o.annotations)),
        tags: JSON.parse(String(o.tags)),
      };
    });
    return { totalObjects: total, objects };
  }

  /**
   * FROM … WHERE … of a filtered find, and the rank column to sort by. A trigram match drives: alone
   * it is answered by the FTS table without touching `objects`; with other filters each FTS hit is
   * joined to its row (in rowid order, so still no sort) and checked.
   */
  private findPlan(
    phrase: string | null,
    conditions: Condition[],
  ): { clause: string; ord: string; args: SQLInputValue[] } {
    const where = conditions.map((c) => c.sql);
    const args = conditions.flatMap((c) => c.args);
    if (phrase === null) return { clause: `FROM objects o WHERE ${where.join(" AND ")}`, ord: "o.ord", args };
    if (where.length === 0) return { clause: "FROM name_fts WHERE name_fts MATCH ?", ord: "rowid", args: [phrase] };
    return {
      clause: `FROM name_fts f JOIN objects o ON o.ord = f.rowid WHERE name_fts MATCH ? AND ${where.join(" AND ")}`,
      ord: "f.rowid",
      args: [phrase, ...args],
    };
  }

  private textCondition(lower: string, reversedColumn: string | null, operator: Operator, value: string): Condition {
    switch (operator) {
      case "contains":
        return { sql: `instr(${lower}, ?) > 0`, args: [value] };
      case "equals":
        return { sql: `${lower} = ?`, args: [value] };
      case "startswith":
        return prefixRange(lower, value);
      case "endswith":
        return reversedColumn
          ? prefixRange(reversedColumn, reversed(value))
          : { sql: `substr(${lower}, -?) = ?`, args: [Array.from(value).length, value] };
    }
  }

  private ordOf(id: string): number {
    const row = this.sql("SELECT ord FROM objects WHERE id = ?").get(id);
    if (!row) throw new ObjectNotFound(`no object ${id}`);
    return Number(row.ord);
  }

  /** The object with its parent; with its source locations when asked and it has some (docs/api.md: omitted, not [], when none). */
  private characteristics(id: string, withLocations: boolean) {
    const o = this.sql(
      "SELECT o.*, p.id AS p_id, p.name AS p_name, p.type AS p_type, p.type_id AS p_type_id FROM objects o LEFT JOIN objects p ON p.ord = o.parent_ord WHERE o.id = ?",
    ).get(id);
    if (!o) throw new ObjectNotFound(`no object ${id}`);
    return {
      id: o.id,
      name: o.name,
      fullName: o.full_name,
      mangling: o.mangling,
      type: o.type,
      typeId: o.type_id,
      annotations: o.annotations === null ? null : JSON.parse(String(o.annotations)),
      // One published analysis: every object is Added unless the analysis says otherwise.
      status: { id: o.status ?? "Added" },
      external: o.external === 1,
      programmingLanguage: { name: o.language },
      parent: o.p_id === null ? null : { id: o.p_id, name: o.p_name, type: o.p_type, typeId: o.p_type_id },
      ...(withLocations ? this.sourceLocations(Number(o.ord)) : {}),
    };
  }

  private sourceLocations(ord: number): { sourceLocations?: unknown[] } {
    const row = this.sql("SELECT list FROM source_locations WHERE ord = ?").get(ord);
    return row ? { sourceLocations: JSON.parse(String(row.list)) } : {};
  }

  /** One row per (callee, link type); a callee is listed when one of its links is direct, and (unless includeEscalated) none escalated. */
  private callees(id: string, includeEscalated: boolean, withParent: boolean) {
    return this.linked("from_ord", "to_ord", id, includeEscalated, withParent);
  }

  /** The mirror of callees: one row per (caller, link type) of the links that end at the object. */
  private callers(id: string, includeEscalated: boolean, withParent: boolean) {
    return this.linked("to_ord", "from_ord", id, includeEscalated, withParent);
  }

  /** The objects at the `other` end of the object's links (its end `end`), judged per object across their link types. */
  private linked(
    end: "from_ord" | "to_ord",
    other: "from_ord" | "to_ord",
    id: string,
    includeEscalated: boolean,
    withParent: boolean,
  ) {
    const rows = this.sql(`
      WITH per AS (SELECT ${other} AS ord, type, max(escalated = 0) AS direct, max(escalated) AS esc FROM links WHERE ${end} = ? GROUP BY ${other}, type),
           linked AS (SELECT ord, max(direct) AS direct, max(esc) AS esc FROM per GROUP BY ord)
      SELECT o.id, o.name, o.type, o.type_id, per.type AS link_type, o.parent_ord, p.type AS p_type, p.type_id AS p_type_id
      FROM per JOIN linked USING (ord) JOIN objects o ON o.ord = per.ord LEFT JOIN objects p ON p.ord = o.parent_ord
      WHERE linked.direct = 1 AND (? OR linked.esc = 0)
      ORDER BY per.ord, per.type`).all(this.ordOf(id), includeEscalated ? 1 : 0);
    return rows.map((r) => {
      const object: Row & { parent?: unknown } = {
        id: r.id,
        name: r.name,
        type: r.type,
        typeId: r.type_id,
        linkType: r.link_type,
      };
      if (withParent) object.parent = r.parent_ord === null ? null : { type: r.p_type, typeId: r.p_type_id };
      return object;
    });
  }

  /**
   * The objects within `hops` links that are not escalated, forward, backward or both, each at its
   * fewest links from the object; sorted by depth then name order and cut to the default limit. The
   * links of a walk leave (forward) or reach (backward) a node less than `hops` links from the object;
   * only those between listed nodes are answered, each (from, to, type) once, in numeric id order.
   */
  private callHierarchy(id: string, direction: HierarchyDirection, hops: number) {
    const origin = this.ordOf(id);
    const walks = (direction === "both" ? ["callees", "callers"] : [direction]).map((way) => {
      const [from, to] = way === "callees" ? ["from_ord", "to_ord"] : ["to_ord", "from_ord"];
      const depths = new Map<number, number>();
      for (const r of this.sql(`
        WITH RECURSIVE walk(ord, depth) AS (SELECT ?, 0 UNION SELECT l.${to}, walk.depth + 1 FROM walk JOIN links l ON l.${from} = walk.ord WHERE l.escalated = 0 AND walk.depth < ?)
        SELECT ord, min(depth) AS depth FROM walk GROUP BY ord`).all(origin, hops))
        depths.set(Number(r.ord), Number(r.depth));
      const links = this.sql(`SELECT DISTINCT from_ord, to_ord, type FROM links WHERE ${from} = ? AND escalated = 0`);
      const expanded = [...depths].filter(([, depth]) => depth < hops).map(([ord]) => ord);
      return { depths, links: expanded.flatMap((ord) => links.all(ord)) };
    });
    const depths = new Map<number, number>();
    for (const walk of walks)
      for (const [ord, depth] of walk.depths) depths.set(ord, Math.min(depth, depths.get(ord) ?? depth));
    const ordered = [...depths].sort((a, b) => a[1] - b[1] || a[0] - b[0]);
    const kept = ordered.slice(0, HIERARCHY_LIMIT);
    const row = this.sql("SELECT id, name, full_name, type, type_id FROM objects WHERE ord = ?");
    const ids = new Map<number, string>();
    const nodes = kept.map(([ord, depth]) => {
      const o = row.get(ord)!;
      ids.set(ord, String(o.id));
      return { id: o.id, name: o.name, fullName: o.full_name, type: o.type, typeId: o.type_id, depth };
    });
    const seen = new Set<string>();
    const links: { from: string; to: string; linkType: string }[] = [];
    for (const l of walks.flatMap((w) => w.links)) {
      const [from, to] = [ids.get(Number(l.from_ord)), ids.get(Number(l.to_ord))];
      const key = `${l.from_ord} ${l.to_ord} ${l.type}`;
      if (from === undefined || to === undefined || seen.has(key)) continue;
      seen.add(key);
      links.push({ from, to, linkType: String(l.type) });
    }
    links.sort(
      (a, b) =>
        byNumericId(a.from, b.from) ||
        byNumericId(a.to, b.to) ||
        (a.linkType < b.linkType ? -1 : a.linkType > b.linkType ? 1 : 0),
    );
    return { totalNodes: depths.size, truncated: depths.size > HIERARCHY_LIMIT, nodes, links };
  }

  /** Start points reaching the object and end points it reaches, each by a recursive CTE over at most `hops` links. */
  private points(id: string, hops: number) {
    const ord = this.ordOf(id);
    const walk = (step: string, role: number) =>
      this.sql(`
        WITH RECURSIVE reached(ord, depth) AS (SELECT ?, 0 UNION SELECT ${step}, reached.depth + 1 FROM reached JOIN links l ON ${step === "l.from_ord" ? "l.to_ord" : "l.from_ord"} = reached.ord WHERE reached.depth < ?)
        SELECT DISTINCT o.ord, o.id, o.name, o.full_name, o.type FROM reached JOIN objects o ON o.ord = reached.ord WHERE o.role = ${role} ORDER BY o.ord`)
        .all(ord, hops)
        .map((r) => ({ id: r.id, name: r.name, fullName: r.full_name, type: r.type }));
    return { startPoints: walk("l.from_ord", 1), endPoints: walk("l.to_ord", 2) };
  }

  private levelNodes(level: number, name: string | undefined, nodeId: number | undefined) {
    const wanted = name?.toLowerCase() ?? null;
    const nodes = this.sql(
      "SELECT idx, name, full_name FROM level_nodes WHERE level = ? AND (? IS NULL OR instr(name_lc, ?) > 0) AND (? IS NULL OR idx = ?) ORDER BY idx",
    ).all(level, wanted, wanted, nodeId ?? null, nodeId ?? null);
    return nodes.map((n) => {
      const children =
        level < 5
          ? this.sql("SELECT idx, name FROM level_nodes WHERE level = ? AND parent_idx = ? ORDER BY idx")
              .all(level + 1, n.idx)
              .map((c) => ({ _id: c.idx, name: c.name, level: level + 1 }))
          : this.sql("SELECT id, name, full_name, type, type_id FROM objects WHERE l5 = ? ORDER BY ord")
              .all(n.idx)
              .map((o) => ({ id: o.id, name: o.name, fullName: o.full_name, type: o.type, typeId: o.type_id }));
      return { _id: n.idx, name: n.name, fullName: n.full_name, level, children };
    });
  }

  private levelGraph(level: number) {
    const nodes = this.sql("SELECT idx, name, full_name, nb_objects FROM level_nodes WHERE level = ? ORDER BY idx").all(
      level,
    );
    const ref = nodes.map((n) => ({ _id: n.idx, name: n.name, fullName: n.full_name }));
    return {
      nodes: nodes.map((n, i) => ({ ...ref[i], nbObjects: n.nb_objects })),
      links: this.sql("SELECT origin, target FROM level_links WHERE level = ? ORDER BY pos")
        .all(level)
        .map((l) => ({ origin: ref[Number(l.origin)], target: ref[Number(l.target)] })),
    };
  }
}
