// @module Text filters (semantics.md §2): which keys of a SearchIndex match one value under an operator, through its trigram index where there is one.
import type { SearchIndex } from "../format/search-index.ts";
import { ASCII_SPACE, TRIGRAM_SPACE, type TrigramIndex, isAscii, trigramsOf } from "../format/trigram-index.ts";
import { intersectRanks, unionRanks } from "./rank-set.ts";

export const OPERATORS = ["contains", "equals", "startswith", "endswith"] as const;
export type Operator = (typeof OPERATORS)[number];

/** A search index with its trigram index (null in files of format 1.0, which then scan keys for `contains`). */
export interface FieldIndex {
  index: SearchIndex;
  trigrams: TrigramIndex | null;
}

/**
 * A list is intersected only while it is at most this many times longer than the candidates left;
 * past that, checking each candidate's key costs less than decoding the list.
 */
const INTERSECT_RATIO = 16;

/** Ranks of the objects with at least one value of the field matching at least one of `values`. */
export function matchRanks(field: FieldIndex, operator: Operator, values: readonly string[], universe: number): Uint32Array {
  const sets = distinctLower(values).map((value) => ranksOfKeys(field.index, matchingKeys(field, operator, value), universe));
  return unionRanks(sets, universe);
}

/**
 * About how many objects a filter matches, without decoding a posting list: the planner's estimate.
 * Exact for `equals`; posting sums for `startswith`/`endswith`; for `contains`, the rarest trigram's
 * keys times the postings per key, or every object when only a scan can tell.
 */
export function estimateMatches(field: FieldIndex, operator: Operator, values: readonly string[], universe: number): number {
  const { index, trigrams } = field;
  const perKey = index.keys.length ? index.postings.length / index.keys.length : 0;
  let total = 0;
  for (const value of distinctLower(values)) {
    if (operator === "equals" || operator === "startswith") {
      const [from, to] = operator === "equals" ? equalRange(index, value) : index.prefixRange(value);
      total += index.offsets[to] - index.offsets[from];
    } else if (operator === "endswith") {
      for (const k of index.suffixKeys(value)) total += index.offsets[k + 1] - index.offsets[k];
    } else if (trigrams && value.length === 2 && isAscii(value)) {
      total += Math.min(bigramSlots(trigrams, value).reduce((sum, slot) => sum + trigrams.count(slot), 0), index.keys.length) * perKey;
    } else if (trigrams && value.length >= 3) {
      let rarest = Infinity;
      for (const code of trigramsOf(value)) {
        const slot = trigrams.slot(code);
        rarest = Math.min(rarest, slot < 0 ? 0 : trigrams.count(slot));
      }
      total += rarest * perKey;
    } else total += universe;
  }
  return Math.min(total, universe);
}

/** Whether one lower-cased field value matches one lower-cased filter value. */
export function valueMatches(operator: Operator, key: string, value: string): boolean {
  switch (operator) {
    case "equals":
      return key === value;
    case "startswith":
      return key.startsWith(value);
    case "endswith":
      return key.endsWith(value);
    case "contains":
      return key.includes(value);
  }
}

export function distinctLower(values: readonly string[]): string[] {
  return [...new Set(values.map((v) => v.toLowerCase()))];
}

function equalRange(index: SearchIndex, value: string): [number, number] {
  const k = index.lowerBound(value);
  return k < index.keys.length && index.keys.get(k) === value ? [k, k + 1] : [k, k];
}

/** Key indices matching `value` (lower-cased), ascending for every operator but `endswith`. */
function matchingKeys(field: FieldIndex, operator: Operator, value: string): ArrayLike<number> {
  const { index, trigrams } = field;
  switch (operator) {
    case "equals":
    case "startswith": {
      const [from, to] = operator === "equals" ? equalRange(index, value) : index.prefixRange(value);
      return Uint32Array.from({ length: to - from }, (_, i) => from + i);
    }
    case "endswith":
      return index.suffixKeys(value);
    case "contains":
      if (trigrams && value.length >= 3) return trigramKeys(index, trigrams, value);
      if (trigrams && value.length === 2 && isAscii(value)) return bigramKeys(index, trigrams, value) ?? scanKeys(index, value);
      return scanKeys(index, value);
  }
}

function scanKeys(index: SearchIndex, value: string): number[] {
  const keys = index.keys.all();
  const out: number[] = [];
  for (let k = 0; k < keys.length; k++) if (keys[k].includes(value)) out.push(k);
  return out;
}

/** Keys containing `value` (3+ code units): intersect trigram lists rarest first, then verify what is left. */
function trigramKeys(index: SearchIndex, trigrams: TrigramIndex, value: string): Uint32Array {
  const slots: number[] = [];
  for (const code of trigramsOf(value)) {
    const slot = trigrams.slot(code);
    if (slot < 0) return new Uint32Array(0);
    slots.push(slot);
  }
  slots.sort((a, b) => trigrams.count(a) - trigrams.count(b));
  let candidates = trigrams.keys(slots[0]);
  for (let i = 1; i < slots.length && candidates.length > 0; i++) {
    if (trigrams.count(slots[i]) > candidates.length * INTERSECT_RATIO) break;
    candidates = intersectRanks([candidates, trigrams.keys(slots[i])]);
  }
  // One ASCII trigram is exact: its list is the answer.
  if (value.length === 3 && isAscii(value)) return candidates;
  let n = 0;
  for (let i = 0; i < candidates.length; i++) if (index.keys.includes(candidates[i], value)) candidates[n++] = candidates[i];
  return candidates.subarray(0, n);
}

/**
 * Slots of the trigrams that may hold the two ASCII code units `value`: "xy?" (one run of codes),
 * "?xy" (128 codes), and every hashed trigram (a non-ASCII neighbour, as in "éxy").
 */
function bigramSlots(trigrams: TrigramIndex, value: string): number[] {
  const [x, y] = [value.charCodeAt(0), value.charCodeAt(1)];
  const slots: number[] = [];
  const [from, to] = trigrams.slotRange((x << 14) | (y << 7), ((x << 14) | (y << 7)) + 128);
  for (let s = from; s < to; s++) slots.push(s);
  for (let a = 0; a < 128; a++) {
    const s = trigrams.slot((a << 14) | (x << 7) | y);
    if (s >= 0 && (s < from || s >= to)) slots.push(s);
  }
  const [hashedFrom, hashedTo] = trigrams.slotRange(ASCII_SPACE, TRIGRAM_SPACE);
  for (let s = hashedFrom; s < hashedTo; s++) slots.push(s);
  return slots;
}

/**
 * Keys containing a two-unit ASCII `value`: every occurrence in a key of three or more units lies in
 * a trigram "xy?" or "?xy", and a two-unit key contains it only by being it. Null when those lists
 * together are longer than half the keys: a scan is then cheaper.
 */
function bigramKeys(index: SearchIndex, trigrams: TrigramIndex, value: string): Uint32Array | null {
  const slots = bigramSlots(trigrams, value);
  if (slots.reduce((sum, slot) => sum + trigrams.count(slot), 0) > index.keys.length / 2) return null;
  const lists = slots.map((slot) => {
    const keys = trigrams.keys(slot);
    // ASCII trigrams holding "xy" are exact; a hashed one only says "some non-ASCII trigram".
    if (trigrams.code(slot) < ASCII_SPACE) return keys;
    return keys.filter((k) => index.keys.includes(k, value));
  });
  const exact = index.lowerBound(value);
  if (exact < index.keys.length && index.keys.get(exact) === value) lists.push(Uint32Array.of(exact));
  return unionRanks(lists, index.keys.length);
}

/** The ranks of keys' postings, ascending: concatenated when they already come in order (a name index), else merged. */
function ranksOfKeys(index: SearchIndex, keys: ArrayLike<number>, universe: number): Uint32Array {
  let total = 0;
  let ordered = true;
  let last = -1;
  for (let i = 0; i < keys.length; i++) {
    const from = index.offsets[keys[i]];
    const to = index.offsets[keys[i] + 1];
    if (to === from) continue;
    if (index.postings[from] <= last) ordered = false;
    last = index.postings[to - 1];
    total += to - from;
  }
  if (!ordered) return unionRanks(Array.from({ length: keys.length }, (_, i) => index.posting(keys[i])), universe);
  const out = new Uint32Array(total);
  for (let i = 0, at = 0; i < keys.length; i++) {
    const posting = index.posting(keys[i]);
    out.set(posting, at);
    at += posting.length;
  }
  return out;
}
