// @module Text filters (docs/api.md#text-matching): which keys of a SearchIndex match one value under an operator, through its trigram index where there is one.

import type { Operator } from "../contract/params.ts";
import { NONE } from "../format/model.ts";
import { firstFailing } from "../format/page-directory.ts";
import type { SearchIndex } from "../format/search-index.ts";
import { lowerNeedle } from "../format/string-list.ts";
import {
  ASCII_SPACE,
  isAscii,
  TRIGRAM_SPACE,
  type TrigramIndex,
  trigramAt,
  trigramsOf,
} from "../format/trigram-index.ts";
import type { FieldIndex } from "./field-index.ts";
import { distinctAscending, intersectTwo, ranksOfBitmap, unionRanks } from "./rank-set.ts";
import { equalRange, prefixRange, type SearchKeys, suffixKeys } from "./search-keys.ts";

/**
 * A list is intersected only while it is at most this many times longer than the candidates left;
 * past that, checking each candidate's key costs less than decoding the list.
 */
const INTERSECT_RATIO = 16;

/** Lists stop narrowing the candidates once one removes less than this share of them. */
const MIN_NARROWING = 1 / 8;

/** Ranks of the objects with at least one value of the field matching at least one of `values`. */
export async function matchRanks(
  field: FieldIndex,
  operator: Operator,
  values: readonly string[],
  universe: number,
): Promise<Uint32Array> {
  const sets: Uint32Array[] = [];
  for (const value of distinctLower(values))
    sets.push(ranksOfKeys(field.index, await matchingKeys(field, operator, value), universe));
  return unionRanks(sets, universe);
}

/**
 * The ranks of `within` (ascending) matching the filter: `matchRanks` ∩ `within`, where the keys a
 * `contains` has to verify are first narrowed to those with an object in `within`. A selective
 * filter beside a broad one (name=get, fullname=service) then verifies a few hundred keys, not the
 * hundred thousand its trigrams leave.
 */
export async function matchRanksWithin(
  field: FieldIndex,
  operator: Operator,
  values: readonly string[],
  universe: number,
  within: Uint32Array,
): Promise<Uint32Array> {
  const inWithin = new Uint32Array((universe + 31) >>> 5);
  for (let i = 0; i < within.length; i++) inWithin[within[i] >>> 5] |= 1 << (within[i] & 31);
  const { offsets, postings, postingsAreRanks } = field.index;
  const hasRankWithin = (k: number) => {
    for (let p = offsets[k]; p < offsets[k + 1]; p++) {
      const rank = postingsAreRanks ? p : postings[p];
      if (inWithin[rank >>> 5] & (1 << (rank & 31))) return true;
    }
    return false;
  };
  let holding: Uint32Array | undefined;
  const narrowing: KeyNarrowing = {
    worthChecking: hasRankWithin,
    keys: async (rarestCount) => {
      if (!keysFirst(field, within.length, rarestCount)) return null;
      holding ??= field.keyOfRank
        ? keysOfRanks(await field.keyOfRank(), within)
        : keysHoldingAny(field.index, within, inWithin);
      return holding;
    },
  };
  const sets: Uint32Array[] = [];
  for (const value of distinctLower(values))
    sets.push(ranksOfKeys(field.index, await matchingKeys(field, operator, value, narrowing), universe));
  const matched = unionRanks(sets, universe);
  return matched.filter((rank) => (inWithin[rank >>> 5] & (1 << (rank & 31))) !== 0);
}

/**
 * What a `contains` beside other filters may narrow its keys by: a test of one key (does it hold a
 * candidate?), and, when cheaper than decoding and testing the rarest trigram's `rarestCount` keys,
 * every key holding a candidate (else null).
 */
interface KeyNarrowing {
  worthChecking: (key: number) => boolean;
  keys: (rarestCount: number) => Promise<Uint32Array | null>;
}

/**
 * Whether the keys holding `candidates` ranks are found at less cost than the rarest trigram's
 * keys are decoded and tested one by one (some 50 ns each): through a name index, a binary search
 * per candidate; else one pass over the postings (about 1 ns each). `name=tobeack&fullname=acme.bill`
 * at 1M objects had 120k keys of its rarest trigram tested for its 500 candidates.
 */
function keysFirst(field: FieldIndex, candidates: number, rarestCount: number): boolean {
  const perKey = 50;
  const { index } = field;
  if (field.keyOfRank) return candidates < rarestCount * perKey;
  return index.postingsAreRanks
    ? rankKeysCost(candidates, index.keyCount) < rarestCount * perKey
    : index.postings.length < rarestCount * perKey;
}

/** Steps finding the keys of `candidates` ranks in a name index of `keyCount` keys: a binary search each (some four steps a level), or one walk along the keys. */
function rankKeysCost(candidates: number, keyCount: number): number {
  return Math.min(candidates * Math.log2(keyCount + 2) * 4, candidates + keyCount);
}

/** The distinct keys (ascending) of the ranks `within`, read off `keyOfRank`. */
function keysOfRanks(keyOfRank: Uint32Array, within: Uint32Array): Uint32Array {
  const keys = new Uint32Array(within.length);
  let n = 0;
  for (let i = 0; i < within.length; i++) if (keyOfRank[within[i]] !== NONE) keys[n++] = keyOfRank[within[i]];
  const sorted = keys.subarray(0, n).sort();
  let m = 0;
  for (let i = 0; i < n; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[m++] = sorted[i];
  return sorted.subarray(0, m);
}

/** The keys (ascending) holding at least one rank of `within` (ascending; `inWithin` its bitmap). */
function keysHoldingAny(index: SearchIndex, within: Uint32Array, inWithin: Uint32Array): Uint32Array {
  const { offsets, postings, keyCount } = index;
  const out = new Uint32Array(Math.min(keyCount, within.length));
  let n = 0;
  if (index.postingsAreRanks) {
    // Key k holds the ranks offsets[k] to offsets[k + 1] − 1: each candidate's key by binary search
    // from the last one's (candidates ascend), or, for many candidates, by walking along the keys.
    const walk = within.length + keyCount <= rankKeysCost(within.length, keyCount);
    for (let i = 0, k = 0; i < within.length; i++) {
      const rank = within[i];
      if (walk) while (offsets[k + 1] <= rank) k++;
      else k = firstFailing(k, keyCount, (key) => offsets[key + 1] <= rank);
      if (n === 0 || out[n - 1] !== k) out[n++] = k;
    }
    return out.subarray(0, n);
  }
  // One pass over the postings, the key of each position walked along the offsets.
  for (let p = 0, k = 0; p < postings.length; p++) {
    const rank = postings[p];
    if ((inWithin[rank >>> 5] & (1 << (rank & 31))) === 0) continue;
    while (offsets[k + 1] <= p) k++;
    if (n === 0 || out[n - 1] !== k) out[n++] = k;
  }
  return out.subarray(0, n);
}

/**
 * The matches of one filter on its own: how many, and the ranks of the `limit` of them from `skip`
 * on. When the matching keys' postings come in rank order (a name index, whose keys are runs of
 * ranks), both are read off the keys: no array of every match is built.
 */
export async function matchPage(
  field: FieldIndex,
  operator: Operator,
  values: readonly string[],
  universe: number,
  skip: number,
  limit: number,
): Promise<{ total: number; page: Uint32Array }> {
  const distinct = distinctLower(values);
  const keys = distinct.length === 1 ? await matchingKeys(field, operator, distinct[0]) : null;
  const ordered = keys && orderedPage(field.index, keys, skip, limit);
  if (ordered) return ordered;
  const all = keys ? ranksOfKeys(field.index, keys, universe) : await matchRanks(field, operator, values, universe);
  const end = Math.min(all.length, skip + limit);
  return { total: all.length, page: all.slice(Math.min(skip, end), end) };
}

/** `matchPage` over keys whose postings, one key after another, ascend; null when they do not. */
function orderedPage(
  index: SearchIndex,
  keys: ArrayLike<number>,
  skip: number,
  limit: number,
): { total: number; page: Uint32Array } | null {
  const { offsets } = index;
  // Null when a posting is its own rank (a name index): ranks are then read off the offsets.
  const postings = index.postingsAreRanks ? null : index.postings;
  let total = 0;
  let last = -1;
  for (let i = 0; i < keys.length; i++) {
    const from = offsets[keys[i]];
    const to = offsets[keys[i] + 1];
    if (to === from) continue;
    if ((postings ? postings[from] : from) <= last) return null;
    last = postings ? postings[to - 1] : to - 1;
    total += to - from;
  }
  const page = new Uint32Array(Math.max(0, Math.min(limit, total - skip)));
  let seen = 0;
  let n = 0;
  for (let i = 0; i < keys.length && n < page.length; i++) {
    const from = offsets[keys[i]];
    const to = offsets[keys[i] + 1];
    // Skip whole keys before the page, then copy from the page's first posting on.
    if (seen + (to - from) <= skip) {
      seen += to - from;
      continue;
    }
    for (let p = from + Math.max(0, skip - seen); p < to && n < page.length; p++)
      page[n++] = postings ? postings[p] : p;
    seen = skip;
  }
  return { total, page };
}

/**
 * About how many objects a filter matches, without decoding a posting list: the planner's estimate.
 * Exact for `equals`; posting sums for `startswith`/`endswith`; for `contains`, the rarest trigram's
 * keys times the postings per key, or every object when only a scan can tell.
 */
export async function estimateMatches(
  field: FieldIndex,
  operator: Operator,
  values: readonly string[],
  universe: number,
): Promise<number> {
  const { index, keys, trigrams } = field;
  const perKey = index.keyCount ? index.postings.length / index.keyCount : 0;
  let total = 0;
  for (const value of distinctLower(values)) {
    if (operator === "equals" || operator === "startswith") {
      const [from, to] = operator === "equals" ? await equalRange(keys, value) : await prefixRange(keys, value);
      total += index.offsets[to] - index.offsets[from];
    } else if (operator === "endswith") {
      for (const k of await suffixKeys(keys, index.byReversed, value)) total += index.offsets[k + 1] - index.offsets[k];
    } else if (trigrams && value.length === 2 && isAscii(value)) {
      total +=
        Math.min(
          bigramSlots(trigrams, value).reduce((sum, slot) => sum + trigrams.count(slot), 0),
          index.keyCount,
        ) * perKey;
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

/** Key indices matching `value` (lower-cased), ascending for every operator but `endswith`; possibly a kept trigram list: read only. */
async function matchingKeys(
  field: FieldIndex,
  operator: Operator,
  value: string,
  narrowing?: KeyNarrowing,
): Promise<ArrayLike<number>> {
  const { index, keys, trigrams } = field;
  switch (operator) {
    case "equals":
    case "startswith": {
      const [from, to] = operator === "equals" ? await equalRange(keys, value) : await prefixRange(keys, value);
      return Uint32Array.from({ length: to - from }, (_, i) => from + i);
    }
    case "endswith":
      return suffixKeys(keys, index.byReversed, value);
    case "contains":
      if (trigrams && value.length >= 3) return trigramKeys(keys, trigrams, value, narrowing);
      if (trigrams && value.length === 2 && isAscii(value))
        return (await bigramKeys(keys, trigrams, value)) ?? keys.including(null, lowerNeedle(value));
      return keys.including(null, lowerNeedle(value));
  }
}

/**
 * Keys containing `value` (3+ code units): the rarest trigram's keys, narrowed by the lists of the
 * others, then verified. The second list is the one farthest from the rarest trigram in `value`
 * (overlapping trigrams share letters, so their keys mostly coincide), the rarest among equally far
 * ones; the others follow rarest first. A varint list is intersected only while it is at most
 * INTERSECT_RATIO times longer than the candidates left (past that, verifying the candidates costs
 * less), and only until one removes less than MIN_NARROWING of them: the trigrams of one word come
 * together, so the next lists would remove as little. A bitmap list costs one bit test per
 * candidate: every one is applied. Beside other filters (`narrowing`), the keys start as those
 * holding a candidate when that costs less than decoding the rarest list, which then narrows them
 * like the others.
 */
async function trigramKeys(
  keys: SearchKeys,
  trigrams: TrigramIndex,
  value: string,
  narrowing?: KeyNarrowing,
): Promise<Uint32Array> {
  const positions = new Map<number, number[]>();
  for (let at = 0; at + 3 <= value.length; at++) {
    const slot = trigrams.slot(trigramAt(value, at));
    if (slot < 0) return new Uint32Array(0);
    positions.set(slot, [...(positions.get(slot) ?? []), at]);
  }
  const [rarest, ...rest] = [...positions.keys()].sort((a, b) => trigrams.count(a) - trigrams.count(b));
  // The keys holding a candidate, when they come cheaper than the rarest list: every list then narrows them.
  const start = (await narrowing?.keys(trigrams.count(rarest))) ?? null;
  // The lists worth reading: the rarest, those short enough to intersect, and every bitmap.
  const worthReading = (slot: number) =>
    slot === rarest ||
    trigrams.isBitmap(slot) ||
    trigrams.count(slot) <= (start ? start.length : trigrams.count(rarest)) * INTERSECT_RATIO;
  const lists = await trigrams.lists([...positions.keys()].filter(worthReading));
  // Keys started elsewhere are narrowed by the rarest list first: then they are those starting from it would give.
  let candidates = start
    ? trigrams.isBitmap(rarest)
      ? keepBits(start, lists.bitmap(rarest))
      : intersectTwo(start, lists.keys(rarest))
    : lists.keys(rarest);
  // Keys the caller has no use for need neither intersecting nor checking.
  if (!start && narrowing) candidates = candidates.filter(narrowing.worthChecking);
  const distance = (slot: number) =>
    Math.min(3, ...positions.get(slot)!.map((p) => Math.min(...positions.get(rarest)!.map((q) => Math.abs(p - q)))));
  const eligible = (slot: number) =>
    !trigrams.isBitmap(slot) && trigrams.count(slot) <= candidates.length * INTERSECT_RATIO;
  const second = rest
    .filter(eligible)
    .sort((a, b) => distance(b) - distance(a) || trigrams.count(a) - trigrams.count(b))[0];
  const others = second === undefined ? rest : [second, ...rest.filter((s) => s !== second)];
  const bitmaps: number[] = [];
  let narrowingOn = true;
  for (const slot of others) {
    if (candidates.length === 0) break;
    if (trigrams.isBitmap(slot)) bitmaps.push(slot);
    else if (narrowingOn && eligible(slot)) {
      const narrowed = intersectTwo(candidates, lists.keys(slot));
      narrowingOn = narrowed.length <= candidates.length * (1 - MIN_NARROWING);
      candidates = narrowed;
    }
  }
  // One bitmap at a time over every candidate: a tight loop of bit tests.
  for (const slot of bitmaps) candidates = keepBits(candidates, lists.bitmap(slot));
  // One ASCII trigram is exact: its list is the answer.
  return value.length === 3 && isAscii(value) ? candidates : keys.including(candidates, lowerNeedle(value));
}

/** The keys of `candidates` whose bit is set in `bits` (key k: bit `k & 7` of byte `k >>> 3`), in a new array. */
function keepBits(candidates: Uint32Array, bits: Uint8Array): Uint32Array {
  const kept = new Uint32Array(candidates.length);
  let n = 0;
  for (let i = 0; i < candidates.length; i++) {
    const k = candidates[i];
    if (bits[k >>> 3] & (1 << (k & 7))) kept[n++] = k;
  }
  return kept.subarray(0, n);
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
 * together are longer than half the keys: a scan is then cheaper. The lists are united on a bitmap
 * of the keys, so none is copied or sorted.
 */
async function bigramKeys(keys: SearchKeys, trigrams: TrigramIndex, value: string): Promise<Uint32Array | null> {
  const slots = bigramSlots(trigrams, value);
  if (slots.reduce((sum, slot) => sum + trigrams.count(slot), 0) > keys.length / 2) return null;
  const words = new Uint32Array((keys.length + 31) >>> 5);
  const needle = lowerNeedle(value);
  const lists = await trigrams.lists(slots);
  for (const slot of slots) {
    const listed = lists.keys(slot);
    // ASCII trigrams holding "xy" are exact; a hashed one only says "some non-ASCII trigram".
    const holding = trigrams.code(slot) < ASCII_SPACE ? listed : await keys.including(listed, needle);
    for (let i = 0; i < holding.length; i++) words[holding[i] >>> 5] |= 1 << (holding[i] & 31);
  }
  const [exact, end] = await equalRange(keys, value);
  if (exact < end) words[exact >>> 5] |= 1 << (exact & 31);
  return ranksOfBitmap(words);
}

/** The ranks of keys' postings, ascending: read off the keys when they come in rank order (a name index), else united. */
function ranksOfKeys(index: SearchIndex, keys: ArrayLike<number>, universe: number): Uint32Array {
  return orderedPage(index, keys, 0, Infinity)?.page ?? unionPostings(index, keys, universe);
}

/** The union of keys' postings, ascending. */
function unionPostings(index: SearchIndex, keys: ArrayLike<number>, universe: number): Uint32Array {
  const { offsets, postings } = index;
  let total = 0;
  for (let i = 0; i < keys.length; i++) total += offsets[keys[i] + 1] - offsets[keys[i]];
  const all = new Uint32Array(total);
  for (let i = 0, at = 0; i < keys.length; i++)
    for (let p = offsets[keys[i]], to = offsets[keys[i] + 1]; p < to; p++) all[at++] = postings[p];
  return distinctAscending(all, universe);
}
