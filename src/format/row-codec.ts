// @module RowCodec: one row's bytes compressed alone against a dictionary the row store shares (an LZ77 of byte-aligned sequences, as LZ4's blocks), and that dictionary built from a sample of the rows.
//
// An answer lists a row or two of most row pages it reads. Deflated pages made it inflate some 18
// rows for each one listed (some 84 µs cold for a 4 KiB page); a row coded alone decodes in about
// 10 µs cold. Alone, a row has little to refer back to: the shared dictionary holds what rows
// repeat (packages, types, tags, the JSON around them), so a row is mostly references into it. The
// builder picks the dictionary's segments as zstd's FASTCOVER does: the segment of each stretch of
// the sample whose substrings most rows share.
import { check } from "./errors.ts";
import { VarintReader, VarintWriter } from "./varint.ts";

/** Matches shorter than this are written as literals: a match costs at least three bytes. */
const MIN_MATCH = 4;

/** The farthest a match may reach back (its distance is a u16), the dictionary included. */
const MAX_DISTANCE = 0xffff;

/**
 * The largest dictionary a writer builds: a match then reaches any of it from the first bytes of a
 * row, with room for the rows' own first KiB.
 */
export const MAX_DICTIONARY_BYTES = MAX_DISTANCE + 1 - 1024;

/** The largest row a reader decodes: a row of one object, far larger than any analysis shows. */
export const MAX_ROW_BYTES = 1024 * 1024;

/**
 * Positions an encoder tries for each match, newest first. At 1M objects 64 gave 60.9 MB of rows in
 * some 17 s of one thread (on the compile's workers), 16 gave 62.6 MB in 60% of the time. The same
 * search, its dictionary chains read as lists and its bytes compared by words, takes some 12 s.
 */
const CHAIN_DEPTH = 64;

const HASH_BITS = 16;

/** The hash of 4 bytes read as a little-endian word. */
function hashWord(word: number): number {
  return Math.imul(word, 2654435761) >>> (32 - HASH_BITS);
}

/**
 * Compresses rows one at a time against a dictionary, indexed once. The bytes written depend only
 * on the dictionary and the row: any encoder gives any reader the same file.
 *
 * A coded row is a list of sequences. Each starts with a token byte: its high four bits the count of
 * literals (15: more follow), its low four the match length less 4 (15: more follow). Then the
 * literals' count beyond 15 (bytes of 255 while more follow, then the rest), the literals, and,
 * unless the row ends with them, the match: its distance back (u16 little-endian, 1 to 65,535,
 * reaching into the dictionary when it is farther back than the row's bytes so far, the dictionary's
 * last byte being just before the row's first) and its length beyond 19 as the literals' count is.
 */
export class RowEncoder {
  private readonly dictionaryLength: number;
  /** The dictionary, then the row being encoded. */
  private window: Uint8Array;
  /** The window read 4 bytes at a time: matches are compared a word at a time. */
  private words: DataView;
  /** Each hash's newest position; the dictionary's are put back after each row. */
  private readonly head = new Int32Array(1 << HASH_BITS).fill(-1);
  private readonly dictionaryHead: Int32Array;
  /**
   * Each hash's chain through the dictionary as a list, newest first, from dictionaryFirst[h] to
   * dictionaryFirst[h + 1] (at most CHAIN_DEPTH): walked at almost every byte, and the same for
   * every row, a list read in order costs a fraction of following the chain through memory.
   */
  private readonly dictionaryChains: Int32Array;
  private readonly dictionaryFirst: Uint32Array;
  /** Each position's previous one of the same hash. */
  private chain: Int32Array;
  /** Hashes whose head a row moved, to put back. */
  private readonly moved: number[] = [];
  private out = new Uint8Array(1024);
  private written = 0;
  /** The distance of the match longestMatch found last. */
  private matchDistance = 0;

  constructor(dictionary: Uint8Array) {
    check(dictionary.length <= MAX_DICTIONARY_BYTES, `a row dictionary takes at most ${MAX_DICTIONARY_BYTES} bytes`);
    this.dictionaryLength = dictionary.length;
    this.window = new Uint8Array(dictionary.length + 4096);
    this.window.set(dictionary);
    this.words = new DataView(this.window.buffer);
    this.chain = new Int32Array(this.window.length);
    for (let at = 0; at + MIN_MATCH <= dictionary.length; at++) {
      const h = hashWord(this.words.getInt32(at, true));
      this.chain[at] = this.head[h];
      this.head[h] = at;
    }
    this.dictionaryHead = this.head.slice();
    this.dictionaryFirst = new Uint32Array((1 << HASH_BITS) + 1);
    const positions: number[] = [];
    for (let h = 0; h < 1 << HASH_BITS; h++) {
      this.dictionaryFirst[h] = positions.length;
      for (let p = this.head[h]; p >= 0 && positions.length - this.dictionaryFirst[h] < CHAIN_DEPTH; p = this.chain[p])
        positions.push(p);
    }
    this.dictionaryFirst[1 << HASH_BITS] = positions.length;
    this.dictionaryChains = Int32Array.from(positions);
  }

  /** `row` compressed (a fresh array). */
  encode(row: Uint8Array): Uint8Array {
    check(row.length > 0 && row.length <= MAX_ROW_BYTES, `a row takes 1 to ${MAX_ROW_BYTES} bytes, not ${row.length}`);
    const start = this.dictionaryLength;
    const end = start + row.length;
    if (this.window.length < end) {
      const window = new Uint8Array(2 * end);
      window.set(this.window.subarray(0, start));
      this.window = window;
      this.words = new DataView(window.buffer);
      const chain = new Int32Array(window.length);
      chain.set(this.chain.subarray(0, start));
      this.chain = chain;
    }
    this.window.set(row, start);
    for (const h of this.moved) this.head[h] = this.dictionaryHead[h];
    this.moved.length = 0;
    this.written = 0;
    let literals = start;
    let at = start;
    while (at < end) {
      let length = this.longestMatch(at, end);
      if (length === 0) {
        this.insert(at++, end);
        continue;
      }
      let distance = this.matchDistance;
      // One step of lazy matching: a match one byte later that is longer by two pays for the literal.
      // Asked for no shorter one, the search passes over the others sooner and finds the same.
      this.insert(at, end);
      const later = this.longestMatch(at + 1, end, length + 1);
      if (later > length + 1) {
        at++;
        length = later;
        distance = this.matchDistance;
      }
      this.sequence(literals, at, length, distance);
      for (let k = at; k < at + length; k++) this.insert(k, end);
      at += length;
      literals = at;
    }
    if (literals < end) this.sequence(literals, end, 0, 0);
    return this.out.slice(0, this.written);
  }

  private insert(at: number, end: number): void {
    if (at + MIN_MATCH > end) return;
    const h = hashWord(this.words.getInt32(at, true));
    this.chain[at] = this.head[h];
    if (this.head[h] < this.dictionaryLength) this.moved.push(h);
    this.head[h] = at;
  }

  /**
   * The length of the longest match for the bytes at `at` (the nearest of equal ones) longer than
   * `longerThan`, its distance left in `matchDistance`; or 0. Not a pair: it is asked for at nearly
   * every byte of every row. Candidates are the newest CHAIN_DEPTH positions of the same hash: the
   * row's own, then the dictionary's.
   */
  private longestMatch(at: number, end: number, longerThan = MIN_MATCH - 1): number {
    if (at + longerThan >= end) return 0;
    const h = hashWord(this.words.getInt32(at, true));
    let best = longerThan;
    let bestDistance = 0;
    let tries = 0;
    const rowStart = this.dictionaryLength;
    for (let candidate = this.head[h]; candidate >= rowStart; tries++) {
      if (tries === CHAIN_DEPTH || at - candidate > MAX_DISTANCE) return this.found(best, bestDistance, longerThan);
      const length = this.longer(candidate, at, end, best);
      if (length) {
        best = length;
        bestDistance = at - candidate;
        if (at + length === end) return this.found(best, bestDistance, longerThan);
      }
      const previous = this.chain[candidate];
      // A match's first position is inserted twice when no lazy step is taken, and then points at
      // itself: the chain ends there, as trying it again could not find a longer match.
      if (previous === candidate) return this.found(best, bestDistance, longerThan);
      // Past the row's positions, the chain goes on with the dictionary's (the list below).
      candidate = previous;
    }
    const positions = this.dictionaryChains;
    for (let i = this.dictionaryFirst[h], last = this.dictionaryFirst[h + 1]; i < last && tries < CHAIN_DEPTH; i++) {
      const candidate = positions[i];
      if (at - candidate > MAX_DISTANCE) break;
      tries++;
      const length = this.longer(candidate, at, end, best);
      if (length) {
        best = length;
        bestDistance = at - candidate;
        if (at + length === end) break;
      }
    }
    return this.found(best, bestDistance, longerThan);
  }

  /** How many bytes from `candidate` agree with those from `at` (up to `end`), when more than `best` (at least 3); else 0. */
  private longer(candidate: number, at: number, end: number, best: number): number {
    const words = this.words;
    // A longer match agrees on the byte at `best` and the three before it: one word rules out most candidates.
    if (words.getInt32(candidate + best - 3, true) !== words.getInt32(at + best - 3, true)) return 0;
    const window = this.window;
    let length = 0;
    while (at + length + 4 <= end && words.getInt32(candidate + length, true) === words.getInt32(at + length, true))
      length += 4;
    while (at + length < end && window[candidate + length] === window[at + length]) length++;
    return length > best ? length : 0;
  }

  private found(best: number, distance: number, longerThan: number): number {
    this.matchDistance = distance;
    return best > longerThan ? best : 0;
  }

  /** Writes the literals [from, to) of the window, then a match of `length` (0: none) `distance` back. */
  private sequence(from: number, to: number, length: number, distance: number): void {
    const literals = to - from;
    const extra = length === 0 ? 0 : length - MIN_MATCH;
    this.reserve(1 + literals + Math.ceil(literals / 255) + 3 + Math.ceil(extra / 255));
    const out = this.out;
    out[this.written++] = (Math.min(literals, 15) << 4) | Math.min(extra, 15);
    if (literals >= 15) this.count(literals - 15);
    for (let k = 0; k < literals; k++) out[this.written + k] = this.window[from + k];
    this.written += literals;
    if (length === 0) return;
    out[this.written++] = distance & 0xff;
    out[this.written++] = distance >>> 8;
    if (extra >= 15) this.count(extra - 15);
  }

  /** A count beyond a token's 15: bytes of 255 while more follow, then the rest. */
  private count(rest: number): void {
    for (; rest >= 255; rest -= 255) this.out[this.written++] = 255;
    this.out[this.written++] = rest;
  }

  private reserve(bytes: number): void {
    if (this.written + bytes <= this.out.length) return;
    const out = new Uint8Array(2 * (this.written + bytes));
    out.set(this.out.subarray(0, this.written));
    this.out = out;
  }
}

/**
 * A row page as stored, from its raw body (each row's JSON length as LEB128, then the rows' JSON):
 * each row coded by `encoder`, the coded rows' lengths as LEB128, then the coded rows.
 */
export function encodeRowPage(raw: Uint8Array, encoder: RowEncoder): Uint8Array {
  const lengths = new VarintReader(raw, "raw row page");
  const jsonLengths: number[] = [];
  for (let json = 0; lengths.at + json < raw.length; ) {
    jsonLengths.push(lengths.next());
    json += jsonLengths[jsonLengths.length - 1];
  }
  const coded: Uint8Array[] = [];
  let at = lengths.at;
  for (const length of jsonLengths) {
    coded.push(encoder.encode(raw.subarray(at, at + length)));
    at += length;
  }
  return rowPageOf(coded);
}

/** A row page as stored of `coded` rows: each one's length as LEB128, then each one. */
export function rowPageOf(coded: readonly Uint8Array[]): Uint8Array {
  const page = new VarintWriter();
  for (const row of coded) page.put(row.length);
  for (const row of coded) page.putBytes(row);
  return page.slice();
}

/** Where rows are decoded: one buffer for every row, grown as rows need (a row is used before the next is decoded). */
let decoded: Uint8Array = new Uint8Array(4096);

/** The decoding buffer grown to hold `needed` bytes, its first `written` kept; refused past MAX_ROW_BYTES. */
function grown(written: number, needed: number, what: string): Uint8Array {
  if (needed > MAX_ROW_BYTES) check(false, `${what} decodes to more than ${MAX_ROW_BYTES} bytes`);
  const bigger = new Uint8Array(Math.min(MAX_ROW_BYTES, Math.max(2 * decoded.length, needed)));
  bigger.set(decoded.subarray(0, written));
  decoded = bigger;
  return bigger;
}

/**
 * The row `encoded` holds, coded by RowEncoder against `dictionary`: a view of a buffer the next
 * call overwrites. Bytes no encoder writes (a match reaching before the dictionary, a count running
 * past the input, a row past MAX_ROW_BYTES) are refused with a message naming `what`.
 */
export function decodeRow(encoded: Uint8Array, dictionary: Uint8Array, what: string): Uint8Array {
  let out: Uint8Array = decoded;
  let written = 0;
  let at = 0;
  const end = encoded.length;
  while (at < end) {
    const token = encoded[at++];
    let literals = token >>> 4;
    if (literals === 15) {
      let more: number;
      do {
        if (at >= end) check(false, `${what} ends inside a count of literals`);
        more = encoded[at++];
        literals += more;
      } while (more === 255);
    }
    if (at + literals > end) check(false, `${what} has literals past its end`);
    if (written + literals > out.length) out = grown(written, written + literals, what);
    // Byte by byte: most runs are a few bytes, for which a view and a set cost more.
    for (let k = 0; k < literals; k++) out[written + k] = encoded[at + k];
    written += literals;
    at += literals;
    if (at === end) break;
    if (at + 2 > end) check(false, `${what} ends inside a match`);
    const distance = encoded[at] | (encoded[at + 1] << 8);
    at += 2;
    let length = token & 15;
    if (length === 15) {
      let more: number;
      do {
        if (at >= end) check(false, `${what} ends inside a match`);
        more = encoded[at++];
        length += more;
      } while (more === 255);
    }
    length += MIN_MATCH;
    if (distance === 0 || distance > written + dictionary.length)
      check(false, `${what} has a match reaching ${distance} bytes back, before its dictionary`);
    if (written + length > out.length) out = grown(written, written + length, what);
    let from = written - distance;
    // The part of the match in the dictionary, then the part in the row (which may overlap what it writes).
    if (from < 0) {
      const inDictionary = Math.min(-from, length);
      const start = dictionary.length + from;
      for (let k = 0; k < inDictionary; k++) out[written + k] = dictionary[start + k];
      written += inDictionary;
      length -= inDictionary;
      from += inDictionary;
    }
    for (let k = 0; k < length; k++) out[written + k] = out[from + k];
    written += length;
  }
  if (written === 0) check(false, `${what} is empty`);
  return out.subarray(0, written);
}

/** Bytes of each segment a dictionary is built of: long enough for a path and a type, short enough for many. */
const SEGMENT = 48;

/** Bytes of the substrings whose frequency scores a segment. */
const SUBSTRING = 8;

/** Segment starts tried: every fourth byte of the sample. */
const SEGMENT_STEP = 4;

/**
 * A dictionary of at most `size` bytes for rows like `sample`, built as zstd's FASTCOVER builds
 * one: each 8-byte substring's hash is counted once per row it occurs in; the sample is cut into as
 * many stretches as segments fit, and from each the 48-byte segment whose substrings' counts sum
 * highest is taken, the substrings it holds then counting for nothing (so the next segments bring
 * something else). The first taken are put last: nearest the rows, where matches reach them from
 * furthest into a row. Deterministic: the same sample gives the same bytes.
 */
export function buildRowDictionary(sample: readonly Uint8Array[], size: number): Uint8Array {
  const sampleBytes = sample.reduce((sum, row) => sum + row.length, 0);
  const bits = Math.max(10, Math.min(22, Math.ceil(Math.log2(Math.max(1, sampleBytes))) + 1));
  const slots = 1 << bits;
  const rowsHolding = new Uint32Array(slots);
  const lastRow = new Int32Array(slots).fill(-1);
  const substring = (bytes: Uint8Array, at: number) => {
    let x = 0x811c9dc5;
    for (let j = 0; j < SUBSTRING; j++) x = Math.imul(x ^ bytes[at + j], 16777619);
    return x >>> (32 - bits);
  };
  sample.forEach((row, r) => {
    for (let at = 0; at + SUBSTRING <= row.length; at++) {
      const h = substring(row, at);
      if (lastRow[h] !== r) {
        lastRow[h] = r;
        rowsHolding[h]++;
      }
    }
  });
  // Each substring counts once in a segment's score: `seen` marks those counted for the segment scored.
  const seen = new Int32Array(slots).fill(-1);
  let scored = 0;
  const score = (row: Uint8Array, from: number, to: number) => {
    scored++;
    let total = 0;
    for (let at = from; at + SUBSTRING <= to; at++) {
      const h = substring(row, at);
      if (seen[h] === scored) continue;
      seen[h] = scored;
      if (rowsHolding[h] > 1) total += rowsHolding[h];
    }
    return total;
  };
  const stretches = Math.floor(size / SEGMENT);
  const perStretch = Math.max(1, Math.floor(sample.length / Math.max(1, stretches)));
  const taken: Uint8Array[] = [];
  let bytes = 0;
  for (let s = 0; s < stretches && bytes < size; s++) {
    let best = 0;
    let bestSegment: Uint8Array | undefined;
    for (let r = s * perStretch; r < Math.min(sample.length, (s + 1) * perStretch); r++) {
      const row = sample[r];
      for (let at = 0; at + SUBSTRING <= row.length; at += SEGMENT_STEP) {
        const to = Math.min(row.length, at + SEGMENT);
        const value = score(row, at, to);
        if (value > best) {
          best = value;
          bestSegment = row.subarray(at, to);
        }
      }
    }
    if (!bestSegment) continue;
    taken.push(bestSegment);
    bytes += bestSegment.length;
    for (let at = 0; at + SUBSTRING <= bestSegment.length; at++) rowsHolding[substring(bestSegment, at)] = 0;
  }
  // Filled from its end, so that a segment cut short to fit is one of the last taken.
  const dictionary = new Uint8Array(Math.min(size, bytes));
  let at = dictionary.length;
  for (const segment of taken) {
    const part = segment.subarray(Math.max(0, segment.length - at));
    at -= part.length;
    dictionary.set(part, at);
    if (at === 0) break;
  }
  return dictionary;
}
