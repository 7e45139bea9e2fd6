// @module Rank sets: ascending Uint32Arrays of object ranks (i.e. objects in name order), unions and intersections.

/**
 * Union of ascending lists of numbers below `universe` (ranks, or key indices). The result may be
 * one of `lists` itself: callers must not change it.
 */
export function unionRanks(lists: readonly Uint32Array[], universe: number): Uint32Array {
  if (lists.length === 0) return new Uint32Array(0);
  if (lists.length === 1) return lists[0];
  let total = 0;
  for (const l of lists) total += l.length;
  const all = new Uint32Array(total);
  let at = 0;
  for (const l of lists) all.set(l, (at += l.length) - l.length);
  return distinctAscending(all, universe);
}

/**
 * The distinct values of `values` (numbers below `universe`, any order, repeats allowed), ascending.
 * Few values are sorted in place; many are marked on a bitmap of the universe, which costs no sort.
 */
export function distinctAscending(values: Uint32Array, universe: number): Uint32Array {
  if (values.length * 16 < universe) {
    values.sort();
    let n = 0;
    for (let i = 0; i < values.length; i++) if (i === 0 || values[i] !== values[i - 1]) values[n++] = values[i];
    return values.subarray(0, n);
  }
  return ranksOfBitmap(bitmapOf(values, universe));
}

/** `ranks` marked on a bitmap of `universe` bits: rank r is bit `r & 31` of word `r >>> 5` (inBitmap, markRank, ranksOfBitmap). */
export function bitmapOf(ranks: ArrayLike<number>, universe: number): Uint32Array {
  const words = new Uint32Array((universe + 31) >>> 5);
  for (let i = 0; i < ranks.length; i++) markRank(words, ranks[i]);
  return words;
}

/** Marks `rank` on the bitmap `words`. */
export function markRank(words: Uint32Array, rank: number): void {
  words[rank >>> 5] |= 1 << (rank & 31);
}

/** Whether `rank` is marked on the bitmap `words`. */
export function inBitmap(words: Uint32Array, rank: number): boolean {
  return (words[rank >>> 5] & (1 << (rank & 31))) !== 0;
}

/**
 * Words of bitmaps given back (RankBitmap.release), cleared, for the next bitmap of their size. A
 * walk from one object marks some hundreds of objects on a bitmap of the whole universe, 122 KiB at
 * 1M objects: a new one for each of the two walks of every start-and-end-points answer came to a
 * tenth of the array buffers the mixed workload allocates, each left for the isolate to collect.
 */
const spareWords: Uint32Array[] = [];

/** Bitmaps' words kept for reuse at most: two answers' walks. */
const SPARE_BITMAPS = 4;

/**
 * The share of a bitmap's words set, past which it is cleared whole when given back rather than
 * word by word: a walk from one object marks some hundreds of objects, and clearing all 122 KiB of a
 * bitmap at 1M objects for them took longer than the walk and pushed the answers' own data out of
 * the CPU's caches.
 */
const CLEARED_ONE_BY_ONE = 1 / 16;

/** A set of numbers below a universe fixed at creation, one bit each: membership costs no hashing. */
export class RankBitmap {
  private words: Uint32Array;
  /** The words set so far, while few enough to clear one by one; null past CLEARED_ONE_BY_ONE of them. */
  private setWords: number[] | null = [];

  constructor(universe: number) {
    const length = (universe + 31) >>> 5;
    const spare = spareWords.findIndex((words) => words.length === length);
    this.words = spare < 0 ? new Uint32Array(length) : spareWords.splice(spare, 1)[0];
  }

  /** Clears the bitmap and gives its words back for another: a bitmap no longer needed, used no more. */
  release(): void {
    const words = this.words;
    this.words = new Uint32Array(0);
    if (spareWords.length >= SPARE_BITMAPS) return;
    if (this.setWords) for (const w of this.setWords) words[w] = 0;
    else words.fill(0);
    spareWords.push(words);
  }

  has(rank: number): boolean {
    return inBitmap(this.words, rank);
  }

  add(rank: number): void {
    const w = rank >>> 5;
    const word = this.words[w];
    if (word === 0 && this.setWords) {
      if (this.setWords.length < this.words.length * CLEARED_ONE_BY_ONE) this.setWords.push(w);
      else this.setWords = null;
    }
    this.words[w] = word | (1 << (rank & 31));
  }
}

/**
 * `f` of each of `values`, in a new array. A loop: `Uint32Array.from(values, f)` goes through the
 * iterator protocol, some 40 ns an item against 2–5 (2,000 ranks of a multi-filter: 80 µs).
 */
export function mapRanks(values: ArrayLike<number>, f: (value: number, i: number) => number): Uint32Array {
  const out = new Uint32Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = f(values[i], i);
  return out;
}

/** [from, to) as an array (empty when `to` ≤ `from`). */
export function rangeOf(from: number, to: number): Uint32Array {
  const out = new Uint32Array(Math.max(0, to - from));
  for (let i = 0; i < out.length; i++) out[i] = from + i;
  return out;
}

/** The set bits of `words` (bit r of word r/32) as ascending numbers. */
export function ranksOfBitmap(words: Uint32Array): Uint32Array {
  let count = 0;
  for (let w = 0; w < words.length; w++) count += bitCount(words[w]);
  const out = new Uint32Array(count);
  let n = 0;
  for (let w = 0; w < words.length; w++)
    for (let word = words[w]; word !== 0; word &= word - 1) out[n++] = (w << 5) + 31 - Math.clz32(word & -word);
  return out;
}

function bitCount(word: number): number {
  word -= (word >>> 1) & 0x55555555;
  word = (word & 0x33333333) + ((word >>> 2) & 0x33333333);
  return Math.imul((word + (word >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/**
 * Intersection of ascending lists, smallest first. Lists of similar length are merged; where one is
 * much longer, each survivor gallops through it (doubling steps, then a binary search), so the cost
 * follows the short list. The result may be the shortest list itself: callers must not change it.
 */
export function intersectRanks(lists: readonly Uint32Array[]): Uint32Array {
  const sorted = [...lists].sort((a, b) => a.length - b.length);
  let result = sorted[0];
  for (let k = 1; k < sorted.length && result.length > 0; k++) result = intersectTwo(result, sorted[k]);
  return result;
}

/** Ascending values of `short` also in `long` (both ascending, without repeats), in a new array. */
export function intersectTwo(short: Uint32Array, long: Uint32Array): Uint32Array {
  const out = new Uint32Array(short.length);
  let n = 0;
  if (long.length > short.length * 8) {
    const end = long.length;
    let j = 0;
    for (let i = 0; i < short.length && j < end; i++) {
      const v = short[i];
      if (long[j] < v) {
        // long[lo] < v; find the first position at or past v in (lo, hi], hi = end meaning "none".
        let lo = j;
        let step = 1;
        let hi = j + 1;
        while (hi < end && long[hi] < v) {
          lo = hi;
          step *= 2;
          hi = lo + step;
        }
        if (hi > end) hi = end;
        lo++;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (long[mid] < v) lo = mid + 1;
          else hi = mid;
        }
        j = lo;
      }
      if (j < end && long[j] === v) (out[n++] = v), j++;
    }
  } else {
    for (let i = 0, j = 0; i < short.length && j < long.length; ) {
      const a = short[i];
      const b = long[j];
      if (a === b) (out[n++] = a), i++, j++;
      else if (a < b) i++;
      else j++;
    }
  }
  return out.subarray(0, n);
}

/** The ranks of `ranks` (null: all of [0, universe)) that satisfy `keep`, ascending. */
export function filterRanks(ranks: Uint32Array | null, universe: number, keep: (rank: number) => boolean): Uint32Array {
  if (ranks) {
    const out = new Uint32Array(ranks.length);
    let n = 0;
    for (let i = 0; i < ranks.length; i++) if (keep(ranks[i])) out[n++] = ranks[i];
    return out.subarray(0, n);
  }
  const out = new Uint32Array(universe);
  let n = 0;
  for (let r = 0; r < universe; r++) if (keep(r)) out[n++] = r;
  return out.slice(0, n);
}

/** The ranks of `ranks` not in `excluded` (both ascending, without repeats). */
export function withoutRanks(ranks: Uint32Array, excluded: Uint32Array): Uint32Array {
  const out = new Uint32Array(ranks.length);
  let n = 0;
  let j = 0;
  for (let i = 0; i < ranks.length; i++) {
    const r = ranks[i];
    while (j < excluded.length && excluded[j] < r) j++;
    if (j === excluded.length || excluded[j] !== r) out[n++] = r;
  }
  return out.subarray(0, n);
}

/**
 * How many ranks of [0, universe) are not in `excluded` (ascending, without repeats, below
 * universe), and those of them at positions [skip, skip + limit): without listing the others, so a
 * deep page costs a binary search.
 */
export function complementPage(
  excluded: Uint32Array,
  universe: number,
  skip: number,
  limit: number,
): { total: number; page: number[] } {
  const total = universe - excluded.length;
  const page: number[] = [];
  if (skip >= total) return { total, page };
  // The k-th rank not excluded is k + j, j being how many excluded ranks e_i have e_i − i ≤ k
  // (e_i − i counts the ranks below e_i that are not excluded, and never decreases).
  let lo = 0;
  let hi = excluded.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (excluded[mid] - mid <= skip) lo = mid + 1;
    else hi = mid;
  }
  let j = lo;
  for (let r = skip + j; page.length < limit && r < universe; r++) {
    if (j < excluded.length && excluded[j] === r) j++;
    else page.push(r);
  }
  return { total, page };
}
