// @module Id pages (IDXP) checked as they are read: ids compared across the 2^32 boundary of their halves, and each id's distance from its page's first held exactly.
import { describe, expect, it } from "vitest";
import { Blocks, encodeBlocks } from "../../src/format/blocks.ts";
import { crc32 } from "../../src/format/crc32.ts";
import { CorruptSnapshotError } from "../../src/format/errors.ts";
import { encodeIdDirectory, IdDirectory, WholeIdPages } from "../../src/format/id-pages.ts";
import { NONE } from "../../src/format/model.ts";

/** One id page of `ids` (in the order given, ranks 0, 1, ..., no parents) and its directory. */
function onePage(ids: readonly bigint[]): { directory: IdDirectory; page: Uint8Array } {
  const k = ids.length;
  const page = new Uint8Array(16 * k);
  const view = new DataView(page.buffer);
  ids.forEach((id, i) => {
    view.setBigUint64(8 * i, id, true);
    view.setUint32(8 * k + 4 * i, i, true);
    view.setUint32(12 * k + 4 * i, NONE, true);
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
      for (const absent of [base - 1n, base + 4n, base + 0xffff_0001n, base + TWO_32])
        expect(whole.find(absent)).toBeNull();
    }
  });
});
