// @module TrigramIndex: for each trigram of a search index's keys, the keys containing it (delta + varint coded), so `contains` reads a few lists instead of every key.
//
// Keys are the lower-cased, sorted, distinct keys of one SearchIndex; a posting here is a key index,
// ascending. A query of three or more code units intersects the lists of its trigrams and verifies
// the surviving keys; a two-letter one unites the lists of the trigrams around it; one letter scans.
import { type Block, type Blocks, checkBelow } from "./blocks.ts";
import { check } from "./errors.ts";

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

/** Set in a list's count when the list is stored as a bitmap of the keys rather than varints. */
const BITMAP = 0x80000000;
const COUNT = 0x7fffffff;

/** Appends `value` as LEB128 to `out` at `at`; returns the new end. */
function putVarint(out: Uint8Array, at: number, value: number): number {
  while (value >= 0x80) {
    out[at++] = (value & 0x7f) | 0x80;
    value >>>= 7;
  }
  out[at++] = value;
  return at;
}

/** Scratch tables over the trigram space, allocated once: compiling many small snapshots must not pay 48 MB each. */
let scratch: { counts: Uint32Array; slotOf: Uint32Array; seenAt: Uint32Array; stamp: number } | undefined;

/**
 * Four blocks: u32 trigram codes present (ascending, G of them), u32 key count per trigram (G; bit 31
 * set: a bitmap list), u32 byte offsets of each posting list (G + 1), u8 posting lists: the first key
 * index then each gap minus one as LEB128, or, when smaller, a bitmap of the K keys (bit k of byte k/8).
 */
export function encodeTrigramIndex(keys: readonly string[]): Block[] {
  scratch ??= { counts: new Uint32Array(TRIGRAM_SPACE), slotOf: new Uint32Array(TRIGRAM_SPACE), seenAt: new Uint32Array(TRIGRAM_SPACE), stamp: 0 };
  const { counts, slotOf, seenAt } = scratch;
  if (scratch.stamp + keys.length >= 0xffffffff) (seenAt.fill(0), (scratch.stamp = 0));
  // seenAt[t] === stamp of key k: trigram t already counted for k (stamps never repeat, so no reset).
  const forEachTrigram = (visit: (trigram: number, key: number) => void) => {
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k];
      const stamp = ++scratch!.stamp;
      for (let i = 0; i + 3 <= key.length; i++) {
        const t = trigramAt(key, i);
        if (seenAt[t] === stamp) continue;
        seenAt[t] = stamp;
        visit(t, k);
      }
    }
  };
  // Two passes over the keys (count, then fill) keep memory at one u32 per posting.
  const codes: number[] = [];
  forEachTrigram((t) => counts[t]++ === 0 && codes.push(t));
  codes.sort((a, b) => a - b);
  const starts = new Uint32Array(codes.length + 1);
  codes.forEach((t, g) => ((slotOf[t] = g), (starts[g + 1] = starts[g] + counts[t])));
  const postings = new Uint32Array(starts[codes.length]);
  const cursor = starts.slice(0, codes.length);
  forEachTrigram((t, k) => (postings[cursor[slotOf[t]]++] = k));
  const codeCounts = Uint32Array.from(codes, (t) => counts[t]);
  for (const t of codes) counts[t] = 0;

  // A list costs its varints or a bitmap of every key, whichever is smaller: the trigrams of a
  // shared prefix ("com", "acm") are in most keys, where a bitmap takes one bit per key, not a byte.
  const bitmapBytes = Math.ceil(keys.length / 8);
  let bytes = new Uint8Array(Math.max(64, postings.length * 2));
  const offsets = new Uint32Array(codes.length + 1);
  let at = 0;
  for (let g = 0; g < codes.length; g++) {
    if (bytes.length - at < Math.max(codeCounts[g] * 5, bitmapBytes)) {
      const bigger = new Uint8Array(Math.max(bytes.length * 2, at + Math.max(codeCounts[g] * 5, bitmapBytes)));
      bigger.set(bytes.subarray(0, at));
      bytes = bigger;
    }
    const start = at;
    for (let i = starts[g]; i < starts[g + 1]; i++) at = putVarint(bytes, at, i === starts[g] ? postings[i] : postings[i] - postings[i - 1] - 1);
    if (at - start > bitmapBytes) {
      bytes.fill(0, start, start + bitmapBytes);
      for (let i = starts[g]; i < starts[g + 1]; i++) bytes[start + (postings[i] >>> 3)] |= 1 << (postings[i] & 7);
      at = start + bitmapBytes;
      codeCounts[g] |= BITMAP;
    }
    offsets[g + 1] = at;
  }
  return [Uint32Array.from(codes), codeCounts, offsets, bytes.slice(0, at)];
}

export class TrigramIndex {
  private readonly codes: Uint32Array;
  private readonly counts: Uint32Array;
  private readonly offsets: Uint32Array;
  private readonly bytes: Uint8Array;
  private readonly keyCount: number;
  private readonly what: string;

  /** `keyCount`: the number of keys of the search index this one serves. */
  constructor(blocks: Blocks, keyCount: number, what: string) {
    this.codes = blocks.u32(0);
    this.counts = blocks.u32(1);
    this.offsets = blocks.u32(2);
    this.bytes = blocks.u8(3);
    this.keyCount = keyCount;
    this.what = what;
    const g = this.codes.length;
    check(this.counts.length === g && this.offsets.length === g + 1, `${what}: ${g} trigrams but ${this.counts.length} counts and ${this.offsets.length} offsets`);
    checkBelow(this.codes, TRIGRAM_SPACE, `${what} trigram codes`);
    for (let i = 1; i < g; i++) check(this.codes[i - 1] < this.codes[i], `${what}: trigram codes are not ascending at ${i}`);
    check(this.offsets[0] === 0 && this.offsets[g] === this.bytes.length, `${what}: posting offsets do not span the posting bytes`);
    for (let i = 0; i < g; i++) {
      const count = this.counts[i] & COUNT;
      check(this.offsets[i] < this.offsets[i + 1], `${what}: trigram ${i} has no posting bytes`);
      check(count >= 1 && count <= keyCount, `${what}: trigram ${i} claims ${count} keys of ${keyCount}`);
      if (this.counts[i] & BITMAP) check(this.offsets[i + 1] - this.offsets[i] === Math.ceil(keyCount / 8), `${what}: bitmap list ${i} does not cover the ${keyCount} keys`);
    }
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

  /** The trigram code of `slot`. */
  code(slot: number): number {
    return this.codes[slot];
  }

  /** How many keys contain the trigram of `slot` (no decoding: the planner's estimate). */
  count(slot: number): number {
    return this.counts[slot] & COUNT;
  }

  /** The key indices of `slot`, ascending, decoded now (lists are decoded lazily, one per query trigram). */
  keys(slot: number): Uint32Array {
    if (this.counts[slot] & BITMAP) return this.bitmapKeys(slot);
    const out = new Uint32Array(this.counts[slot]);
    const end = this.offsets[slot + 1];
    let at = this.offsets[slot];
    let previous = -1;
    for (let n = 0; n < out.length; n++) {
      let value = 0;
      let shift = 0;
      let byte: number;
      do {
        check(at < end && shift < 35, () => `${this.what}: posting list ${slot} is malformed`);
        byte = this.bytes[at++];
        value += (byte & 0x7f) * 2 ** shift;
        shift += 7;
      } while (byte & 0x80);
      previous = previous < 0 ? value : previous + 1 + value;
      check(previous < this.keyCount, () => `${this.what}: posting list ${slot} names key ${previous} of ${this.keyCount}`);
      out[n] = previous;
    }
    check(at === end, () => `${this.what}: posting list ${slot} holds more than its ${out.length} keys`);
    return out;
  }

  private bitmapKeys(slot: number): Uint32Array {
    const out = new Uint32Array(this.counts[slot] & COUNT);
    const from = this.offsets[slot];
    let n = 0;
    for (let i = from; i < this.offsets[slot + 1]; i++) {
      let byte = this.bytes[i];
      while (byte) {
        const bit = 31 - Math.clz32(byte & -byte);
        const key = (i - from) * 8 + bit;
        check(n < out.length && key < this.keyCount, () => `${this.what}: bitmap list ${slot} holds more than its ${out.length} keys`);
        out[n++] = key;
        byte &= byte - 1;
      }
    }
    check(n === out.length, () => `${this.what}: bitmap list ${slot} holds ${n} keys, not ${out.length}`);
    return out;
  }

  get byteSize(): number {
    return this.codes.byteLength + this.counts.byteLength + this.offsets.byteLength + this.bytes.byteLength;
  }
}
