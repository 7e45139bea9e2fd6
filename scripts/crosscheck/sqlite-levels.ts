// @module Level nodes and level graphs over the precomputed taxonomy tables.
import type { ServingDatabase } from "./sqlite-db.ts";

/** Nodes of `level` (2–5) whose lower-cased name contains `name` and/or whose _id is `id`, with their children, in _id (= name) order. */
export function levelNodes(sql: ServingDatabase, level: number, name: string | undefined, id: number | undefined) {
  const nodes = sql
    .statement(
      "SELECT idx, name, full_name FROM level_nodes WHERE level = ?1 AND (?2 IS NULL OR instr(name_lower, ?2) > 0) AND (?3 IS NULL OR idx = ?3) ORDER BY idx",
    )
    .all(level, name ?? null, id ?? null) as { idx: number; name: string; full_name: string }[];
  return nodes.map((n) => ({
    _id: n.idx,
    name: n.name,
    fullName: n.full_name,
    level,
    children: level < 5 ? childNodes(sql, level, n.idx) : members(sql, n.idx),
  }));
}

function childNodes(sql: ServingDatabase, level: number, idx: number) {
  const rows = sql
    .statement("SELECT idx, name FROM level_nodes WHERE level = ? AND parent = ? ORDER BY idx")
    .all(level + 1, idx) as { idx: number; name: string }[];
  return rows.map((c) => ({ _id: c.idx, name: c.name, level: level + 1 }));
}

function members(sql: ServingDatabase, idx: number) {
  const rows = sql
    .statement("SELECT id, name, full_name, type, type_id FROM objects WHERE level5 = ? ORDER BY rank")
    .all(idx) as Record<string, string>[];
  return rows.map((o) => ({ id: o.id, name: o.name, fullName: o.full_name, type: o.type, typeId: o.type_id }));
}

export function levelGraph(sql: ServingDatabase, level: number) {
  const nodes = sql
    .statement("SELECT idx, name, full_name, nb_objects FROM level_nodes WHERE level = ? ORDER BY idx")
    .all(level) as {
    idx: number;
    name: string;
    full_name: string;
    nb_objects: number;
  }[];
  const ref = (i: number) => ({ _id: i, name: nodes[i].name, fullName: nodes[i].full_name });
  const links = sql.statement("SELECT origin, target FROM level_links WHERE level = ? ORDER BY ord").all(level) as {
    origin: number;
    target: number;
  }[];
  return {
    nodes: nodes.map((n) => ({ ...ref(n.idx), nbObjects: n.nb_objects })),
    links: links.map((l) => ({ origin: ref(l.origin), target: ref(l.target) })),
  };
}
