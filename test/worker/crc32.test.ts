// @module The CRC-32 of every checksum gives the published check values inside workerd too, whole and continued.
import { describe, expect, it } from "vitest";
import { crc32 } from "../../src/format/crc32.ts";

const ascii = (s: string) => new TextEncoder().encode(s);

describe("crc32 in workerd", () => {
  it("matches the published check values, of a subarray view's bytes only", () => {
    expect(crc32(ascii("123456789"))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
    expect(crc32(ascii("The quick brown fox jumps over the lazy dog"))).toBe(0x414fa339);
    expect(crc32(ascii("xx123456789yy").subarray(2, 11))).toBe(0xcbf43926);
  });

  it("continues from a previous CRC as one pass over the concatenation", () => {
    const bytes = ascii("123456789");
    for (let split = 0; split <= bytes.length; split++)
      expect(crc32(bytes.subarray(split), crc32(bytes.subarray(0, split)))).toBe(0xcbf43926);
  });
});
