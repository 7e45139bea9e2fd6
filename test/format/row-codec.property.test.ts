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

/**
 * The search RowEncoder makes, written plainly: every position of the dictionary and of the row so
 * far chained by the hash of its 4 bytes, each chain walked newest first for at most 64 positions
 * and 65,535 bytes back, bytes compared one by one, one lazy step. The snapshot's bytes (and so its
 * content address) are what this writes: the encoder may search faster, never differently.
 */
function referenceEncode(dictionary: Uint8Array, row: Uint8Array): Uint8Array {
  const window = new Uint8Array([...dictionary, ...row]);
  const end = window.length;
  const hashAt = (at: number) =>
    Math.imul(window[at] | (window[at + 1] << 8) | (window[at + 2] << 16) | (window[at + 3] << 24), 2654435761) >>> 16;
  const head = new Map<number, number>();
  const chain = new Int32Array(end);
  const insert = (at: number) => {
    const h = hashAt(at);
    chain[at] = head.get(h) ?? -1;
    head.set(h, at);
  };
  for (let at = 0; at + 4 <= dictionary.length; at++) insert(at);
  const longest = (at: number): [number, number] => {
    if (at + 4 > end) return [0, 0];
    let [best, distance] = [0, 0];
    let candidate = head.get(hashAt(at)) ?? -1;
    for (let tries = 0; candidate >= 0 && tries < 64 && at - candidate <= 0xffff; tries++) {
      let length = 0;
      while (at + length < end && window[candidate + length] === window[at + length]) length++;
      if (length > best) [best, distance] = [length, at - candidate];
      if (at + length === end || chain[candidate] === candidate) break;
      candidate = chain[candidate];
    }
    return best >= 4 ? [best, distance] : [0, 0];
  };
  const out: number[] = [];
  const count = (rest: number) => {
    for (; rest >= 255; rest -= 255) out.push(255);
    out.push(rest);
  };
  const sequence = (from: number, to: number, length: number, distance: number) => {
    const extra = length === 0 ? 0 : length - 4;
    out.push((Math.min(to - from, 15) << 4) | Math.min(extra, 15));
    if (to - from >= 15) count(to - from - 15);
    out.push(...window.subarray(from, to));
    if (length === 0) return;
    out.push(distance & 0xff, distance >>> 8);
    if (extra >= 15) count(extra - 15);
  };
  let [literals, at] = [dictionary.length, dictionary.length];
  while (at < end) {
    let [length, distance] = longest(at);
    if (length === 0) {
      if (at + 4 <= end) insert(at);
      at++;
      continue;
    }
    if (at + 4 <= end) insert(at);
    const [later, laterDistance] = longest(at + 1);
    if (later > length + 1) [at, length, distance] = [at + 1, later, laterDistance];
    sequence(literals, at, length, distance);
    for (let k = at; k < at + length; k++) if (k + 4 <= end) insert(k);
    at += length;
    literals = at;
  }
  if (literals < end) sequence(literals, end, 0, 0);
  return Uint8Array.from(out);
}

describe("RowEncoder against the plain search", () => {
  it("writes the bytes the plain search writes, rows after rows, dictionaries near and far", () => {
    // A dictionary of up to 64,512 bytes: rows past its first KiB reach beyond some of its positions.
    const filled = (seed: Uint8Array, length: number) =>
      Uint8Array.from(
        { length: Math.min(length, MAX_DICTIONARY_BYTES) },
        (_, i) => seed[i % seed.length] ^ (i % 7 === 0 ? i & 0xff : 0),
      );
    fc.assert(
      fc.property(
        fc.oneof(
          repetitive(MAX_DICTIONARY_BYTES),
          fc.constant(none),
          fc
            .tuple(repetitive(200), fc.integer({ min: 1, max: MAX_DICTIONARY_BYTES }))
            .map(([seed, n]) => filled(seed, n)),
        ),
        fc.array(repetitive(5000), { minLength: 1, maxLength: 4 }),
        (dictionary, rows) => {
          const encoder = new RowEncoder(dictionary);
          for (const row of rows) expect(encoder.encode(row)).toEqual(referenceEncode(dictionary, row));
        },
      ),
      { numRuns: 200 },
    );
  });

  /** Bytes without repeats worth matching: a linear congruential sequence's high bytes. */
  const noise = (length: number, seed: number) => {
    let x = seed;
    return Uint8Array.from({ length }, () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 24);
  };
  const joined = (...parts: Uint8Array[]) => new Uint8Array(parts.flatMap((part) => [...part]));

  it("tries 64 positions of a hash and no more", () => {
    // "abcdefgh", then "abcdZ" n times: the walk from the row's "abcd" meets the n copies first.
    const row = bytes("abcdefgh");
    for (const copies of [62, 63, 64]) {
      const dictionary = joined(bytes("abcdefgh"), bytes("abcdZ".repeat(copies)));
      const coded = new RowEncoder(dictionary).encode(row);
      expect(coded).toEqual(referenceEncode(dictionary, row));
      // Within 64 tries, the whole row is one match (3 bytes). Past them, "abcd" is found in a copy, and
      // the lazy step takes "bcdefgh" one byte later: "a" as a literal, then that match (4 bytes).
      expect(coded.length).toBe(copies < 64 ? 3 : 4);
    }
  });

  it("reaches no further than 65,535 bytes back, into the dictionary or the row", () => {
    const far = joined(bytes("QRSTUVWXYZ"), noise(MAX_DICTIONARY_BYTES - 10, 1));
    for (const gap of [1000, 1013, 1014, 1030, 3000]) {
      const row = joined(noise(gap, 2), bytes("QRSTUVWXYZ"));
      expect(new RowEncoder(far).encode(row)).toEqual(referenceEncode(far, row));
    }
    const long = joined(bytes("QRSTUVWXYZ"), noise(65_530, 3), bytes("QRSTUVWXYZ"), noise(10, 4), bytes("QRSTUVWXYZ"));
    expect(new RowEncoder(none).encode(long)).toEqual(referenceEncode(none, long));
  });
});

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
