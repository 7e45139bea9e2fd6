// @module One object's characteristics, direct callees and start/end points over SQLite.
import type { ServingDatabase } from "./sqlite-db.ts";

/** The object's rank, or undefined when no object has this id. */
export function rankOf(sql: ServingDatabase, id: string): number | undefined {
  return (sql.statement("SELECT rank FROM objects WHERE id = ?").get(id) as { rank: number } | undefined)?.rank;
}

export function characteristics(sql: ServingDatabase, rank: number) {
  const r = sql
    .statement(
      `SELECT o.id, o.name, o.full_name, o.mangling, o.type, o.type_id, o.annotations, o.status, o.external, o.language,
              p.id AS p_id, p.name AS p_name, p.type AS p_type, p.type_id AS p_type_id
         FROM objects o LEFT JOIN objects p ON p.rank = o.parent WHERE o.rank = ?`,
    )
    .get(rank) as Record<string, string | number | null>;
  return {
    id: r.id,
    name: r.name,
    fullName: r.full_name,
    mangling: r.mangling,
    type: r.type,
    typeId: r.type_id,
    annotations: r.annotations === null ? null : (JSON.parse(r.annotations as string) as string[]),
    status: { id: r.status },
    external: r.external === 1,
    programmingLanguage: { name: r.language },
    parent: r.p_id === null ? null : { id: r.p_id, name: r.p_name, type: r.p_type, typeId: r.p_type_id },
  };
}

/**
 * One element per distinct (callee, link type) of the object's links, in callee name order then link
 * type. A callee, across all its link types, is direct when one of its links is not escalated; by
 * default only callees none of whose links is escalated are listed, with includeEscalated every
 * direct one, each with all its link types (docs/api.md "Direct callees").
 */
export function callees(sql: ServingDatabase, rank: number, includeEscalated: boolean, withParent: boolean) {
  return linked(sql, "caller", "callee", rank, includeEscalated, withParent);
}

/**
 * The mirror of callees: one element per distinct (caller, link type) of the links that end at the
 * object, in caller name order then link type, a caller judged direct or escalated across all its
 * links to the object (docs/api.md "Direct callers").
 */
export function callers(sql: ServingDatabase, rank: number, includeEscalated: boolean, withParent: boolean) {
  return linked(sql, "callee", "caller", rank, includeEscalated, withParent);
}

/** The objects at the `other` end of the links whose `end` is the object, each judged across its link types. */
function linked(
  sql: ServingDatabase,
  end: "caller" | "callee",
  other: "caller" | "callee",
  rank: number,
  includeEscalated: boolean,
  withParent: boolean,
) {
  const rows = sql
    .statement(
      `SELECT c.id, c.name, c.type, c.type_id, l.type AS link_type, p.type AS p_type, p.type_id AS p_type_id
         FROM (SELECT DISTINCT ${other}, type FROM links WHERE ${end} = ?1) l
         JOIN (SELECT ${other}, min(escalated) AS min_escalated, max(escalated) AS max_escalated
                 FROM links WHERE ${end} = ?1 GROUP BY ${other}) e ON e.${other} = l.${other}
         JOIN objects c ON c.rank = l.${other}
         LEFT JOIN objects p ON p.rank = c.parent
        WHERE e.max_escalated = 0 OR (?2 AND e.min_escalated = 0)
        ORDER BY l.${other}, l.type`,
    )
    .all(rank, includeEscalated ? 1 : 0) as Record<string, string | null>[];
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    type: r.type,
    typeId: r.type_id,
    linkType: r.link_type,
    ...(withParent ? { parent: r.p_type === null ? null : { type: r.p_type, typeId: r.p_type_id } } : {}),
  }));
}

/**
 * Objects with role `start` reaching the object, and with role `end` reached from it, by paths of at
 * most `hops` links of any type (length 0 included): a breadth-first walk, one batched query per
 * hop over the frontier, each way.
 */
export function startEndPoints(sql: ServingDatabase, rank: number, hops: number) {
  const backwards = reach(
    sql,
    "SELECT DISTINCT caller AS r FROM links WHERE callee IN (SELECT value FROM json_each(?))",
    rank,
    hops,
  );
  const forwards = reach(
    sql,
    "SELECT DISTINCT callee AS r FROM links WHERE caller IN (SELECT value FROM json_each(?))",
    rank,
    hops,
  );
  return { startPoints: pointsWithRole(sql, backwards, "start"), endPoints: pointsWithRole(sql, forwards, "end") };
}

function reach(sql: ServingDatabase, step: string, from: number, hops: number): number[] {
  const seen = new Set<number>([from]);
  let frontier = [from];
  for (let hop = 0; hop < hops && frontier.length > 0; hop++) {
    const next: number[] = [];
    for (const { r } of sql.statement(step).all(JSON.stringify(frontier)) as { r: number }[]) {
      if (!seen.has(r)) {
        seen.add(r);
        next.push(r);
      }
    }
    frontier = next;
  }
  return [...seen];
}

function pointsWithRole(sql: ServingDatabase, ranks: number[], role: "start" | "end") {
  const rows = sql
    .statement(
      "SELECT o.id, o.name, o.full_name, o.type FROM json_each(?) j JOIN objects o ON o.rank = j.value WHERE o.role = ? ORDER BY o.rank",
    )
    .all(JSON.stringify(ranks), role) as Record<string, string>[];
  return rows.map((r) => ({ id: r.id, name: r.name, fullName: r.full_name, type: r.type }));
}

interface Link {
  caller: number;
  callee: number;
  type: string;
}

/**
 * Objects within `hops` links that are not escalated, forward (callees), backward (callers) or both,
 * and the links between them (docs/api.md "Call hierarchy"): a breadth-first walk each way, one
 * batched query per hop. A node's depth is its fewest links in either walk; nodes by depth then name
 * order, the first `limit` kept; the links each walk followed from (forward) or to (backward) a node
 * less than `hops` away, between kept nodes, each once, by caller id, callee id (as numbers), type.
 */
export function callHierarchy(
  sql: ServingDatabase,
  rank: number,
  direction: "callees" | "callers" | "both",
  hops: number,
  limit: number,
) {
  const depth = new Map<number, number>();
  const followed: Link[] = [];
  for (const forward of direction === "both" ? [true, false] : [direction === "callees"]) {
    const step = sql.statement(
      `SELECT DISTINCT caller, callee, type FROM links
        WHERE escalated = 0 AND ${forward ? "caller" : "callee"} IN (SELECT value FROM json_each(?))`,
    );
    const seen = new Set([rank]);
    let frontier = [rank];
    for (let d = 0; d < hops && frontier.length > 0; d++) {
      const next: number[] = [];
      for (const link of step.all(JSON.stringify(frontier)) as unknown as Link[]) {
        followed.push(link);
        const reached = forward ? link.callee : link.caller;
        if (!seen.has(reached)) {
          seen.add(reached);
          next.push(reached);
          depth.set(reached, Math.min(depth.get(reached) ?? d + 1, d + 1));
        }
      }
      frontier = next;
    }
  }
  depth.set(rank, 0);
  const kept = [...depth.keys()].sort((a, b) => depth.get(a)! - depth.get(b)! || a - b).slice(0, limit);
  const row = sql.statement("SELECT id, name, full_name, type, type_id FROM objects WHERE rank = ?");
  const ids = new Map<number, string>();
  const nodes = kept.map((r) => {
    const o = row.get(r) as Record<string, string>;
    ids.set(r, o.id);
    return { id: o.id, name: o.name, fullName: o.full_name, type: o.type, typeId: o.type_id, depth: depth.get(r)! };
  });
  const links = new Map<string, { from: string; to: string; linkType: string }>();
  for (const l of followed) {
    const from = ids.get(l.caller);
    const to = ids.get(l.callee);
    if (from !== undefined && to !== undefined) links.set(`${from} ${to} ${l.type}`, { from, to, linkType: l.type });
  }
  const asNumber = (id: string) => BigInt(id);
  const ordered = [...links.values()].sort(
    (a, b) =>
      Number(asNumber(a.from) - asNumber(b.from)) ||
      Number(asNumber(a.to) - asNumber(b.to)) ||
      (a.linkType < b.linkType ? -1 : a.linkType > b.linkType ? 1 : 0),
  );
  return { totalNodes: depth.size, truncated: depth.size > limit, nodes, links: ordered };
}
