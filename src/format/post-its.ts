// @module PostItColumn: the post-its attached to each object, in analysis order.
import { type Block, type Blocks, checkOffsets } from "./blocks.ts";
import type { ObjectRecord, PostIt } from "./model.ts";
import { encodeNullableStringList, encodeStringList, NullableStringList, StringList } from "./string-list.ts";

/** Six blocks: u32 row offsets (rows + 1); titles (StringList); texts (NullableStringList). */
export function encodePostIts(objects: readonly ObjectRecord[]): Block[] {
  const offsets = new Uint32Array(objects.length + 1);
  objects.forEach((o, i) => (offsets[i + 1] = offsets[i] + o.postIts.length));
  const all = objects.flatMap((o) => o.postIts);
  return [offsets, ...encodeStringList(all.map((p) => p.title)), ...encodeNullableStringList(all.map((p) => p.text))];
}

export class PostItColumn {
  private readonly offsets: Uint32Array;
  private readonly titles: StringList;
  private readonly texts: NullableStringList;

  constructor(blocks: Blocks, rows: number) {
    this.offsets = blocks.u32(0);
    this.titles = new StringList(blocks, 1, "post-it titles");
    this.texts = new NullableStringList(blocks, 3, "post-it texts");
    checkOffsets(this.offsets, rows, this.titles.length, "post-its");
    checkOffsets(this.offsets, rows, this.texts.length, "post-its");
  }

  get(row: number): PostIt[] {
    const out: PostIt[] = [];
    for (let i = this.offsets[row]; i < this.offsets[row + 1]; i++)
      out.push({ title: this.titles.get(i), text: this.texts.get(i) });
    return out;
  }

  get byteSize(): number {
    return this.offsets.byteLength + this.titles.byteSize + this.texts.byteSize;
  }
}
