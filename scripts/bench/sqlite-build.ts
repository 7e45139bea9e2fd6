// @module Builds the SQLite baseline database (node:sqlite) from an analysis, as a careful engineer would for the same queries.
//
// Objects are stored in name order (`ord`, the INTEGER PRIMARY KEY): every sorted answer walks the
// rowid, and a B-tree index on a column keeps equal keys in rowid order. Lower-cased copies follow
// docs/api.md#text-matching exactly (JavaScript toLowerCase, which SQLite's ASCII-only lower() is not);
// `name_rev` (reversed) turns endswith into a range scan. Contains on names goes through an FTS5
// trigram index over `name_lc` (external content, with positions: a quoted phrase of 3+ characters
// is an exact substring match answered from the index alone, where detail=none with GLOB checks
// every candidate's row, 5–10× slower for substrings in 5 % of the names). Links are a WITHOUT ROWID table keyed by caller, with an index by callee,
// for callees and the recursive CTEs of start/end points. Each object's source locations are one
// JSON text keyed by its rank, in a table of their own (the object rows stay narrow). Levels, their children, object counts and
// graph edges are precomputed tables.
import { rmSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import type { AnalysisTables } from "./analysis-tables.ts";

const SCHEMA = `
CREATE TABLE meta(key TEXT PRIMARY KEY, value) WITHOUT ROWID;
CREATE TABLE types(code INTEGER PRIMARY KEY, type TEXT NOT NULL, type_lc TEXT NOT NULL);
CREATE TABLE objects(
  ord INTEGER PRIMARY KEY, id TEXT NOT NULL, name TEXT NOT NULL, full_name TEXT NOT NULL, type TEXT NOT NULL,
  type_id TEXT NOT NULL, type_code INTEGER NOT NULL, language TEXT, file_path TEXT, mangling TEXT NOT NULL,
  external INTEGER NOT NULL, annotations TEXT, tags TEXT NOT NULL, parent_ord INTEGER, l5 INTEGER NOT NULL,
  role INTEGER NOT NULL, status TEXT, name_lc TEXT NOT NULL, name_rev TEXT NOT NULL, full_lc TEXT NOT NULL);
CREATE TABLE source_locations(ord INTEGER PRIMARY KEY, list TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE links(from_ord INTEGER, to_ord INTEGER, type TEXT, escalated INTEGER, PRIMARY KEY(from_ord, to_ord, type, escalated)) WITHOUT ROWID;
CREATE TABLE level_nodes(level INTEGER, idx INTEGER, name TEXT NOT NULL, full_name TEXT NOT NULL, name_lc TEXT NOT NULL,
  parent_idx INTEGER, nb_objects INTEGER NOT NULL, PRIMARY KEY(level, idx)) WITHOUT ROWID;
CREATE TABLE level_links(level INTEGER, pos INTEGER, origin INTEGER, target INTEGER, PRIMARY KEY(level, pos)) WITHOUT ROWID;
CREATE VIRTUAL TABLE name_fts USING fts5(name_lc, content='objects', content_rowid='ord', tokenize='trigram case_sensitive 1');
`;

const INDEXES = `
CREATE UNIQUE INDEX objects_id ON objects(id);
CREATE INDEX objects_name_lc ON objects(name_lc);
CREATE INDEX objects_name_rev ON objects(name_rev);
CREATE INDEX objects_full_lc ON objects(full_lc);
CREATE INDEX objects_type ON objects(type_code);
CREATE INDEX objects_l5 ON objects(l5);
CREATE INDEX links_to ON links(to_ord, from_ord);
CREATE INDEX level_children ON level_nodes(level, parent_idx, idx);
INSERT INTO name_fts(name_fts) VALUES('rebuild');
INSERT INTO name_fts(name_fts) VALUES('optimize');
ANALYZE;
`;

/** The layout this file writes, kept in \`meta\`: a database of another layout is built again (bench --reuse). */
export const BASELINE_SCHEMA = 3;

/** Reversed by code points, so that endswith is a prefix range on the reversed column. */
export const reversed = (s: string) => Array.from(s).reverse().join("");

function transaction(db: DatabaseSync, work: () => void): void {
  db.exec("BEGIN");
  try {
    work();
    db.exec("COMMIT");
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  }
}

/** Writes a fresh database at `path`, replacing any there. */
export function buildBaselineDatabase(tables: AnalysisTables, path: string): void {
  for (const suffix of ["", "-wal", "-shm"]) rmSync(path + suffix, { force: true });
  const db = new DatabaseSync(path);
  try {
    db.exec(
      "PRAGMA page_size=8192; PRAGMA journal_mode=WAL; PRAGMA synchronous=OFF; PRAGMA cache_size=-262144; PRAGMA temp_store=MEMORY;",
    );
    db.exec(SCHEMA);
    const { objects, links, levels, level5 } = tables;
    const rankOfId = new Map(objects.map((o, r) => [o.id, r]));
    const typeCodes = new Map<string, number>();
    transaction(db, () => {
      const insertType = db.prepare("INSERT INTO types VALUES (?, ?, ?)");
      for (const o of objects)
        if (!typeCodes.has(o.type))
          typeCodes.set(o.type, typeCodes.size), insertType.run(typeCodes.size - 1, o.type, o.type.toLowerCase());
      const insert = db.prepare("INSERT INTO objects VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
      const insertLocations = db.prepare("INSERT INTO source_locations VALUES (?, ?)");
      objects.forEach((o, r) => {
        if (o.sourceLocations !== null) insertLocations.run(r, o.sourceLocations);
        const lower = o.name.toLowerCase();
        insert.run(
          r,
          o.id,
          o.name,
          o.fullName,
          o.type,
          o.typeId,
          typeCodes.get(o.type)!,
          o.language,
          o.filePath,
          o.mangling,
          o.external ? 1 : 0,
          o.annotations,
          o.tags,
          o.parent === null ? null : rankOfId.get(o.parent)!,
          level5[r],
          o.role,
          o.status,
          lower,
          reversed(lower),
          o.fullName.toLowerCase(),
        );
      });
      // Links inserted in primary-key order: an append-only B-tree build.
      const typeNames = [...new Set(links.type)].sort();
      const typeIndex = new Map(typeNames.map((t, i) => [t, i]));
      const n = objects.length;
      const keys = new Float64Array(links.count);
      for (let i = 0; i < links.count; i++)
        keys[i] =
          ((links.from[i] * n + links.to[i]) * typeNames.length + typeIndex.get(links.type[i])!) * 2 +
          links.escalated[i];
      keys.sort();
      const insertLink = db.prepare("INSERT INTO links VALUES (?, ?, ?, ?)");
      let previous = -1;
      for (const key of keys) {
        if (key === previous) continue;
        previous = key;
        const esc = key % 2;
        const rest = (key - esc) / 2;
        const type = rest % typeNames.length;
        const pair = (rest - type) / typeNames.length;
        insertLink.run(Math.floor(pair / n), pair % n, typeNames[type], esc);
      }
      insertLevels(db, tables);
      const meta = db.prepare("INSERT INTO meta VALUES (?, ?)");
      meta.run("objects", n);
      meta.run("schema", BASELINE_SCHEMA);
      meta.run("levels", JSON.stringify(levels.map((l) => l.length)));
    });
    db.exec(INDEXES);
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  } finally {
    db.close();
  }
}

/** Level nodes with their object counts, and each level's graph edges (A ≠ B, once), from the objects' level-5 nodes. */
function insertLevels(db: DatabaseSync, { levels, level5, links }: AnalysisTables): void {
  // ancestor[L][i]: the level-L node above level-5 node i.
  const ancestor = levels.map(() => new Int32Array(levels[4].length));
  levels[4].forEach((_, i) => {
    let node = i;
    for (let level = 5; level >= 1; level--) {
      ancestor[level - 1][i] = node;
      node = levels[level - 1][node].parent;
    }
  });
  const counts = levels.map((nodes) => new Float64Array(nodes.length));
  for (const l5 of level5) for (let level = 1; level <= 5; level++) counts[level - 1][ancestor[level - 1][l5]]++;
  const insertNode = db.prepare("INSERT INTO level_nodes VALUES (?, ?, ?, ?, ?, ?, ?)");
  levels.forEach((nodes, l) =>
    nodes.forEach((node, i) =>
      insertNode.run(
        l + 1,
        i,
        node.name,
        node.fullName,
        node.name.toLowerCase(),
        node.parent < 0 ? null : node.parent,
        counts[l][i],
      ),
    ),
  );

  const m = levels[4].length;
  const l5pairs = new Set<number>();
  for (let i = 0; i < links.count; i++) l5pairs.add(level5[links.from[i]] * m + level5[links.to[i]]);
  const insertLink = db.prepare("INSERT INTO level_links VALUES (?, ?, ?, ?)");
  levels.forEach((nodes, l) => {
    const width = nodes.length;
    const pairs = new Set<number>();
    for (const pair of l5pairs) {
      const [x, y] = [ancestor[l][Math.floor(pair / m)], ancestor[l][pair % m]];
      if (x !== y) pairs.add(x * width + y);
    }
    // docs/api.md#order: by origin name, then target name; same-named nodes by _id. Stored in that order.
    const group = new Uint32Array(width);
    for (let i = 1; i < width; i++) group[i] = nodes[i].name === nodes[i - 1].name ? group[i - 1] : i;
    const sorted = Array.from(pairs, (k) => [Math.floor(k / width), k % width]).sort(
      ([oa, ta], [ob, tb]) => group[oa] - group[ob] || group[ta] - group[tb] || oa - ob || ta - tb,
    );
    sorted.forEach(([origin, target], pos) => insertLink.run(l + 1, pos, origin, target));
  });
}
