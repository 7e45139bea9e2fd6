// @module Row pages (ROWP): each row decoded alone equals what the encoder was given, a page whose row lengths or row is damaged is refused, and a kept page holds a buffer of its own.
import { beforeAll, describe, expect, it } from "vitest";
import { Blocks } from "../../src/format/blocks.ts";
import { crc32 } from "../../src/format/crc32.ts";
import { decodeSnapshotModel } from "../../src/format/decode.ts";
import { CorruptSnapshotError } from "../../src/format/errors.ts";
import { NONE, type ObjectRecord } from "../../src/format/model.ts";
import {
  encodeRowDirectory,
  encodeRowPages,
  RowDirectory,
  type RowPages,
  rowJson,
} from "../../src/format/object-rows.ts";
import { MAX_DICTIONARY_BYTES, MAX_ROW_BYTES, RowEncoder } from "../../src/format/row-codec.ts";
import { memorySource, Snapshot } from "../../src/format/snapshot.ts";
import { VarintWriter } from "../../src/format/varint.ts";
import { expectedRow } from "../support/expected-row.ts";
import { generatedSnapshot } from "../support/generated-snapshot.ts";
import { blockBody, codedRows } from "./snapshot-bytes.ts";

let objects: ObjectRecord[];

beforeAll(async () => {
  objects = (await decodeSnapshotModel(await Snapshot.open(memorySource(await generatedSnapshot(3000, 11))))).objects;
}, 120_000);

const directoryOf = (pages: RowPages, rows: number) =>
  new RowDirectory(new Blocks(blockBody(encodeRowDirectory(pages)), "ROWD"), rows);
const storedPage = (pages: RowPages, p: number) => pages.pages.subarray(pages.offsets[p], pages.offsets[p + 1]);

/**
 * `pages` cut to its page 0, whose coded rows (and their lengths) are replaced by what `forge`
 * makes of them, then checksummed again.
 */
function forged(pages: RowPages, forge: (lengths: number[], rows: Uint8Array[]) => void): RowPages {
  const rows = codedRows(storedPage(pages, 0), pages.firstRanks[1]);
  const lengths = rows.map((row) => row.length);
  forge(lengths, rows);
  // The lengths written as forged, whatever the rows are.
  const writer = new VarintWriter();
  for (const length of lengths) writer.put(length);
  for (const row of rows) writer.putBytes(row);
  const page = writer.slice();
  return {
    pages: page,
    firstRanks: pages.firstRanks.subarray(0, 1),
    offsets: Uint32Array.of(0, page.length),
    crcs: Uint32Array.of(crc32(page)),
    dictionary: pages.dictionary,
  };
}

describe("row pages", () => {
  it("give every row, decoded alone and in any order, exactly as the encoder was given it", () => {
    const pages = encodeRowPages(objects);
    const directory = directoryOf(pages, objects.length);
    expect(directory.pageCount).toBeGreaterThan(20);
    expect(directory.dictionary.length).toBeGreaterThan(1000);
    expect(objects.some((o) => o.parent !== NONE && o.annotations !== null)).toBe(true);
    for (let p = 0; p < directory.pageCount; p++) {
      // As the query engine reads it: the stored page checked, its row lengths read.
      const page = directory.decodePage(p, storedPage(pages, p));
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

  it("keep a buffer of their own when read in a run of pages, which the cache would otherwise pin whole", () => {
    const pages = encodeRowPages(objects);
    const directory = directoryOf(pages, objects.length);
    const run = pages.pages.slice(0, pages.offsets[3]);
    const page = directory.decodePage(1, run.subarray(pages.offsets[1], pages.offsets[2]));
    expect(page.byteSize).toBeLessThan(run.length);
    run.fill(0);
    expect(page.row(page.firstRank)).toEqual(expectedRow(objects[page.firstRank]));
  });

  it("refuse a page with an empty row, or whose rows do not end where the page does, however their lengths add up", () => {
    const pages = encodeRowPages(objects);
    const count = pages.firstRanks[1];
    const empty = forged(pages, (lengths, rows) => {
      lengths[1] = 0;
      rows[1] = new Uint8Array(0);
    });
    expect(() => directoryOf(empty, count).decodePage(0, empty.pages)).toThrow(
      new CorruptSnapshotError("row page 0: row 1 is empty"),
    );
    const short = forged(pages, (lengths) => {
      lengths[count - 1]--;
    });
    expect(() => directoryOf(short, count).decodePage(0, short.pages)).toThrow(
      /^row page 0: its rows end at byte \d+, the page at \d+$/,
    );
    const long = forged(pages, (lengths) => {
      lengths[count - 1]++;
    });
    expect(() => directoryOf(long, count).decodePage(0, long.pages)).toThrow(
      new RegExp(`^row page 0: row ${count - 1} ends at byte \\d+, past the page's \\d+$`),
    );
    // Lengths whose sum wraps a u32 to the page's own: row 1 stated 2^32 bytes longer than it is.
    const wrapping = forged(pages, (lengths) => {
      lengths[1] += 2 ** 32;
    });
    expect(() => directoryOf(wrapping, count).decodePage(0, wrapping.pages)).toThrow(
      /^row page 0: row 1 ends at byte \d+, past the page's \d+$/,
    );
    const damaged = storedPage(pages, 0).slice();
    damaged[damaged.length >> 1] ^= 0x10;
    expect(() => directoryOf(pages, objects.length).decodePage(0, damaged)).toThrow(
      new CorruptSnapshotError("row pages: page 0 checksum mismatch"),
    );
  });

  it("take a row of up to 1 MiB of JSON whatever rows come before it: it starts a page of its own, read back as written", () => {
    const small = objects.slice(0, 60).map((o) => ({ ...o, parent: NONE }));
    const json = (o: ObjectRecord) => new TextEncoder().encode(rowJson(o)).length;
    // Exactly 1 MiB of JSON, after rows that do not fill a page: their page plus it would pass 1 MiB.
    const big = { ...small[40], name: "" };
    big.name = "y".repeat(MAX_ROW_BYTES - json(big));
    expect(json(big)).toBe(MAX_ROW_BYTES);
    const list = [...small.slice(0, 5), big, ...small.slice(41)];
    const pages = encodeRowPages(list);
    const directory = directoryOf(pages, list.length);
    expect(directory.pageOf(4)).toBe(0);
    expect(directory.pageOf(5)).toBe(1);
    expect(directory.countOf(1)).toBe(1);
    for (let p = 0; p < directory.pageCount; p++) {
      const page = directory.decodePage(p, storedPage(pages, p));
      for (let rank = page.firstRank; rank < page.firstRank + page.count; rank++)
        expect(page.row(rank)).toEqual(expectedRow(list[rank]));
    }
  });

  it("refuse a damaged row when it is read, while the page's other rows still answer", () => {
    const pages = encodeRowPages(objects);
    const count = pages.firstRanks[1];
    const encoder = new RowEncoder(pages.dictionary);
    const broken = forged(pages, (lengths, rows) => {
      // Row 2 coded again from its JSON with "[" made "{": a faulty writer's row, its checksum right.
      rows[2] = encoder.encode(new TextEncoder().encode(`{${rowJson(objects[2]).slice(1)}`));
      lengths[2] = rows[2].length;
      // Row 3's last byte dropped: a match or literals cut short.
      rows[3] = rows[3].subarray(0, rows[3].length - 1);
      lengths[3] = rows[3].length;
    });
    const page = directoryOf(broken, count).decodePage(0, broken.pages);
    expect(() => page.row(2)).toThrow(new CorruptSnapshotError("row 2 is not UTF-8 JSON"));
    expect(() => page.row(3)).toThrow(CorruptSnapshotError);
    expect(page.row(1)).toEqual(expectedRow(objects[1]));
    expect(page.row(4)).toEqual(expectedRow(objects[4]));
  });

  it("are refused by a directory whose dictionary is longer than a match reaches", () => {
    const pages = encodeRowPages(objects);
    const tooLong = { ...pages, dictionary: new Uint8Array(MAX_DICTIONARY_BYTES + 1) };
    expect(() => directoryOf(tooLong, objects.length)).toThrow(
      new CorruptSnapshotError(
        `row directory: a dictionary of ${MAX_DICTIONARY_BYTES + 1} bytes, more than ${MAX_DICTIONARY_BYTES}`,
      ),
    );
  });
});
