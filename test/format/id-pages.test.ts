// @module Id pages (IDXP) checked as they are read: ids compared across the 2^32 boundary of their halves, and each id's distance from its page's first held exactly.
import { describe, expect, it } from "vitest";
import { Blocks, encodeBlocks } from "../../src/format/blocks.ts";
import { crc32 } from "../../src/format/crc32.ts";
import { CorruptSnapshotError } from "../../src/format/errors.ts";
import { encodeIdDirectory, IDS_PER_PAGE, IdDirectory, WholeIdPages } from "../../src/format/id-pages.ts";
import { NONE } from "../../src/format/model.ts";

/** One id page of `ids` (in the order given; ranks 0, 1, ... and no parents unless given) and its directory. */
function onePage(
  ids: readonly bigint[],
  ranks: readonly number[] = ids.map((_, i) => i),
  parents: readonly number[] = ids.map(() => NONE),
): { directory: IdDirectory; page: Uint8Array } {
  const k = ids.length;
  const page = new Uint8Array(16 * k);
  const view = new DataView(page.buffer);
  ids.forEach((id, i) => {
    view.setBigUint64(8 * i, id, true);
    view.setUint32(8 * k + 4 * i, ranks[i], true);
    view.setUint32(12 * k + 4 * i, parents[i], true);
  });
  const blocks = encodeIdDirectory({
    firstIds: BigUint64Array.of(ids[0]),
    pages: page,
    offsets: Uint32Array.of(0, page.length),
    crcs: Uint32Array.of(crc32(page)),
  });
  return { directory: new IdDirectory(new Blocks(encodeBlocks(blocks), "IDXD", 3), k), page };
}

const TWO_32 = 2n ** 32n;

describe("id pages", () => {
  it("accept ids ascending across a change of their high half, and find each", () => {
    const ids = [5n, TWO_32 - 1n, TWO_32 + 1n, 3n * TWO_32 + 2n];
    const { directory, page } = onePage(ids);
    const decoded = directory.decodePage(0, page);
    ids.forEach((id, i) => expect(decoded.find(id)).toEqual({ rank: i, parent: NONE }));
    expect(decoded.find(TWO_32)).toBeNull();
  });

  it("refuse ids out of order, whether their high or their low halves tell it", () => {
    for (const ids of [
      [TWO_32 + 1n, TWO_32 + 7n, 8n], // high halves descend, the low ones ascend
      [TWO_32 + 1n, TWO_32 + 9n, TWO_32 + 9n], // a repeat
      [2n, TWO_32 + 9n, TWO_32 + 8n], // the same high half, the low one descends
    ])
      expect(() => onePage(ids).directory.decodePage(0, onePage(ids).page)).toThrow(
        new CorruptSnapshotError("id page 0: ids do not ascend at 2"),
      );
  });

  it("held whole, give each id its rank from its distance to the page's first, borrowed across the halves", () => {
    // The first id's low half above the others': each distance borrows from the high half.
    // Spans of 3 (2 bits a distance) and of nearly 2^32 (32 bits).
    const base = 7n * TWO_32 + 0xffff_fffen;
    for (const ids of [
      [base, base + 1n, base + 2n, base + 3n],
      [base, base + 0x10n, base + 0x11n, base + 0xffff_0000n],
    ]) {
      const { directory, page } = onePage(ids);
      const whole = new WholeIdPages(directory, page);
      ids.forEach((id, i) => expect(whole.find(id)).toEqual({ rank: i, parent: NONE }));
      // And back from each distance, carried into the high half: the ids in order.
      ids.forEach((id, i) => expect(whole.id(i)).toBe(String(id)));
      expect(ids.map((_, i) => (i === 0 ? 0 : whole.compareIds(i - 1, whole, i)))).toEqual([0, -1, -1, -1]);
      for (const absent of [base - 1n, base + 4n, base + 0xffff_0001n, base + TWO_32])
        expect(whole.find(absent)).toBeNull();
    }
  });

  it("refuse a rank or a parent beyond the objects, and keep an object its own parent", () => {
    const ids = [3n, 5n, 8n];
    const refused = (ranks: number[], parents: number[], message: string) => {
      const { directory, page } = onePage(ids, ranks, parents);
      expect(() => directory.decodePage(0, page)).toThrow(new CorruptSnapshotError(message));
    };
    refused([0, 3, 1], [NONE, NONE, NONE], "id page 0: rank 3 of 3 objects");
    refused([0, 1, 2], [NONE, 3, NONE], "id page 0: object 1 has parent 3 of 3 objects");
    const own = onePage(ids, [0, 1, 2], [NONE, NONE, 2]);
    expect(own.directory.decodePage(0, own.page).find(8n)).toEqual({ rank: 2, parent: 2 });
  });

  it("held whole, give each entry its id, rank and parent in id order, and name every object once", () => {
    const ids = [3n, 5n, 8n, 7n * TWO_32 + 1n];
    const { directory, page } = onePage(ids, [2, 0, 3, 1], [NONE, 2, 0, NONE]);
    const order = new WholeIdPages(directory, page);
    const each = <T>(f: (i: number) => T) => Array.from({ length: order.count }, (_, i) => f(i));
    expect(each((i) => order.id(i))).toEqual(ids.map(String));
    expect(each((i) => BigInt(order.idHigh(i)) * TWO_32 + BigInt(order.idLow(i)))).toEqual(ids);
    expect(each((i) => order.rank(i))).toEqual([2, 0, 3, 1]);
    expect(each((i) => order.parent(i))).toEqual([NONE, 2, 0, NONE]);
    const twice = onePage(ids, [2, 0, 2, 1]);
    expect(() => new WholeIdPages(twice.directory, twice.page)).toThrow(
      new CorruptSnapshotError("id pages: rank 2 has two ids"),
    );
    expect(() => new WholeIdPages(directory, page.subarray(0, 48))).toThrow(
      new CorruptSnapshotError("id pages: 48 bytes read for pages of 64 bytes"),
    );
  });

  it("held whole, give ids past 2^53 exactly, and entries of a last page shorter than the others", () => {
    // Two pages: 512 entries, then 3; the last ids need more than a double's 53 bits.
    const count = IDS_PER_PAGE + 3;
    const ids = Array.from({ length: count }, (_, i) => (i < IDS_PER_PAGE ? BigInt(10 + i) : 2n ** 63n + BigInt(i)));
    const ranks = Array.from({ length: count }, (_, i) => count - 1 - i);
    const pages = [0, IDS_PER_PAGE].map((from) => {
      const part = ids.slice(from, from + IDS_PER_PAGE);
      return onePage(part, ranks.slice(from, from + IDS_PER_PAGE)).page;
    });
    const bytes = new Uint8Array(pages[0].length + pages[1].length);
    bytes.set(pages[0]);
    bytes.set(pages[1], pages[0].length);
    const blocks = encodeIdDirectory({
      firstIds: BigUint64Array.of(ids[0], ids[IDS_PER_PAGE]),
      pages: bytes,
      offsets: Uint32Array.of(0, pages[0].length, bytes.length),
      crcs: Uint32Array.of(crc32(pages[0]), crc32(pages[1])),
    });
    const order = new WholeIdPages(new IdDirectory(new Blocks(encodeBlocks(blocks), "IDXD", 3), count), bytes);
    for (const i of [0, 511, 512, 514]) {
      expect(order.id(i)).toBe(String(ids[i]));
      expect(order.rank(i)).toBe(ranks[i]);
      expect(order.parent(i)).toBe(NONE);
    }
  });
});
