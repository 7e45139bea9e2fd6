// @module TrigramIndex: for each trigram of a search index's keys, the keys containing it (delta + varint coded), so `contains` reads a few lists instead of every key.
//
// Keys are the lower-cased, sorted, distinct keys of one SearchIndex; a posting here is a key index,
// ascending. A query of three or more code units intersects the lists of its trigrams and verifies
// the surviving keys; a two-letter one unites the lists of the trigrams around it; one letter scans.
import { type Block, type Blocks, checkBelow } from "./blocks.ts";
import { check } from "./errors.ts";
import { putVarint, varintSize } from "./varint.ts";

/** Trigram codes are below this: 2^21 for three ASCII code units, 2^21 more for hashed others. */
export const TRIGRAM_SPACE = 1 << 22;
export const ASCII_SPACE = 1 << 21;

/**
 * The code of the trigram at `s[i..i+3)`: exact for ASCII (7 bits per code unit), a hash otherwise.
 * Hash collisions only add candidates, which verification removes.
 */
export function trigramAt(s: string, i: number): number {
  const a = s.charCodeAt(i);
  const b = s.charCodeAt(i + 1);
  const c = s.charCodeAt(i + 2);
  if ((a | b | c) < 0x80) return (a << 14) | (b << 7) | c;
  const h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca77) ^ Math.imul(c + 0x165667b1, 0xc2b2ae3d);
  return ASCII_SPACE + ((h >>> 0) % ASCII_SPACE);
}

/** The distinct trigram codes of `s`, ascending (empty below three code units). */
export function trigramsOf(s: string): number[] {
  const out: number[] = [];
  for (let i = 0; i + 3 <= s.length; i++) out.push(trigramAt(s, i));
  out.sort((x, y) => x - y);
  return out.filter((t, i) => i === 0 || t !== out[i - 1]);
}

/** True when the trigram codes of `s` are exact (all ASCII), so a three-unit query needs no verification. */
export function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x80) return false;
  return true;
}

/**
 * Decoded lists are kept up to half the stored posting bytes, at least 64 KiB and at most 256 KiB,
 * so an index in the section cache weighs little more than its stored size; one list takes at most
 * an eighth of that. A list decoded again costs microseconds, where a page pushed out of the budget
 * costs a read (at the edge, a round trip): at 4 MiB the mixed workload at 1M objects ran 10%
 * slower, its name lists holding room that link and key pages needed.
 */
const DECODED_MIN_BUDGET = 64 * 1024;
const DECODED_MAX_BUDGET = 256 * 1024;
/** Heap cost of one kept list beyond its elements: the typed array object and its map entry. */
const DECODED_ENTRY_BYTES = 128;

/** Set in a list's count when the list is stored as a bitmap of the keys rather than varints. */
const BITMAP = 0x80000000;
const COUNT = 0x7fffffff;

/**
 * A scratch table over the trigram space, allocated once (compiling many small snapshots must not pay
 * 32 MB each): per trigram, the stamp of the last key it was met in, then its list's index (plus one
 * in the first pass, where 0 is a trigram not met yet), side by side so that a trigram met costs one
 * cache miss, not two.
 */
let scratch: { table: Uint32Array; stamp: number } | undefined;

/**
 * Four blocks: u32 trigram codes present (ascending, G of them), u32 key count per trigram (G; bit 31
 * set: a bitmap list), u32 byte offsets of each posting list (G + 1), u8 posting lists: the first key
 * index then each gap minus one as LEB128, or, when smaller, a bitmap of the K keys (bit k of byte k/8).
 */
export function encodeTrigramIndex(keys: readonly string[]): Block[] {
  scratch ??= { table: new Uint32Array(2 * TRIGRAM_SPACE), stamp: 0 };
  const { table } = scratch;
  if (scratch.stamp + 2 * keys.length >= 0xffffffff) table.fill(0), (scratch.stamp = 0);
  // Two passes over the keys: the first sizes each list, the second writes it in place, so that
  // memory holds the lists' bytes alone (a list of every posting took four bytes each: 196 MB for
  // the full names at 1M objects). table[2t] === stamp of key k: trigram t already met in k (stamps
  // never repeat, so no reset), and the stamp it held gives the gap from the last key met. In the
  // first pass, lists are numbered as they are met: `found` codes, their counts and sizes. One loop
  // for both passes, told apart by a flag: a callback per trigram cost more than the loop itself.
  const found: number[] = [];
  const counts: number[] = [];
  const sizes: number[] = [];
  let codeCounts = new Uint32Array(0);
  let offsets = codeCounts;
  let cursors = codeCounts;
  let bytes = new Uint8Array(0);
  let stamp = scratch.stamp;
  const pass = (write: boolean) => {
    const before = stamp;
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k];
      stamp++;
      for (let i = 0; i + 3 <= key.length; i++) {
        const at = 2 * trigramAt(key, i);
        const last = table[at];
        if (last === stamp) continue;
        table[at] = stamp;
        const gap = last > before ? stamp - last - 1 : k;
        const list = table[at + 1];
        if (write) {
          if (codeCounts[list] & BITMAP) bytes[offsets[list] + (k >>> 3)] |= 1 << (k & 7);
          else cursors[list] = putVarint(bytes, cursors[list], gap);
        } else if (list === 0) {
          found.push(at >>> 1);
          counts.push(1);
          sizes.push(varintSize(gap));
          table[at + 1] = found.length;
        } else {
          counts[list - 1]++;
          sizes[list - 1] += varintSize(gap);
        }
      }
    }
  };
  pass(false);

  // A list costs its varints or a bitmap of every key, whichever is smaller: the trigrams of a
  // shared prefix ("com", "acm") are in most keys, where a bitmap takes one bit per key, not a byte.
  const bitmapBytes = Math.ceil(keys.length / 8);
  const byCode = Array.from(found.keys()).sort((a, b) => found[a] - found[b]);
  const codes = new Uint32Array(byCode.length);
  codeCounts = new Uint32Array(byCode.length);
  offsets = new Uint32Array(byCode.length + 1);
  byCode.forEach((list, g) => {
    codes[g] = found[list];
    const bitmap = sizes[list] > bitmapBytes;
    codeCounts[g] = bitmap ? counts[list] | BITMAP : counts[list];
    offsets[g + 1] = offsets[g] + (bitmap ? bitmapBytes : sizes[list]);
    // The second pass finds each list by its index in code order.
    table[2 * codes[g] + 1] = g;
  });
  bytes = new Uint8Array(offsets[byCode.length]);
  cursors = offsets.slice(0, byCode.length);
  pass(true);
  scratch.stamp = stamp;
  for (const t of codes) table[2 * t + 1] = 0;
  return [codes, codeCounts, offsets, bytes];
}

/**
 * Where a TrigramIndex reads posting bytes: spans [from, to) of its posting block, each returned in
 * an array of its own (or a view of one), in the order asked. A ranged index reads them by range,
 * checked against its chunk directory; a whole one has them in memory.
 */
export type PostingSpans = (spans: readonly (readonly [from: number, to: number])[]) => Promise<Uint8Array[]>;

/** The table of a trigram index: its first three blocks, without the posting bytes. */
export interface TrigramTable {
  codes: Uint32Array;
  counts: Uint32Array;
  offsets: Uint32Array;
}

/** The posting lists of some trigrams, their bytes at hand: what a query reads synchronously once `TrigramIndex.lists` has loaded them. */
export interface TrigramLists {
  /** The key indices of `slot`, ascending. Shared: callers must not change it. */
  keys(slot: number): Uint32Array;
  /** The keys of `candidates` that the bitmap list of `slot` holds, ascending as they are: each tested on its bit, nothing decoded. */
  keysHeld(slot: number, candidates: Uint32Array): Uint32Array;
}

/** The keys of `candidates` whose bit is set in `bits` (key k: bit `k & 7` of byte `k >>> 3`), in a new array. */
function keysWithBit(candidates: Uint32Array, bits: Uint8Array): Uint32Array {
  const kept = new Uint32Array(candidates.length);
  let n = 0;
  for (let i = 0; i < candidates.length; i++) {
    const k = candidates[i];
    if (bits[k >>> 3] & (1 << (k & 7))) kept[n++] = k;
  }
  return kept.subarray(0, n);
}

export class TrigramIndex {
  private readonly codes: Uint32Array;
  private readonly counts: Uint32Array;
  private readonly offsets: Uint32Array;
  /** The posting bytes, when the index is read whole (a small one); null when read by range. */
  private readonly bytes: Uint8Array | null;
  private readonly spans: PostingSpans | null;
  private readonly keyCount: number;
  private readonly what: string;
  /** Decoded lists by slot, least recently used first (Map order), with their bytes. */
  private readonly decoded = new Map<number, Uint32Array>();
  private decodedBytes = 0;
  private readonly decodedBudget: number;
  /** Every list's bytes in memory: `lists` answers at once. */
  private readonly whole: TrigramLists | null;
  /**
   * For lists read by range, how many reads of one invocation may wait at once on the source
   * (ByteSource.connections): a query then reads no more lists than that. Undefined: no limit.
   */
  readonly readsAtOnce: number | undefined;

  /** `postings`: the posting block in memory, or how to read spans of it (`postingLength` bytes). `keyCount`: the number of keys of the search index this one serves. */
  private constructor(
    table: TrigramTable,
    postings: Uint8Array | PostingSpans,
    postingLength: number,
    keyCount: number,
    what: string,
    readsAtOnce?: number,
  ) {
    this.readsAtOnce = readsAtOnce;
    ({ codes: this.codes, counts: this.counts, offsets: this.offsets } = table);
    this.bytes = postings instanceof Uint8Array ? postings : null;
    this.spans = postings instanceof Uint8Array ? null : postings;
    this.keyCount = keyCount;
    this.what = what;
    this.decodedBudget = Math.max(DECODED_MIN_BUDGET, Math.min(DECODED_MAX_BUDGET, postingLength / 2));
    const g = this.codes.length;
    check(
      this.counts.length === g && this.offsets.length === g + 1,
      `${what}: ${g} trigrams but ${this.counts.length} counts and ${this.offsets.length} offsets`,
    );
    checkBelow(this.codes, TRIGRAM_SPACE, `${what} trigram codes`);
    for (let i = 1; i < g; i++)
      if (this.codes[i - 1] >= this.codes[i]) check(false, `${what}: trigram codes are not ascending at ${i}`);
    check(
      this.offsets[0] === 0 && this.offsets[g] === postingLength,
      `${what}: posting offsets do not span the posting bytes`,
    );
    for (let i = 0; i < g; i++) {
      const count = this.counts[i] & COUNT;
      // Messages are built only on failure (a template per trigram costs more than the test).
      if (this.offsets[i] >= this.offsets[i + 1]) check(false, `${what}: trigram ${i} has no posting bytes`);
      if (count < 1 || count > keyCount) check(false, `${what}: trigram ${i} claims ${count} keys of ${keyCount}`);
      if (this.counts[i] & BITMAP && this.offsets[i + 1] - this.offsets[i] !== Math.ceil(keyCount / 8))
        check(false, `${what}: bitmap list ${i} does not cover the ${keyCount} keys`);
    }
    const bytes = this.bytes;
    this.whole = bytes && {
      keys: (slot) => this.listKeys(slot, bytes, this.offsets[slot]),
      keysHeld: (slot, candidates) =>
        keysWithBit(candidates, bytes.subarray(this.offsets[slot], this.offsets[slot + 1])),
    };
  }

  /** Whether its posting lists are in memory (read whole), not read by range when a value asks for them. */
  get listsInMemory(): boolean {
    return this.whole !== null;
  }

  /** An index whose four blocks are in memory (the whole section). */
  static whole(blocks: Blocks, keyCount: number, what: string): TrigramIndex {
    const bytes = blocks.u8(3);
    return new TrigramIndex(
      { codes: blocks.u32(0), counts: blocks.u32(1), offsets: blocks.u32(2) },
      bytes,
      bytes.byteLength,
      keyCount,
      what,
    );
  }

  /**
   * An index whose table is in memory and whose `postingLength` posting bytes are read by range
   * through `spans`, `readsAtOnce` of them waiting at once at most (unlimited when undefined).
   */
  static ranged(
    table: TrigramTable,
    postingLength: number,
    spans: PostingSpans,
    keyCount: number,
    what: string,
    readsAtOnce?: number,
  ): TrigramIndex {
    return new TrigramIndex(table, spans, postingLength, keyCount, what, readsAtOnce);
  }

  /** The slot of trigram `code`, or -1 when no key contains it. */
  slot(code: number): number {
    const [lo, hi] = this.slotRange(code, code + 1);
    return lo < hi ? lo : -1;
  }

  /** Slots of the codes in [from, to), ascending: a contiguous run, since codes are sorted. */
  slotRange(from: number, to: number): [number, number] {
    const lowerBound = (code: number) => {
      let lo = 0;
      let hi = this.codes.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (this.codes[mid] < code) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    return [lowerBound(from), lowerBound(to)];
  }

  /** Whether the trigram of `slot` is three ASCII code units, which its keys hold exactly; else a hash of others, which they may not. */
  isExact(slot: number): boolean {
    return this.codes[slot] < ASCII_SPACE;
  }

  /**
   * Slots of the trigrams that may hold the two ASCII code units `x` and `y`: "xy?" (one run of
   * codes), "?xy" (128 codes), and every hashed trigram (a non-ASCII neighbour, as in "éxy").
   */
  pairSlots(x: number, y: number): number[] {
    const slots: number[] = [];
    const [from, to] = this.slotRange((x << 14) | (y << 7), ((x << 14) | (y << 7)) + 128);
    for (let s = from; s < to; s++) slots.push(s);
    for (let a = 0; a < 128; a++) {
      const s = this.slot((a << 14) | (x << 7) | y);
      if (s >= 0 && (s < from || s >= to)) slots.push(s);
    }
    const [hashedFrom, hashedTo] = this.slotRange(ASCII_SPACE, TRIGRAM_SPACE);
    for (let s = hashedFrom; s < hashedTo; s++) slots.push(s);
    return slots;
  }

  /** How many keys contain the trigram of `slot` (no decoding: the planner's estimate). */
  count(slot: number): number {
    return this.counts[slot] & COUNT;
  }

  /** Whether the list of `slot` is stored as a bitmap, so that `has` tests a key without decoding it. */
  isBitmap(slot: number): boolean {
    return (this.counts[slot] & BITMAP) !== 0;
  }

  /**
   * The lists of `slots`, ready to read: at once when the posting bytes are in memory; else the
   * bytes of those not decoded already (and of every bitmap, which `has` reads) are read by range.
   */
  async lists(slots: readonly number[]): Promise<TrigramLists> {
    if (this.whole) return this.whole;
    // Lists decoded already are held here, so that decoding the others cannot push them out meanwhile.
    const held = new Map<number, Uint32Array>();
    const wanted: number[] = [];
    for (const slot of new Set(slots)) {
      const kept = this.isBitmap(slot) ? undefined : this.decoded.get(slot);
      if (kept) held.set(slot, kept);
      else wanted.push(slot);
    }
    const read = await this.spans!(wanted.map((slot) => [this.offsets[slot], this.offsets[slot + 1]] as const));
    const bytesOf = new Map(wanted.map((slot, i) => [slot, read[i]]));
    const bytes = (slot: number) => {
      const b = bytesOf.get(slot);
      check(b !== undefined, `${this.what}: list ${slot} was not loaded`);
      return b;
    };
    return {
      keys: (slot) => held.get(slot) ?? this.listKeys(slot, bytes(slot), 0),
      keysHeld: (slot, candidates) => keysWithBit(candidates, bytes(slot)),
    };
  }

  /**
   * The key indices of `slot`, decoded from `bytes` at `from` on first use (lists are decoded
   * lazily, one per query trigram), then kept while the budget allows.
   */
  private listKeys(slot: number, bytes: Uint8Array, from: number): Uint32Array {
    const kept = this.decoded.get(slot);
    if (kept) {
      this.decoded.delete(slot);
      this.decoded.set(slot, kept);
      return kept;
    }
    const length = this.offsets[slot + 1] - this.offsets[slot];
    check(
      bytes.length - from >= length,
      `${this.what}: list ${slot} is ${bytes.length - from} bytes, expected ${length}`,
    );
    const keys =
      this.counts[slot] & BITMAP
        ? this.bitmapKeys(slot, bytes, from, from + length)
        : this.varintKeys(slot, bytes, from, from + length);
    this.keep(slot, keys);
    return keys;
  }

  /** Keeps a decoded list for later queries (popular trigrams recur), least recently used out first. */
  private keep(slot: number, keys: Uint32Array): void {
    const budget = this.decodedBudget;
    const bytes = keys.byteLength + DECODED_ENTRY_BYTES;
    if (bytes > budget / 8) return;
    for (const [oldest, list] of this.decoded) {
      if (this.decodedBytes + bytes <= budget) break;
      this.decoded.delete(oldest);
      this.decodedBytes -= list.byteLength + DECODED_ENTRY_BYTES;
    }
    this.decoded.set(slot, keys);
    this.decodedBytes += bytes;
  }

  /** Checks cost nothing per key: gaps are non-negative so keys ascend by construction, the last key bounds them all, and the byte count is compared once at the end. */
  private varintKeys(slot: number, bytes: Uint8Array, from: number, end: number): Uint32Array {
    const out = new Uint32Array(this.counts[slot]);
    let at = from;
    let key = -1;
    for (let n = 0; n < out.length; n++) {
      if (at >= end) this.malformed(slot);
      let byte = bytes[at++];
      let gap = byte & 0x7f;
      // Most gaps take one byte; longer varints (at most 5 bytes, 35 bits) are summed as doubles, exactly.
      for (let scale = 0x80; byte & 0x80; scale *= 0x80) {
        if (at >= end || scale > 0x10000000) this.malformed(slot);
        byte = bytes[at++];
        gap += (byte & 0x7f) * scale;
      }
      key += gap + 1;
      out[n] = key;
    }
    check(at === end, () => `${this.what}: posting list ${slot} holds more than its ${out.length} keys`);
    check(key < this.keyCount, () => `${this.what}: posting list ${slot} names key ${key} of ${this.keyCount}`);
    return out;
  }

  private malformed(slot: number): never {
    check(false, `${this.what}: posting list ${slot} is malformed`);
  }

  private bitmapKeys(slot: number, bytes: Uint8Array, from: number, to: number): Uint32Array {
    const out = new Uint32Array(this.counts[slot] & COUNT);
    let n = 0;
    for (let i = from; i < to; i++) {
      for (let byte = bytes[i]; byte; byte &= byte - 1) {
        if (n === out.length) check(false, `${this.what}: bitmap list ${slot} holds more than its ${out.length} keys`);
        out[n++] = (i - from) * 8 + 31 - Math.clz32(byte & -byte);
      }
    }
    check(n === out.length, () => `${this.what}: bitmap list ${slot} holds ${n} keys, not ${out.length}`);
    check(
      n === 0 || out[n - 1] < this.keyCount,
      () => `${this.what}: bitmap list ${slot} names a key at or past ${this.keyCount}`,
    );
    return out;
  }

  /** Bytes held (for cache accounting), decoded lists kept included; a ranged index's posting bytes are pages of their own. */
  get byteSize(): number {
    return (
      this.codes.byteLength +
      this.counts.byteLength +
      this.offsets.byteLength +
      (this.bytes?.byteLength ?? 0) +
      this.decodedBytes
    );
  }
}
