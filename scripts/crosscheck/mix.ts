// @module pickMix: the cross-check's own query mix, drawn from the data with its own seed and rules (substrings chosen by counting, random objects).
import type { DatabaseSync } from "node:sqlite";
import { Random } from "./random.ts";

export const CLASSES = [
  "contains-rare",
  "contains-medium",
  "contains-common",
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

export interface MixQuery {
  cls: QueryClass;
  /** Path and query string, from /rest on. */
  path: string;
}

interface Data {
  db: DatabaseSync;
  random: Random;
  /** Lower-cased names in name order (rank = index). */
  names: string[];
  app: string;
}

/** `perClass` queries in every class (the level graph: its five levels). */
export function pickMix(db: DatabaseSync, seed: number, perClass: number): MixQuery[] {
  const app = (db.prepare("SELECT value FROM meta WHERE key = 'application'").get() as { value: string }).value;
  const names = (db.prepare("SELECT name_lower FROM objects ORDER BY rank").all() as { name_lower: string }[]).map(
    (r) => r.name_lower,
  );
  const data: Data = { db, random: new Random(seed), names, app: `/rest/applications/${encodeURIComponent(app)}` };
  const substrings = substringsByFrequency(data, perClass);
  return [
    ...substrings.rare.map((v) => find(data, "contains-rare", { name: [v] })),
    ...substrings.medium.map((v) => find(data, "contains-medium", { name: [v] })),
    ...substrings.common.map((v) => find(data, "contains-common", { name: [v] })),
    ...multiFilters(data, substrings, perClass),
    ...times(perClass, () => find(data, "equals", { operator: ["equals"], name: [data.random.pick(names)] })),
    ...times(perClass, () =>
      find(data, "startswith", {
        operator: ["startswith"],
        name: [prefix(data.random.pick(names), data.random.int(2, 6))],
      }),
    ),
    ...times(perClass, () =>
      find(data, "endswith", {
        operator: ["endswith"],
        name: [suffix(data.random.pick(names), data.random.int(3, 7))],
      }),
    ),
    ...deepSkips(data, substrings.common, perClass),
    ...times(perClass, () => ({
      cls: "characteristics" as const,
      path: `${data.app}/objects/${idAt(data, data.random.int(0, names.length - 1))}`,
    })),
    ...times(perClass, () => calleesQuery(data)),
    ...times(perClass, () => callersQuery(data)),
    ...times(perClass, () => hierarchyQuery(data)),
    ...times(perClass, () => ({
      cls: "points-hops-1" as const,
      path: `${data.app}/objects/${linkedId(data)}/start-end-points`,
    })),
    ...times(perClass, () => ({
      cls: "points-hops-3" as const,
      path: `${data.app}/objects/${linkedId(data)}/start-end-points?hops=3`,
    })),
    ...[1, 2, 3, 4, 5].map((level) => ({ cls: "level-graph" as const, path: `${data.app}/levels/${level}/graph` })),
    ...times(perClass, (i) => levelNodesQuery(data, i)),
  ];
}

function times<T>(n: number, make: (i: number) => T): T[] {
  return Array.from({ length: n }, (_, i) => make(i));
}

function find(data: Data, cls: QueryClass, filters: Record<string, string[]>, limit?: number, skip?: number): MixQuery {
  const r = data.random;
  const query = new URLSearchParams();
  query.set("limit", String(limit ?? r.pick([10, 20, 50, 100])));
  const s = skip ?? (r.next() < 0.3 ? r.int(1, 200) : 0);
  if (s > 0) query.set("skip", String(s));
  for (const [key, values] of Object.entries(filters))
    for (const v of values) query.append(key, key === "searchtype" || key === "operator" ? v : r.scrambleCase(v));
  return { cls, path: `${data.app}/objects?${query}` };
}

const prefix = (s: string, n: number) => Array.from(s).slice(0, n).join("");
const suffix = (s: string, n: number) => Array.from(s).slice(-n).join("");

function countContaining(names: string[], value: string): number {
  let n = 0;
  for (const name of names) if (name.includes(value)) n++;
  return n;
}

/**
 * Substrings of names by how many names contain them (counted over all names): rare (1 to n/20,000,
 * at least 3), medium (n/2,000 to n/200), common (n/25 or more, one of them 2 characters long, which
 * no trigram index serves). Candidates are n-grams of a sample of names, estimated from the sample,
 * then counted exactly.
 */
function substringsByFrequency(data: Data, perClass: number): { rare: string[]; medium: string[]; common: string[] } {
  const { names, random } = data;
  const n = names.length;
  const sample = times(Math.min(2000, n), () => random.pick(names));
  const perSample = new Map<string, number>();
  for (const name of sample) {
    const grams = new Set<string>();
    const chars = Array.from(name);
    for (let len = 3; len <= 5; len++)
      for (let i = 0; i + len <= chars.length; i++) grams.add(chars.slice(i, i + len).join(""));
    for (const g of grams) perSample.set(g, (perSample.get(g) ?? 0) + 1);
  }
  const estimate = (g: string) => ((perSample.get(g) ?? 0) * n) / sample.length;
  const grams = random.shuffle([...perSample.keys()].filter((g) => g.trim() === g));
  const pickCounted = (candidates: string[], min: number, max: number) => {
    const found: string[] = [];
    for (const g of candidates) {
      if (found.length === perClass) break;
      const count = countContaining(names, g);
      if (count >= min && count <= max) found.push(g);
    }
    return found;
  };
  const rareMax = Math.max(3, Math.floor(n / 20_000));
  const rareCandidates = times(perClass * 20, () => {
    const chars = Array.from(random.pick(names));
    const len = Math.min(chars.length, random.int(5, 9));
    const at = random.int(0, chars.length - len);
    return chars.slice(at, at + len).join("");
  }).filter((g) => g.length >= 3);
  const common = pickCounted(grams.filter((g) => estimate(g) >= n / 20).slice(0, perClass * 4), Math.ceil(n / 25), n);
  const twoCharacters = sample
    .map((name) => prefix(name.slice(random.int(0, Math.max(0, name.length - 2))), 2))
    .find((g) => g.length === 2 && countContaining(names, g) >= n / 25);
  if (twoCharacters && common.length > 0) common[common.length - 1] = twoCharacters;
  return {
    rare: pickCounted(rareCandidates, 1, rareMax),
    medium: pickCounted(
      grams.filter((g) => estimate(g) >= n / 4000 && estimate(g) <= n / 100).slice(0, perClass * 20),
      Math.ceil(n / 2000),
      Math.floor(n / 200),
    ),
    common,
  };
}

/** Type words (lower-cased) of the data, e.g. "method", "java", "table". */
function typeWords(data: Data): string[] {
  const types = (data.db.prepare("SELECT type_lower FROM types").all() as { type_lower: string }[]).map(
    (t) => t.type_lower,
  );
  return [...new Set(types.flatMap((t) => t.split(/\s+/)).filter((w) => w.length >= 3))].sort();
}

/** Four shapes in turn: name AND type; two names ORed, internal only; name AND fullname; startswith on name AND type. */
function multiFilters(data: Data, substrings: { rare: string[]; medium: string[] }, perClass: number): MixQuery[] {
  const r = data.random;
  const words = typeWords(data);
  const medium = substrings.medium.length > 0 ? substrings.medium : substrings.rare;
  return times(perClass, (i) => {
    const rank = r.int(0, data.names.length - 1);
    const someName = data.names[rank];
    switch (i % 4) {
      case 0:
        return find(data, "multi-filter", { name: [r.pick(medium)], type: [r.pick(words)] });
      case 1:
        return find(data, "multi-filter", {
          name: [r.pick(substrings.rare), r.pick(medium)],
          searchtype: ["internal"],
        });
      case 2: {
        const fullName = (
          data.db.prepare("SELECT full_name FROM objects WHERE rank = ?").get(rank) as { full_name: string }
        ).full_name.toLowerCase();
        const segment = r.pick(fullName.split(".").filter((s) => s.length >= 3)) ?? fullName;
        return find(data, "multi-filter", { name: [prefix(someName, 4)], fullname: [segment] });
      }
      default:
        return find(data, "multi-filter", {
          operator: ["startswith"],
          name: [prefix(someName, 2)],
          type: [prefix(r.pick(words), 3)],
        });
    }
  });
}

/** Deep pages: unfiltered from the second half on, or 80–99 % into a type's, the internal objects' or a common substring's matches. */
function deepSkips(data: Data, common: readonly string[], perClass: number): MixQuery[] {
  const r = data.random;
  const n = data.names.length;
  const types = data.db
    .prepare(
      "SELECT t.type_lower AS type, count(*) AS n FROM objects o JOIN types t ON t.code = o.type_code GROUP BY t.code ORDER BY n DESC",
    )
    .all() as {
    type: string;
    n: number;
  }[];
  const internal = (data.db.prepare("SELECT count(*) AS n FROM objects WHERE external = 0").get() as { n: number }).n;
  const deep = (count: number) => Math.floor(count * (0.8 + 0.19 * r.next()));
  const unfiltered = () => find(data, "deep-skip", {}, 50, r.int(Math.floor(n / 2), n - 1));
  return times(perClass, (i) => {
    switch (i % 4) {
      case 0:
        return unfiltered();
      case 1: {
        // The type is matched by equals: the exact display type, whose count is the total.
        const type = r.pick(types.slice(0, 5));
        return find(data, "deep-skip", { operator: ["equals"], type: [type.type] }, 50, deep(type.n));
      }
      case 2:
        return find(data, "deep-skip", { searchtype: ["internal"] }, 50, deep(internal));
      default: {
        // A reader paging far into a common substring's matches: the total to skip into is counted.
        if (common.length === 0) return unfiltered();
        const value = r.pick(common);
        return find(data, "deep-skip", { name: [value] }, 50, deep(countContaining(data.names, value)));
      }
    }
  });
}

function idAt(data: Data, rank: number): string {
  return (data.db.prepare("SELECT id FROM objects WHERE rank = ?").get(rank) as { id: string }).id;
}

/** A random object with at least one outgoing link (several tries, then any object). */
function callerId(data: Data): string {
  const hasCallees = data.db.prepare("SELECT 1 FROM links WHERE caller = ? LIMIT 1");
  for (let attempt = 0; attempt < 100; attempt++) {
    const rank = data.random.int(0, data.names.length - 1);
    if (hasCallees.get(rank)) return idAt(data, rank);
  }
  return idAt(data, data.random.int(0, data.names.length - 1));
}

/** Mostly objects with links (either way), one in four any object. */
function linkedId(data: Data): string {
  if (data.random.next() < 0.25) return idAt(data, data.random.int(0, data.names.length - 1));
  const hasCallers = data.db.prepare("SELECT 1 FROM links WHERE callee = ? LIMIT 1");
  for (let attempt = 0; attempt < 100; attempt++) {
    const rank = data.random.int(0, data.names.length - 1);
    if (hasCallers.get(rank)) return idAt(data, rank);
  }
  return callerId(data);
}

function calleesQuery(data: Data): MixQuery {
  const r = data.random;
  const query = new URLSearchParams();
  if (r.next() < 0.5) query.set("includeEscalated", r.pick(["true", "false", "TRUE"]));
  if (r.next() < 0.5) query.set("select", "parent");
  const qs = query.size > 0 ? `?${query}` : "";
  return { cls: "callees", path: `${data.app}/objects/${callerId(data)}/callees${qs}` };
}

function callersQuery(data: Data): MixQuery {
  const r = data.random;
  const query = new URLSearchParams();
  if (r.next() < 0.5) query.set("includeEscalated", r.pick(["true", "false"]));
  if (r.next() < 0.5) query.set("select", "parent");
  const qs = query.size > 0 ? `?${query}` : "";
  return { cls: "callers", path: `${data.app}/objects/${linkedId(data)}/callers${qs}` };
}

/** A call hierarchy each way or both, 1 to 4 hops (3 when not given), now and then a small limit. */
function hierarchyQuery(data: Data): MixQuery {
  const r = data.random;
  const query = new URLSearchParams({ direction: r.pick(["callees", "callers", "both"]) });
  if (r.next() < 0.5) query.set("hops", String(r.int(1, 4)));
  if (r.next() < 0.25) query.set("limit", String(r.int(1, 50)));
  const id = r.next() < 0.5 ? callerId(data) : linkedId(data);
  return { cls: "call-hierarchy", path: `${data.app}/objects/${id}/call-hierarchy?${query}` };
}

/** Level nodes by a name substring at levels 2–4, or by _id at levels 2–5 (level 5 answers its objects). */
function levelNodesQuery(data: Data, i: number): MixQuery {
  const r = data.random;
  const base = `${data.app}/levels`;
  if (i % 2 === 0) {
    const level = r.int(2, 4);
    const node = r.pick(
      data.db.prepare("SELECT name_lower FROM level_nodes WHERE level = ?").all(level) as { name_lower: string }[],
    ).name_lower;
    const len = Math.min(node.length, r.int(2, 5));
    const at = r.int(0, node.length - len);
    return {
      cls: "level-nodes",
      path: `${base}/${level}/nodes?${new URLSearchParams({ name: r.scrambleCase(node.slice(at, at + len)), select: "children" })}`,
    };
  }
  const level = r.int(2, 5);
  const count = (data.db.prepare("SELECT count(*) AS n FROM level_nodes WHERE level = ?").get(level) as { n: number })
    .n;
  return { cls: "level-nodes", path: `${base}/${level}/nodes?_id=${r.int(0, count - 1)}&select=children` };
}
