// @module Taxonomy: the nodes of levels 1–5 with object counts, and each level's precomputed graph (level-5 members: MEMP).

import { forEachDistinctTarget } from "./adjacency.ts";
import { type Block, type Blocks, checkBelow } from "./blocks.ts";
import { check } from "./errors.ts";
import { NONE, type SnapshotModel, type TaxonomyNode } from "./model.ts";
import { encodeStringList, StringList } from "./string-list.ts";

const LEVELS = 5;
const BLOCKS_PER_LEVEL = 8;

/**
 * Per level (1 to 5), eight blocks: names, fullNames, keys (three StringLists), u32 parent index
 * (NONE at level 1), u32 nbObjects. A level-5 node's members are in its member pages (MEMP).
 */
export function encodeTaxonomy(model: SnapshotModel): Block[] {
  const nb = model.levels.map((nodes) => new Uint32Array(nodes.length));
  const memberCounts = new Uint32Array(model.levels[4].length + 1);
  for (const o of model.objects) memberCounts[o.level5 + 1]++;
  for (let l = LEVELS - 1; l >= 0; l--)
    model.levels[l].forEach((node, i) => {
      if (l === LEVELS - 1) nb[l][i] = memberCounts[i + 1];
      if (l > 0) nb[l - 1][node.parent] += nb[l][i];
    });
  return model.levels.flatMap((nodes, l) => [
    ...encodeStringList(nodes.map((n) => n.name)),
    ...encodeStringList(nodes.map((n) => n.fullName)),
    ...encodeStringList(nodes.map((n) => n.key)),
    Uint32Array.from(nodes, (n) => n.parent),
    nb[l],
  ]);
}

export interface TaxonomyLevel {
  names: StringList;
  fullNames: StringList;
  keys: StringList;
  parents: Uint32Array;
  nbObjects: Uint32Array;
  count: number;
}

export class Taxonomy {
  readonly levels: TaxonomyLevel[];
  private childLists: Uint32Array[][] | undefined;

  constructor(blocks: Blocks, objectCount: number, levelCounts: readonly number[]) {
    this.levels = [];
    for (let l = 0; l < LEVELS; l++) {
      const at = l * BLOCKS_PER_LEVEL;
      const level: TaxonomyLevel = {
        names: new StringList(blocks, at, `level ${l + 1} names`),
        fullNames: new StringList(blocks, at + 2, `level ${l + 1} fullNames`),
        keys: new StringList(blocks, at + 4, `level ${l + 1} keys`),
        parents: blocks.u32(at + 6),
        nbObjects: blocks.u32(at + 7),
        count: 0,
      };
      level.count = level.names.length;
      check(level.count === levelCounts[l], `level ${l + 1} holds ${level.count} nodes, META says ${levelCounts[l]}`);
      check(
        level.fullNames.length === level.count &&
          level.keys.length === level.count &&
          level.parents.length === level.count &&
          level.nbObjects.length === level.count,
        `level ${l + 1} columns differ in length`,
      );
      if (l === 0) for (const p of level.parents) check(p === NONE, "a level-1 node has a parent");
      else checkBelow(level.parents, this.levels[l - 1].count, `level ${l + 1} parents`);
      this.levels.push(level);
    }
    const counted = this.levels[4].nbObjects.reduce((sum, n) => sum + n, 0);
    check(counted === objectCount, `level-5 nodes count ${counted} objects, META says ${objectCount}`);
  }

  /** Nodes of level `level` (1–5) as model records. */
  nodes(level: number): TaxonomyNode[] {
    const l = this.levels[level - 1];
    return Array.from({ length: l.count }, (_, i) => ({
      key: l.keys.get(i),
      name: l.names.get(i),
      fullName: l.fullNames.get(i),
      parent: l.parents[i],
    }));
  }

  /** Indices of the children of node `index` of level `level` (1–4) in level + 1, ascending (name order). */
  children(level: number, index: number): Uint32Array {
    if (!this.childLists) {
      this.childLists = this.levels.slice(1).map((child, l) => {
        const lists: number[][] = Array.from({ length: this.levels[l].count }, () => []);
        child.parents.forEach((p, i) => lists[p].push(i));
        return lists.map((list) => Uint32Array.from(list));
      });
    }
    return this.childLists[level - 1][index];
  }

  get byteSize(): number {
    let size = 0;
    for (const l of this.levels) size += l.names.byteSize + l.fullNames.byteSize + l.keys.byteSize + l.count * 8;
    // Child lists, once built: one typed array (about 64 bytes of header) per node of levels 1-4, and its ranks.
    if (this.childLists)
      for (let l = 1; l < LEVELS; l++) size += this.levels[l - 1].count * 64 + this.levels[l].count * 4;
    return size;
  }
}

/** Pairs of a level's nodes up to this many bits are marked in a bitmap, not kept in a set. */
const PAIR_BITMAP_BITS = 1 << 27;

/**
 * The distinct pairs (a, b) of nodes of one level, as a · width + b: a bit each while width² fits
 * PAIR_BITMAP_BITS (a link's five levels marked in a few memory writes, not five hash sets'
 * insertions), a set of numbers beyond.
 */
export class NodePairs {
  private readonly width: number;
  private readonly bits: Uint8Array | null;
  private readonly set: Set<number> | null;

  constructor(width: number, bitmapBits = PAIR_BITMAP_BITS) {
    this.width = width;
    const dense = width * width <= bitmapBits;
    this.bits = dense ? new Uint8Array(Math.ceil((width * width) / 8)) : null;
    this.set = dense ? null : new Set();
  }

  add(a: number, b: number): void {
    const k = a * this.width + b;
    if (this.bits) this.bits[k >>> 3] |= 1 << (k & 7);
    else this.set!.add(k);
  }

  /** Every pair added, as a · width + b (in no particular order). */
  all(): Iterable<number> {
    if (!this.bits) return this.set!;
    const out: number[] = [];
    for (let byte = 0; byte < this.bits.length; byte++)
      if (this.bits[byte]) for (let bit = 0; bit < 8; bit++) if (this.bits[byte] & (1 << bit)) out.push(byte * 8 + bit);
    return out;
  }
}

/**
 * Ten blocks: per level, u32 origins and u32 targets of the level's links, sorted by origin name,
 * then target name, then origin and target index (volatile `_id`). A link A→B (A ≠ B) exists when an
 * object under A has a link of any kind to an object under B.
 */
export function encodeLevelGraphs(model: SnapshotModel): Block[] {
  const n = model.objects.length;
  // ancestors[l][rank]: the node of level l+1 that object `rank` sits under.
  const ancestors = Array.from({ length: LEVELS }, () => new Uint32Array(n));
  model.objects.forEach((o, rank) => {
    let node = o.level5;
    for (let l = LEVELS - 1; l >= 0; l--) {
      ancestors[l][rank] = node;
      node = model.levels[l][node].parent;
    }
  });
  const pairs = model.levels.map((nodes) => new NodePairs(nodes.length));
  forEachDistinctTarget(model.callees, n, (from, to) => {
    for (let l = 0; l < LEVELS; l++) {
      const a = ancestors[l][from];
      const b = ancestors[l][to];
      if (a !== b) pairs[l].add(a, b);
    }
  });
  return pairs.flatMap((set, l) => {
    const nodes = model.levels[l];
    const width = nodes.length;
    // Links sort by origin name, then target name; nodes sharing a name tie-break by index (_id).
    const group = new Uint32Array(width);
    for (let i = 1; i < width; i++) group[i] = nodes[i].name === nodes[i - 1].name ? group[i - 1] : i;
    const keys = Array.from(set.all(), (k) => [Math.floor(k / width), k % width]);
    keys.sort(([oa, ta], [ob, tb]) => group[oa] - group[ob] || group[ta] - group[tb] || oa - ob || ta - tb);
    return [Uint32Array.from(keys, (k) => k[0]), Uint32Array.from(keys, (k) => k[1])];
  });
}

export class LevelGraphs {
  readonly origins: Uint32Array[] = [];
  readonly targets: Uint32Array[] = [];

  constructor(blocks: Blocks, taxonomy: Taxonomy) {
    for (let l = 0; l < LEVELS; l++) {
      const origins = blocks.u32(l * 2);
      const targets = blocks.u32(l * 2 + 1);
      check(origins.length === targets.length, `level ${l + 1} graph columns differ in length`);
      checkBelow(origins, taxonomy.levels[l].count, `level ${l + 1} graph origins`);
      checkBelow(targets, taxonomy.levels[l].count, `level ${l + 1} graph targets`);
      this.origins.push(origins);
      this.targets.push(targets);
    }
  }

  get byteSize(): number {
    return this.origins.reduce((s, o) => s + o.byteLength * 2, 0);
  }
}
