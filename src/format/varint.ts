// @module LEB128 varints: a growing writer and a bounds-checked reader, for the paged sections' compact rows.
import { check } from "./errors.ts";

/** Appends unsigned integers (up to 2^53) as LEB128 into a buffer that grows by doubling. */
export class VarintWriter {
  private bytes = new Uint8Array(1024);
  length = 0;

  /** Appends `value` (an integer ≥ 0, exact in a double). */
  put(value: number): void {
    if (this.bytes.length - this.length < 8) {
      const bigger = new Uint8Array(this.bytes.length * 2);
      bigger.set(this.bytes.subarray(0, this.length));
      this.bytes = bigger;
    }
    // Division, not shifts: values may exceed 32 bits (a rank gap times two).
    while (value >= 0x80) {
      this.bytes[this.length++] = (value % 0x80) | 0x80;
      value = Math.floor(value / 0x80);
    }
    this.bytes[this.length++] = value;
  }

  /** Appends `bytes` as they are (what a LEB128 length before them measures). */
  putBytes(bytes: Uint8Array): void {
    if (this.bytes.length - this.length < bytes.length) {
      const bigger = new Uint8Array(Math.max(this.bytes.length * 2, this.length + bytes.length));
      bigger.set(this.bytes.subarray(0, this.length));
      this.bytes = bigger;
    }
    this.bytes.set(bytes, this.length);
    this.length += bytes.length;
  }

  /** The bytes written since `from`, copied. */
  slice(from = 0): Uint8Array {
    return this.bytes.slice(from, this.length);
  }

  /** Forgets everything written (the buffer is kept). */
  clear(): void {
    this.length = 0;
  }
}

/** Bytes `value` (an integer ≥ 0, exact in a double) takes as LEB128. */
export function varintSize(value: number): number {
  if (value < 0x80) return 1;
  if (value < 0x4000) return 2;
  if (value < 0x200000) return 3;
  if (value < 0x10000000) return 4;
  let size = 4;
  for (let rest = Math.floor(value / 0x10000000); rest > 0; rest = Math.floor(rest / 0x80)) size++;
  return size;
}

/** Writes `value` (below 2^32) as LEB128 into `out` at `at`, which must have room; returns the new end. */
export function putVarint(out: Uint8Array, at: number, value: number): number {
  while (value >= 0x80) {
    out[at++] = (value & 0x7f) | 0x80;
    value >>>= 7;
  }
  out[at++] = value;
  return at;
}

/** Reads LEB128 values from `bytes`, refusing to run past its end or to decode more than 2^53. */
export class VarintReader {
  private readonly bytes: Uint8Array;
  private readonly what: string;
  at = 0;

  constructor(bytes: Uint8Array, what: string) {
    this.bytes = bytes;
    this.what = what;
  }

  get done(): boolean {
    return this.at === this.bytes.length;
  }

  next(): number {
    // Most values take one byte: taken at once (past the end, the byte is undefined and the loop refuses it).
    const first = this.bytes[this.at];
    if (first < 0x80) {
      this.at++;
      return first;
    }
    let value = 0;
    let scale = 1;
    let byte: number;
    do {
      // Tested before calling check: a message closure made per byte cost more than the decoding.
      if (!(this.at < this.bytes.length && scale <= 2 ** 49))
        check(false, `${this.what}: a varint runs past the end or past 2^53`);
      byte = this.bytes[this.at++];
      // The eighth byte carries bits 49–55: only bits 49–52 fit below 2^53, and it must be the last.
      if (!(scale < 2 ** 49 || byte <= 0x0f)) check(false, `${this.what}: a varint runs past 2^53`);
      value += (byte & 0x7f) * scale;
      scale *= 0x80;
    } while (byte & 0x80);
    return value;
  }

  /** The next `length` bytes, as a view, refusing to run past the end. */
  bytesOf(length: number): Uint8Array {
    if (!(this.at + length <= this.bytes.length)) check(false, `${this.what}: ${length} bytes run past the end`);
    return this.bytes.subarray(this.at, (this.at += length));
  }
}
