// @module DictionaryColumn: codes as narrow as the dictionary allows (u8 below 255 strings, u16 below 65,535, else u32), nulls read back at every width, and code blocks of the wrong width refused.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Block, Blocks, encodeBlocks } from "../../src/format/blocks.ts";
import { DictionaryColumn, encodeDictionaryColumn } from "../../src/format/dictionary-column.ts";
import { CorruptSnapshotError } from "../../src/format/errors.ts";

const column = (blocks: Block[], rows: number) =>
  new DictionaryColumn(new Blocks(encodeBlocks(blocks), "TEST", 3), 0, rows, "test column");

/** `distinct` strings, then null, over `rows` rows. */
const values = (distinct: number, rows: number) =>
  Array.from({ length: rows }, (_, r) => (r % (distinct + 1) === distinct ? null : `v${r % (distinct + 1)}`));

describe("dictionary columns", () => {
  it.each([
    [0, 1],
    [1, 1],
    [254, 1],
    [255, 2],
    [65_534, 2],
    [65_535, 4],
  ])("a dictionary of %i strings has codes of %i bytes, its largest value for null", (distinct, bytes) => {
    const rows = distinct + 1;
    const written = values(distinct, rows);
    const blocks = encodeDictionaryColumn(written);
    expect(blocks[2].BYTES_PER_ELEMENT).toBe(bytes);
    expect(blocks[2][rows - 1]).toBe(2 ** (8 * bytes) - 1);
    const read = column(blocks, rows);
    expect(Array.from({ length: rows }, (_, r) => read.get(r))).toEqual(written);
    expect(read.codeOf(rows - 1)).toBe(-1);
  });

  it("reads back any values (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.constantFrom("a", "b", "Ab", "é", "", "zz"), { nil: null })), (written) => {
        const read = column(encodeDictionaryColumn(written), written.length);
        expect(written.map((_, r) => read.get(r))).toEqual(written);
      }),
    );
  });

  it("refuses codes of another width than the dictionary's, and a code past it", () => {
    const [offsets, bytes] = encodeDictionaryColumn(["a", "b"]);
    expect(() => column([offsets, bytes, new Uint32Array([0, 1])], 2)).toThrow(
      new CorruptSnapshotError("test column: 8 bytes of codes for 2 rows of 1 bytes (a dictionary of 2)"),
    );
    expect(() => column([offsets, bytes, new Uint8Array([0, 2])], 2)).toThrow(
      new CorruptSnapshotError("test column: value 2 at 1 is out of range (limit 2)"),
    );
    expect(column([offsets, bytes, new Uint8Array([1, 0xff])], 2).get(1)).toBeNull();
  });
});
