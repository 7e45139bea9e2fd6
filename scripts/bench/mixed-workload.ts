// @module The mixed workload: every query class interleaved in a seeded random order, its values drawn at random from pools picked in the generated data.
//
// What one class alone never shows: answers compete for one section budget. Each request draws a
// class uniformly, then its values: objects from a pool (characteristics, callees, callers, start/end
// points, call hierarchies, the names searched for), level-5 nodes with their children (the large ones included),
// multi-filters mixing name with type or fullname, pages deep into a common word's matches, any
// level's graph.
import { DatabaseSync } from "node:sqlite";
import { Random } from "../crosscheck/random.ts";
import { CLASSES, containsTotals, findQuery, type MixEntry, nameWords, PAGE, type QueryClass, wordsOf } from "./mix.ts";
import { type BenchQuery, DIRECTIONS, pathOf } from "./queries.ts";

/** Values the workload draws from, picked once from the baseline database. */
export interface WorkloadPools {
  objects: number;
  /** Internal objects with at least one outgoing link, in random order. */
  sample: { id: string; name: string; fullName: string }[];
  /** Name words by how many names hold them: 2–10 names, about n/500, about n/20. */
  rareWords: string[];
  mediumWords: string[];
  commonWords: string[];
  /** How many names contain each common word: where a deep page of its matches may start. */
  commonTotals: Map<string, number>;
  /** Lower-cased object types. */
  types: string[];
  /** Level-5 nodes holding objects, by `_id`. */
  level5: number[];
}

/** Picks the pools from the baseline database: `sampleSize` objects at random (seeded), words by frequency, types, level-5 nodes. */
export function pickPools(dbPath: string, seed: number, sampleSize: number): WorkloadPools {
  const db = new DatabaseSync(dbPath, { readOnly: true });
  try {
    const n = Number(db.prepare("SELECT value FROM meta WHERE key = 'objects'").get()!.value);
    const random = new Random(seed ^ 0x3c6ef372);
    const objectAt = db.prepare("SELECT id, name, full_name, external FROM objects WHERE ord = ?");
    const hasLinks = db.prepare("SELECT 1 FROM links WHERE from_ord = ? LIMIT 1");
    const sample: WorkloadPools["sample"] = [];
    const seen = new Set<number>();
    for (let tries = 0; sample.length < sampleSize && tries < 50 * sampleSize; tries++) {
      const ord = random.int(0, n - 1);
      if (seen.has(ord)) continue;
      seen.add(ord);
      const row = objectAt.get(ord)!;
      if (row.external === 0 && hasLinks.get(ord))
        sample.push({ id: String(row.id), name: String(row.name), fullName: String(row.full_name) });
    }
    if (sample.length === 0) throw new Error("the data has no internal object with outgoing links to sample");

    const words = nameWords(db);
    const commonWords = words.nearest(n / 20, 6, 3);
    const level5 = db
      .prepare("SELECT idx FROM level_nodes WHERE level = 5 AND nb_objects > 0 ORDER BY idx")
      .all()
      .map((r) => Number(r.idx));
    return {
      objects: n,
      sample,
      rareWords: words.rare,
      mediumWords: words.nearest(Math.max(20, n / 500), 20, 4),
      commonWords,
      commonTotals: containsTotals(dbPath, commonWords),
      types: db
        .prepare("SELECT type_lc FROM types ORDER BY code")
        .all()
        .map((r) => String(r.type_lc)),
      level5,
    };
  } finally {
    db.close();
  }
}

/** One query of class `cls`, its values drawn from `pools`. */
function draw(cls: QueryClass, pools: WorkloadPools, random: Random): BenchQuery {
  const find = findQuery;
  const object = () => random.pick(pools.sample);
  switch (cls) {
    case "contains-rare":
      return find({ name: random.pick(pools.rareWords) });
    case "contains-medium":
      return find({ name: random.pick(pools.mediumWords) });
    case "contains-common": {
      const word = random.pick(pools.commonWords);
      // A 2-character value now and then: below the trigram length, answered another way.
      return find({ name: random.next() < 0.25 ? word.slice(0, 2) : word });
    }
    case "contains-deep-skip": {
      // A page deep into a common word's matches: the half and more that a reader paging on reaches.
      const word = random.pick(pools.commonWords);
      const total = pools.commonTotals.get(word)!;
      const from = Math.floor(total / 2);
      return find({ name: word }, "contains", random.int(from, Math.max(from, total - PAGE)));
    }
    case "multi-filter": {
      const name = random.pick(pools.mediumWords);
      if (random.next() < 0.5) return find({ name, type: random.pick(pools.types) });
      // A piece of some sampled object's fullName: its package or module path, more or less long.
      const full = object().fullName;
      const from = random.int(0, Math.max(0, full.length - 8));
      return find({ name, fullname: full.slice(from, from + random.int(4, 12)) });
    }
    case "equals":
      return find({ name: object().name }, "equals");
    case "startswith":
      return find({ name: object().name.slice(0, random.int(3, 8)) }, "startswith");
    case "endswith": {
      const name = object().name;
      const last = wordsOf(name).at(-1)!;
      return find({ name: last.length >= 3 ? name.slice(-last.length) : name.slice(-4) }, "endswith");
    }
    case "deep-skip":
      return find({}, "contains", random.int(Math.floor(pools.objects / 2), Math.max(0, pools.objects - PAGE)));
    case "characteristics":
      // Half of them with the source locations, as a reader who opens the code next asks.
      return { route: "characteristics", id: object().id, withLocations: random.next() < 0.5 };
    case "callees":
    case "callers":
      return {
        route: cls,
        id: object().id,
        includeEscalated: random.next() < 0.5,
        withParent: random.next() < 0.5,
      };
    case "call-hierarchy":
      // The default depth, each way: who this reaches, what reaches it, or both.
      return { route: "call-hierarchy", id: object().id, direction: random.pick(DIRECTIONS), hops: 3 };
    case "points-hops-1":
      return { route: "points", id: object().id, hops: 1 };
    case "points-hops-3":
      return { route: "points", id: object().id, hops: 3 };
    case "level-graph":
      return { route: "level-graph", level: random.int(1, 5) };
    case "level-nodes":
      return { route: "level-nodes", level: 5, nodeId: random.pick(pools.level5) };
  }
}

/** Requests in each pass of the mixed view by default (`npm run bench --mixed-requests`). */
export const PASS_REQUESTS = 1400;

/**
 * The mixed view's two sequences for one pool: the cold pass's (seed `seed`) and the warm pass's
 * (`seed + 1`), `length` requests each, as `npm run bench` sends them.
 */
export function mixedPasses(
  pools: WorkloadPools,
  seed: number,
  length = PASS_REQUESTS,
): { cold: MixEntry[]; warm: MixEntry[] } {
  return { cold: mixedSequence(pools, seed, length), warm: mixedSequence(pools, seed + 1, length) };
}

/** `length` requests, each of a class drawn uniformly, then its values; the same for one pool and seed. */
export function mixedSequence(pools: WorkloadPools, seed: number, length: number): MixEntry[] {
  const random = new Random(seed);
  return Array.from({ length }, () => {
    const cls = random.pick(CLASSES);
    const query = draw(cls, pools, random);
    return { cls, query, path: pathOf(query) };
  });
}
