// @module buildModel: a validated analysis to the SnapshotModel the encoder writes (ranks, taxonomy, links, status).
import { roleCode } from "../../src/format/flow-points.ts";
import {
  type CalleeLinks,
  LINK_DIRECT,
  LINK_ESCALATED,
  NONE,
  type ObjectRecord,
  type SnapshotModel,
  type Status,
  type TaxonomyNode,
} from "../../src/format/model.ts";
import { compareIds, compareNames, nameOrder } from "../../src/format/name-order.ts";
import type { ValidatedAnalysis } from "../analysis/collector.ts";
import type { AnalysisTaxonomyNode } from "../analysis/schema.ts";
import { deriveTaxonomy } from "./derived-taxonomy.ts";

/** The analysis statuses are computed against: its content address and each object's checksum by id. */
export interface StatusBase {
  key: string;
  checksums: Map<string, string | null>;
}

/** Shared by every object without tags, locations or post-its: a million empty arrays are GC work for nothing. */
const NO_STRINGS: string[] = Object.freeze([]) as unknown as string[];
const NO_LOCATIONS: ObjectRecord["sourceLocations"] = Object.freeze([]) as unknown as ObjectRecord["sourceLocations"];
const NO_POST_ITS: ObjectRecord["postIts"] = Object.freeze([]) as unknown as ObjectRecord["postIts"];

/** An analysis's links grouped by caller rank, with how many distinct links they are. */
export interface GroupedCallees {
  links: CalleeLinks;
  linkCount: number;
}

/**
 * Groups links as `groupCallees` does, here or on another thread (PagePool.groupCallees); what it
 * returns gives the result, waiting for it if need be, so that the model's records are made meanwhile.
 * `roles` (pointRoles, by rank) let a grouper on another thread count the flows there next.
 */
export type CalleeGrouper = (
  links: ValidatedAnalysis["links"],
  rankOfSlot: Uint32Array,
  roles: Uint8Array,
) => () => GroupedCallees;

const groupCalleesHere: CalleeGrouper = (links, rankOfSlot) => {
  const grouped = groupCallees(links, rankOfSlot);
  return () => grouped;
};

/** Builds the model of `analysis`, consuming its object records (the array is emptied as it goes). */
export function buildModel(
  analysis: ValidatedAnalysis,
  previous: StatusBase | null,
  grouper: CalleeGrouper = groupCalleesHere,
): SnapshotModel {
  const { objects } = analysis;
  const order = nameOrder(
    objects.map((o) => o.name.toLowerCase()),
    (slot) => objects[slot].name,
    (slot) => objects[slot].id,
  );
  const rankOfSlot = new Uint32Array(objects.length);
  order.forEach((slot, rank) => (rankOfSlot[slot] = rank));
  const roles = new Uint8Array(objects.length);
  objects.forEach((o, slot) => (roles[rankOfSlot[slot]] = roleCode(o.role)));
  const grouped = grouper(analysis.links, rankOfSlot, roles);

  const derived = analysis.taxonomy ? null : deriveTaxonomy(objects);
  const { levels, indexOfKey } = buildLevels(analysis.taxonomy ?? derived!.nodes);
  // The file table is in id order, so that the source code route finds a file by a binary search of its ids.
  const files = [...analysis.files].sort((a, b) => compareIds(a.id, b.id));
  const fileIndex = new Map(files.map((f, i) => [f.id, i]));

  const records: ObjectRecord[] = Array.from(order, (slot) => {
    const o = objects[slot];
    // Consumed: each analysis record is released once its model record exists, so the two sets of
    // a million objects are not all alive at once.
    (objects as (typeof o | undefined)[])[slot] = undefined;
    const checksum = o.checksum ?? null;
    return {
      id: o.id,
      name: o.name,
      fullName: o.fullName,
      type: o.type,
      typeId: o.typeId,
      language: o.language ?? null,
      filePath: o.filePath ?? null,
      mangling: o.mangling ?? "",
      external: o.external ?? false,
      annotations: o.annotations ?? null,
      tags: o.tags?.length ? o.tags : NO_STRINGS,
      parent: analysis.parentSlots[slot] < 0 ? NONE : rankOfSlot[analysis.parentSlots[slot]],
      level5: indexOfKey.get(derived ? derived.level5[slot] : o.level5!)!,
      role: o.role ?? null,
      checksum,
      explicitStatus: o.status ?? null,
      status: o.status ?? computeStatus(previous, o.id, checksum),
      sourceLocations: o.sourceLocations?.length
        ? o.sourceLocations.map((l) => ({ file: fileIndex.get(l.fileId)!, startLine: l.startLine, endLine: l.endLine }))
        : NO_LOCATIONS,
      postIts: NO_POST_ITS,
    };
  });
  for (const p of analysis.postIts) {
    const record = records[rankOfSlot[p.slot]];
    if (record.postIts === NO_POST_ITS) record.postIts = [];
    record.postIts.push({ title: p.title, text: p.text });
  }

  const callees = grouped();
  return {
    meta: {
      application: analysis.header.application,
      analyzedAt: analysis.header.analyzedAt,
      analyzedAtMs: analysis.analyzedAtMs,
      analyzer: analysis.header.analyzer ?? null,
      statusBase: previous?.key ?? null,
      taxonomyDerived: derived !== null,
      counts: {
        objects: records.length,
        links: callees.linkCount,
        files: files.length,
        postIts: analysis.postIts.length,
        levels: levels.map((l) => l.length),
      },
    },
    objects: records,
    levels,
    files: files.map((f) => ({
      id: f.id,
      path: f.path,
      language: f.language ?? null,
      ...(f.text === undefined ? {} : { text: f.text }),
    })),
    callees: callees.links,
  };
}

/** docs/api.md#status: Added when absent before (or no previous analysis), else by checksum; null without both checksums. */
function computeStatus(previous: StatusBase | null, id: string, checksum: string | null): Status | null {
  if (!previous?.checksums.has(id)) return "Added";
  const before = previous.checksums.get(id)!;
  if (checksum === null || before === null) return null;
  return checksum === before ? "Unchanged" : "Modified";
}

/** Sorts each level's nodes into name order (index = volatile `_id`) and resolves parents and fullNames. */
function buildLevels(nodes: readonly AnalysisTaxonomyNode[]): {
  levels: TaxonomyNode[][];
  indexOfKey: Map<string, number>;
} {
  const byKey = new Map(nodes.map((n) => [n.key, n]));
  const fullNames = new Map<string, string>();
  const fullNameOf = (n: AnalysisTaxonomyNode): string => {
    let full = fullNames.get(n.key);
    if (full === undefined) {
      full = n.fullName ?? (n.parent === null ? n.name : `${fullNameOf(byKey.get(n.parent)!)}##${n.name}`);
      fullNames.set(n.key, full);
    }
    return full;
  };
  const indexOfKey = new Map<string, number>();
  const levels: TaxonomyNode[][] = [];
  for (let level = 1; level <= 5; level++) {
    const sorted = nodes
      .filter((n) => n.level === level)
      .map((n) => ({ node: n, lower: n.name.toLowerCase(), fullName: fullNameOf(n) }))
      .sort(
        (a, b) =>
          compareNames(a.lower, a.node.name, b.lower, b.node.name) ||
          cmp(a.fullName, b.fullName) ||
          cmp(a.node.key, b.node.key),
      );
    sorted.forEach((s, i) => indexOfKey.set(s.node.key, i));
    levels.push(
      sorted.map((s) => ({
        key: s.node.key,
        name: s.node.name,
        fullName: s.fullName,
        parent: s.node.parent === null ? NONE : indexOfKey.get(s.node.parent)!,
      })),
    );
  }
  return { levels, indexOfKey };
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Groups links by caller rank, sorts each row by (callee rank, link type) and merges duplicates into flags. */
export function groupCallees(links: ValidatedAnalysis["links"], rankOfSlot: Uint32Array): GroupedCallees {
  const { from, to, type, escalated, types } = links;
  const n = rankOfSlot.length;
  const linkTypes = [...types].sort();
  const typeCode = Uint32Array.from(types, (t) => linkTypes.indexOf(t));
  const counts = new Uint32Array(n + 1);
  for (let i = 0; i < from.length; i++) counts[rankOfSlot[from[i]] + 1]++;
  for (let r = 0; r < n; r++) counts[r + 1] += counts[r];
  const cursor = counts.slice(0, n);
  // Sort key per link: callee rank × types + type, then ×2 + escalated; fits a double exactly.
  const keys = new Float64Array(from.length);
  for (let i = 0; i < from.length; i++)
    keys[cursor[rankOfSlot[from[i]]]++] = (rankOfSlot[to[i]] * linkTypes.length + typeCode[type[i]]) * 2 + escalated[i];

  const offsets = new Uint32Array(n + 1);
  // At most one entry a link record: typed arrays of that size, cut to the entries once merged.
  const targets = new Uint32Array(from.length);
  const codes = new Uint32Array(from.length);
  const flags = new Uint8Array(from.length);
  let entries = 0;
  let linkCount = 0;
  for (let r = 0; r < n; r++) {
    const row = keys.subarray(counts[r], counts[r + 1]).sort();
    let previousKey = -1;
    for (let i = 0; i < row.length; i++) {
      const key = row[i];
      if (key === previousKey) continue;
      previousKey = key;
      linkCount++;
      const isEscalated = key % 2;
      const pair = (key - isEscalated) / 2;
      const target = Math.floor(pair / linkTypes.length);
      const code = pair % linkTypes.length;
      const last = entries - 1;
      const flag = isEscalated ? LINK_ESCALATED : LINK_DIRECT;
      if (last >= offsets[r] && targets[last] === target && codes[last] === code) flags[last] |= flag;
      else (targets[entries] = target), (codes[entries] = code), (flags[entries++] = flag);
    }
    offsets[r + 1] = entries;
  }
  return {
    links: {
      offsets,
      targets: targets.slice(0, entries),
      types: codes.slice(0, entries),
      flags: flags.slice(0, entries),
      linkTypes,
    },
    linkCount,
  };
}
