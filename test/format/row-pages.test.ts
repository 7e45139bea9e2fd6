// @module Row pages (ROWP, format 1.5): each row decoded alone equals what the encoder was given, a page whose offset table or row is damaged is refused, and an inflated page holds a buffer of its own.

import { inflateRawSync } from "node:zlib";
import { deflateSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import { Blocks } from "../../src/format/blocks.ts";
import { crc32 } from "../../src/format/crc32.ts";
import { decodeSnapshotModel } from "../../src/format/decode.ts";
import { CorruptSnapshotError } from "../../src/format/errors.ts";
import { deflatePage, inflated, inflateExactly } from "../../src/format/inflate.ts";
import { NONE, type ObjectRecord } from "../../src/format/model.ts";
import { encodeRowDirectory, encodeRowPages, RowDirectory, type RowPages } from "../../src/format/object-rows.ts";
import { memorySource, Snapshot } from "../../src/format/snapshot.ts";
import { VarintReader, VarintWriter } from "../../src/format/varint.ts";
import { expectedRow } from "../support/expected-row.ts";
import { generatedSnapshot } from "../support/generated-snapshot.ts";
import { blockBody } from "./snapshot-bytes.ts";

let objects: ObjectRecord[];

beforeAll(async () => {
  objects = (await decodeSnapshotModel(await Snapshot.open(memorySource(await generatedSnapshot(3000, 11))))).objects;
}, 120_000);

const directoryOf = (pages: RowPages, rows: number) =>
  new RowDirectory(new Blocks(blockBody(encodeRowDirectory(pages)), "ROWD"), rows);
const storedPage = (pages: RowPages, p: number) => pages.pages.subarray(pages.offsets[p], pages.offsets[p + 1]);

/**
 * `pages` cut to its page 0, whose body (the row lengths, the rows' bytes) is replaced by what
 * `forge` makes of it, then deflated and checksummed again.
 */
function forged(pages: RowPages, forge: (lengths: number[], rows: Uint8Array) => void): RowPages {
  const body = new Uint8Array(inflateRawSync(storedPage(pages, 0)));
  const reader = new VarintReader(body, "page 0");
  const lengths = Array.from({ length: pages.firstRanks[1] }, () => reader.next());
  const rows = body.slice(reader.at);
  forge(lengths, rows);
  const writer = new VarintWriter();
  for (const length of lengths) writer.put(length);
  const stored = deflateSync(new Uint8Array([...writer.slice(), ...rows]));
  return {
    pages: stored,
    firstRanks: pages.firstRanks.subarray(0, 1),
    offsets: Uint32Array.of(0, stored.length),
    crcs: Uint32Array.of(crc32(stored)),
    rawLengths: Uint32Array.of(writer.length + rows.length),
  };
}

describe("row pages", () => {
  it("give every row, decoded alone and in any order, exactly as the encoder was given it", () => {
    const pages = encodeRowPages(objects);
    const directory = directoryOf(pages, objects.length);
    expect(directory.pageCount).toBeGreaterThan(20);
    expect(objects.some((o) => o.parent !== NONE && o.annotations !== null)).toBe(true);
    for (let p = 0; p < directory.pageCount; p++) {
      // As the query engine reads it: the stored page checked, then inflated.
      const page = directory.page(p, directory.decodePage(p, storedPage(pages, p)));
      expect(page.count).toBe(directory.countOf(p));
      // Last row first: no row's decoding leans on its predecessors'.
      for (let rank = page.firstRank + page.count - 1; rank >= page.firstRank; rank--) {
        expect(directory.keptRow(rank)).toBeUndefined();
        expect(page.row(rank)).toEqual(expectedRow(objects[rank]));
        // Taken through the directory, the row is kept decoded: the same row again, no page needed.
        const row = directory.row(page, rank);
        expect(directory.keptRow(rank)).toBe(row);
      }
      expect(() => page.row(page.firstRank + page.count)).toThrow(CorruptSnapshotError);
    }
  });

  it("inflate into a buffer of their own, which a kept page may hold a view of: not a slice of Node's shared pool", () => {
    for (const length of [0, 100, 4_096, 20_000, 70_000]) {
      const raw = Uint8Array.from({ length }, (_, i) => (i * 7 + (i >> 5)) % 251);
      const out = inflateExactly(deflatePage(raw), length, "row page 0");
      expect(out.byteOffset).toBe(0);
      expect(out.buffer.byteLength).toBeLessThanOrEqual(length + 1);
      expect(out.every((byte, i) => byte === raw[i])).toBe(true);
    }
  });

  it("count each page inflated and its raw bytes, refused ones included", () => {
    const raw = Uint8Array.from({ length: 4_096 }, (_, i) => (i * 7 + (i >> 5)) % 251);
    const page = deflatePage(raw);
    const before = { ...inflated };
    inflateExactly(page, raw.length, "row page 0");
    inflateExactly(page, raw.length, "row page 0");
    expect(() => inflateExactly(page, raw.length - 1, "row page 0")).toThrow(CorruptSnapshotError);
    expect(inflated.pages - before.pages).toBe(3);
    expect(inflated.bytes - before.bytes).toBe(3 * raw.length - 1);
  });

  it("refuse a page with an empty row, or whose rows do not end where its body does", () => {
    const pages = encodeRowPages(objects);
    const count = pages.firstRanks[1];
    const empty = forged(pages, (lengths) => {
      lengths[0] += lengths[1];
      lengths[1] = 0;
    });
    expect(() => directoryOf(empty, count).inflatedPage(0, empty.pages)).toThrow(
      new CorruptSnapshotError("row page 0: row 1 is empty"),
    );
    const short = forged(pages, (lengths) => {
      lengths[count - 1]--;
    });
    expect(() => directoryOf(short, count).inflatedPage(0, short.pages)).toThrow(
      /^row page 0: its rows end at byte \d+, its body at \d+$/,
    );
    const damaged = storedPage(pages, 0).slice();
    damaged[damaged.length >> 1] ^= 0x10;
    expect(() => directoryOf(pages, objects.length).decodePage(0, damaged)).toThrow(
      new CorruptSnapshotError("row pages: page 0 checksum mismatch"),
    );
  });

  it("refuse a damaged row when it is read, while the page's other rows still answer", () => {
    const pages = encodeRowPages(objects);
    const count = pages.firstRanks[1];
    const broken = forged(pages, (lengths, rows) => {
      rows[lengths[0] + lengths[1]] = 0x7b; // row 2's "[" becomes "{"
    });
    const page = directoryOf(broken, count).inflatedPage(0, broken.pages);
    expect(() => page.row(2)).toThrow(new CorruptSnapshotError("row 2 is not UTF-8 JSON"));
    expect(page.row(1)).toEqual(expectedRow(objects[1]));
    expect(page.row(3)).toEqual(expectedRow(objects[3]));
  });
});
