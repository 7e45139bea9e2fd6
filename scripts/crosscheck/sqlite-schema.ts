// @module The cross-check's SQLite schema: objects keyed by name rank, trigram and B-tree indexes, links both ways, taxonomy tables.

/** Tables, created empty before loading. */
export const TABLES = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
-- Distinct display types: type filters match here (a few dozen rows), then select objects by code.
CREATE TABLE types (code INTEGER PRIMARY KEY, type TEXT NOT NULL, type_lower TEXT NOT NULL);
-- rank = position in the name order (docs/api.md#order), so ORDER BY rank is the answer order and an
-- index on any column keeps equal keys in answer order (the rowid is the index's last key).
CREATE TABLE objects (
  rank INTEGER PRIMARY KEY,
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  name_lower TEXT NOT NULL,      -- JavaScript toLowerCase (SQLite's lower() folds ASCII only)
  name_rev TEXT NOT NULL,        -- name_lower reversed by code points, for endswith
  full_name TEXT NOT NULL,
  type TEXT NOT NULL,
  type_code INTEGER NOT NULL,
  type_id TEXT NOT NULL,
  file_path TEXT,
  mangling TEXT NOT NULL,
  external INTEGER NOT NULL,
  annotations TEXT,              -- JSON array or NULL
  tags TEXT NOT NULL,            -- JSON array
  language TEXT,
  parent INTEGER,                -- rank of the parent
  role TEXT,                     -- 'start', 'end' or NULL
  status TEXT,
  level5 INTEGER NOT NULL        -- _id of the level-5 node
);
-- Distinct links; caller and callee are ranks.
CREATE TABLE links (caller INTEGER NOT NULL, callee INTEGER NOT NULL, type TEXT NOT NULL, escalated INTEGER NOT NULL,
  PRIMARY KEY (caller, callee, type, escalated)) WITHOUT ROWID;
-- idx = the node's _id (its place in the level's name order).
CREATE TABLE level_nodes (level INTEGER NOT NULL, idx INTEGER NOT NULL, name TEXT NOT NULL, name_lower TEXT NOT NULL,
  full_name TEXT NOT NULL, parent INTEGER, nb_objects INTEGER NOT NULL, PRIMARY KEY (level, idx)) WITHOUT ROWID;
-- Each level's graph edges in answer order (origin name, then target name).
CREATE TABLE level_links (level INTEGER NOT NULL, ord INTEGER NOT NULL, origin INTEGER NOT NULL, target INTEGER NOT NULL,
  PRIMARY KEY (level, ord)) WITHOUT ROWID;
`;

/** Indexes, built once the rows are in (faster than maintaining them row by row). */
export const INDEXES = `
CREATE UNIQUE INDEX objects_by_id ON objects (id);
CREATE INDEX objects_by_name ON objects (name_lower);
CREATE INDEX objects_by_reversed_name ON objects (name_rev);
CREATE INDEX objects_by_type ON objects (type_code);
CREATE INDEX objects_by_external ON objects (external);
CREATE INDEX objects_by_level5 ON objects (level5);
CREATE INDEX links_by_callee ON links (callee, caller);
CREATE INDEX level_nodes_by_parent ON level_nodes (level, parent, idx);
-- contains on names: trigram postings with positions over the lower-cased name, so a quoted
-- phrase of 3+ characters is an exact substring match answered from the index.
CREATE VIRTUAL TABLE name_trigrams USING fts5 (name_lower, content = 'objects', content_rowid = 'rank', tokenize = 'trigram case_sensitive 1');
INSERT INTO name_trigrams (name_trigrams) VALUES ('rebuild');
`;
