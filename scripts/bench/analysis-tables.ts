// @module Reads an NDJSON analysis into plain columns for the SQLite baseline: objects in name order, links by rank, taxonomy levels.
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { compareIds, compareNames } from "../../src/format/name-order.ts";

export interface BaselineObject {
  id: string;
  name: string;
  fullName: string;
  type: string;
  typeId: string;
  language: string | null;
  filePath: string | null;
  mangling: string;
  external: boolean;
  /** JSON text of the array, or null. */
  annotations: string | null;
  /** JSON text of the array. */
  tags: string;
  parent: string | null;
  level5: string;
  role: 0 | 1 | 2;
  status: string | null;
  /** JSON text of its source locations as the API lists them (`[{"fileId","startLine","endLine"}]`), or null when it has none. */
  sourceLocations: string | null;
}

export interface LevelNode {
  key: string;
  name: string;
  fullName: string;
  /** Index (the volatile `_id`) of the parent in the level above; -1 at level 1. */
  parent: number;
}

export interface AnalysisTables {
  /** In the name order of docs/api.md#order: the index is the rank (`ord`). */
  objects: BaselineObject[];
  /** Link endpoints as ranks, with type and escalated flag; duplicates not yet merged. */
  links: { from: Uint32Array; to: Uint32Array; type: string[]; escalated: Uint8Array; count: number };
  /** Levels 1..5, each in name order (then fullName, then key): the index is the `_id`. */
  levels: LevelNode[][];
  /** Level-5 index of each object, by rank. */
  level5: Int32Array;
}

const ROLES = { start: 1, end: 2 } as const;

/** One pass over the file; links naming an object not yet seen are resolved at the end. */
export async function readAnalysisTables(path: string): Promise<AnalysisTables> {
  const objects: BaselineObject[] = [];
  const slotOfId = new Map<string, number>();
  const taxonomy: { key: string; level: number; name: string; fullName?: string; parent: string | null }[] = [];
  let from = new Uint32Array(1 << 20);
  let to = new Uint32Array(1 << 20);
  let escalated = new Uint8Array(1 << 20);
  const types: string[] = [];
  const pending: { from: string; to: string; type: string; escalated: boolean }[] = [];
  const interned = new Map<string, string>();
  const intern = (s: string) => interned.get(s) ?? (interned.set(s, s), s);
  let count = 0;
  const addLink = (a: number, b: number, type: string, esc: boolean) => {
    if (count === from.length) {
      const grow = <T extends Uint32Array | Uint8Array>(x: T): T => {
        const y = new (x.constructor as new (n: number) => T)(x.length * 2);
        y.set(x);
        return y;
      };
      [from, to, escalated] = [grow(from), grow(to), grow(escalated)];
    }
    from[count] = a;
    to[count] = b;
    escalated[count] = esc ? 1 : 0;
    types[count++] = intern(type);
  };

  let header = true;
  for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) {
    if (!line.trim()) continue;
    const record = JSON.parse(line);
    if (header) {
      header = false;
      continue;
    }
    if (record.kind === "link") {
      const a = slotOfId.get(record.from);
      const b = slotOfId.get(record.to);
      if (a === undefined || b === undefined) pending.push(record);
      else addLink(a, b, record.type, record.escalated === true);
    } else if (record.kind === "object") {
      if (typeof record.level5 !== "string")
        throw new Error(
          `object ${record.id} has no level5: the baseline reads analyses with a taxonomy (as appstruct generate writes)`,
        );
      slotOfId.set(record.id, objects.length);
      objects.push({
        id: record.id,
        name: record.name,
        fullName: record.fullName,
        type: intern(record.type),
        typeId: intern(record.typeId),
        language: record.language == null ? null : intern(record.language),
        filePath: record.filePath ?? null,
        mangling: record.mangling ?? "",
        external: record.external === true,
        annotations: record.annotations == null ? null : intern(JSON.stringify(record.annotations)),
        tags: intern(JSON.stringify(record.tags ?? [])),
        parent: record.parent ?? null,
        level5: intern(record.level5),
        role: record.role ? ROLES[record.role as keyof typeof ROLES] : 0,
        status: record.status ?? null,
        sourceLocations: record.sourceLocations?.length
          ? JSON.stringify(
              record.sourceLocations.map((l: { fileId: string; startLine: number; endLine: number }) => ({
                fileId: l.fileId,
                startLine: l.startLine,
                endLine: l.endLine,
              })),
            )
          : null,
      });
    } else if (record.kind === "taxonomy") taxonomy.push(record);
  }
  for (const p of pending) {
    const a = slotOfId.get(p.from);
    const b = slotOfId.get(p.to);
    if (a === undefined || b === undefined) throw new Error(`link ${p.from} → ${p.to} names an unknown object`);
    addLink(a, b, p.type, p.escalated === true);
  }

  const lower = objects.map((o) => o.name.toLowerCase());
  const order = Array.from(objects.keys()).sort(
    (a, b) =>
      compareNames(lower[a], objects[a].name, lower[b], objects[b].name) || compareIds(objects[a].id, objects[b].id),
  );
  const rankOfSlot = new Uint32Array(objects.length);
  order.forEach((slot, rank) => (rankOfSlot[slot] = rank));
  for (let i = 0; i < count; i++) [from[i], to[i]] = [rankOfSlot[from[i]], rankOfSlot[to[i]]];

  const levels = sortLevels(taxonomy);
  const indexOfKey = new Map(levels.flatMap((nodes) => nodes.map((n, i) => [n.key, i] as const)));
  const sorted = order.map((slot) => objects[slot]);
  const level5 = Int32Array.from(sorted, (o) => {
    const i = indexOfKey.get(o.level5);
    if (i === undefined) throw new Error(`object ${o.id}: level5 ${o.level5} is not a taxonomy node`);
    return i;
  });
  return {
    objects: sorted,
    links: {
      from: from.subarray(0, count),
      to: to.subarray(0, count),
      type: types,
      escalated: escalated.subarray(0, count),
      count,
    },
    levels,
    level5,
  };
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Nodes per level in name order, then fullName, then key; fullName defaults to the parent's + `##` + name. */
function sortLevels(
  nodes: { key: string; level: number; name: string; fullName?: string; parent: string | null }[],
): LevelNode[][] {
  const byKey = new Map(nodes.map((n) => [n.key, n]));
  const fullNameOf = (n: (typeof nodes)[number]): string =>
    (n.fullName ??= n.parent === null ? n.name : `${fullNameOf(byKey.get(n.parent)!)}##${n.name}`);
  const levels: LevelNode[][] = [];
  const index = new Map<string, number>();
  for (let level = 1; level <= 5; level++) {
    const sorted = nodes
      .filter((n) => n.level === level)
      .sort(
        (a, b) =>
          compareNames(a.name.toLowerCase(), a.name, b.name.toLowerCase(), b.name) ||
          cmp(fullNameOf(a), fullNameOf(b)) ||
          cmp(a.key, b.key),
      );
    sorted.forEach((n, i) => index.set(n.key, i));
    levels.push(
      sorted.map((n) => ({
        key: n.key,
        name: n.name,
        fullName: fullNameOf(n),
        parent: n.parent === null ? -1 : index.get(n.parent)!,
      })),
    );
  }
  return levels;
}
