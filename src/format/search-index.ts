// @module SearchIndex: the distinct lower-cased values of one text field, sorted, each with its posting list of ranks.
//
// Keys sort by UTF-16 code units, so `equals` and `startswith` are binary searches; a permutation of
// the keys sorted by their reversed text serves `endswith`; `contains` scans the (distinct) keys.
// Postings hold ascending ranks, i.e. objects in name order.
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

/**
 * Five blocks: keys (StringList, sorted), u32 posting offsets (keys + 1), u32 postings (ranks),
 * u32 key indices ordered by reversed key. `valuesByRank[r]` lists the (lower-cased) values of rank r.
 */
export function encodeSearchIndex(valuesByRank: readonly (readonly string[])[]): Block[] {
  const postings = new Map<string, number[]>();
  valuesByRank.forEach((values, rank) => {
    for (const value of values) {
      let list = postings.get(value);
      if (!list) postings.set(value, (list = []));
      if (list[list.length - 1] !== rank) list.push(rank);
    }
  });
  const keys = [...postings.keys()].sort(compareCodeUnits);
  const offsets = new Uint32Array(keys.length + 1);
  keys.forEach((k, i) => (offsets[i + 1] = offsets[i] + postings.get(k)!.length));
  const ranks = new Uint32Array(offsets[keys.length]);
  keys.forEach((k, i) => ranks.set(postings.get(k)!, offsets[i]));
  const reversed = keys.map(reverseCodeUnits);
  const byReversed = Uint32Array.from(keys.keys()).sort((a, b) => compareCodeUnits(reversed[a], reversed[b]));
  return [...encodeStringList(keys), offsets, ranks, byReversed];
}

export class SearchIndex {
  readonly keys: StringList;
  readonly offsets: Uint32Array;
  readonly postings: Uint32Array;
  readonly byReversed: Uint32Array;

  constructor(blocks: Blocks, rows: number, what: string) {
    this.keys = new StringList(blocks, 0, `${what} keys`);
    this.offsets = blocks.u32(2);
    this.postings = blocks.u32(3);
    this.byReversed = blocks.u32(4);
    checkOffsets(this.offsets, this.keys.length, this.postings.length, `${what} postings`);
    checkBelow(this.postings, rows, `${what} postings`);
    check(this.byReversed.length === this.keys.length, `${what}: reversed order does not cover the keys`);
    checkBelow(this.byReversed, this.keys.length, `${what} reversed order`);
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
    return this.keys.byteSize + this.offsets.byteLength + this.postings.byteLength + this.byReversed.byteLength;
  }
}
