// @module buildDatabase: loads an NDJSON analysis into the cross-check's SQLite schema (objects in name order, distinct links, taxonomy tables and level graphs).
import { rename, rm } from "node:fs/promises";
import { DatabaseSync } from "node:sqlite";
import { compareNodesByName, compareObjectsByName, reversed } from "./name-order.ts";
import { readNdjson } from "./ndjson.ts";
import { INDEXES, TABLES } from "./sqlite-schema.ts";

interface ObjectRecord {
  id: string;
  name: string;
  fullName: string;
  type: string;
  typeId: string;
  language?: string | null;
  filePath?: string | null;
  mangling?: string;
  external?: boolean;
  annotations?: string[] | null;
  tags?: string[];
  parent?: string | null;
  level5?: string;
  role?: "start" | "end" | null;
  status?: string | null;
}

interface NodeRecord {
  key: string;
  level: number;
  name: string;
  fullName?: string;
  parent: string | null;
}

/** One taxonomy level in name order: its nodes, and where each key sits. */
interface Level {
  nodes: { key: string; name: string; fullName: string; parent: number | null }[];
  indexOfKey: Map<string, number>;
}

/** Builds `database` from the analysis at `ndjsonPath` (written to a temporary file, renamed when complete). */
export async function buildDatabase(ndjsonPath: string, database: string, log: (line: string) => void): Promise<void> {
  const temporary = `${database}.partial`;
  await rm(temporary, { force: true });
  const db = new DatabaseSync(temporary);
  try {
    db.exec(
      "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -262144; PRAGMA temp_store = MEMORY;",
    );
    db.exec(TABLES);
    const { header, objects, taxonomy } = await readObjects(ndjsonPath);
    log(`read ${objects.length} objects and ${taxonomy.length} taxonomy nodes`);
    const levels = taxonomyLevels(taxonomy);
    const order = nameOrder(objects);
    const rankOfId = new Map<string, number>();
    order.forEach((slot, rank) => rankOfId.set(objects[slot].id, rank));
    const level5OfRank = new Uint32Array(objects.length);
    db.exec("BEGIN");
    insertMeta(db, {
      application: String(header.application),
      analyzedAt: String(header.analyzedAt),
      objectCount: String(objects.length),
    });
    insertObjects(db, objects, order, rankOfId, levels[4], level5OfRank);
    insertLevels(db, levels, level5OfRank);
    db.exec("COMMIT");
    objects.length = 0;
    log("objects and taxonomy inserted; reading links");
    const links = await readLinks(ndjsonPath, rankOfId);
    rankOfId.clear();
    db.exec("BEGIN");
    const distinct = insertLinks(db, links, level5OfRank.length);
    insertLevelGraphs(db, links, levels, level5OfRank);
    db.exec("COMMIT");
    log(`${distinct} distinct links inserted; building indexes and trigram index`);
    db.exec(INDEXES);
    db.exec("ANALYZE; PRAGMA journal_mode = DELETE;");
  } finally {
    db.close();
  }
  await rename(temporary, database);
}

async function readObjects(
  path: string,
): Promise<{ header: Record<string, unknown>; objects: ObjectRecord[]; taxonomy: NodeRecord[] }> {
  let header: Record<string, unknown> | undefined;
  const objects: ObjectRecord[] = [];
  const taxonomy: NodeRecord[] = [];
  for await (const record of readNdjson(path)) {
    if (!header) {
      header = record;
      continue;
    }
    if (record.kind === "object") objects.push(record as unknown as ObjectRecord);
    else if (record.kind === "taxonomy") taxonomy.push(record as unknown as NodeRecord);
  }
  if (header?.format !== "appstruct.analysis/1")
    throw new Error(`${path} does not start with an appstruct.analysis/1 header`);
  if (taxonomy.length === 0)
    throw new Error(`${path} has no taxonomy: the cross-check does not derive the default one`);
  return { header, objects, taxonomy };
}

/** Slots of `objects` in the name order of docs/api.md#order. */
function nameOrder(objects: ObjectRecord[]): Uint32Array {
  const keys = objects.map((o) => ({ lower: o.name.toLowerCase(), name: o.name, id: o.id }));
  return Uint32Array.from(objects.keys()).sort((a, b) => compareObjectsByName(keys[a], keys[b]));
}

/** Levels 1–5, each in name order; fullNames resolved (parent's fullName + "##" + name when absent). */
function taxonomyLevels(taxonomy: NodeRecord[]): Level[] {
  const byKey = new Map(taxonomy.map((n) => [n.key, n]));
  const fullNames = new Map<string, string>();
  const fullNameOf = (n: NodeRecord): string => {
    let full = fullNames.get(n.key);
    if (full === undefined) {
      full = n.fullName ?? (n.parent === null ? n.name : `${fullNameOf(byKey.get(n.parent)!)}##${n.name}`);
      fullNames.set(n.key, full);
    }
    return full;
  };
  const levels: Level[] = [];
  for (let level = 1; level <= 5; level++) {
    const sorted = taxonomy
      .filter((n) => n.level === level)
      .map((n) => ({
        key: n.key,
        lower: n.name.toLowerCase(),
        name: n.name,
        fullName: fullNameOf(n),
        parentKey: n.parent,
      }))
      .sort(compareNodesByName);
    const above = levels[level - 2];
    levels.push({
      nodes: sorted.map((n) => ({
        key: n.key,
        name: n.name,
        fullName: n.fullName,
        parent: n.parentKey === null ? null : above.indexOfKey.get(n.parentKey)!,
      })),
      indexOfKey: new Map(sorted.map((n, i) => [n.key, i])),
    });
  }
  return levels;
}

function insertMeta(db: DatabaseSync, entries: Record<string, string>): void {
  const insert = db.prepare("INSERT INTO meta (key, value) VALUES (?, ?)");
  for (const [key, value] of Object.entries(entries)) insert.run(key, value);
}

function insertObjects(
  db: DatabaseSync,
  objects: ObjectRecord[],
  order: Uint32Array,
  rankOfId: Map<string, number>,
  level5: Level,
  level5OfRank: Uint32Array,
): void {
  const typeCodes = new Map<string, number>();
  const insertType = db.prepare("INSERT INTO types (code, type, type_lower) VALUES (?, ?, ?)");
  const insert = db.prepare(
    "INSERT INTO objects (rank, id, name, name_lower, name_rev, full_name, type, type_code, type_id, file_path, mangling, external, annotations, tags, language, parent, role, status, level5) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  order.forEach((slot, rank) => {
    const o = objects[slot];
    let code = typeCodes.get(o.type);
    if (code === undefined) {
      code = typeCodes.size;
      typeCodes.set(o.type, code);
      insertType.run(code, o.type, o.type.toLowerCase());
    }
    const lower = o.name.toLowerCase();
    const l5 = o.level5 === undefined ? undefined : level5.indexOfKey.get(o.level5);
    if (l5 === undefined)
      throw new Error(`object ${o.id} has no known level-5 node (level5 ${JSON.stringify(o.level5)})`);
    level5OfRank[rank] = l5;
    // One analysis, no previous one: every object is Added unless the analysis says otherwise (docs/api.md#status).
    const status = o.status !== undefined ? o.status : "Added";
    const parent = o.parent === undefined || o.parent === null ? null : rankOfId.get(o.parent)!;
    insert.run(
      rank,
      o.id,
      o.name,
      lower,
      reversed(lower),
      o.fullName,
      o.type,
      code,
      o.typeId,
      o.filePath ?? null,
      o.mangling ?? "",
      o.external ? 1 : 0,
      o.annotations === undefined || o.annotations === null ? null : JSON.stringify(o.annotations),
      JSON.stringify(o.tags ?? []),
      o.language ?? null,
      parent,
      o.role ?? null,
      status,
      l5,
    );
  });
}

function insertLevels(db: DatabaseSync, levels: Level[], level5OfRank: Uint32Array): void {
  const counts = levels.map((l) => new Float64Array(l.nodes.length));
  for (const l5 of level5OfRank) counts[4][l5]++;
  for (let l = 4; l > 0; l--) levels[l].nodes.forEach((n, i) => (counts[l - 1][n.parent!] += counts[l][i]));
  const insert = db.prepare(
    "INSERT INTO level_nodes (level, idx, name, name_lower, full_name, parent, nb_objects) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  levels.forEach((level, l) =>
    level.nodes.forEach((n, i) =>
      insert.run(l + 1, i, n.name, n.name.toLowerCase(), n.fullName, n.parent, counts[l][i]),
    ),
  );
}

/** Links as parallel columns of ranks (types as codes into `typeNames`). */
interface LinkColumns {
  count: number;
  caller: Uint32Array;
  callee: Uint32Array;
  type: Uint16Array;
  escalated: Uint8Array;
  typeNames: string[];
}

async function readLinks(path: string, rankOfId: Map<string, number>): Promise<LinkColumns> {
  let capacity = 1 << 16;
  const links: LinkColumns = {
    count: 0,
    caller: new Uint32Array(capacity),
    callee: new Uint32Array(capacity),
    type: new Uint16Array(capacity),
    escalated: new Uint8Array(capacity),
    typeNames: [],
  };
  const typeCodes = new Map<string, number>();
  for await (const record of readNdjson(path)) {
    if (record.kind !== "link") continue;
    const from = rankOfId.get(record.from as string);
    const to = rankOfId.get(record.to as string);
    if (from === undefined || to === undefined)
      throw new Error(`link ${JSON.stringify(record)} names an object that does not exist`);
    if (links.count === capacity) {
      capacity *= 2;
      links.caller = grow(links.caller, new Uint32Array(capacity));
      links.callee = grow(links.callee, new Uint32Array(capacity));
      links.type = grow(links.type, new Uint16Array(capacity));
      links.escalated = grow(links.escalated, new Uint8Array(capacity));
    }
    let code = typeCodes.get(record.type as string);
    if (code === undefined) {
      code = typeCodes.size;
      typeCodes.set(record.type as string, code);
      links.typeNames.push(record.type as string);
    }
    const k = links.count++;
    links.caller[k] = from;
    links.callee[k] = to;
    links.type[k] = code;
    links.escalated[k] = record.escalated === true ? 1 : 0;
  }
  return links;
}

function grow<T extends Uint32Array | Uint16Array | Uint8Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/** Inserts the distinct links in primary-key order (an append, not random B-tree inserts); returns how many. */
function insertLinks(db: DatabaseSync, links: LinkColumns, objectCount: number): number {
  const { count, caller, callee, type, escalated, typeNames } = links;
  // Counting sort by caller, then each caller's few links by (callee, type name, escalated).
  const starts = new Uint32Array(objectCount + 1);
  for (let k = 0; k < count; k++) starts[caller[k] + 1]++;
  for (let i = 1; i < starts.length; i++) starts[i] += starts[i - 1];
  const order = new Uint32Array(count);
  const cursor = starts.slice();
  for (let k = 0; k < count; k++) order[cursor[caller[k]]++] = k;
  const insert = db.prepare("INSERT INTO links (caller, callee, type, escalated) VALUES (?, ?, ?, ?)");
  let inserted = 0;
  for (let c = 0; c + 1 < starts.length; c++) {
    const row = Array.from(order.subarray(starts[c], starts[c + 1])).sort(
      (a, b) =>
        callee[a] - callee[b] ||
        (typeNames[type[a]] < typeNames[type[b]] ? -1 : typeNames[type[a]] > typeNames[type[b]] ? 1 : 0) ||
        escalated[a] - escalated[b],
    );
    let previous = -1;
    for (const k of row) {
      if (
        previous >= 0 &&
        callee[k] === callee[previous] &&
        type[k] === type[previous] &&
        escalated[k] === escalated[previous]
      )
        continue;
      insert.run(c, callee[k], typeNames[type[k]], escalated[k]);
      inserted++;
      previous = k;
    }
  }
  return inserted;
}

/** Each level's graph: A→B (A ≠ B) once when an object under A links to one under B; stored in answer order. */
function insertLevelGraphs(db: DatabaseSync, links: LinkColumns, levels: Level[], level5OfRank: Uint32Array): void {
  // ancestor[l][i]: the level-(l+1) node above level-5 node i.
  const ancestor = levels.map(() => new Uint32Array(levels[4].nodes.length));
  levels[4].nodes.forEach((_, i) => {
    let node = i;
    for (let l = 4; l >= 0; l--) {
      ancestor[l][i] = node;
      if (l > 0) node = levels[l].nodes[node].parent!;
    }
  });
  const insert = db.prepare("INSERT INTO level_links (level, ord, origin, target) VALUES (?, ?, ?, ?)");
  levels.forEach((level, l) => {
    const size = level.nodes.length;
    const pairs = new Set<number>();
    for (let k = 0; k < links.count; k++) {
      const a = ancestor[l][level5OfRank[links.caller[k]]];
      const b = ancestor[l][level5OfRank[links.callee[k]]];
      if (a !== b) pairs.add(a * size + b);
    }
    // Answer order: origin name, then target name (docs/api.md#order), _id last. Nodes sharing a name
    // (the many "JSP" of level 4) are one group, so a target's name outranks the origin's _id.
    const group = level.nodes.map((n, i) => (i > 0 && level.nodes[i - 1].name === n.name ? -1 : i));
    group.forEach((g, i) => (group[i] = g < 0 ? group[i - 1] : g));
    const origin = (pair: number) => Math.floor(pair / size);
    const target = (pair: number) => pair % size;
    [...pairs]
      .sort(
        (x, y) =>
          group[origin(x)] - group[origin(y)] ||
          group[target(x)] - group[target(y)] ||
          origin(x) - origin(y) ||
          target(x) - target(y),
      )
      .forEach((pair, ord) => insert.run(l + 1, ord, origin(pair), target(pair)));
  });
}
