// @module Text filters (docs/api.md#text-matching): which keys of a SearchIndex match one value under an operator, through its trigram index where there is one.

import type { Operator } from "../contract/params.ts";
import type { SearchIndex } from "../format/search-index.ts";
import { lowerNeedle } from "../format/string-list.ts";
import { isAscii, type TrigramIndex, trigramAt, trigramsOf } from "../format/trigram-index.ts";
import type { FieldIndex } from "./field-index.ts";
import {
  bitmapOf,
  distinctAscending,
  inBitmap,
  intersectTwo,
  markRank,
  RankBitmap,
  rangeOf,
  ranksOfBitmap,
  unionRanks,
} from "./rank-set.ts";
import { equalRange, type KeyPostings, PagedKeys, prefixRange, type SearchKeys, suffixKeys } from "./search-keys.ts";

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
  for (const value of distinctLower(values)) sets.push(await ranksMatching(field, operator, value, universe));
  return unionRanks(sets, universe);
}

/**
 * Ranks (ascending) of the objects whose value of the field matches `value` (lower-cased): kept with
 * the snapshot when finding them took work that asking again would repeat (keptMatch), so that a
 * filter asked again, or on another page, costs a lookup. Read only.
 */
async function ranksMatching(
  field: FieldIndex,
  operator: Operator,
  value: string,
  universe: number,
): Promise<Uint32Array> {
  const make = async () => ranksOfKeys(field.postings, await matchingKeys(field, operator, value), universe);
  if (!keptMatch(field, operator, value)) return make();
  const kept = await field.remember(`${operator} ${JSON.stringify(value)}`, async () => {
    const ranks = await make();
    // A view would pin what it is cut from beyond what the cache counts of it.
    const own = ranks.byteLength === ranks.buffer.byteLength ? ranks : ranks.slice();
    return { ranks: own, byteSize: own.byteLength };
  });
  return kept.ranks;
}

/**
 * Whether the matches of `value` are kept (ranksMatching): for the filters whose keys are verified
 * or scanned one by one (a `contains` but one of a single ASCII trigram, whose list is its answer)
 * or gathered from many pages (an `endswith`: at 1M objects 16,227 keys on 1,049 pages for
 * `summary`). Those a range of keys gives (`equals`, `startswith`) cost less to find again than to
 * keep. Like any entry, a match asked for once leaves the cache first (SectionCache's probation).
 */
function keptMatch(field: FieldIndex, operator: Operator, value: string): boolean {
  if (operator === "endswith") return true;
  return operator === "contains" && !(field.trigrams && value.length === 3 && isAscii(value));
}

/**
 * Candidates whose name is checked on their own key, read off the key pages (a rank's page from the
 * directory), rather than matching the filter through every key: at most this many.
 */
const KEY_CHECK_LIMIT = 4096;

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
  const { index, keys, postings } = field;
  if (keyOfEachObject(field)) {
    const { ranks, exact } = await candidatesByKey(field, operator, values, within);
    return exact ? ranks : checkKeys(field.keys, operator, distinctLower(values), ranks);
  }
  if (!index && postings.ranksFollowKeys && keys instanceof PagedKeys && within.length <= KEY_CHECK_LIMIT)
    return checkKeys(keys, operator, distinctLower(values), within);
  const inWithin = bitmapOf(within, universe);
  const kept = (matched: Uint32Array) => matched.filter((rank) => inBitmap(inWithin, rank));
  // Keys in pages: no postings in memory to narrow the keys by; the filter's own matches, intersected.
  if (!index) return kept(await matchRanks(field, operator, values, universe));
  const { offsets, postings: ranks } = index;
  const hasRankWithin = (k: number) => {
    for (let p = offsets[k]; p < offsets[k + 1]; p++) if (inBitmap(inWithin, ranks[p])) return true;
    return false;
  };
  let holding: Uint32Array | undefined;
  const narrowing: KeyNarrowing = {
    worthChecking: hasRankWithin,
    keys: async (rarestCount) => {
      // Finding them is one pass over the postings (about 1 ns each), testing a key some 50 ns.
      if (ranks.length >= rarestCount * 50) return null;
      holding ??= keysHoldingAny(index, inWithin);
      return holding;
    },
  };
  const sets: Uint32Array[] = [];
  for (const value of distinctLower(values))
    sets.push(await ranksOfKeys(postings, await matchingKeys(field, operator, value, narrowing), universe));
  return kept(unionRanks(sets, universe));
}

/** The ranks of `within` (ascending) whose key (`keysOfRanks`, its text from its page) matches one of `values` (lower-cased). */
export async function checkKeys(
  keys: PagedKeys,
  operator: Operator,
  values: readonly string[],
  within: Uint32Array,
): Promise<Uint32Array> {
  const keyOf = await keys.keysOfRanks(within);
  const distinct = distinctAscending(keyOf.slice(), keys.keyCount);
  const texts = await keys.keysAt(distinct);
  const matching = new RankBitmap(keys.keyCount);
  for (let i = 0; i < distinct.length; i++)
    if (values.some((v) => valueMatches(operator, texts[i], v))) matching.add(distinct[i]);
  return within.filter((_, i) => matching.has(keyOf[i]));
}

/** A field in key pages with the key of each object (fullName, mangling), which `candidatesByKey` reads. */
export function keyOfEachObject(field: FieldIndex): field is FieldIndex & { keys: PagedKeys } {
  return field.keys instanceof PagedKeys && field.keys.keyOfEachObject;
}

/**
 * What the keys of `within`'s objects (ascending) tell of the filter, read in the key of each object:
 * the candidates whose key matches (`exact`), or may. An `equals` or a `startswith` is a range of keys
 * and an `endswith` is searched in the reversed order: exact. A `contains` keeps the candidates whose
 * key every trigram list of a value holds, no key read: exact only for values of one ASCII trigram;
 * a value of fewer than three characters keeps them all. The caller checks the others on their
 * values: a few hundred rows or keys, where the filter alone would verify every key its trigrams
 * leave (at 1M objects, 230k keys on 1,200 pages for `acme.bill`) and candidates alone their 600
 * row pages.
 */
export async function candidatesByKey(
  field: FieldIndex & { keys: PagedKeys },
  operator: Operator,
  values: readonly string[],
  within: Uint32Array,
): Promise<{ ranks: Uint32Array; exact: boolean }> {
  const { keys, postings, trigrams } = field;
  const keyOf = await keys.keysOfRanks(within);
  const held = distinctAscending(keyOf.slice(), keys.keyCount);
  const holding = new RankBitmap(keys.keyCount);
  for (const k of held) holding.add(k);
  const kept = new RankBitmap(keys.keyCount);
  const keep = (ks: ArrayLike<number>) => {
    for (let i = 0; i < ks.length; i++) kept.add(ks[i]);
  };
  let exact = true;
  for (const value of distinctLower(values)) {
    if (operator === "equals" || operator === "startswith") {
      const [from, to] = operator === "equals" ? await equalRange(keys, value) : await prefixRange(keys, value);
      keep(held.filter((k) => k >= from && k < to));
    } else if (operator === "endswith") keep(await suffixKeys(keys, postings, value, false));
    else if (trigrams && value.length >= 3) {
      keep(await trigramCandidates(trigrams, value, { worthChecking: (k) => holding.has(k), keys: async () => held }));
      // One ASCII trigram is exact: its list is the answer.
      exact &&= value.length === 3 && isAscii(value);
    } else {
      keep(held);
      exact = false;
    }
  }
  return { ranks: within.filter((_, i) => kept.has(keyOf[i])), exact };
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

/** The keys (ascending) of `index` holding at least one rank of the bitmap `inWithin`: one pass over the postings. */
function keysHoldingAny(index: SearchIndex, inWithin: Uint32Array): Uint32Array {
  const { offsets, postings, keyCount } = index;
  const out: number[] = [];
  for (let k = 0; k < keyCount; k++)
    for (let p = offsets[k]; p < offsets[k + 1]; p++)
      if (inBitmap(inWithin, postings[p])) {
        out.push(k);
        break;
      }
  return Uint32Array.from(out);
}

/**
 * The matches of one filter on its own: how many, and the ranks of the `limit` of them from `skip`
 * on. When the matching keys' postings come in rank order (names, whose keys are runs of ranks),
 * both are read off the keys: no array of every match is built.
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
  if (distinct.length === 1 && keptMatch(field, operator, distinct[0])) {
    const all = await ranksMatching(field, operator, distinct[0], universe);
    return { total: all.length, page: all.slice(Math.min(skip, all.length), Math.min(all.length, skip + limit)) };
  }
  const keys = distinct.length === 1 ? await matchingKeys(field, operator, distinct[0]) : null;
  const run = keys && rankRun(field.postings, keys);
  if (run) {
    const [from, to] = await Promise.all([field.postings.before(run[0]), field.postings.before(run[1])]);
    const start = Math.min(from + skip, to);
    return { total: to - from, page: rangeOf(start, Math.min(to, start + limit)) };
  }
  if (keys && field.postings.ranksFollowKeys) {
    // Names: each key a run of ranks, in key order; counted and paged without listing them.
    const { starts, counts } = await field.postings.runs(ascending(keys, field.postings.keyCount));
    let total = 0;
    for (const count of counts) total += count;
    const page = new Uint32Array(Math.max(0, Math.min(limit, total - skip)));
    for (let i = 0, seen = 0, n = 0; i < starts.length && n < page.length; seen += counts[i++])
      for (let j = Math.max(0, skip - seen); j < counts[i] && n < page.length; j++) page[n++] = starts[i] + j;
    return { total, page };
  }
  const ordered = keys && orderedPage(await field.postings.ranksOf(keys), skip, limit);
  if (ordered) return ordered;
  const all = keys
    ? await ranksOfKeys(field.postings, keys, universe)
    : await matchRanks(field, operator, values, universe);
  const end = Math.min(all.length, skip + limit);
  return { total: all.length, page: all.slice(Math.min(skip, end), end) };
}

/**
 * `keys` (distinct, below `keyCount`) ascending: themselves when they ascend already (every operator
 * but `endswith`), else in a copy, sorted, or for thousands of keys marked on a bitmap of the keys.
 */
function ascending(keys: ArrayLike<number>, keyCount: number): ArrayLike<number> {
  for (let i = 1; i < keys.length; i++)
    if (keys[i] < keys[i - 1]) return distinctAscending(Uint32Array.from(keys), keyCount);
  return keys;
}

/** The keys [a, b) when `keys` are they, consecutive and ascending, and their ranks follow them (names): their ranks are then [before(a), before(b)). */
function rankRun(postings: KeyPostings, keys: ArrayLike<number>): [number, number] | null {
  if (!postings.ranksFollowKeys) return null;
  for (let i = 1; i < keys.length; i++) if (keys[i] !== keys[0] + i) return null;
  return keys.length === 0 ? [0, 0] : [keys[0], keys[0] + keys.length];
}

/** `matchPage` over posting lists which, one after another, ascend; null when they do not. */
function orderedPage(
  lists: readonly Uint32Array[],
  skip: number,
  limit: number,
): { total: number; page: Uint32Array } | null {
  let total = 0;
  let last = -1;
  for (const list of lists) {
    if (list.length === 0) continue;
    if (list[0] <= last) return null;
    last = list[list.length - 1];
    total += list.length;
  }
  const page = new Uint32Array(Math.max(0, Math.min(limit, total - skip)));
  let seen = 0;
  let n = 0;
  for (const list of lists) {
    if (n === page.length) break;
    // Skip whole lists before the page, then copy from the page's first posting on.
    if (seen + list.length <= skip) {
      seen += list.length;
      continue;
    }
    for (let p = Math.max(0, skip - seen); p < list.length && n < page.length; p++) page[n++] = list[p];
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
  const { keys, postings, trigrams } = field;
  const perKey = postings.keyCount ? postings.total / postings.keyCount : 0;
  let total = 0;
  for (const value of distinctLower(values)) {
    if (operator === "equals" || operator === "startswith") {
      const [from, to] = operator === "equals" ? await equalRange(keys, value) : await prefixRange(keys, value);
      const [before, through] = await Promise.all([postings.before(from), postings.before(to)]);
      total += through - before;
    } else if (operator === "endswith") {
      total += await postings.count(await suffixKeys(keys, postings, value, true));
    } else if (trigrams && value.length === 2 && isAscii(value)) {
      total +=
        Math.min(
          trigrams
            .pairSlots(value.charCodeAt(0), value.charCodeAt(1))
            .reduce((sum, slot) => sum + trigrams.count(slot), 0),
          postings.keyCount,
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
  const { keys, postings, trigrams } = field;
  switch (operator) {
    case "equals":
    case "startswith": {
      const [from, to] = operator === "equals" ? await equalRange(keys, value) : await prefixRange(keys, value);
      return rangeOf(from, to);
    }
    case "endswith":
      return suffixKeys(keys, postings, value, true);
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
  const candidates = await trigramCandidates(trigrams, value, narrowing);
  // One ASCII trigram is exact: its list is the answer.
  return value.length === 3 && isAscii(value) ? candidates : keys.including(candidates, lowerNeedle(value));
}

/** A value's trigrams by slot, with their positions in it; the rarest, and the others from rarer to commoner. */
interface TrigramSlots {
  positions: Map<number, number[]>;
  rarest: number;
  rest: number[];
}

/** The trigrams of `value` (3+ code units) by slot, with their positions in it, the rarest first; null when one is in no key. */
function trigramSlots(trigrams: TrigramIndex, value: string): TrigramSlots | null {
  const positions = new Map<number, number[]>();
  for (let at = 0; at + 3 <= value.length; at++) {
    const slot = trigrams.slot(trigramAt(value, at));
    if (slot < 0) return null;
    positions.set(slot, [...(positions.get(slot) ?? []), at]);
  }
  const [rarest, ...rest] = [...positions.keys()].sort((a, b) => trigrams.count(a) - trigrams.count(b));
  return { positions, rarest, rest };
}

/**
 * Starts reading, without waiting, the trigram lists a `contains` of `values` reads beside the
 * other filters' candidates, about `candidates` of them: the rarest trigram's of each value, every
 * bitmap, and the lists short enough to intersect with that many (trigramCandidates). A filter
 * matched after another then finds them read in the round of the first one's keys (lists read by
 * range; a whole index holds them all already), not in a round after. The longer lists are left:
 * beside few candidates, most are not read at all.
 */
export function readTrigramListsAhead(
  field: FieldIndex,
  operator: Operator,
  values: readonly string[],
  candidates: number,
): void {
  const { trigrams } = field;
  if (operator !== "contains" || !trigrams) return;
  const slots: number[] = [];
  for (const value of distinctLower(values)) {
    const found = value.length >= 3 ? trigramSlots(trigrams, value) : null;
    if (!found) continue;
    slots.push(...listsToRead(trigrams, found, candidates));
  }
  // A failed read is not waited for here: the filter asks again, and fails as it should.
  if (slots.length > 0) trigrams.lists(slots).catch(() => {});
}

/**
 * The lists read for one value's trigram `slots`: those worth reading beside about `candidates`
 * candidates (the rarest, every bitmap, and those short enough to intersect with that many), all of
 * them, but from an index whose lists are read by range through a source that lets few reads wait
 * at once (TrigramIndex.readsAtOnce), only as many, the rarest: a long fullName piece has a dozen
 * lists or more short enough to intersect, each a read of its own, a turn of six each; the rarest
 * few leave what the others would of the candidates, which are checked on their keys or rows anyway.
 */
function listsToRead(trigrams: TrigramIndex, { positions, rarest }: TrigramSlots, candidates: number): number[] {
  const worth = [...positions.keys()].filter(
    (slot) => slot === rarest || trigrams.isBitmap(slot) || trigrams.count(slot) <= candidates * INTERSECT_RATIO,
  );
  const limit = trigrams.readsAtOnce;
  if (limit === undefined || worth.length <= limit) return worth;
  return worth.sort((a, b) => trigrams.count(a) - trigrams.count(b)).slice(0, limit);
}

/**
 * The keys `trigramKeys` verifies for `value` (3+ code units): its trigram lists' candidates, no key
 * read.
 */
async function trigramCandidates(
  trigrams: TrigramIndex,
  value: string,
  narrowing?: KeyNarrowing,
): Promise<Uint32Array> {
  const slots = trigramSlots(trigrams, value);
  if (!slots) return new Uint32Array(0);
  const { positions, rarest, rest } = slots;
  // The keys holding a candidate, when they come cheaper than the rarest list: every list then narrows them.
  const start = (await narrowing?.keys(trigrams.count(rarest))) ?? null;
  const read = new Set(listsToRead(trigrams, slots, start ? start.length : trigrams.count(rarest)));
  const lists = await trigrams.lists([...read]);
  // Keys started elsewhere are narrowed by the rarest list first: then they are those starting from it would give.
  let candidates = start
    ? trigrams.isBitmap(rarest)
      ? lists.keysHeld(rarest, start)
      : intersectTwo(start, lists.keys(rarest))
    : lists.keys(rarest);
  // Keys the caller has no use for need neither intersecting nor checking.
  if (!start && narrowing) candidates = candidates.filter(narrowing.worthChecking);
  const distance = (slot: number) =>
    Math.min(3, ...positions.get(slot)!.map((p) => Math.min(...positions.get(rarest)!.map((q) => Math.abs(p - q)))));
  const eligible = (slot: number) =>
    read.has(slot) && !trigrams.isBitmap(slot) && trigrams.count(slot) <= candidates.length * INTERSECT_RATIO;
  const second = rest
    .filter(eligible)
    .sort((a, b) => distance(b) - distance(a) || trigrams.count(a) - trigrams.count(b))[0];
  const others = second === undefined ? rest : [second, ...rest.filter((s) => s !== second)];
  const bitmaps: number[] = [];
  let narrowingOn = true;
  for (const slot of others) {
    if (candidates.length === 0) break;
    if (trigrams.isBitmap(slot)) {
      if (read.has(slot)) bitmaps.push(slot);
    } else if (narrowingOn && eligible(slot)) {
      const narrowed = intersectTwo(candidates, lists.keys(slot));
      narrowingOn = narrowed.length <= candidates.length * (1 - MIN_NARROWING);
      candidates = narrowed;
    }
  }
  // One bitmap at a time over every candidate: a tight loop of bit tests.
  for (const slot of bitmaps) candidates = lists.keysHeld(slot, candidates);
  return candidates;
}

/**
 * Keys containing a two-unit ASCII `value`: every occurrence in a key of three or more units lies in
 * a trigram "xy?" or "?xy", and a two-unit key contains it only by being it. Null when those lists
 * together are longer than half the keys: a scan is then cheaper. The lists are united on a bitmap
 * of the keys, so none is copied or sorted.
 */
async function bigramKeys(keys: SearchKeys, trigrams: TrigramIndex, value: string): Promise<Uint32Array | null> {
  const slots = trigrams.pairSlots(value.charCodeAt(0), value.charCodeAt(1));
  if (slots.reduce((sum, slot) => sum + trigrams.count(slot), 0) > keys.length / 2) return null;
  const words = bitmapOf([], keys.length);
  const needle = lowerNeedle(value);
  // The key "xy" itself is looked up while the lists are read, and the keys of every hashed list
  // are verified together: one round of key pages for all, not one a list.
  const itself = equalRange(keys, value);
  const lists = await trigrams.lists(slots);
  const mark = (holding: ArrayLike<number>) => {
    for (let i = 0; i < holding.length; i++) markRank(words, holding[i]);
  };
  // ASCII trigrams holding "xy" are exact; a hashed one only says "some non-ASCII trigram".
  const hashed = slots.filter((slot) => !trigrams.isExact(slot));
  for (const slot of slots) if (trigrams.isExact(slot)) mark(lists.keys(slot));
  // The postings of the keys found are read next: the pages of those known go out with the others'.
  if (keys instanceof PagedKeys) keys.readPagesAhead(ranksOfBitmap(words));
  for (const holding of await Promise.all(hashed.map((slot) => keys.including(lists.keys(slot), needle))))
    mark(holding);
  const [exact, end] = await itself;
  if (exact < end) markRank(words, exact);
  return ranksOfBitmap(words);
}

/** The ranks of keys' postings, ascending: a range for a run of name keys, else their lists, concatenated when they come in rank order, else united. */
async function ranksOfKeys(postings: KeyPostings, keys: ArrayLike<number>, universe: number): Promise<Uint32Array> {
  const run = rankRun(postings, keys);
  if (run) return rangeOf(await postings.before(run[0]), await postings.before(run[1]));
  if (postings.ranksFollowKeys) {
    // Names: each key a run of ranks; in key order, the runs ascend.
    const { starts, counts } = await postings.runs(ascending(keys, postings.keyCount));
    const out = new Uint32Array(counts.reduce((sum, c) => sum + c, 0));
    for (let i = 0, n = 0; i < starts.length; i++) for (let j = 0; j < counts[i]; j++) out[n++] = starts[i] + j;
    return out;
  }
  const lists = await postings.ranksOf(keys);
  const ordered = orderedPage(lists, 0, Infinity);
  if (ordered) return ordered.page;
  const all = new Uint32Array(lists.reduce((sum, list) => sum + list.length, 0));
  let at = 0;
  for (const list of lists) all.set(list, at), (at += list.length);
  return distinctAscending(all, universe);
}
