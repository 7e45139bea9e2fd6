// @module DecodedRows: rows listed by several requests outlast a scan of rows listed once, ghosts come back protected, the protected part hands its oldest back, and the budget holds.
import { describe, expect, it } from "vitest";
import { DecodedRows } from "../../src/format/decoded-rows.ts";
import type { ObjectRow } from "../../src/format/object-rows.ts";
import { StorageMeter } from "../../src/format/storage-meter.ts";

/** A row standing for rank `rank`: the cache keeps it as given. */
const rowOf = (rank: number) => ({ id: String(rank) }) as ObjectRow;

/** Every row weighs this much here: a budget of 4,096 bytes holds 40 of them, and 8 ghosts. */
const ROW = 100;
const BUDGET = 4096;

/** Runs `steps` as one request of its own. */
const request = (steps: () => void) => new StorageMeter().measure(async () => steps());

/** What a request asking for `rank` does: the kept row, else the row decoded and kept. */
function list(rows: DecodedRows, rank: number): ObjectRow {
  const kept = rows.get(rank);
  if (kept) return kept;
  const row = rowOf(rank);
  rows.add(rank, row, ROW);
  return row;
}

/** A request listing each rank of [from, to) once. */
const scan = (rows: DecodedRows, from: number, to: number) =>
  request(() => {
    for (let r = from; r < to; r++) list(rows, r);
  });

describe("DecodedRows", () => {
  it("keeps a row two requests listed through a scan of rows listed once, which a row listed once does not outlast", async () => {
    const rows = new DecodedRows(BUDGET);
    await request(() => list(rows, 1));
    await request(() => list(rows, 1));
    await request(() => list(rows, 2));
    await scan(rows, 100, 200);
    expect(rows.has(1)).toBe(true);
    expect(rows.has(2)).toBe(false);
    expect(rows.get(1)).toEqual(rowOf(1));
    expect(rows.bytes).toBeLessThanOrEqual(BUDGET);
  });

  it("counts a second listing by the same request as no use", async () => {
    const rows = new DecodedRows(BUDGET);
    await request(() => {
      list(rows, 1);
      list(rows, 1);
    });
    await scan(rows, 100, 141);
    expect(rows.has(1)).toBe(false);
  });

  it("keeps protected a row decoded again while its rank is a ghost", async () => {
    const rows = new DecodedRows(BUDGET);
    await request(() => list(rows, 1));
    // 41 rows of 100 bytes pass the budget: the oldest leave, rank 1 first, until rows and ghosts
    // (24 bytes each) are within 3,584 bytes: seven leave.
    await scan(rows, 100, 140);
    expect(rows.has(1)).toBe(false);
    expect(rows.size).toBe(34);
    expect(rows.bytes).toBe(34 * ROW + 7 * 24);
    await request(() => list(rows, 1));
    await scan(rows, 200, 300);
    expect(rows.has(1)).toBe(true);
  });

  it("hands the least recently used protected rows back to probation past three quarters of the budget", async () => {
    const rows = new DecodedRows(BUDGET);
    // Ranks 0–29 protected (3,000 bytes, within 3,072), rank 0 then listed again: the most recent.
    await scan(rows, 0, 30);
    await scan(rows, 0, 30);
    await request(() => list(rows, 0));
    // The first of five more protected passes 3,072: the oldest go back until 2,688 is left, ranks
    // 1–5; the other four fit. A scan then pushes the ranks handed back out, not the protected ones.
    await scan(rows, 30, 35);
    await scan(rows, 30, 35);
    await scan(rows, 100, 200);
    for (const rank of [1, 2, 3, 4, 5]) expect(rows.has(rank)).toBe(false);
    for (const rank of [0, 6, 29, 30, 34]) expect(rows.has(rank)).toBe(true);
    expect(rows.bytes).toBeLessThanOrEqual(BUDGET);
  });

  it("bounds its ghosts by the budget", async () => {
    const rows = new DecodedRows(BUDGET);
    await scan(rows, 0, 1000);
    expect(rows.bytes).toBeLessThanOrEqual(BUDGET);
    // At most one ghost for each 512 bytes of the budget: 8. Rank 0 left long ago and was forgotten.
    await request(() => list(rows, 0));
    await scan(rows, 2000, 2100);
    expect(rows.has(0)).toBe(false);
  });
});
