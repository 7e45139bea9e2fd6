// @module ArrayColumn: a nullable list of strings per object (annotations, tags), codes into a sorted dictionary.
import { type Block, type Blocks, checkBelow, checkOffsets } from "./blocks.ts";
import { check } from "./errors.ts";
import { encodeStringList, StringList } from "./string-list.ts";

/** Five blocks: dictionary (StringList), u32 row offsets (rows + 1), u32 item codes, u8 present (0 = null row). */
export function encodeArrayColumn(rows: readonly (readonly string[] | null)[]): Block[] {
  const dictionary = [...new Set(rows.flatMap((r) => r ?? []))].sort();
  const codeOf = new Map(dictionary.map((v, i) => [v, i]));
  const offsets = new Uint32Array(rows.length + 1);
  rows.forEach((r, i) => (offsets[i + 1] = offsets[i] + (r?.length ?? 0)));
  const items = new Uint32Array(offsets[rows.length]);
  rows.forEach((r, i) => r?.forEach((v, k) => (items[offsets[i] + k] = codeOf.get(v)!)));
  return [...encodeStringList(dictionary), offsets, items, Uint8Array.from(rows, (r) => (r === null ? 0 : 1))];
}

export class ArrayColumn {
  private readonly dictionary: StringList;
  private readonly offsets: Uint32Array;
  private readonly items: Uint32Array;
  private readonly present: Uint8Array;

  constructor(blocks: Blocks, first: number, rows: number, what: string) {
    this.dictionary = new StringList(blocks, first, `${what} dictionary`);
    this.offsets = blocks.u32(first + 2);
    this.items = blocks.u32(first + 3);
    this.present = blocks.u8(first + 4);
    checkOffsets(this.offsets, rows, this.items.length, what);
    checkBelow(this.items, this.dictionary.length, what);
    check(this.present.length === rows, `${what}: null flags do not match the rows`);
  }

  get(row: number): string[] | null {
    if (!this.present[row]) return null;
    const out: string[] = [];
    for (let i = this.offsets[row]; i < this.offsets[row + 1]; i++) out.push(this.dictionary.get(this.items[i]));
    return out;
  }

  get byteSize(): number {
    return this.dictionary.byteSize + this.offsets.byteLength + this.items.byteLength + this.present.byteLength;
  }
}
