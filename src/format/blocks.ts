// @module Blocks: the body layout shared by every section, a list of 8-byte-aligned typed arrays.
//
// A section body is `u32 blockCount, u32 0, (u32 offset, u32 length) × blockCount`, then the blocks,
// each starting at a multiple of 8 from the section start. Decoders view blocks in place as typed
// arrays (no copy), after checking every offset, length and element size against the section.
import { check } from "./errors.ts";

const ALIGN = 8;
const align = (n: number) => (n + ALIGN - 1) & ~(ALIGN - 1);

export type Block = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float64Array | BigUint64Array;

/** Lays `blocks` out as one section body. */
export function encodeBlocks(blocks: readonly Block[]): Uint8Array {
  let size = align(8 + blocks.length * 8);
  const offsets: number[] = [];
  for (const block of blocks) {
    offsets.push(size);
    size = align(size + block.byteLength);
  }
  check(size <= 0xffffffff, "a section larger than 4 GiB cannot be encoded");
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  view.setUint32(0, blocks.length, true);
  blocks.forEach((block, i) => {
    view.setUint32(8 + i * 8, offsets[i], true);
    view.setUint32(12 + i * 8, block.byteLength, true);
    out.set(new Uint8Array(block.buffer, block.byteOffset, block.byteLength), offsets[i]);
  });
  return out;
}

/** Typed, bounds-checked views of the blocks of one section body. */
export class Blocks {
  readonly count: number;
  private readonly view: DataView;
  private readonly bytes: Uint8Array;
  private readonly section: string;

  constructor(bytes: Uint8Array, section: string, expectedCount?: number) {
    this.bytes = bytes;
    this.section = section;
    check(bytes.byteLength >= 8, `section ${section} is too short for its block table`);
    check(bytes.byteOffset % ALIGN === 0, `section ${section} is not 8-byte aligned in memory`);
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.count = this.view.getUint32(0, true);
    check(
      8 + this.count * 8 <= bytes.byteLength,
      `section ${section} declares ${this.count} blocks, more than it holds`,
    );
    if (expectedCount !== undefined)
      check(this.count === expectedCount, `section ${section} has ${this.count} blocks, expected ${expectedCount}`);
  }

  /**
   * Where block `index` lies in the section body, as its block table says: for a body read only in
   * part (its head), whose later blocks are read by range.
   */
  extent(index: number): [offset: number, length: number] {
    check(index >= 0 && index < this.count, `section ${this.section} has no block ${index}`);
    const offset = this.view.getUint32(8 + index * 8, true);
    const length = this.view.getUint32(12 + index * 8, true);
    check(offset % ALIGN === 0, `section ${this.section} block ${index} is not aligned`);
    return [offset, length];
  }

  private range(index: number, elementSize: number): [offset: number, length: number] {
    const [offset, length] = this.extent(index);
    check(offset + length <= this.bytes.byteLength, `section ${this.section} block ${index} runs past the section end`);
    check(length % elementSize === 0, `section ${this.section} block ${index} is not a whole number of elements`);
    return [this.bytes.byteOffset + offset, length];
  }

  u8(index: number): Uint8Array {
    const [offset, length] = this.range(index, 1);
    return new Uint8Array(this.bytes.buffer, offset, length);
  }
  u16(index: number): Uint16Array {
    const [offset, length] = this.range(index, 2);
    return new Uint16Array(this.bytes.buffer, offset, length / 2);
  }
  u32(index: number): Uint32Array {
    const [offset, length] = this.range(index, 4);
    return new Uint32Array(this.bytes.buffer, offset, length / 4);
  }
  i32(index: number): Int32Array {
    const [offset, length] = this.range(index, 4);
    return new Int32Array(this.bytes.buffer, offset, length / 4);
  }
  u64(index: number): BigUint64Array {
    const [offset, length] = this.range(index, 8);
    return new BigUint64Array(this.bytes.buffer, offset, length / 8);
  }
}

/** Checks that `offsets` is a CSR offset array: `rows + 1` entries, starting at 0, never decreasing, ending at `total`. */
export function checkOffsets(offsets: Uint32Array, rows: number, total: number, what: string): void {
  check(offsets.length === rows + 1, `${what}: ${offsets.length} offsets for ${rows} rows`);
  check(offsets[0] === 0 && offsets[rows] === total, `${what}: offsets do not span the ${total} entries`);
  // The message is built only on failure: a template per row made a 1M-row check take 100 ms.
  for (let i = 0; i < rows; i++) if (offsets[i] > offsets[i + 1]) check(false, `${what}: offsets decrease at row ${i}`);
}

/** Checks that every value of `values` is below `limit` (or equals `allowed`, a sentinel such as NONE). */
export function checkBelow(
  values: Uint8Array | Uint16Array | Uint32Array,
  limit: number,
  what: string,
  allowed?: number,
): void {
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v >= limit && v !== allowed) check(false, `${what}: value ${v} at ${i} is out of range (limit ${limit})`);
  }
}
