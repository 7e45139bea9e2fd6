// @module DictionaryColumn: a low-cardinality, nullable string per object, stored as codes into a sorted dictionary, each code as narrow as the dictionary allows.
import { type Block, type Blocks, checkBelow } from "./blocks.ts";
import { check } from "./errors.ts";
import { NONE } from "./model.ts";
import { encodeStringList, StringList } from "./string-list.ts";

/** A column's codes, in the width the size of its dictionary sets (codeWidth). */
type Codes = Uint8Array | Uint16Array | Uint32Array;

/** Codes of 1, 2 or 4 bytes, as the dictionary's size requires, and the null code of that width. */
function codeWidth(size: number): { codes: (rows: number) => Codes; none: number; bytes: 1 | 2 | 4 } {
  if (size < 0xff) return { codes: (rows) => new Uint8Array(rows), none: 0xff, bytes: 1 };
  if (size < 0xffff) return { codes: (rows) => new Uint16Array(rows), none: 0xffff, bytes: 2 };
  return { codes: (rows) => new Uint32Array(rows), none: NONE, bytes: 4 };
}

/**
 * Three blocks: the dictionary (StringList, sorted by code units — the default sort's order) and one
 * code per row, u8 for a dictionary of fewer than 255 strings, u16 for fewer than 65,535, else u32;
 * the width's largest value (0xFF, 0xFFFF, NONE) for null.
 */
export function encodeDictionaryColumn(values: readonly (string | null)[]): Block[] {
  // One map lookup a row: each value numbered as first met, then renumbered in dictionary order.
  const metAs = new Map<string, number>();
  const met = new Uint32Array(values.length);
  for (let r = 0; r < values.length; r++) {
    const v = values[r];
    if (v === null) met[r] = NONE;
    else {
      let code = metAs.get(v);
      if (code === undefined) metAs.set(v, (code = metAs.size));
      met[r] = code;
    }
  }
  const dictionary = [...metAs.keys()].sort();
  const sortedCode = new Uint32Array(dictionary.length);
  dictionary.forEach((v, i) => (sortedCode[metAs.get(v)!] = i));
  const width = codeWidth(dictionary.length);
  const codes = width.codes(values.length);
  for (let r = 0; r < values.length; r++) codes[r] = met[r] === NONE ? width.none : sortedCode[met[r]];
  return [...encodeStringList(dictionary), codes];
}

export class DictionaryColumn {
  readonly dictionary: StringList;
  private readonly codes: Codes;
  private readonly none: number;

  constructor(blocks: Blocks, first: number, rows: number, what: string) {
    this.dictionary = new StringList(blocks, first, `${what} dictionary`);
    const width = codeWidth(this.dictionary.length);
    const [, length] = blocks.extent(first + 2);
    check(
      length === rows * width.bytes,
      `${what}: ${length} bytes of codes for ${rows} rows of ${width.bytes} bytes (a dictionary of ${this.dictionary.length})`,
    );
    this.codes =
      width.bytes === 1 ? blocks.u8(first + 2) : width.bytes === 2 ? blocks.u16(first + 2) : blocks.u32(first + 2);
    this.none = width.none;
    checkBelow(this.codes, this.dictionary.length, what, this.none);
  }

  /** The dictionary index of `row`'s value, or -1 for null. */
  codeOf(row: number): number {
    const code = this.codes[row];
    return code === this.none ? -1 : code;
  }

  get(row: number): string | null {
    const code = this.codes[row];
    return code === this.none ? null : this.dictionary.get(code);
  }

  get byteSize(): number {
    return this.dictionary.byteSize + this.codes.byteLength;
  }
}
