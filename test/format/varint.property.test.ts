// @module LEB128 varints: putVarint writes what VarintWriter writes, varintSize is the length of both, and VarintReader reads every value back (property).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { putVarint, VarintReader, VarintWriter, varintSize } from "../../src/format/varint.ts";

/** Values of every length from 1 to 8 bytes: small ones often, the 7-bit boundaries and 2^53 - 1 too. */
const anyValue = fc.oneof(
  fc.integer({ min: 0, max: 300 }),
  fc.integer({ min: 0, max: 52 }).map((bits) => 2 ** bits),
  fc.integer({ min: 1, max: 53 }).map((bits) => 2 ** bits - 1),
  fc.maxSafeNat(),
);

describe("varints", () => {
  it("varintSize is the length VarintWriter writes, and VarintReader reads the value back (property)", () => {
    fc.assert(
      fc.property(fc.array(anyValue, { maxLength: 50 }), (values) => {
        const writer = new VarintWriter();
        for (const value of values) {
          const before = writer.length;
          writer.put(value);
          expect(writer.length - before, `${value}`).toBe(varintSize(value));
        }
        const reader = new VarintReader(writer.slice(), "values");
        expect(values.map(() => reader.next())).toEqual(values);
        expect(reader.done).toBe(true);
      }),
    );
  });

  it("putVarint writes a value below 2^32 as VarintWriter does (property)", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: 0, max: 2 ** 32 - 1 }),
          fc.integer({ min: 0, max: 31 }).map((b) => 2 ** b),
        ),
        (value) => {
          const writer = new VarintWriter();
          writer.put(value);
          const out = new Uint8Array(8);
          const end = putVarint(out, 1, value);
          expect(end - 1).toBe(varintSize(value));
          expect(out.subarray(1, end)).toEqual(writer.slice());
        },
      ),
    );
  });

  it("sizes the boundaries of each length", () => {
    expect(
      [0, 127, 128, 16383, 16384, 2 ** 28 - 1, 2 ** 28, 2 ** 35 - 1, 2 ** 35, 2 ** 53 - 1].map(varintSize),
    ).toEqual([1, 1, 2, 2, 3, 4, 5, 5, 6, 8]);
  });
});
