// @module SearchIndex: the distinct lower-cased values of one multi-valued or low-cardinality text field, sorted, each with its posting list of ranks.
//
// Keys sort by UTF-16 code units, so `equals` and `startswith` are binary searches; a permutation of
// the keys sorted by their reversed text serves `endswith`; `contains` scans the (distinct) keys.
// Postings hold ascending ranks, i.e. objects in name order. The keys of the nearly unique fields
// (name, fullName, mangling) and their postings are not here but in key pages (key-pages.ts), read a
// page at a time, so that no query loads every key; they are grouped here for those pages too.
import { type Block, type Blocks, checkBelow, checkOffsets } from "./blocks.ts";
import { reversedOrder } from "./code-unit-order.ts";
import { check } from "./errors.ts";
import { encodeStringList, type LowerNeedle, StringList } from "./string-list.ts";

const reverseBuffer = new Uint16Array(4096);

/** Reverses a string by UTF-16 code units (the order endswith needs; surrogate pairs need not survive). */
export function reverseCodeUnits(s: string): string {
  const n = s.length;
  if (n > reverseBuffer.length) return s.split("").reverse().join("");
  for (let i = 0; i < n; i++) reverseBuffer[i] = s.charCodeAt(n - 1 - i);
  return String.fromCharCode.apply(null, reverseBuffer.subarray(0, n) as unknown as number[]);
}

/** The sorted distinct keys of an index. */
export interface KeyList {
  readonly length: number;
  get(k: number): string;
  /** Every key, materialized once and kept: for scans. */
  all(): readonly string[];
  /** Whether key `k` contains `needle` (lower-case), without building the key where that can be avoided. */
  includes(k: number, needle: LowerNeedle): boolean;
  /** The keys of `candidates` (ascending) that contain `needle`, in a new array: `includes` of many keys, in batches that overlap their memory reads. */
  including(candidates: Uint32Array, needle: LowerNeedle): Uint32Array;
}

/** Sorted distinct keys, key k holding the ranks `postings[offsets[k] .. offsets[k + 1])`. */
export interface Grouped {
  keys: string[];
  offsets: Uint32Array;
  postings: Uint32Array;
}

/** Groups ranks by lower-cased value: `values(rank)` gives the field's value(s) of one object. */
function group(rows: number, values: (rank: number) => string | readonly string[] | null): Grouped {
  const postings = new Map<string, number[]>();
  // Each value's list, found by the value as it is: lower-cased once, not once an object.
  const listOf = new Map<string, number[]>();
  const add = (value: string, rank: number) => {
    let list = listOf.get(value);
    if (!list) {
      const key = value.toLowerCase();
      list = postings.get(key);
      if (!list) postings.set(key, (list = []));
      listOf.set(value, list);
    }
    if (list[list.length - 1] !== rank) list.push(rank);
  };
  for (let rank = 0; rank < rows; rank++) {
    const v = values(rank);
    if (v === null) continue;
    if (typeof v === "string") add(v, rank);
    else for (const value of v) add(value, rank);
  }
  // The default sort compares strings by UTF-16 code units: the format's key order, natively.
  const keys = [...postings.keys()].sort();
  const offsets = new Uint32Array(keys.length + 1);
  keys.forEach((k, i) => (offsets[i + 1] = offsets[i] + postings.get(k)!.length));
  const ranks = new Uint32Array(offsets[keys.length]);
  keys.forEach((k, i) => ranks.set(postings.get(k)!, offsets[i]));
  return { keys, offsets, postings: ranks };
}

/** Groups a single-valued, mostly unique field: its sorted distinct keys, the ranks in key order as their postings (no list per key). */
export function groupUnique(rows: number, value: (rank: number) => string): Grouped {
  const lower = new Array<string>(rows);
  let sorted = true;
  for (let r = 0; r < rows; r++) {
    lower[r] = value(r).toLowerCase();
    if (r > 0 && lower[r - 1] > lower[r]) sorted = false;
  }
  // Ranks in key order. Names arrive in rank order, which is lower-cased name order: no sort needed.
  // Otherwise the sort is stable, so each key's ranks stay ascending: its postings.
  const order = Array.from(lower.keys());
  if (!sorted) order.sort((a, b) => (lower[a] < lower[b] ? -1 : lower[a] > lower[b] ? 1 : 0));
  const keys: string[] = [];
  const starts: number[] = [];
  for (let i = 0; i < rows; i++)
    if (i === 0 || lower[order[i]] !== lower[order[i - 1]]) keys.push(lower[order[i]]), starts.push(i);
  starts.push(rows);
  return { keys, offsets: Uint32Array.from(starts), postings: Uint32Array.from(order) };
}

/** Five blocks: keys (StringList, sorted), u32 posting offsets (keys + 1), u32 postings (ranks), u32 key indices by reversed key. */
export function encodeSearchIndex(
  rows: number,
  values: (rank: number) => string | readonly string[] | null,
  onKeys?: (keys: readonly string[]) => void,
): Block[] {
  const g = group(rows, values);
  onKeys?.(g.keys);
  return [...encodeStringList(g.keys), g.offsets, g.postings, reversedOrder(g.keys)];
}

/** The entries of `candidates` whose `hits` entry is set, in a new array. */
function keepHits(candidates: Uint32Array, hits: Uint8Array): Uint32Array {
  const out = new Uint32Array(candidates.length);
  let n = 0;
  for (let i = 0; i < candidates.length; i++) if (hits[i]) out[n++] = candidates[i];
  return out.subarray(0, n);
}

export class SearchIndex {
  readonly keys: KeyList;
  readonly keyCount: number;
  readonly offsets: Uint32Array;
  readonly postings: Uint32Array;
  readonly byReversed: Uint32Array;
  private readonly storedKeys: StringList;

  constructor(blocks: Blocks, rows: number, what: string) {
    const stored = (this.storedKeys = new StringList(blocks, 0, `${what} keys`));
    this.offsets = blocks.u32(2);
    this.postings = blocks.u32(3);
    this.byReversed = blocks.u32(4);
    const keyCount = (this.keyCount = this.offsets.length - 1);
    check(keyCount >= 0, `${what}: posting offsets are empty`);
    check(stored.length === keyCount, `${what}: ${stored.length} keys for ${keyCount} posting lists`);
    checkOffsets(this.offsets, keyCount, this.postings.length, `${what} postings`);
    checkBelow(this.postings, rows, `${what} postings`);
    check(this.byReversed.length === keyCount, `${what}: reversed order does not cover the keys`);
    checkBelow(this.byReversed, keyCount, `${what} reversed order`);
    this.keys = {
      length: stored.length,
      get: (k) => stored.get(k),
      all: () => stored.all(),
      includes: (k, needle) => stored.lowerIncludes(k, needle),
      including: (candidates, needle) => keepHits(candidates, stored.lowerIncludesEach(candidates, needle)),
    };
  }

  /** Ranks of key `k`, ascending. */
  posting(k: number): Uint32Array {
    return this.postings.subarray(this.offsets[k], this.offsets[k + 1]);
  }

  /** Bytes held (for cache accounting): keys and posting arrays. */
  get byteSize(): number {
    return this.storedKeys.byteSize + this.offsets.byteLength + this.postings.byteLength + this.byReversed.byteLength;
  }
}

/**
 * Every this many entries of a reversed order of key pages (RNAM, RFUL, RMNG), its key is stored
 * whole: an `endswith` finds the window of its bounds in memory, then reads the fifteen keys
 * between two samples in one round, where a search over the pages took a round a step.
 */
export const REVERSED_SAMPLE = 16;

/** The keys of a reversed order sampled as REVERSED_SAMPLE says: those of entries 0, 16, 32, … */
export function reversedSamples(keys: readonly string[], order: Uint32Array): Block[] {
  const samples: string[] = [];
  for (let i = 0; i < order.length; i += REVERSED_SAMPLE) samples.push(keys[order[i]]);
  return encodeStringList(samples);
}

/**
 * A permutation of key indices `0 .. K − 1`, in the order of their keys reversed (RNAM, RFUL, RMNG):
 * `endswith` searches it; with the keys of every REVERSED_SAMPLE-th entry, whole.
 */
export class ReversedOrder {
  readonly order: Uint32Array;
  readonly samples: StringList;

  constructor(blocks: Blocks, what: string) {
    this.order = blocks.u32(0);
    const seen = new Uint8Array(this.order.length);
    // By index: iterating the typed array made an iterator result for each key until it was optimized.
    for (let i = 0; i < this.order.length; i++) {
      const k = this.order[i];
      if (k >= seen.length || seen[k]) check(false, `${what}: not a permutation of the key indices`);
      seen[k] = 1;
    }
    this.samples = new StringList(blocks, 1, `${what} samples`);
    const expected = Math.ceil(this.order.length / REVERSED_SAMPLE);
    check(
      this.samples.length === expected,
      `${what}: ${this.samples.length} sampled keys for ${this.order.length} keys, not ${expected}`,
    );
  }

  get byteSize(): number {
    return this.order.byteLength + this.samples.byteSize;
  }
}
