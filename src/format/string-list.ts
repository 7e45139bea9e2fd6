// @module StringList: an indexed list of UTF-8 strings (offsets + bytes), optionally with nulls.
import { type Block, type Blocks, checkOffsets } from "./blocks.ts";
import { check } from "./errors.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Two blocks: u32 byte offsets (count + 1) and the UTF-8 bytes. A null is stored as "" (see NullableStringList). */
export function encodeStringList(strings: ArrayLike<string | null>): Block[] {
  const offsets = new Uint32Array(strings.length + 1);
  // One growing buffer, no array per string: lists of a million names stay cheap to encode.
  let bytes = new Uint8Array(Math.max(64, strings.length * 16));
  let total = 0;
  for (let i = 0; i < strings.length; i++) {
    const s = strings[i] ?? "";
    if (bytes.length - total < s.length * 3) {
      const bigger = new Uint8Array(Math.max(bytes.length * 2, total + s.length * 3));
      bigger.set(bytes.subarray(0, total));
      bytes = bigger;
    }
    let ascii = true;
    for (let k = 0; k < s.length; k++) {
      const c = s.charCodeAt(k);
      if (c > 0x7f) {
        ascii = false;
        break;
      }
      bytes[total + k] = c;
    }
    total += ascii ? s.length : encoder.encodeInto(s, bytes.subarray(total)).written;
    offsets[i + 1] = total;
  }
  return [offsets, bytes.slice(0, total)];
}

/** Three blocks: a StringList and one u8 per string, 1 where the string is present, 0 where it is null. */
export function encodeNullableStringList(strings: ArrayLike<string | null>): Block[] {
  return [
    ...encodeStringList(strings),
    Uint8Array.from(strings as ArrayLike<string | null>, (s) => (s === null ? 0 : 1)),
  ];
}

/**
 * A lower-cased value to find in many strings: its text and, when it is all ASCII, its bytes and a
 * Horspool shift table (how far a window may move given its last byte, either case of a letter).
 */
export interface LowerNeedle {
  readonly text: string;
  readonly ascii: Uint8Array | null;
  /** Its UTF-8, as keys are stored (`ascii` when it is ASCII); null when it holds a lone surrogate, which has none. */
  readonly utf8: Uint8Array | null;
  readonly shift: Uint32Array;
}

export function lowerNeedle(lowerCased: string): LowerNeedle {
  const n = lowerCased.length;
  const ascii = new Uint8Array(n);
  const shift = new Uint32Array(256).fill(Math.max(1, n));
  for (let i = 0; i < n; i++) {
    const c = lowerCased.charCodeAt(i);
    if (c > 0x7f) {
      const utf8 = lowerCased.isWellFormed() ? encoder.encode(lowerCased) : null;
      return { text: lowerCased, ascii: null, utf8, shift };
    }
    ascii[i] = c;
  }
  for (let k = 0; k < n - 1; k++) {
    shift[ascii[k]] = n - 1 - k;
    if (ascii[k] >= 0x61 && ascii[k] <= 0x7a) shift[ascii[k] - 0x20] = n - 1 - k;
  }
  return { text: lowerCased, ascii, utf8: ascii, shift };
}

/** Each byte with A–Z folded to a–z: a table lookup beats two comparisons in the search loop. */
const FOLD = Uint8Array.from({ length: 256 }, (_, b) => (b >= 0x41 && b <= 0x5a ? b + 0x20 : b));

/**
 * Whether the UTF-8 `bytes` [from, to) hold the ASCII `needle` in either case of its letters: true
 * or false when the bytes tell, null when they cannot (a needle not all ASCII, or not found in bytes
 * that are not, where a character may lower-case to an ASCII one: the Kelvin sign to "k").
 */
export function includesFolded(bytes: Uint8Array, from: number, to: number, needle: LowerNeedle): boolean | null {
  const wanted = needle.ascii;
  if (wanted === null) return null;
  const n = wanted.length;
  if (n === 0) return true;
  // Horspool: compare a window from its end, then move it by its last byte's shift.
  const { shift } = needle;
  const lastWanted = wanted[n - 1];
  for (let i = from; i + n <= to; ) {
    const b = bytes[i + n - 1];
    if (FOLD[b] === lastWanted) {
      let k = n - 2;
      while (k >= 0 && FOLD[bytes[i + k]] === wanted[k]) k--;
      if (k < 0) return true;
    }
    i += shift[b];
  }
  let high = 0;
  for (let i = from; i < to; i++) high |= bytes[i];
  return high < 0x80 ? false : null;
}

export class StringList {
  readonly length: number;
  private readonly offsets: Uint32Array;
  private readonly bytes: Uint8Array;
  private decoded: string[] | undefined;

  constructor(blocks: Blocks, first: number, what: string) {
    this.offsets = blocks.u32(first);
    this.bytes = blocks.u8(first + 1);
    this.length = this.offsets.length - 1;
    check(this.length >= 0, `${what}: string offsets are empty`);
    checkOffsets(this.offsets, this.length, this.bytes.length, what);
  }

  get(index: number): string {
    if (this.decoded) return this.decoded[index];
    return decodeUtf8(this.bytes.subarray(this.offsets[index], this.offsets[index + 1]));
  }

  /**
   * Whether string `index`, lower-cased, contains `needle`. For an ASCII needle the bytes are searched
   * directly, folding A–Z: no string is built. A match on the bytes is a match of the lower-cased
   * string (UTF-8 bytes of other characters are all ≥ 0x80, and lower-casing maps characters one by
   * one); a miss is one only when the string is ASCII: a non-ASCII letter may lower-case to ASCII,
   * as the Kelvin sign does, so such a string is then decoded and lower-cased.
   */
  lowerIncludes(index: number, needle: LowerNeedle): boolean {
    if (this.decoded) return this.decoded[index].toLowerCase().includes(needle.text);
    return this.includesAt(index, this.offsets[index], this.offsets[index + 1], needle);
  }

  /**
   * `lowerIncludes` of many strings: 1 where string `indices[i]` contains the needle, else 0. Their
   * offsets are gathered first, in a loop whose loads do not wait on one another, so candidates
   * scattered over a large list cost about one memory round trip together rather than each.
   */
  lowerIncludesEach(indices: Uint32Array, needle: LowerNeedle): Uint8Array {
    const n = indices.length;
    const hits = new Uint8Array(n);
    if (this.decoded) {
      for (let i = 0; i < n; i++) hits[i] = this.decoded[indices[i]].toLowerCase().includes(needle.text) ? 1 : 0;
      return hits;
    }
    const offsets = this.offsets;
    const starts = new Uint32Array(n);
    const ends = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      starts[i] = offsets[indices[i]];
      ends[i] = offsets[indices[i] + 1];
    }
    for (let i = 0; i < n; i++) hits[i] = this.includesAt(indices[i], starts[i], ends[i], needle) ? 1 : 0;
    return hits;
  }

  private includesAt(index: number, from: number, to: number, needle: LowerNeedle): boolean {
    return includesFolded(this.bytes, from, to, needle) ?? this.get(index).toLowerCase().includes(needle.text);
  }

  /** Whether string `index` and string `otherIndex` of `other` are the same, compared as bytes: neither is decoded. */
  equalsAt(index: number, other: StringList, otherIndex: number): boolean {
    const [from, to] = [this.offsets[index], this.offsets[index + 1]];
    const start = other.offsets[otherIndex];
    if (to - from !== other.offsets[otherIndex + 1] - start) return false;
    for (let i = 0; i < to - from; i++) if (this.bytes[from + i] !== other.bytes[start + i]) return false;
    return true;
  }

  /** Every string, decoded once and kept: for scans that touch most of the list. */
  all(): readonly string[] {
    if (!this.decoded) {
      const out = new Array<string>(this.length);
      for (let i = 0; i < this.length; i++) out[i] = this.get(i);
      this.decoded = out;
    }
    return this.decoded;
  }

  /** Bytes held by this list (for cache accounting), decoded strings included once `all()` keeps them. */
  get byteSize(): number {
    return (
      this.offsets.byteLength +
      this.bytes.byteLength +
      (this.decoded ? decodedStringsBytes(this.length, this.bytes.byteLength) : 0)
    );
  }
}

export class NullableStringList {
  readonly length: number;
  private readonly strings: StringList;
  private readonly present: Uint8Array;

  constructor(blocks: Blocks, first: number, what: string) {
    this.strings = new StringList(blocks, first, what);
    this.present = blocks.u8(first + 2);
    this.length = this.strings.length;
    check(this.present.length === this.length, `${what}: null flags do not match the strings`);
  }

  get(index: number): string | null {
    return this.present[index] ? this.strings.get(index) : null;
  }

  /** Whether both strings are present and differ (as bytes): neither is decoded. */
  bothPresentAndDiffer(index: number, other: NullableStringList, otherIndex: number): boolean {
    return (
      this.present[index] !== 0 &&
      other.present[otherIndex] !== 0 &&
      !this.strings.equalsAt(index, other.strings, otherIndex)
    );
  }

  get byteSize(): number {
    return this.strings.byteSize + this.present.byteLength;
  }
}

/**
 * Estimated heap bytes of `count` JavaScript strings decoded from `utf8Bytes` bytes of UTF-8, with the
 * array that holds them. Measured on V8 (Node 24): a one-byte string costs a 16-byte header plus its
 * characters rounded up to 8, and its array slot 8 more (4 and 12 under pointer compression, as in
 * workerd); 1M strings of 5, 12 and 40 characters took 32, 40 and 64 bytes each. UTF-8 length bounds
 * the characters' bytes (Latin-1 text is one byte per character, the rest at most two per UTF-8 pair or triple).
 */
export function decodedStringsBytes(count: number, utf8Bytes: number): number {
  return utf8Bytes + count * 32;
}

/** Decodes UTF-8, mapping malformed bytes to CorruptSnapshotError rather than a TypeError. */
export function decodeUtf8(bytes: Uint8Array): string {
  // Short ASCII strings dominate (names, types); building them by char code skips TextDecoder's call overhead.
  if (bytes.length < 32) {
    let ascii = true;
    for (let i = 0; i < bytes.length; i++)
      if (bytes[i] > 0x7f) {
        ascii = false;
        break;
      }
    if (ascii) return String.fromCharCode.apply(null, bytes as unknown as number[]);
  }
  try {
    return decoder.decode(bytes);
  } catch {
    check(false, "a string is not valid UTF-8");
  }
}
