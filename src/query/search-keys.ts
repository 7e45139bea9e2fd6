// @module SearchKeys and KeyPostings: the sorted keys of a search index and the ranks each holds, as text filters read them, whether held in memory or in key pages read by range.
import { check } from "../format/errors.ts";
import type { KeyDirectory, KeyPage } from "../format/key-pages.ts";
import { firstFailing, firstFailingWide } from "../format/page-directory.ts";
import { holdsPage, loadPages, readsToLoad, recallPage } from "../format/page-loads.ts";
import {
  type KeyList,
  REVERSED_SAMPLE,
  type ReversedOrder,
  reverseCodeUnits,
  type SearchIndex,
} from "../format/search-index.ts";
import { KEY_PAGES_OF, type PagedIndexTag } from "../format/sections.ts";
import type { Snapshot } from "../format/snapshot.ts";
import type { LowerNeedle } from "../format/string-list.ts";
import { mapRanks, rangeOf } from "./rank-set.ts";

/** Keys in code-unit order, distinct; asynchronous, since keys in pages may have to be read first. */
export interface SearchKeys {
  readonly length: number;
  /** The keys, when they are all in memory: binary searches then need no promise per step. */
  readonly inMemory: KeyList | null;
  /** Index of the first key not below `value`. */
  lowerBound(value: string): Promise<number>;
  /** Index of the first key that neither sorts below `prefix` nor starts with it (those that do follow those below). */
  prefixEnd(prefix: string): Promise<number>;
  /** The keys at indices `ks`. */
  keysAt(ks: ArrayLike<number>): Promise<string[]>;
  /** The key at index `k` if it is at hand (in memory, or its page read), without waiting; else undefined. */
  keyAtIfRead(k: number): string | undefined;
  /** The keys of `candidates` (ascending), or of every key when null (a scan), that contain `needle`, in a new array. */
  including(candidates: Uint32Array | null, needle: LowerNeedle): Promise<Uint32Array>;
}

/** The ranks each key holds; asynchronous, since keys in pages may have to be read first. */
export interface KeyPostings {
  readonly keyCount: number;
  /** Postings in all (one per object and value). */
  readonly total: number;
  /** Whether the ranks of each key follow those of the key before (names): keys [a, b) then hold the ranks [before(a), before(b)). */
  readonly ranksFollowKeys: boolean;
  /** How many postings the keys [0, k) hold. */
  before(k: number): Promise<number>;
  /** How many postings the keys `ks` hold together. */
  count(ks: ArrayLike<number>): Promise<number>;
  /** The number of postings before each key of `ks` and how many it holds: where ranks follow keys, its ranks [start, start + count). */
  runs(ks: ArrayLike<number>): Promise<{ starts: Uint32Array; counts: Uint32Array }>;
  /** The ranks of each key of `ks`, ascending within each. */
  ranksOf(ks: ArrayLike<number>): Promise<Uint32Array[]>;
  /** Key indices ordered by their keys reversed (by UTF-16 code units), for `endswith`. */
  byReversed(): Promise<Uint32Array>;
}

/** The postings of a search index held in memory. */
export function storedPostings(index: SearchIndex): KeyPostings {
  const { offsets } = index;
  return {
    keyCount: index.keyCount,
    total: index.postings.length,
    ranksFollowKeys: false,
    before: async (k) => offsets[k],
    count: async (ks) => {
      let n = 0;
      for (let i = 0; i < ks.length; i++) n += offsets[ks[i] + 1] - offsets[ks[i]];
      return n;
    },
    ranksOf: async (ks) => Array.from(ks, (k) => index.posting(k)),
    runs: async (ks) => ({
      starts: mapRanks(ks, (k) => offsets[k]),
      counts: mapRanks(ks, (k) => offsets[k + 1] - offsets[k]),
    }),
    byReversed: async () => index.byReversed,
  };
}

/** [from, to): the keys starting with `prefix`. Both ends are searched at once: their pages are read in one round. */
export async function prefixRange(keys: SearchKeys, prefix: string): Promise<[number, number]> {
  const [from, end] = await Promise.all([keys.lowerBound(prefix), keys.prefixEnd(prefix)]);
  return [from, Math.max(from, end)];
}

/** [from, to): the key equal to `value`, or an empty range. */
export async function equalRange(keys: SearchKeys, value: string): Promise<[number, number]> {
  const k = await keys.lowerBound(value);
  return k < keys.length && (await keys.keysAt([k]))[0] === value ? [k, k + 1] : [k, k];
}

/** Keys a step of a suffix search over key pages reads at once (see firstFailingWide): a window between two samples. */
const SUFFIX_SEARCH_WIDTH = REVERSED_SAMPLE;

/**
 * Indices of the keys ending with `suffix`, through `byReversed` (key indices ordered by reversed
 * key). `postingsNext`: the caller reads the postings of every key found next (a count, a page of
 * ranks), so keys in pages have their pages read with the search's own.
 */
export async function suffixKeys(
  keys: SearchKeys,
  postings: KeyPostings,
  suffix: string,
  postingsNext: boolean,
): Promise<Uint32Array> {
  const wanted = reverseCodeUnits(suffix);
  const list = keys.inMemory;
  if (list) {
    const byReversed = await postings.byReversed();
    // About 40 steps, each reading its key at once: no promise per step.
    const reversedAt = (i: number) => reverseCodeUnits(list.get(byReversed[i]));
    const from = firstFailing(0, byReversed.length, (i) => reversedAt(i) < wanted);
    return byReversed.subarray(
      from,
      firstFailing(from, byReversed.length, (i) => reversedAt(i).startsWith(wanted)),
    );
  }
  // Keys not held in memory are in pages: the sampled keys give each end's window, whose keys are
  // read in one round, both ends together.
  const paged = keys as PagedKeys;
  const { order: byReversed, samples } = await paged.reversed();
  const below = (reversed: string) => reversed < wanted;
  const through = (reversed: string) => reversed < wanted || reversed.startsWith(wanted);
  const windowOf = (passes: (reversed: string) => boolean) =>
    firstFailing(0, samples.length, (s) => passes(reverseCodeUnits(samples.get(s))));
  const [first, last] = [windowOf(below), windowOf(through)];
  // Every key found lies from the first window to the last. When a window's keys have to be read,
  // so, most likely, do theirs: they go out with the windows' (a cold answer's postings would
  // otherwise wait a round after them). Keys at hand are not mapped to pages twice.
  let readAheadDone = !postingsNext;
  const readAhead = () => {
    if (readAheadDone) return;
    readAheadDone = true;
    paged.readPagesAhead(
      byReversed.subarray(
        Math.max(0, (first - 1) * REVERSED_SAMPLE + 1),
        Math.min(last * REVERSED_SAMPLE, byReversed.length),
      ),
    );
  };
  const search = (j: number, passes: (reversed: string) => boolean) => {
    if (j === 0) return Promise.resolve(0);
    return firstFailingWide(
      (j - 1) * REVERSED_SAMPLE + 1,
      Math.min(j * REVERSED_SAMPLE, byReversed.length),
      SUFFIX_SEARCH_WIDTH,
      (i) => {
        const key = keys.keyAtIfRead(byReversed[i]);
        return key === undefined ? undefined : passes(reverseCodeUnits(key));
      },
      async (indices) => {
        readAhead();
        const read = await keys.keysAt(indices.map((i) => byReversed[i]));
        const passing = new Set(indices.filter((_, j) => passes(reverseCodeUnits(read[j]))));
        return (i) => passing.has(i);
      },
    );
  };
  const [from, end] = await Promise.all([search(first, below), search(last, through)]);
  return byReversed.subarray(from, Math.max(from, end));
}

/** Keys held in memory (a stored list, or a column): every answer at once. */
export function memoryKeys(list: KeyList): SearchKeys {
  return {
    length: list.length,
    inMemory: list,
    lowerBound: async (value) => firstFailing(0, list.length, (k) => list.get(k) < value),
    prefixEnd: async (prefix) =>
      firstFailing(0, list.length, (k) => list.get(k) < prefix || list.get(k).startsWith(prefix)),
    keysAt: async (ks) => Array.from(ks, (k) => list.get(k)),
    keyAtIfRead: (k) => list.get(k),
    including: async (candidates, needle) => {
      if (candidates) return list.including(candidates, needle);
      const all = list.all();
      const out: number[] = [];
      for (let k = 0; k < all.length; k++) if (all[k].includes(needle.text)) out.push(k);
      return Uint32Array.from(out);
    },
  };
}

/** Pages asked of the storage in one call at most, when an answer needs many (about 2 MB of keys); the calls go together. */
const PAGES_AT_ONCE = 128;

/**
 * Pages read ahead take this share of the section budget at most (their stored bytes): more would
 * push out pages the same answer reads first, which it would then read twice.
 */
const READ_AHEAD_SHARE = 1 / 8;

/**
 * Keys in pages (KNAM, KFUL, KMNG), each with its postings: a search reads its page through the
 * directory's first keys; a check, or the ranks of some keys, read their pages.
 */
export class PagedKeys implements SearchKeys, KeyPostings {
  readonly length: number;
  readonly keyCount: number;
  readonly total: number;
  readonly ranksFollowKeys: boolean;
  /** Whether the file gives the key of each object (OFUL, OMNG): then `keysOfRanks` reads no key page. */
  readonly keyOfEachObject: boolean;
  readonly inMemory = null;
  private readonly snapshot: Snapshot;
  private readonly tag: PagedIndexTag;
  private readonly directory: KeyDirectory;
  /**
   * The runs of the keys a search returned, where ranks follow keys (names), read off the pages it
   * searched: a `contains` answer asks for them next, and its 400-odd pages need not be looked up
   * again. Held as long as the keys are, by the answer.
   */
  private readonly runsOfFound = new WeakMap<Uint32Array, { starts: Uint32Array; counts: Uint32Array }>();

  constructor(snapshot: Snapshot, tag: PagedIndexTag, directory: KeyDirectory) {
    this.snapshot = snapshot;
    this.tag = tag;
    this.directory = directory;
    this.length = this.keyCount = directory.keyCount;
    this.total = directory.postingCount;
    this.ranksFollowKeys = !directory.ranksStored;
    this.keyOfEachObject = KEY_PAGES_OF[tag].ofRanks !== null;
  }

  async before(k: number): Promise<number> {
    const { firstKeys, firstPostings } = this.directory;
    if (k >= this.length) return this.total;
    const p = this.directory.pageOfKey(k);
    if (k === firstKeys[p]) return firstPostings[p];
    return firstPostings[p] + (await this.page(p)).postingStarts[k - firstKeys[p]];
  }

  async count(ks: ArrayLike<number>): Promise<number> {
    let n = 0;
    await this.byPage(ks, (page, base, from, to) => {
      const { postingStarts } = page;
      for (let j = from; j < to; j++) n += postingStarts[ks[j] - base + 1] - postingStarts[ks[j] - base];
    });
    return n;
  }

  async runs(ks: ArrayLike<number>): Promise<{ starts: Uint32Array; counts: Uint32Array }> {
    const found = ks instanceof Uint32Array ? this.runsOfFound.get(ks) : undefined;
    if (found) return found;
    const starts = new Uint32Array(ks.length);
    const counts = new Uint32Array(ks.length);
    await this.byPage(ks, (page, base, from, to) => {
      const { postingStarts, firstPosting } = page;
      for (let j = from; j < to; j++) {
        const i = ks[j] - base;
        starts[j] = firstPosting + postingStarts[i];
        counts[j] = postingStarts[i + 1] - postingStarts[i];
      }
    });
    return { starts, counts };
  }

  async ranksOf(ks: ArrayLike<number>): Promise<Uint32Array[]> {
    const out: Uint32Array[] = [];
    await this.byPage(ks, (page, base, from, to) => {
      for (let j = from; j < to; j++) out.push(page.ranksOf(ks[j] - base));
    });
    return out;
  }

  async byReversed(): Promise<Uint32Array> {
    return (await this.reversed()).order;
  }

  /** The reversed order with its sampled keys (RNAM, RFUL, RMNG). */
  async reversed(): Promise<ReversedOrder> {
    const tag = KEY_PAGES_OF[this.tag].reversed;
    const reversed = await this.snapshot.section(tag);
    const { length } = reversed.order;
    check(length === this.length, `${tag}: ${length} keys in the reversed order, ${this.length} in pages`);
    return reversed;
  }

  /**
   * Starts reading the pages of keys `ks` (in any order) that are not at hand, in one round, when
   * they fit READ_AHEAD_SHARE of the budget: for keys whose postings the answer reads once its search
   * is over. Their reads are shared with whoever asks for the same pages meanwhile; a failed read is
   * not reported here, but to the caller that asks for its page again.
   */
  readPagesAhead(ks: ArrayLike<number>): void {
    const pages = distinctPages(this.pagesOfKeys(ks));
    let missing = 0;
    let bytes = 0;
    for (const p of pages)
      if (!holdsPage(this.snapshot, this.tag, p)) {
        pages[missing++] = p;
        bytes += this.directory.storedBytes(p);
      }
    if (missing > 0 && bytes <= this.snapshot.budgetBytes * READ_AHEAD_SHARE)
      this.readPages(pages.subarray(0, missing)).catch(() => {});
  }

  /** How many reads the pages holding keys `ks` would take (readsToLoad: nothing is read). */
  readsFor(ks: ArrayLike<number>): number {
    return readsToLoad(this.snapshot, this.tag, this.directory, distinctPages(this.pagesOfKeys(ks)));
  }

  /** The key holding each rank of `ranks`: in the key of each object where the pages store ranks, else from the directory (names, whose ranks follow their keys). */
  async keysOfRanks(ranks: ArrayLike<number>): Promise<Uint32Array> {
    const ofRanks = KEY_PAGES_OF[this.tag].ofRanks;
    if (ofRanks) {
      const keys = await this.snapshot.section(ofRanks);
      return mapRanks(ranks, (r) => keys.keyOf(r));
    }
    const { directory } = this;
    const pageOf = mapRanks(ranks, (r) => directory.pageOfPosting(r));
    const pages = await this.pagesOf(pageOf);
    return mapRanks(ranks, (r, i) => {
      const page = pages[pageOf[i]];
      return directory.firstKeys[pageOf[i]] + page.keyOfPosting(r - page.firstPosting);
    });
  }

  /**
   * `visit` for each run of keys `ks[from, to)` on one page, in turn, with that page and the index of
   * its first key (`base`); pages are read together, PAGES_AT_ONCE at a time. A run, not a key at a
   * time: an `endswith` gives thousands of keys, a call and a page looked up for each cost more than
   * reading its count.
   */
  private async byPage(
    ks: ArrayLike<number>,
    visit: (page: KeyPage, base: number, from: number, to: number) => void,
  ): Promise<void> {
    const { firstKeys } = this.directory;
    const pageOf = this.pagesOfKeys(ks);
    const pages = await this.pagesOf(pageOf);
    for (let from = 0; from < ks.length; ) {
      const p = pageOf[from];
      let to = from + 1;
      while (to < ks.length && pageOf[to] === p) to++;
      visit(pages[p], firstKeys[p], from, to);
      from = to;
    }
  }

  /** The page of each key of `ks`: walked along the directory while they ascend (most lists of keys), else searched. */
  private pagesOfKeys(ks: ArrayLike<number>): Uint32Array {
    const { directory } = this;
    const { firstKeys } = directory;
    const out = new Uint32Array(ks.length);
    for (let i = 0, p = 0; i < ks.length; i++) {
      const k = ks[i];
      if (i > 0 && k >= ks[i - 1]) while (firstKeys[p + 1] <= k) p++;
      else p = directory.pageOfKey(k);
      out[i] = p;
    }
    return out;
  }

  /**
   * The distinct pages of `pageOf`, by page number (a sparse array: an answer looks hundreds up),
   * those cached taken at once, the others read in one round, PAGES_AT_ONCE at a time.
   */
  private async pagesOf(pageOf: Uint32Array): Promise<KeyPage[]> {
    const distinct = distinctPages(pageOf);
    const pages = new Array<KeyPage>(this.directory.pageCount);
    let missing = 0;
    for (let i = 0; i < distinct.length; i++) {
      const page = recallPage<KeyPage>(this.snapshot, this.tag, distinct[i]);
      if (page) pages[distinct[i]] = page;
      else distinct[missing++] = distinct[i];
    }
    for (const batch of await this.readPages(distinct.subarray(0, missing)))
      for (const [p, page] of batch) pages[p] = page;
    return pages;
  }

  /** Pages `wanted` (ascending, distinct), read together, PAGES_AT_ONCE a call. */
  private readPages(wanted: Uint32Array): Promise<Map<number, KeyPage>[]> {
    const batches: Promise<Map<number, KeyPage>>[] = [];
    for (let i = 0; i < wanted.length; i += PAGES_AT_ONCE)
      batches.push(this.pages(wanted.subarray(i, Math.min(wanted.length, i + PAGES_AT_ONCE))));
    return Promise.all(batches);
  }

  private async pages(wanted: ArrayLike<number>): Promise<Map<number, KeyPage>> {
    return loadPages(this.snapshot, this.tag, this.directory, wanted);
  }

  private async page(p: number): Promise<KeyPage> {
    return (await this.pages([p])).get(p)!;
  }

  /** The index of the first key of page `p` failing `before` (a test true for a prefix of its keys). */
  private async firstFailingIn(p: number, before: (key: string) => boolean): Promise<number> {
    const page = await this.page(p);
    return this.directory.firstKeys[p] + firstFailing(0, page.count, (i) => before(page.keyAt(i)));
  }

  async lowerBound(value: string): Promise<number> {
    const p = this.directory.lastPageWhere((first) => first < value);
    return p < 0 ? 0 : this.firstFailingIn(p, (key) => key < value);
  }

  async prefixEnd(prefix: string): Promise<number> {
    // Below the prefix or starting with it: true for a prefix of all keys, whose end is the answer.
    const before = (key: string) => key < prefix || key.startsWith(prefix);
    const p = this.directory.lastPageWhere(before);
    return p < 0 ? 0 : this.firstFailingIn(p, before);
  }

  keyAtIfRead(k: number): string | undefined {
    const p = this.directory.pageOfKey(k);
    return recallPage<KeyPage>(this.snapshot, this.tag, p)?.keyAt(k - this.directory.firstKeys[p]);
  }

  async keysAt(ks: ArrayLike<number>): Promise<string[]> {
    const { firstKeys } = this.directory;
    const pageOf = this.pagesOfKeys(ks);
    const pages = await this.pagesOf(pageOf);
    return Array.from(ks, (k, i) => pages[pageOf[i]].keyAt(k - firstKeys[pageOf[i]]));
  }

  async including(candidates: Uint32Array | null, needle: LowerNeedle): Promise<Uint32Array> {
    const { firstKeys } = this.directory;
    // A needle without UTF-8 (a lone surrogate) is looked for in the keys as strings, by code units.
    const bytes = needle.utf8;
    const wanted = candidates ?? rangeOf(0, this.length);
    // Candidates ascend, so their pages do: every page read in one round, each searched for its own.
    const pageOf = this.pagesOfKeys(wanted);
    const pages = await this.pagesOf(pageOf);
    const out = new Uint32Array(wanted.length);
    // Not for a scan: it may find most keys, whose runs an answer of one page reads in a pass of its own.
    const runs = this.ranksFollowKeys && candidates !== null;
    const starts = runs ? new Uint32Array(wanted.length) : null;
    const counts = runs ? new Uint32Array(wanted.length) : null;
    let n = 0;
    for (let c = 0; c < wanted.length; ) {
      const p = pageOf[c];
      let end = c + 1;
      while (end < wanted.length && pageOf[end] === p) end++;
      const page = pages[p];
      const from = n;
      if (bytes === null) {
        const keys = page.keys();
        for (let i = c; i < end; i++) if (keys[wanted[i] - firstKeys[p]].includes(needle.text)) out[n++] = wanted[i];
      } else n = page.including(wanted, c, end, firstKeys[p], bytes, out, n);
      if (starts && counts)
        for (let j = from; j < n; j++) {
          const i = out[j] - firstKeys[p];
          starts[j] = page.firstPosting + page.postingStarts[i];
          counts[j] = page.postingStarts[i + 1] - page.postingStarts[i];
        }
      c = end;
    }
    const found = out.slice(0, n);
    if (starts && counts) this.runsOfFound.set(found, { starts: starts.slice(0, n), counts: counts.slice(0, n) });
    return found;
  }
}

/** The distinct values of `pageOf`, ascending: by neighbours when they ascend (most lists of keys do), else sorted. */
function distinctPages(pageOf: Uint32Array): Uint32Array {
  const out = new Uint32Array(pageOf.length);
  let n = 0;
  for (let i = 0; i < pageOf.length; i++) {
    if (n > 0 && pageOf[i] === out[n - 1]) continue;
    if (n > 0 && pageOf[i] < out[n - 1]) return Uint32Array.from(new Set(pageOf)).sort();
    out[n++] = pageOf[i];
  }
  return out.subarray(0, n);
}
