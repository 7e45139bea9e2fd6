// @module The fixed query mix: its classes, and query values picked from the generated data (deterministic for one analysis).
import { DatabaseSync } from "node:sqlite";
import type { Operator } from "../../src/contract/params.ts";
import { type BenchQuery, DIRECTIONS, pathOf, type TextFilters } from "./queries.ts";
import { SqliteBaseline } from "./sqlite-baseline.ts";

export const CLASSES = [
  "contains-rare",
  "contains-medium",
  "contains-common",
  "contains-deep-skip",
  "multi-filter",
  "equals",
  "startswith",
  "endswith",
  "deep-skip",
  "characteristics",
  "callees",
  "callers",
  "points-hops-1",
  "points-hops-3",
  "call-hierarchy",
  "level-graph",
  "level-nodes",
] as const;
export type QueryClass = (typeof CLASSES)[number];

/** Find classes (the rest are lookups by id or taxonomy routes). */
export const FIND_CLASSES: ReadonlySet<QueryClass> = new Set([
  "contains-rare",
  "contains-medium",
  "contains-common",
  "contains-deep-skip",
  "multi-filter",
  "equals",
  "startswith",
  "endswith",
  "deep-skip",
]);

export interface MixEntry {
  cls: QueryClass;
  query: BenchQuery;
  path: string;
}

/** Objects a page of a find. */
export const PAGE = 50;

/** A find of one page. */
export const findQuery = (filters: TextFilters, operator: Operator = "contains", skip = 0): BenchQuery => ({
  route: "find",
  filters,
  operator,
  skip,
  limit: PAGE,
});

/** How many names contain each of `words`, counted by the SQLite baseline (so drawn skips fall where its answers do). */
export function containsTotals(dbPath: string, words: readonly string[]): Map<string, number> {
  const baseline = new SqliteBaseline(dbPath);
  try {
    return new Map(
      words.map((word) => {
        const { totalObjects } = baseline.answer({
          route: "find",
          filters: { name: word },
          operator: "contains",
          skip: 0,
          limit: 0,
        }) as {
          totalObjects: number;
        };
        return [word, totalObjects];
      }),
    );
  } finally {
    baseline.close();
  }
}

/** Lower-cased words of a camelCase / snake_case name. */
export const wordsOf = (name: string) => name.split(/(?=[A-Z][a-z])|_|(?<=[a-z])(?=[A-Z])/).map((w) => w.toLowerCase());

/** The words (3+ characters) of the names in the baseline database, by how many names hold them. */
export function nameWords(db: DatabaseSync): {
  /** Words of 5+ characters in 2 to 10 names, in alphabetical order. */
  rare: string[];
  /** The `k` words of `minLength`+ characters whose name counts are nearest `target`. */
  nearest(target: number, k: number, minLength: number): string[];
} {
  const counts = new Map<string, number>();
  for (const row of db.prepare("SELECT name FROM objects").iterate())
    for (const w of new Set(wordsOf(String(row.name)))) if (w.length >= 3) counts.set(w, (counts.get(w) ?? 0) + 1);
  const words = [...counts.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  return {
    rare: words.filter(([w, c]) => w.length >= 5 && c >= 2 && c <= 10).map(([w]) => w),
    nearest: (target, k, minLength) =>
      words
        .filter(([w]) => w.length >= minLength)
        .sort((a, b) => Math.abs(a[1] - target) - Math.abs(b[1] - target) || (a[0] < b[0] ? -1 : 1))
        .slice(0, k)
        .map(([w]) => w),
  };
}

/**
 * Picks the mix from the baseline database (which holds the analysis in name order). Substrings are
 * name words by how many names contain them: rare (2–10 names), medium (closest to n/500), common
 * (closest to n/20, plus a 2-character value, below the trigram length), and the common ones again
 * three quarters into their matches; the rest are objects at fixed fractions of the name order.
 */
export function pickMix(dbPath: string): MixEntry[] {
  const db = new DatabaseSync(dbPath, { readOnly: true });
  try {
    const n = Number(db.prepare("SELECT value FROM meta WHERE key = 'objects'").get()!.value);
    const objectAt = db.prepare("SELECT id, name, parent_ord, external FROM objects WHERE ord = ?");
    const outDegree = db.prepare("SELECT count(*) AS n FROM links WHERE from_ord = ?");
    const inDegree = db.prepare("SELECT count(*) AS n FROM links WHERE to_ord = ?");
    const at = (fraction: number) => Math.min(n - 1, Math.floor(n * fraction));
    const words = nameWords(db);
    const rare = [0.2, 0.5, 0.8]
      .map((f) => words.rare[Math.floor(f * words.rare.length)])
      .filter((w) => w !== undefined);
    const medium = words.nearest(Math.max(20, n / 500), 3, 4);
    const common = words.nearest(n / 20, 2, 3);
    const short = common[0].slice(0, 2);

    const entries: MixEntry[] = [];
    const add = (cls: QueryClass, query: BenchQuery) => entries.push({ cls, query, path: pathOf(query) });
    const find = findQuery;
    for (const w of rare) add("contains-rare", find({ name: w }));
    for (const w of medium) add("contains-medium", find({ name: w }));
    for (const w of [...common, short]) add("contains-common", find({ name: w }));
    for (const [w, total] of containsTotals(dbPath, common))
      add("contains-deep-skip", find({ name: w }, "contains", Math.floor(total * 0.75)));
    for (const w of medium) add("multi-filter", find({ name: w, type: "method" }));
    const names = [0.25, 0.5, 0.75].map((f) => String(objectAt.get(at(f))!.name));
    for (const name of names) add("equals", find({ name }, "equals"));
    for (const f of [0.3, 0.6, 0.9])
      add("startswith", find({ name: String(objectAt.get(at(f))!.name).slice(0, 6) }, "startswith"));
    for (const f of [0.125, 0.375, 0.625]) {
      const name = String(objectAt.get(at(f))!.name);
      const last = wordsOf(name).at(-1)!;
      add("endswith", find({ name: last.length >= 3 ? name.slice(-last.length) : name.slice(-4) }, "endswith"));
    }
    add("deep-skip", find({}, "contains", at(0.9)));
    add("deep-skip", find({}, "contains", Math.max(0, at(0.9) - 1234)));

    /** Objects from `fraction` on in name order meeting `ok`, the first `k`. */
    const objectsFrom = (fraction: number, k: number, ok: (ord: number, row: Record<string, unknown>) => boolean) => {
      const ids: string[] = [];
      for (let ord = at(fraction); ord < n && ids.length < k; ord++) {
        const row = objectAt.get(ord)!;
        if (ok(ord, row)) ids.push(String(row.id));
      }
      return ids;
    };
    const hasParent = (_: number, row: Record<string, unknown>) => row.parent_ord !== null;
    const calls = (min: number) => (ord: number, row: Record<string, unknown>) =>
      row.external === 0 && Number(outDegree.get(ord)!.n) >= min;
    const calledBy = (min: number) => (ord: number) => Number(inDegree.get(ord)!.n) >= min;
    for (const f of [0.1, 0.3, 0.5, 0.7, 0.9])
      add("characteristics", { route: "characteristics", id: objectsFrom(f, 1, hasParent)[0], withLocations: false });
    for (const [i, id] of objectsFrom(0.2, 4, calls(3)).entries())
      add("callees", { route: "callees", id, includeEscalated: i === 3, withParent: i >= 2 });
    for (const [i, id] of objectsFrom(0.3, 4, calledBy(2)).entries())
      add("callers", { route: "callers", id, includeEscalated: i === 3, withParent: i >= 2 });
    for (const id of objectsFrom(0.4, 4, calls(2))) add("points-hops-1", { route: "points", id, hops: 1 });
    for (const id of objectsFrom(0.6, 4, calls(2))) add("points-hops-3", { route: "points", id, hops: 3 });
    for (const [i, id] of objectsFrom(0.8, 3, calls(2)).entries())
      add("call-hierarchy", { route: "call-hierarchy", id, direction: DIRECTIONS[i], hops: 3 });
    for (let level = 1; level <= 5; level++) add("level-graph", { route: "level-graph", level });

    const level3 = String(
      db.prepare("SELECT name_lc FROM level_nodes WHERE level = 3 ORDER BY idx LIMIT 1").get()!.name_lc,
    ).slice(0, 4);
    add("level-nodes", { route: "level-nodes", level: 2, name: "services" });
    add("level-nodes", { route: "level-nodes", level: 3, name: level3 });
    add("level-nodes", { route: "level-nodes", level: 4, name: "java" });
    const level5 = db
      .prepare("SELECT idx FROM level_nodes WHERE level = 5 AND nb_objects > 0 ORDER BY nb_objects, idx")
      .all()
      .map((r) => Number(r.idx));
    for (const nodeId of [level5[0], level5[Math.floor(level5.length / 2)]])
      add("level-nodes", { route: "level-nodes", level: 5, nodeId });
    return entries;
  } finally {
    db.close();
  }
}
