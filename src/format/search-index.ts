// @module SearchIndex: the distinct lower-cased values of one text field, sorted, each with its posting list of ranks.
//
// Keys sort by UTF-16 code units, so `equals` and `startswith` are binary searches; a permutation of
// the keys sorted by their reversed text serves `endswith`; `contains` scans the (distinct) keys.
// Postings hold ascending ranks, i.e. objects in name order. Two layouts share one reader:
// dictionary-keyed (keys stored as a StringList: multi-valued and low-cardinality fields) and
// column-keyed (single-valued fields whose values are nearly unique: a key is read from the text
// column at its first posting and lower-cased, so it is not stored twice).
import { type Block, type Blocks, checkBelow, checkOffsets } from "./blocks.ts";
import { compareCodeUnits } from "./dictionary-column.ts";
import { check } from "./errors.ts";
import { StringList, encodeStringList } from "./string-list.ts";

/** Reverses a string by UTF-16 code units (the order endswith needs; surrogate pairs need not survive). */
export const reverseCodeUnits = (s: string) => {
  let out = "";
  for (let i = s.length - 1; i >= 0; i--) out += s[i];
  return out;
};

/** The sorted distinct keys of an index. */
export interface KeyList {
  readonly length: number;
  get(k: number): string;
  /** Every key, materialized once and kept: for scans. */
  all(): readonly string[];
}

interface Grouped {
  keys: string[];
  offsets: Uint32Array;
  postings: Uint32Array;
}

/** Groups ranks by lower-cased value: `values(rank)` gives the field's value(s) of one object. */
function group(rows: number, values: (rank: number) => string | readonly string[] | null): Grouped {
  const postings = new Map<string, number[]>();
  for (let rank = 0; rank < rows; rank++) {
    const v = values(rank);
    if (v === null) continue;
    for (const value of typeof v === "string" ? [v] : v) {
      const key = value.toLowerCase();
      let list = postings.get(key);
      if (!list) postings.set(key, (list = []));
      if (list[list.length - 1] !== rank) list.push(rank);
    }
  }
  const keys = [...postings.keys()].sort(compareCodeUnits);
  const offsets = new Uint32Array(keys.length + 1);
  keys.forEach((k, i) => (offsets[i + 1] = offsets[i] + postings.get(k)!.length));
  const ranks = new Uint32Array(offsets[keys.length]);
  keys.forEach((k, i) => ranks.set(postings.get(k)!, offsets[i]));
  return { keys, offsets, postings: ranks };
}

/** Groups a single-valued, mostly unique field by sorting ranks on the lower-cased value (no map of a million lists). */
function groupUnique(rows: number, value: (rank: number) => string): Grouped {
  const lower = Array.from({ length: rows }, (_, r) => value(r).toLowerCase());
  let sorted = true;
  for (let r = 1; r < rows && sorted; r++) sorted = lower[r - 1] <= lower[r];
  const order = Uint32Array.from({ length: rows }, (_, r) => r);
  // Names arrive in rank order already (rank is name order): then no sort at all.
  if (!sorted) order.sort((a, b) => compareCodeUnits(lower[a], lower[b]) || a - b);
  const keys: string[] = [];
  const starts: number[] = [];
  for (let i = 0; i < rows; i++) {
    const key = lower[order[i]];
    if (i === 0 || key !== keys[keys.length - 1]) keys.push(key), starts.push(i);
  }
  starts.push(rows);
  return { keys, offsets: Uint32Array.from(starts), postings: order };
}

/** Compares the reversals of `a` and `b` by code units, without building them. */
function compareReversed(a: string, b: string): number {
  for (let i = a.length - 1, j = b.length - 1; i >= 0 && j >= 0; i--, j--) {
    const d = a.charCodeAt(i) - b.charCodeAt(j);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

function reversedOrder(keys: readonly string[]): Uint32Array {
  return Uint32Array.from(keys.keys()).sort((a, b) => compareReversed(keys[a], keys[b]));
}

/** Five blocks: keys (StringList, sorted), u32 posting offsets (keys + 1), u32 postings (ranks), u32 key indices by reversed key. */
export function encodeSearchIndex(rows: number, values: (rank: number) => string | readonly string[] | null): Block[] {
  const g = group(rows, values);
  return [...encodeStringList(g.keys), g.offsets, g.postings, reversedOrder(g.keys)];
}

/** Three blocks: u32 posting offsets (keys + 1), u32 postings (ranks), u32 key indices by reversed key; keys come from the column. */
export function encodeColumnSearchIndex(rows: number, value: (rank: number) => string): Block[] {
  const g = groupUnique(rows, value);
  return [g.offsets, g.postings, reversedOrder(g.keys)];
}

/** Keys of a column-keyed index: the lower-cased column value at each key's first posting. */
class ColumnKeys implements KeyList {
  readonly length: number;
  private readonly column: StringList;
  private readonly offsets: Uint32Array;
  private readonly postings: Uint32Array;
  private materialized: string[] | undefined;

  constructor(column: StringList, offsets: Uint32Array, postings: Uint32Array) {
    this.column = column;
    this.offsets = offsets;
    this.postings = postings;
    this.length = offsets.length - 1;
  }
  get(k: number): string {
    return this.materialized ? this.materialized[k] : this.column.get(this.postings[this.offsets[k]]).toLowerCase();
  }
  all(): readonly string[] {
    return (this.materialized ??= Array.from({ length: this.length }, (_, k) => this.get(k)));
  }
}

export class SearchIndex {
  readonly keys: KeyList;
  readonly offsets: Uint32Array;
  readonly postings: Uint32Array;
  readonly byReversed: Uint32Array;
  private readonly storedKeys: StringList | null;

  /** `column`: the text column a column-keyed index reads its keys from; null for a dictionary-keyed one. */
  constructor(blocks: Blocks, rows: number, what: string, column: StringList | null) {
    const first = column ? 0 : 2;
    this.storedKeys = column ? null : new StringList(blocks, 0, `${what} keys`);
    this.offsets = blocks.u32(first);
    this.postings = blocks.u32(first + 1);
    this.byReversed = blocks.u32(first + 2);
    const keyCount = this.offsets.length - 1;
    check(keyCount >= 0, `${what}: posting offsets are empty`);
    if (this.storedKeys) check(this.storedKeys.length === keyCount, `${what}: ${this.storedKeys.length} keys for ${keyCount} posting lists`);
    checkOffsets(this.offsets, keyCount, this.postings.length, `${what} postings`);
    checkBelow(this.postings, rows, `${what} postings`);
    if (column) {
      check(column.length === rows, `${what}: its column has ${column.length} rows, expected ${rows}`);
      for (let k = 0; k < keyCount; k++) check(this.offsets[k] < this.offsets[k + 1], `${what}: key ${k} has no posting`);
    }
    check(this.byReversed.length === keyCount, `${what}: reversed order does not cover the keys`);
    checkBelow(this.byReversed, keyCount, `${what} reversed order`);
    this.keys = this.storedKeys ?? new ColumnKeys(column!, this.offsets, this.postings);
  }

  /** Ranks of key `k`, ascending. */
  posting(k: number): Uint32Array {
    return this.postings.subarray(this.offsets[k], this.offsets[k + 1]);
  }

  /** Index of the first key not below `value` (code-unit order). */
  lowerBound(value: string): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.keys.get(mid) < value) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** [from, to): the keys starting with `prefix`, which are contiguous in code-unit order. */
  prefixRange(prefix: string): [number, number] {
    const from = this.lowerBound(prefix);
    let lo = from;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.keys.get(mid).startsWith(prefix)) lo = mid + 1;
      else hi = mid;
    }
    return [from, lo];
  }

  /** Keys ending with `suffix`, via the reversed-key permutation. */
  suffixKeys(suffix: string): Uint32Array {
    const wanted = reverseCodeUnits(suffix);
    const reversedAt = (i: number) => reverseCodeUnits(this.keys.get(this.byReversed[i]));
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (reversedAt(mid) < wanted) lo = mid + 1;
      else hi = mid;
    }
    const from = lo;
    hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (reversedAt(mid).startsWith(wanted)) lo = mid + 1;
      else hi = mid;
    }
    return this.byReversed.subarray(from, lo);
  }

  get byteSize(): number {
    return (this.storedKeys?.byteSize ?? 0) + this.offsets.byteLength + this.postings.byteLength + this.byReversed.byteLength;
  }
}
