// @module Tests of the CRC-32 used for section, table-of-contents and page checksums: known vectors, continuation, a bitwise reference as oracle.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { crc32 } from "../../src/format/crc32.ts";

const ascii = (s: string) => new TextEncoder().encode(s);

/** Bit-by-bit CRC-32 (reflected polynomial 0xEDB88320), written from the definition, no tables. */
function referenceCrc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

describe("crc32", () => {
  it("matches the published check values", () => {
    expect(crc32(ascii("123456789"))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
    expect(crc32(ascii("a"))).toBe(0xe8b7be43);
    expect(crc32(ascii("abc"))).toBe(0x352441c2);
    expect(crc32(ascii("The quick brown fox jumps over the lazy dog"))).toBe(0x414fa339);
    // 32 zero bytes and 32 0xFF bytes (iSCSI/RFC 3720 style test patterns, here with the IEEE polynomial).
    expect(crc32(new Uint8Array(32))).toBe(0x190a55ad);
    expect(crc32(new Uint8Array(32).fill(0xff))).toBe(0xff6cab0b);
  });

  it("returns an unsigned 32-bit integer", () => {
    const value = crc32(ascii("123456789"));
    expect(value).toBeGreaterThan(0x7fffffff);
    expect(Number.isInteger(value)).toBe(true);
  });

  it("continues from a previous CRC exactly as one pass over the concatenation, at every split point", () => {
    const bytes = ascii("123456789 and a few more bytes to cross several 4-byte steps");
    const whole = crc32(bytes);
    for (let split = 0; split <= bytes.length; split++)
      expect(crc32(bytes.subarray(split), crc32(bytes.subarray(0, split))), `split at ${split}`).toBe(whole);
    // Continuing with nothing leaves the CRC unchanged.
    expect(crc32(new Uint8Array(0), whole)).toBe(whole);
  });

  it("reads only the bytes of a subarray view, not its whole buffer", () => {
    const buffer = ascii("xx123456789yy");
    expect(crc32(buffer.subarray(2, 11))).toBe(0xcbf43926);
  });

  it("agrees with a bitwise reference on random bytes of every length, whole and continued", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.nat(), (bytes, at) => {
        const expected = referenceCrc32(bytes);
        expect(crc32(bytes)).toBe(expected);
        const split = bytes.length === 0 ? 0 : at % (bytes.length + 1);
        expect(crc32(bytes.subarray(split), crc32(bytes.subarray(0, split)))).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });
});
