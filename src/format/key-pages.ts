// @module KeyPages: the sorted keys of a search index, front-coded in checksummed pages (KFUL, KMNG) with a directory (DFUL, DMNG), so a query reads the few pages its candidates lie in.
//
// A column-keyed index whose postings are not ranks (fullName, mangling) reads key k from its text
// column at the key's first posting: checking 100 candidates of a `contains` touches 100 random
// rows of a 56 MB column at 1M objects, so the whole column must be loaded. Here keys sit in key
// order, where neighbours share long prefixes ("com.acme.billing."), and a page of about 4 KiB holds
// a few hundred of them; the directory keeps each page's first key, so `equals` and `startswith`
// find their page without reading any.
import type { Block, Blocks } from "./blocks.ts";
import { check } from "./errors.ts";
import { PageDirectory, PageWriter, pageStartingAtOrBefore } from "./page-directory.ts";
import { StringList, decodeUtf8, decodedStringsBytes, encodeStringList } from "./string-list.ts";
import { VarintReader, VarintWriter } from "./varint.ts";

/** A page is closed once its encoded keys reach this many bytes. */
export const KEY_PAGE_BYTES = 4096;

const encoder = new TextEncoder();

export interface EncodedKeyPages {
  /** Index of each page's first key (P), then the key count. */
  firstKeys: Uint32Array;
  /** Each page's first key, whole: the directory's binary search needs no page. */
  firstStrings: string[];
  pages: Uint8Array;
  offsets: Uint32Array;
  crcs: Uint32Array;
}

/** Code units key `b` shares with its predecessor `a`, never ending between the halves of a surrogate pair. */
function sharedPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i > 0 && (b.charCodeAt(i - 1) & 0xfc00) === 0xd800) i--;
  return i;
}

/**
 * A page of n keys: varint n; per key, varint code units shared with the previous key (0 for the
 * first) and varint code units of its suffix; then the suffixes, concatenated, in UTF-8.
 */
function encodePage(keys: readonly string[]): Uint8Array {
  const header = new VarintWriter();
  header.put(keys.length);
  let suffixes = "";
  for (let i = 0; i < keys.length; i++) {
    const shared = i === 0 ? 0 : sharedPrefix(keys[i - 1], keys[i]);
    header.put(shared);
    header.put(keys[i].length - shared);
    suffixes += keys[i].slice(shared);
  }
  const head = header.slice();
  const text = encoder.encode(suffixes);
  const page = new Uint8Array(head.length + text.length);
  page.set(head);
  page.set(text, head.length);
  return page;
}

/** Pages of `keys` (sorted, distinct), each closed once it reaches KEY_PAGE_BYTES. */
export function encodeKeyPages(keys: readonly string[]): EncodedKeyPages {
  const out = new PageWriter();
  const firstKeys: number[] = [];
  const firstStrings: string[] = [];
  let from = 0;
  while (from < keys.length) {
    // Estimate a page's size as we go (suffix code units plus two bytes of varints), then encode it.
    let to = from;
    let bytes = 0;
    while (to < keys.length && bytes < KEY_PAGE_BYTES) {
      bytes += keys[to].length - (to === from ? 0 : sharedPrefix(keys[to - 1], keys[to])) + 2;
      to++;
    }
    firstKeys.push(from);
    firstStrings.push(keys[from]);
    out.add(encodePage(keys.slice(from, to)));
    from = to;
  }
  firstKeys.push(keys.length);
  return { firstKeys: Uint32Array.from(firstKeys), firstStrings, ...out.finish() };
}

/** The directory's five blocks: u32 first key index of each page then the key count (P + 1), u32 page offsets (P + 1), u32 CRC-32 of each page (P), the first keys (StringList, 2 blocks). */
export function encodeKeyDirectory(pages: EncodedKeyPages): Block[] {
  return [pages.firstKeys, pages.offsets, pages.crcs, ...encodeStringList(pages.firstStrings)];
}

/** The keys of one page, decoded. */
export class KeyPage {
  readonly keys: readonly string[];
  readonly byteSize: number;

  constructor(keys: readonly string[], chars: number) {
    this.keys = keys;
    this.byteSize = 64 + keys.length * 8 + decodedStringsBytes(keys.length, chars);
  }
}

export class KeyDirectory extends PageDirectory {
  /** Index of each page's first key, then the key count. */
  readonly firstKeys: Uint32Array;
  private readonly firstStrings: StringList;

  constructor(blocks: Blocks, what: string) {
    super(blocks.u32(1), blocks.u32(2), what);
    this.firstKeys = blocks.u32(0);
    this.firstStrings = new StringList(blocks, 3, `${what} first keys`);
    const pages = this.crcs.length;
    check(this.firstKeys.length === pages + 1 && this.firstStrings.length === pages, `${what}: ${pages} pages but ${this.firstKeys.length} key starts and ${this.firstStrings.length} first keys`);
    check(this.firstKeys[0] === 0, `${what}: the first page does not start at key 0`);
    for (let p = 0; p < pages; p++) {
      check(this.firstKeys[p] < this.firstKeys[p + 1], `${what}: page ${p} holds no key`);
      check(p === 0 || this.firstStrings.get(p - 1) < this.firstStrings.get(p), () => `${what}: first keys do not ascend at page ${p}`);
    }
  }

  /** How many keys the pages hold. */
  get keyCount(): number {
    return this.firstKeys[this.firstKeys.length - 1];
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
    let lo = 0;
    let hi = this.pageCount;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(this.firstStrings.get(mid))) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }

  /** Checks and decodes page `p` (its stored bytes exactly): its key count, first key and order against the directory. */
  decodePage(p: number, bytes: Uint8Array): KeyPage {
    this.verify(p, bytes);
    const reader = new VarintReader(bytes, `${this.what} page ${p}`);
    const n = reader.next();
    check(n === this.firstKeys[p + 1] - this.firstKeys[p], () => `${this.what}: page ${p} holds ${n} keys, its directory says ${this.firstKeys[p + 1] - this.firstKeys[p]}`);
    const shared = new Uint32Array(n);
    const lengths = new Uint32Array(n);
    for (let i = 0; i < n; i++) (shared[i] = reader.next()), (lengths[i] = reader.next());
    const text = decodeUtf8(bytes.subarray(reader.at));
    const keys = new Array<string>(n);
    let at = 0;
    let chars = 0;
    for (let i = 0; i < n; i++) {
      check(shared[i] <= (i === 0 ? 0 : keys[i - 1].length) && at + lengths[i] <= text.length, () => `${this.what}: page ${p} key ${i} is malformed`);
      const key = (i === 0 ? "" : keys[i - 1].slice(0, shared[i])) + text.slice(at, at + lengths[i]);
      at += lengths[i];
      check(i === 0 ? key === this.firstStrings.get(p) : keys[i - 1] < key, () => `${this.what}: page ${p} key ${i} is out of order`);
      keys[i] = key;
      chars += key.length;
    }
    check(at === text.length, () => `${this.what}: page ${p} has text past its keys`);
    check(p + 1 === this.pageCount || keys[n - 1] < this.firstStrings.get(p + 1), () => `${this.what}: page ${p} runs past the next page's first key`);
    return new KeyPage(keys, chars);
  }

  override get byteSize(): number {
    return super.byteSize + this.firstKeys.byteLength + this.firstStrings.byteSize;
  }
}
