// @module DictionaryColumn: a low-cardinality, nullable string per object, stored as codes into a sorted dictionary.
import { type Block, type Blocks, checkBelow } from "./blocks.ts";
import { check } from "./errors.ts";
import { NONE } from "./model.ts";
import { encodeStringList, StringList } from "./string-list.ts";

/** Three blocks: the dictionary (StringList, sorted by code units — the default sort's order) and one u32 code per row (NONE for null). */
export function encodeDictionaryColumn(values: readonly (string | null)[]): Block[] {
  // One map lookup a row: each value numbered as first met, then renumbered in dictionary order.
  const metAs = new Map<string, number>();
  const codes = new Uint32Array(values.length);
  for (let r = 0; r < values.length; r++) {
    const v = values[r];
    if (v === null) codes[r] = NONE;
    else {
      let code = metAs.get(v);
      if (code === undefined) metAs.set(v, (code = metAs.size));
      codes[r] = code;
    }
  }
  const dictionary = [...metAs.keys()].sort();
  const sortedCode = new Uint32Array(dictionary.length);
  dictionary.forEach((v, i) => (sortedCode[metAs.get(v)!] = i));
  for (let r = 0; r < codes.length; r++) if (codes[r] !== NONE) codes[r] = sortedCode[codes[r]];
  return [...encodeStringList(dictionary), codes];
}

export class DictionaryColumn {
  readonly dictionary: StringList;
  readonly codes: Uint32Array;

  constructor(blocks: Blocks, first: number, rows: number, what: string) {
    this.dictionary = new StringList(blocks, first, `${what} dictionary`);
    this.codes = blocks.u32(first + 2);
    check(this.codes.length === rows, `${what}: ${this.codes.length} codes for ${rows} rows`);
    checkBelow(this.codes, this.dictionary.length, what, NONE);
  }

  get(row: number): string | null {
    const code = this.codes[row];
    return code === NONE ? null : this.dictionary.get(code);
  }

  get byteSize(): number {
    return this.dictionary.byteSize + this.codes.byteLength;
  }
}
