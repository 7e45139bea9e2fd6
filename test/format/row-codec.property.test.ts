// @module The row codec: bytes worked out by hand, every row given back exactly whatever its bytes and dictionary, hostile bytes refused in bounded work, and a dictionary that is built alike every time and holds what rows share.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CorruptSnapshotError } from "../../src/format/errors.ts";
import {
  buildRowDictionary,
  decodeRow,
  MAX_DICTIONARY_BYTES,
  MAX_ROW_BYTES,
  RowEncoder,
} from "../../src/format/row-codec.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (row: Uint8Array) => new TextDecoder().decode(row);
const none = new Uint8Array(0);

describe("RowEncoder", () => {
  it("writes literals then a match reaching back into the row, overlapping what it writes", () => {
    // "abc", then 9 bytes from 3 back: token 3 literals | 9 − 4, the literals, distance 3 (u16 LE).
    const coded = new RowEncoder(none).encode(bytes("abcabcabcabc"));
    expect([...coded]).toEqual([0x35, 0x61, 0x62, 0x63, 0x03, 0x00]);
    expect(text(decodeRow(coded, none, "row"))).toBe("abcabcabcabc");
  });

  it("writes a match into the dictionary, whose last byte is just before the row's first", () => {
    // "zabc" is 4 bytes back from the row's start ("xy|zabc|"), then "q" as the last literals.
    const dictionary = bytes("xyzabc");
    const coded = new RowEncoder(dictionary).encode(bytes("zabcq"));
    expect([...coded]).toEqual([0x00, 0x04, 0x00, 0x10, 0x71]);
    expect(text(decodeRow(coded, dictionary, "row"))).toBe("zabcq");
    // The same row against no dictionary is its bytes as literals.
    expect([...new RowEncoder(none).encode(bytes("zabcq"))]).toEqual([0x50, ...bytes("zabcq")]);
  });

  it("counts literals and match lengths past 15 in bytes of 255 and a rest", () => {
    // 300 distinct-ish literals (no 4-byte repeat), then a 600-byte run of one byte.
    const literals = Uint8Array.from({ length: 300 }, (_, i) => [i & 0xff, i >> 8, 7][i % 3] ^ (i * 37));
    const row = new Uint8Array([...literals, ...new Uint8Array(600).fill(0x2a)]);
    const coded = new RowEncoder(none).encode(row);
    expect(decodeRow(coded, none, "row")).toEqual(row);
    expect(coded.length).toBeLessThan(row.length / 1.5);
  });

  it("refuses an empty row and one past MAX_ROW_BYTES", () => {
    const encoder = new RowEncoder(none);
    expect(() => encoder.encode(none)).toThrow(`a row takes 1 to ${MAX_ROW_BYTES} bytes, not 0`);
    expect(() => encoder.encode(new Uint8Array(MAX_ROW_BYTES + 1))).toThrow(/not 1048577$/);
    expect(() => new RowEncoder(new Uint8Array(MAX_DICTIONARY_BYTES + 1))).toThrow(/at most 64512 bytes/);
  });
});

/** Rows that repeat themselves and a dictionary: short alphabets, runs, copies of earlier parts. */
const repetitive = (maxLength: number) =>
  fc
    .array(
      fc.oneof(
        fc.uint8Array({ minLength: 1, maxLength: 40 }),
        fc.string({ unit: fc.constantFrom(...'abc"[],:.'), minLength: 1, maxLength: 80 }).map(bytes),
        fc
          .record({ byte: fc.integer({ min: 0, max: 255 }), length: fc.integer({ min: 1, max: 700 }) })
          .map(({ byte, length }) => new Uint8Array(length).fill(byte)),
      ),
      { minLength: 1, maxLength: 12 },
    )
    .map((parts) => {
      const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
      let at = 0;
      for (const part of parts) {
        joined.set(part, at);
        at += part.length;
      }
      return joined.subarray(0, maxLength);
    })
    .filter((row) => row.length > 0);

describe("decodeRow", () => {
  it("gives back every row exactly, against any dictionary, rows encoded one after another by one encoder", () => {
    fc.assert(
      fc.property(
        fc.oneof(repetitive(MAX_DICTIONARY_BYTES), fc.constant(none)),
        fc.array(repetitive(5000), { minLength: 1, maxLength: 6 }),
        (dictionary, rows) => {
          const encoder = new RowEncoder(dictionary);
          const coded = rows.map((row) => encoder.encode(row));
          // Decoded in reverse: no row's decoding leans on the one before.
          for (let i = rows.length - 1; i >= 0; i--) expect(decodeRow(coded[i], dictionary, "row")).toEqual(rows[i]);
          // An encoder fresh for each row writes the same bytes: a row's coding depends on it and the dictionary alone.
          rows.forEach((row, i) => expect(new RowEncoder(dictionary).encode(row)).toEqual(coded[i]));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("gives back rows whose matches reach across the dictionary's end into the row", () => {
    const dictionary = bytes("ppppqqqqrrrr");
    const row = bytes("rrrrrrrrrrrrrrrrss");
    const coded = new RowEncoder(dictionary).encode(row);
    expect(coded.length).toBeLessThan(8);
    expect(decodeRow(coded, dictionary, "row")).toEqual(row);
  });

  it("refuses bytes no encoder writes, with CorruptSnapshotError, and never decodes past MAX_ROW_BYTES", () => {
    const dictionary = bytes("some dictionary bytes");
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 64 }), (hostile) => {
        try {
          const row = decodeRow(hostile, dictionary, "row 9");
          expect(row.length).toBeGreaterThan(0);
          expect(row.length).toBeLessThanOrEqual(MAX_ROW_BYTES);
        } catch (error) {
          expect(error).toBeInstanceOf(CorruptSnapshotError);
          expect((error as Error).message).toMatch(/^row 9 /);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("names what is wrong", () => {
    const dictionary = bytes("0123456789");
    const refusal = (coded: number[]) => () => decodeRow(Uint8Array.from(coded), dictionary, "row 4");
    expect(refusal([])).toThrow(new CorruptSnapshotError("row 4 is empty"));
    expect(refusal([0x30, 0x61])).toThrow(new CorruptSnapshotError("row 4 has literals past its end"));
    expect(refusal([0xf0])).toThrow(new CorruptSnapshotError("row 4 ends inside a count of literals"));
    expect(refusal([0x10, 0x61, 0x05])).toThrow(new CorruptSnapshotError("row 4 ends inside a match"));
    expect(refusal([0x1f, 0x61, 0x01, 0x00])).toThrow(new CorruptSnapshotError("row 4 ends inside a match"));
    // One byte written and ten of dictionary: 12 back reaches before it; 0 is no distance.
    expect(refusal([0x10, 0x61, 0x0c, 0x00])).toThrow(
      new CorruptSnapshotError("row 4 has a match reaching 12 bytes back, before its dictionary"),
    );
    expect(refusal([0x10, 0x61, 0x00, 0x00])).toThrow(/reaching 0 bytes back/);
    expect(text(decodeRow(Uint8Array.from([0x10, 0x61, 0x0b, 0x00]), dictionary, "row 4"))).toBe("a0123");
    // A match run long past MAX_ROW_BYTES: some 4,200 bytes of input asking for over 1 MiB.
    const long = [0x1f, 0x61, 0x01, 0x00, ...new Array(4200).fill(255), 0];
    expect(refusal(long)).toThrow(new CorruptSnapshotError(`row 4 decodes to more than ${MAX_ROW_BYTES} bytes`));
  });
});

describe("buildRowDictionary", () => {
  const rows = Array.from({ length: 400 }, (_, i) =>
    bytes(
      JSON.stringify([
        `${1000 + i}`,
        `method${i}`,
        `com.example.shop.service.OrderService.method${i}`,
        "Java Method",
        "JV_METHOD",
        "src/main/java/com/example/shop/service/OrderService.java",
      ]),
    ),
  );

  it("builds the same bytes from the same sample, within its size, holding what the rows share", () => {
    const dictionary = buildRowDictionary(rows, 2048);
    expect(buildRowDictionary(rows, 2048)).toEqual(dictionary);
    expect(dictionary.length).toBeGreaterThan(0);
    expect(dictionary.length).toBeLessThanOrEqual(2048);
    expect(text(dictionary)).toContain("OrderService");
    // Coded against it, rows take well under half their bytes; alone, far more.
    const sized = (d: Uint8Array) => {
      const encoder = new RowEncoder(d);
      return rows.reduce((sum, row) => sum + encoder.encode(row).length, 0);
    };
    const raw = rows.reduce((sum, row) => sum + row.length, 0);
    expect(sized(dictionary)).toBeLessThan(raw / 3);
    expect(sized(none)).toBeGreaterThan(raw * 0.7);
  });

  it("builds nothing from nothing, and at most the bytes it was given", () => {
    expect(buildRowDictionary([], 4096).length).toBe(0);
    const one = buildRowDictionary([bytes("just one short row")], 4096);
    expect(one.length).toBeLessThanOrEqual(18);
  });
});
