// @module PackedUints: unsigned integers of one width (1 to 32 bits) packed end to end in 32-bit words, for structures held whole whose values are narrower than a u32.

/** The bits an unsigned integer up to `max` takes (at least 1). */
export function bitsFor(max: number): number {
  return Math.max(1, 32 - Math.clz32(max));
}

export class PackedUints {
  readonly length: number;
  readonly width: number;
  private readonly words: Uint32Array;
  private readonly mask: number;

  /** `length` zeros of `width` bits each. */
  constructor(length: number, width: number) {
    if (!(Number.isInteger(width) && width >= 1 && width <= 32))
      throw new RangeError(`a packed width is 1 to 32 bits, not ${width}`);
    this.length = length;
    this.width = width;
    this.mask = 2 ** width - 1;
    // One word more: a value may start in the last word and reach into the next.
    this.words = new Uint32Array(Math.ceil((length * width) / 32) + 1);
  }

  get(i: number): number {
    const bit = i * this.width;
    const w = Math.floor(bit / 32);
    const shift = bit % 32;
    const low = this.words[w] >>> shift;
    const value = shift + this.width > 32 ? low | (this.words[w + 1] << (32 - shift)) : low;
    return (value & this.mask) >>> 0;
  }

  /** Sets value `i`, once: the bits it takes must still be zeros. */
  set(i: number, value: number): void {
    const bit = i * this.width;
    const w = Math.floor(bit / 32);
    const shift = bit % 32;
    this.words[w] |= value << shift;
    if (shift + this.width > 32) this.words[w + 1] |= value >>> (32 - shift);
  }

  get byteLength(): number {
    return this.words.byteLength;
  }
}
