// @module KeyPages: the sorted keys of a single-valued text field, front-coded with the ranks holding each, in checksummed pages (KNAM, KFUL, KMNG) with a directory (DNAM, DFUL, DMNG), so a query reads the few pages its keys lie in.
//
// Held in a column of one key per object, the keys of a nearly unique field would cost that whole
// column (names 18 MB, fullNames 56 MB at 1M objects): checking 100 candidates of a `contains`
// touches 100 random rows of it. Here keys sit in key
// order, where neighbours share long prefixes ("com.acme.billing."), and a page of about 4 KiB holds
// a few hundred of them; the directory keeps each page's first key, so `equals` and `startswith`
// find their page without reading any. Each key carries its posting list (the ranks holding it), so
// the keys and their postings are read together, a page at a time: no array of a million postings
// is loaded to answer one query.
import type { Block, Blocks } from "./blocks.ts";
import { check } from "./errors.ts";
import { bitsFor, PackedUints } from "./packed-uints.ts";
import { firstFailing, PageDirectory, PageWriter, pageStartingAtOrBefore } from "./page-directory.ts";
import { decodeUtf8, encodeStringList, StringList } from "./string-list.ts";
import { VarintReader, VarintWriter } from "./varint.ts";

/** A page is closed once its encoded keys reach this many bytes. */
export const KEY_PAGE_BYTES = 4096;
/** Every this many keys, a page stores a key whole (sharing nothing): a reader rebuilds any key from the restart before it, as in LevelDB's blocks. */
export const KEY_RESTART = 16;

const encoder = new TextEncoder();

/**
 * The postings of sorted keys: key k holds the ranks `ranks[offsets[k] .. offsets[k + 1])`, or,
 * when `ranks` is null, the ranks `offsets[k] .. offsets[k + 1] − 1` themselves (names: ranks
 * follow lower-cased names, so the ranks of a key are the positions of its postings).
 */
export interface Postings {
  offsets: Uint32Array;
  ranks: Uint32Array | null;
}

export interface EncodedKeyPages {
  /** Index of each page's first key (P), then the key count. */
  firstKeys: Uint32Array;
  /** Postings before each page's first key (P), then the number of postings. */
  firstPostings: Uint32Array;
  /** Each page's first key, whole: the directory's binary search needs no page. */
  firstStrings: string[];
  pages: Uint8Array;
  offsets: Uint32Array;
  crcs: Uint32Array;
}

/**
 * Bytes the UTF-8 key at `b` shares with its predecessor at `a` (each `[start, end)` in `text`), never
 * ending inside a character.
 */
function sharedPrefix(text: Uint8Array, a: number, aEnd: number, b: number, bEnd: number): number {
  const n = Math.min(aEnd - a, bEnd - b);
  let i = 0;
  while (i < n && text[a + i] === text[b + i]) i++;
  // A continuation byte (10xxxxxx) after the prefix: the prefix ends inside a character.
  while (i > 0 && i < bEnd - b && (text[b + i] & 0xc0) === 0x80) i--;
  return i;
}

/** Bytes of `value` as unsigned LEB128. */
function varintBytes(value: number): number {
  let n = 1;
  while (value >= 0x80) (value = Math.floor(value / 0x80)), n++;
  return n;
}

/** Writes the ranks of one key: the first, then each gap minus one (ranks ascend strictly). */
function putRanks(out: VarintWriter, ranks: Uint32Array): void {
  for (let i = 0; i < ranks.length; i++) out.put(i === 0 ? ranks[0] : ranks[i] - ranks[i - 1] - 1);
}

/** Bytes `putRanks` writes for `ranks`. */
function ranksBytes(ranks: Uint32Array): number {
  let n = 0;
  for (let i = 0; i < ranks.length; i++) n += varintBytes(i === 0 ? ranks[0] : ranks[i] - ranks[i - 1] - 1);
  return n;
}

/**
 * The keys of the page being filled, their UTF-8 back to back in one buffer kept from page to page
 * (an array per key, a million times over, cost more than the encoding), with what each shares
 * with the key before it.
 */
class PageKeys {
  text = new Uint8Array(16 * 1024);
  /** Where each key starts in `text`, then where the last ends. */
  readonly starts: number[] = [0];
  readonly shared: number[] = [];

  get count(): number {
    return this.shared.length;
  }

  /** Appends `key`; returns the bytes it adds to the page besides its lengths: its suffix. */
  add(key: string): number {
    const n = this.count;
    const at = this.starts[n];
    // UTF-8 takes at most three bytes per UTF-16 code unit.
    if (this.text.length - at < 3 * key.length) {
      const bigger = new Uint8Array(2 * (at + 3 * key.length));
      bigger.set(this.text.subarray(0, at));
      this.text = bigger;
    }
    const end = at + encoder.encodeInto(key, this.text.subarray(at)).written;
    const shared = n % KEY_RESTART === 0 ? 0 : sharedPrefix(this.text, this.starts[n - 1], at, at, end);
    this.starts.push(end);
    this.shared.push(shared);
    return end - at - shared;
  }

  clear(): void {
    this.starts.length = 1;
    this.shared.length = 0;
  }
}

/**
 * A page of n keys: varint n; per key, varint bytes of UTF-8 shared with the previous key (0 for
 * the first), varint bytes of its suffix and varint count of its postings; then the suffixes,
 * concatenated; then, when the ranks are stored (`ranks` given), each key's ranks.
 */
function encodePage(keys: PageKeys, counts: readonly number[], ranks: readonly Uint32Array[] | null): Uint8Array {
  const { text, starts, shared } = keys;
  const header = new VarintWriter();
  header.put(keys.count);
  let suffixBytes = 0;
  for (let i = 0; i < keys.count; i++) {
    const suffix = starts[i + 1] - starts[i] - shared[i];
    header.put(shared[i]);
    header.put(suffix);
    header.put(counts[i]);
    suffixBytes += suffix;
  }
  const head = header.slice();
  const tail = new VarintWriter();
  for (const list of ranks ?? []) putRanks(tail, list);
  const postings = tail.slice();
  const page = new Uint8Array(head.length + suffixBytes + postings.length);
  page.set(head);
  let at = head.length;
  for (let i = 0; i < keys.count; i++) for (let b = starts[i] + shared[i]; b < starts[i + 1]; b++) page[at++] = text[b];
  page.set(postings, at);
  return page;
}

/**
 * Pages of `keys` (sorted, distinct) with their `postings`, each closed once its suffixes, lengths
 * and ranks reach KEY_PAGE_BYTES.
 */
export function encodeKeyPages(keys: readonly string[], postings: Postings): EncodedKeyPages {
  const out = new PageWriter();
  const firstKeys: number[] = [];
  const firstPostings: number[] = [];
  const firstStrings: string[] = [];
  const { offsets } = postings;
  const ranksOf = (k: number) => postings.ranks!.subarray(offsets[k], offsets[k + 1]);
  const page = new PageKeys();
  let from = 0;
  while (from < keys.length) {
    page.clear();
    let bytes = 0;
    while (from + page.count < keys.length && bytes < KEY_PAGE_BYTES) {
      const k = from + page.count;
      const count = offsets[k + 1] - offsets[k];
      bytes += page.add(keys[k]) + 2;
      bytes += varintBytes(count) + (postings.ranks ? ranksBytes(ranksOf(k)) : 0);
    }
    const ks = Array.from({ length: page.count }, (_, i) => from + i);
    firstKeys.push(from);
    firstPostings.push(offsets[from]);
    firstStrings.push(keys[from]);
    out.add(
      encodePage(
        page,
        ks.map((k) => offsets[k + 1] - offsets[k]),
        postings.ranks ? ks.map(ranksOf) : null,
      ),
    );
    from += page.count;
  }
  firstKeys.push(keys.length);
  firstPostings.push(offsets[keys.length]);
  return {
    firstKeys: Uint32Array.from(firstKeys),
    firstPostings: Uint32Array.from(firstPostings),
    firstStrings,
    ...out.finish(),
  };
}

/** The directory's six blocks: u32 first key index of each page then the key count (P + 1), u32 page offsets (P + 1), u32 CRC-32 of each page (P), the first keys (StringList, 2 blocks), u32 postings before each page then their number (P + 1). */
export function encodeKeyDirectory(pages: EncodedKeyPages): Block[] {
  return [pages.firstKeys, pages.offsets, pages.crcs, ...encodeStringList(pages.firstStrings), pages.firstPostings];
}

/** Grown as needed: the key being rebuilt from its predecessor's prefix and its own suffix. */
let scratch = new Uint8Array(1024);
/** Where the suffix of each key of a restart's run starts, as `holdsApart` rebuilds one. */
const suffixStarts = new Uint32Array(KEY_RESTART);

/** Where the first match of `needle` in `text[from, to)` starts, or -1 (an empty needle is at `from`). */
function indexIn(text: Uint8Array, from: number, to: number, needle: Uint8Array): number {
  const n = needle.length;
  if (n === 0) return from <= to ? from : -1;
  const first = needle[0];
  for (let start = from; start + n <= to; start++) {
    if (text[start] !== first) continue;
    let k = 1;
    while (k < n && text[start + k] === needle[k]) k++;
    if (k === n) return start;
  }
  return -1;
}

/** Whole numbers in the narrowest array that holds them: a page's lengths and counts, mostly below 256. */
export type Counts = Uint8Array | Uint16Array | Uint32Array;

/** `values` copied into the narrowest array holding its largest value. */
export function narrowest(values: Uint32Array): Counts {
  let max = 0;
  for (let i = 0; i < values.length; i++) if (values[i] > max) max = values[i];
  return max < 0x100 ? Uint8Array.from(values) : max < 0x10000 ? Uint16Array.from(values) : values;
}

/**
 * One page as read (its keys' text, a copy of its own) with its keys' lengths parsed into the
 * narrowest arrays: less than its stored size in memory, so that the pages answers share stay in
 * the section budget, where decoded strings would take four times as much. Keys are rebuilt as
 * they are read.
 */
export class KeyPage {
  readonly count: number;
  /** The keys' suffixes, one after another (the page's text). */
  private readonly bytes: Uint8Array;
  private readonly shared: Counts;
  private readonly suffixes: Counts;
  /** Where the suffix of each restart key (0, KEY_RESTART, 2·KEY_RESTART …) starts in `bytes`. */
  private readonly restartAt: Uint32Array;
  /** Postings of the page before each of its keys, then their number (count + 1). */
  readonly postingStarts: Counts;
  /** The ranks of the page's keys one after another, or null when they are the postings' positions. */
  private readonly ranks: Uint32Array | null;
  /** Postings of the keys before the page: the position of its first posting. */
  readonly firstPosting: number;
  /** Bytes of the page's longest key: a search sizes its scratch by it, not by a pass over every key. */
  private readonly longest: number;

  constructor(
    text: Uint8Array,
    count: number,
    shared: Counts,
    suffixes: Counts,
    postings: { starts: Counts; ranks: Uint32Array | null; first: number },
  ) {
    this.bytes = text;
    this.count = count;
    this.shared = shared;
    this.suffixes = suffixes;
    this.postingStarts = postings.starts;
    this.ranks = postings.ranks;
    this.firstPosting = postings.first;
    this.restartAt = new Uint32Array(Math.ceil(count / KEY_RESTART));
    let longest = 0;
    for (let i = 0, at = 0; i < count; at += suffixes[i++]) {
      if (i % KEY_RESTART === 0) this.restartAt[i / KEY_RESTART] = at;
      longest = Math.max(longest, shared[i] + suffixes[i]);
    }
    this.longest = longest;
  }

  /** Whether every key is ASCII: its bytes are then its code units. */
  private get ascii(): boolean {
    if (this.isAscii === undefined) {
      let high = 0;
      for (let i = 0; i < this.bytes.length; i++) high |= this.bytes[i];
      this.isAscii = high < 0x80;
    }
    return this.isAscii;
  }
  private isAscii: boolean | undefined;

  /** Every key, as strings. */
  keys(): string[] {
    const out = new Array<string>(this.count);
    const { shared, suffixes } = this;
    let at = 0;
    if (this.ascii) {
      // One string of every suffix, cut by offsets that are code units too (decoded, not spread as
      // arguments: a key may be longer than a call's argument limit).
      const text = decodeUtf8(this.bytes.subarray(at));
      let from = 0;
      for (let i = 0; i < this.count; i++) {
        out[i] = (i === 0 ? "" : out[i - 1].slice(0, shared[i])) + text.slice(from, from + suffixes[i]);
        from += suffixes[i];
      }
      return out;
    }
    const key = this.scratchFor();
    for (let i = 0; i < this.count; i++) {
      key.set(this.bytes.subarray(at, at + suffixes[i]), shared[i]);
      at += suffixes[i];
      out[i] = decodeUtf8(key.subarray(0, shared[i] + suffixes[i]));
    }
    return out;
  }

  /**
   * The first key not above the key before it, or -1 when every key ascends. ASCII keys are compared
   * by their bytes as they are rebuilt, those bytes being their code units: the strings of a whole
   * page, made once to check it, were most of what the mixed workload left to collect while its
   * first key pages were read (some 45 MiB at 1M objects). Other pages are compared as strings.
   */
  firstOutOfOrder(): number {
    if (!this.ascii) {
      const keys = this.keys();
      for (let i = 1; i < this.count; i++) if (!(keys[i - 1] < keys[i])) return i;
      return -1;
    }
    const { bytes, shared, suffixes } = this;
    const key = this.scratchFor();
    let length = 0;
    for (let i = 0, at = 0; i < this.count; at += suffixes[i++]) {
      // Key i shares shared[i] bytes with key i - 1 (held in `key`, `length` long); what follows decides.
      if (i > 0) {
        const from = shared[i];
        const compared = Math.min(length - from, suffixes[i]);
        let order = 0;
        for (let j = 0; j < compared && order === 0; j++) order = bytes[at + j] - key[from + j];
        if (order === 0) order = from + suffixes[i] - length;
        if (order <= 0) return i;
      }
      // Byte by byte: a view for each key's few bytes would be an object of its own for each.
      for (let j = 0; j < suffixes[i]; j++) key[shared[i] + j] = bytes[at + j];
      length = shared[i] + suffixes[i];
    }
    return -1;
  }

  /**
   * Key `i` alone, rebuilt from the restart before it: a step of a binary search reads one key, so
   * it costs at most KEY_RESTART suffixes, not the page decoded to strings.
   */
  keyAt(i: number): string {
    if (!(i >= 0 && i < this.count)) check(false, `no key ${i} in a page of ${this.count}`);
    const restart = i - (i % KEY_RESTART);
    const key = this.scratchFor();
    let at = this.restartAt[restart / KEY_RESTART];
    for (let j = restart; j <= i; j++) {
      key.set(this.bytes.subarray(at, at + this.suffixes[j]), this.shared[j]);
      at += this.suffixes[j];
    }
    return decodeUtf8(key.subarray(0, this.shared[i] + this.suffixes[i]));
  }

  /** A buffer long enough for any key of the page. */
  private scratchFor(): Uint8Array {
    if (scratch.length < this.longest) scratch = new Uint8Array(Math.max(this.longest, scratch.length * 2));
    return scratch;
  }

  /**
   * Writes to `out` from index `written` on the keys among `wanted[begin, end)` (ascending key
   * indices, this page's first key being `base`) whose UTF-8 holds `needle` (a lower-cased value's
   * UTF-8: keys are lower-cased, and UTF-8 matches as text does); returns the index after the last.
   * Keys wanted one after another (a scan) are rebuilt in turn, and a key whose first match lies in
   * the prefix it shares with the previous key inherits it, so only the bytes after that prefix are
   * searched. A key wanted apart from the one before it (most trigram candidates: a thousand among
   * 400k keys) is first searched in its own suffix, where the page stores it, no byte copied; only
   * when that fails is it rebuilt (backwards from its own suffix, each byte copied once) and searched
   * for a match starting in its shared prefix.
   */
  including(
    wanted: ArrayLike<number>,
    begin: number,
    end: number,
    base: number,
    needle: Uint8Array,
    out: Uint32Array,
    written: number,
  ): number {
    let found = written;
    const { bytes, shared, suffixes } = this;
    const n = needle.length;
    const key = this.scratchFor();
    // End of the last key's first match; -1: none; NaN: unknown (that key was not searched).
    let firstEnd = Number.NaN;
    // Key i and where its suffix starts, when `key` holds key i − 1 rebuilt (else i is -1).
    let at = 0;
    let i = 0;
    for (let w = begin; w < end; w++) {
      const target = wanted[w] - base;
      if (target !== i) {
        if (this.holdsApart(target, needle)) out[found++] = base + target;
        i = -1;
        continue;
      }
      // Rebuild key i: the previous key's shared bytes stay in place, its suffix follows.
      const from = shared[i];
      const length = from + suffixes[i];
      for (let k = from; k < length; k++) key[k] = bytes[at++];
      i++;
      if (firstEnd >= 0 && firstEnd <= from) {
        out[found++] = base + target;
        continue;
      }
      // Unknown, or no match within the shared bytes: search where a match could end past them.
      const start = Number.isNaN(firstEnd) ? 0 : Math.max(0, from - n + 1);
      firstEnd = n === 0 ? 0 : indexIn(key, start, length, needle);
      if (firstEnd >= 0) {
        firstEnd += n;
        out[found++] = base + target;
      }
    }
    return found;
  }

  /**
   * Whether key `t` holds `needle`: searched in its suffix in place, then, if need be, rebuilt into
   * the scratch buffer from its restart (leaving it there: a scan may continue from it).
   */
  private holdsApart(t: number, needle: Uint8Array): boolean {
    const { bytes, shared, suffixes } = this;
    const restart = t - (t % KEY_RESTART);
    let at = this.restartAt[restart / KEY_RESTART];
    for (let j = restart; j < t; j++) {
      suffixStarts[j - restart] = at;
      at += suffixes[j];
    }
    suffixStarts[t - restart] = at;
    if (indexIn(bytes, at, at + suffixes[t], needle) >= 0) return true;
    const from = shared[t];
    if (from === 0) return false;
    // Backwards from key t: each key's suffix gives the bytes of the prefix that no later key's does.
    const key = this.scratchFor();
    let need = from + suffixes[t];
    for (let j = t; need > 0; j--) {
      const own = shared[j];
      if (own < need) {
        const source = suffixStarts[j - restart] - own;
        for (let k = own; k < need; k++) key[k] = bytes[source + k];
        need = own;
      }
    }
    // A match wholly in the suffix is ruled out: one starting in the prefix is left.
    const start = indexIn(key, 0, Math.min(from + suffixes[t], from + needle.length - 1), needle);
    return start >= 0;
  }

  /** The ranks holding key `i` of the page, ascending. */
  ranksOf(i: number): Uint32Array {
    const from = this.postingStarts[i];
    const to = this.postingStarts[i + 1];
    if (this.ranks) return this.ranks.subarray(from, to);
    const ranks = new Uint32Array(to - from);
    for (let j = 0; j < ranks.length; j++) ranks[j] = this.firstPosting + from + j;
    return ranks;
  }

  /** The key of the page holding posting `j` of the page (0 ≤ j < its postings). */
  keyOfPosting(j: number): number {
    return firstFailing(0, this.count, (i) => this.postingStarts[i + 1] <= j);
  }

  get byteSize(): number {
    return (
      96 +
      this.bytes.byteLength +
      this.shared.byteLength +
      this.suffixes.byteLength +
      this.restartAt.byteLength +
      this.postingStarts.byteLength +
      (this.ranks?.byteLength ?? 0)
    );
  }
}

export class KeyDirectory extends PageDirectory {
  /** Index of each page's first key, then the key count. */
  readonly firstKeys: Uint32Array;
  /** Postings before each page's first key, then their number: N, one value an object. */
  readonly firstPostings: Uint32Array;
  /** Whether the pages store their keys' ranks; else a key's ranks are its postings' positions (names). */
  readonly ranksStored: boolean;
  private readonly rows: number;
  private readonly firstStrings: StringList;

  /** `rows`: the number of objects, each holding exactly one key; `ranksStored`: false for KNAM, whose ranks follow its keys. */
  constructor(blocks: Blocks, what: string, rows: number, ranksStored: boolean) {
    super(blocks.u32(1), blocks.u32(2), what);
    this.firstKeys = blocks.u32(0);
    this.firstStrings = new StringList(blocks, 3, `${what} first keys`);
    this.firstPostings = blocks.u32(5);
    this.ranksStored = ranksStored;
    this.rows = rows;
    const pages = this.crcs.length;
    check(
      this.firstKeys.length === pages + 1 &&
        this.firstStrings.length === pages &&
        this.firstPostings.length === pages + 1,
      `${what}: ${pages} pages but ${this.firstKeys.length} key starts, ${this.firstPostings.length} posting starts and ${this.firstStrings.length} first keys`,
    );
    check(this.firstKeys[0] === 0, `${what}: the first page does not start at key 0`);
    check(
      this.firstPostings[0] === 0 && this.firstPostings[pages] === rows,
      `${what}: its postings run from ${this.firstPostings[0]} to ${this.firstPostings[pages]}, not from 0 to the ${rows} objects`,
    );
    for (let p = 0; p < pages; p++) {
      if (this.firstKeys[p] >= this.firstKeys[p + 1]) check(false, `${what}: page ${p} holds no key`);
      // Every key holds a posting: a page holds at least as many postings as keys.
      if (this.firstPostings[p + 1] - this.firstPostings[p] < this.firstKeys[p + 1] - this.firstKeys[p])
        check(false, `${what}: page ${p} holds fewer postings than keys`);
      if (!(p === 0 || this.firstStrings.get(p - 1) < this.firstStrings.get(p)))
        check(false, `${what}: first keys do not ascend at page ${p}`);
    }
  }

  /** How many keys the pages hold. */
  get keyCount(): number {
    return this.firstKeys[this.firstKeys.length - 1];
  }

  /** How many postings the pages hold: one per object. */
  get postingCount(): number {
    return this.firstPostings[this.firstPostings.length - 1];
  }

  /** The page holding posting `j` (the rank `j` itself in pages whose ranks follow their keys). */
  pageOfPosting(j: number): number {
    return pageStartingAtOrBefore(this.firstPostings.subarray(0, this.pageCount), j);
  }

  /** The page holding key `k`. */
  pageOfKey(k: number): number {
    return pageStartingAtOrBefore(this.firstKeys.subarray(0, this.pageCount), k);
  }

  /** The first key of page `p`, without reading the page. */
  firstKeyOf(p: number): string {
    return this.firstStrings.get(p);
  }

  /** The last page whose first key passes `before` (a test true for a prefix of the pages, false after), or -1 when none does. */
  lastPageWhere(before: (firstKey: string) => boolean): number {
    return firstFailing(0, this.pageCount, (p) => before(this.firstStrings.get(p))) - 1;
  }

  /** Checks page `p` (its stored bytes exactly): its checksum, key count and lengths against the directory; keys are checked as they are rebuilt. */
  decodePage(p: number, bytes: Uint8Array): KeyPage {
    this.verify(p, bytes);
    const reader = new VarintReader(bytes, `${this.what} page ${p}`);
    const n = reader.next();
    check(
      n === this.firstKeys[p + 1] - this.firstKeys[p],
      () => `${this.what}: page ${p} holds ${n} keys, its directory says ${this.firstKeys[p + 1] - this.firstKeys[p]}`,
    );
    const shared = new Uint32Array(n);
    const suffixes = new Uint32Array(n);
    const starts = new Uint32Array(n + 1);
    let previous = 0;
    let text = 0;
    // Each test is made before calling check, here and below: a message closure for each key of
    // each page decoded left as much on the heap as the keys' strings (55 MiB over the mixed
    // workload at 1M objects).
    for (let i = 0; i < n; i++) {
      shared[i] = reader.next();
      suffixes[i] = reader.next();
      const count = reader.next();
      if (!(count > 0)) check(false, `${this.what}: page ${p} key ${i} holds no posting`);
      starts[i + 1] = starts[i] + count;
      if (!(shared[i] <= previous))
        check(false, `${this.what}: page ${p} key ${i} shares more than its predecessor holds`);
      if (!(shared[i] === 0 || i % KEY_RESTART !== 0))
        check(false, `${this.what}: page ${p} key ${i} is a restart but shares bytes`);
      previous = shared[i] + suffixes[i];
      text += suffixes[i];
    }
    const postings = this.firstPostings[p + 1] - this.firstPostings[p];
    check(
      starts[n] === postings,
      () => `${this.what}: page ${p} counts ${starts[n]} postings, its directory says ${postings}`,
    );
    const textStart = reader.at;
    check(
      textStart + text <= bytes.length && (this.ranksStored || textStart + text === bytes.length),
      () => `${this.what}: page ${p} has ${bytes.length - textStart} bytes of text for ${text}`,
    );
    const ranks = this.ranksStored ? this.ranksOf(p, bytes.subarray(textStart + text), starts) : null;
    // The text, a copy of its own (not holding the rest of a multi-page read); the lengths narrowed.
    const page = new KeyPage(bytes.slice(textStart, textStart + text), n, narrowest(shared), narrowest(suffixes), {
      starts: narrowest(starts),
      ranks,
      first: this.firstPostings[p],
    });
    // Order and UTF-8 are checked as the page is first read; searches then trust it.
    this.checkOnce(p, () => {
      check(
        page.keyAt(0) === this.firstStrings.get(p),
        () => `${this.what}: page ${p} does not start at its directory's first key`,
      );
      const unordered = page.firstOutOfOrder();
      if (unordered >= 0) check(false, `${this.what}: page ${p} key ${unordered} is out of order`);
      check(
        p + 1 === this.pageCount || page.keyAt(n - 1) < this.firstStrings.get(p + 1),
        () => `${this.what}: page ${p} runs past the next page's first key`,
      );
    });
    return page;
  }

  /** The ranks of page `p`'s keys (`starts`: its postings before each key), from the bytes after its text: each strictly ascending and below the object count, ending with the page. */
  private ranksOf(p: number, bytes: Uint8Array, starts: Uint32Array): Uint32Array {
    const reader = new VarintReader(bytes, `${this.what} page ${p} ranks`);
    const ranks = new Uint32Array(starts[starts.length - 1]);
    for (let i = 0; i + 1 < starts.length; i++)
      for (let j = starts[i]; j < starts[i + 1]; j++) {
        const rank = j === starts[i] ? reader.next() : ranks[j - 1] + 1 + reader.next();
        if (rank >= this.rows) check(false, `${this.what}: page ${p} key ${i} holds rank ${rank}, past the objects`);
        ranks[j] = rank;
      }
    check(reader.done, () => `${this.what}: page ${p} has bytes past its ranks`);
    return ranks;
  }

  override get byteSize(): number {
    return super.byteSize + this.firstKeys.byteLength + this.firstPostings.byteLength + this.firstStrings.byteSize;
  }
}

/**
 * The key of each rank (OFUL, OMNG): the postings of a field whose pages store ranks, inverted, one
 * `u32` an object. A filter checking a few thousand candidates beside another then learns which
 * keys they hold without reading their rows, and verifies only those of its trigram candidates.
 */
export function encodeKeysOfRanks(rows: number, postings: Postings): Uint32Array {
  const { offsets, ranks } = postings;
  check(ranks !== null, "the key of each rank is stored only for keys whose pages store their ranks");
  const keyOf = new Uint32Array(rows);
  for (let k = 0; k + 1 < offsets.length; k++) for (let p = offsets[k]; p < offsets[k + 1]; p++) keyOf[ranks[p]] = k;
  return keyOf;
}

/**
 * The key holding each rank, as encodeKeysOfRanks wrote it: checked to name a key for every object,
 * then held in the bits the last key needs (20 at 1M objects, where the block takes 32), the block
 * read let go.
 */
export class KeysOfRanks {
  private readonly keys: PackedUints;

  constructor(blocks: Blocks, rows: number, keyCount: number, what: string) {
    const keyOf = blocks.u32(0);
    check(keyOf.length === rows, `${what}: ${keyOf.length} entries for ${rows} objects`);
    this.keys = new PackedUints(rows, bitsFor(Math.max(0, keyCount - 1)));
    for (let r = 0; r < rows; r++) {
      if (keyOf[r] >= keyCount) check(false, `${what}: object ${r} holds key ${keyOf[r]} of ${keyCount}`);
      this.keys.set(r, keyOf[r]);
    }
  }

  /** The key of rank `r`. */
  keyOf(r: number): number {
    return this.keys.get(r);
  }

  get byteSize(): number {
    return this.keys.byteLength;
  }
}
