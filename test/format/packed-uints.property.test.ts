// @module PackedUints: any values of any width from 1 to 32 bits read back as they were set, beside their neighbours (property), and a width outside that is refused.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bitsFor, PackedUints } from "../../src/format/packed-uints.ts";

describe("PackedUints", () => {
  it("reads back every value set, whatever the width (property)", () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 32 })
          .chain((width) =>
            fc.tuple(fc.constant(width), fc.array(fc.integer({ min: 0, max: 2 ** width - 1 }), { maxLength: 300 })),
          ),
        ([width, values]) => {
          const packed = new PackedUints(values.length, width);
          values.forEach((value, i) => packed.set(i, value));
          expect(Array.from({ length: values.length }, (_, i) => packed.get(i))).toEqual(values);
          expect(packed.byteLength).toBeLessThanOrEqual(4 * (Math.ceil((values.length * width) / 32) + 1));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("takes the bits a largest value needs", () => {
    expect([0, 1, 2, 3, 4, 999_999, 1_000_000, 2 ** 31, 2 ** 32 - 1].map(bitsFor)).toEqual([
      1, 1, 2, 2, 3, 20, 20, 32, 32,
    ]);
  });

  it("refuses a width outside 1 to 32 bits", () => {
    expect(() => new PackedUints(4, 0)).toThrow(RangeError);
    expect(() => new PackedUints(4, 33)).toThrow(RangeError);
  });
});
