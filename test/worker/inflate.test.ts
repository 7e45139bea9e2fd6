// @module Pages inflate to their stated length inside workerd at every size a page may have, into a buffer of their own, and a stream longer or shorter than stated is refused.
import { deflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { CorruptSnapshotError } from "../../src/format/errors.ts";
import { inflateExactly } from "../../src/format/inflate.ts";

/** Row-like JSON of exactly `length` bytes: compressible, as pages are. */
function pageOf(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  const text = new TextEncoder().encode('["1042","getOwnerById","org.clinic.OwnerService.getOwnerById",12],');
  for (let i = 0; i < length; i++) bytes[i] = text[(i * 7 + (i >> 9)) % text.length];
  return bytes;
}

describe("inflateExactly in workerd", () => {
  // Lengths around each doubling of the output buffer, where one byte of room too few would show (workerd bounds the buffer, not the bytes).
  for (const length of [0, 1000, 16_384, 16_900, 32_769, 48_571, 65_537, 100_000, 145_821, 262_145, 1_048_576]) {
    it(`a page of ${length} bytes`, () => {
      const page = pageOf(length);
      const raw = inflateExactly(deflateRawSync(page), length, "page 0");
      expect(raw.length).toBe(length);
      expect(raw.every((byte, i) => byte === page[i])).toBe(true);
      // A buffer of its own (a row page keeps a view of it): no larger buffer behind it.
      expect(raw.byteOffset).toBe(0);
      expect(raw.buffer.byteLength).toBeLessThanOrEqual(length + 1);
    });
  }

  it("refuses a stream longer than stated, and one shorter", () => {
    const page = deflateRawSync(pageOf(50_000));
    expect(() => inflateExactly(page, 49_999, "page 3")).toThrow(CorruptSnapshotError);
    expect(() => inflateExactly(page, 20_000, "page 3")).toThrow(/page 3/);
    expect(() => inflateExactly(page, 50_001, "page 3")).toThrow("page 3 inflates to 50000 bytes, not 50001");
  });

  it("refuses bytes that are not a deflate stream", () => {
    expect(() => inflateExactly(new Uint8Array([0xff, 0xff, 0xff, 0xff]), 10, "row page 7")).toThrow(
      "row page 7 is not a raw deflate stream of 10 bytes",
    );
  });
});
