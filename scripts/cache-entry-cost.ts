// @module `node --expose-gc scripts/cache-entry-cost.ts`: what a page kept in the section cache really costs an isolate, heap and array buffers, against what the cache counts for it (ENTRY_BYTES).
//
//   node --expose-gc scripts/cache-entry-cost.ts [--entries 20000] [--page-bytes 1000]
//
// Stored row pages (each its own buffer, as a read of one page gives it) are put into a SectionCache
// with room for all of them, through its public get. Heap used and array buffers are read after full
// collections before and after: their growth per entry, against the size the cache counts per entry.
import { parseArgs } from "node:util";
import { RowPage } from "../src/format/object-rows.ts";
import { ENTRY_BYTES, SectionCache } from "../src/format/section-cache.ts";

const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) throw new Error("run with node --expose-gc");

const { values } = parseArgs({
  options: { entries: { type: "string", default: "20000" }, "page-bytes": { type: "string", default: "1000" } },
});
const entries = Number(values.entries);
const pageBytes = Number(values["page-bytes"]);
if (!(Number.isInteger(entries) && entries > 0 && Number.isInteger(pageBytes) && pageBytes > 0))
  throw new Error("--entries and --page-bytes are positive integers");

/** Heap used and array buffers after collections enough to settle. */
function settled(): { heap: number; buffers: number } {
  for (let i = 0; i < 4; i++) collect!();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return { heap: heapUsed, buffers: arrayBuffers };
}

const cache = new SectionCache(Number.MAX_SAFE_INTEGER);
// A content address as the worker keys snapshots by.
const snapshotKey = "ce67328dd384cbd6f88e35ce91de3c689f39dd524ee0eb54c114df209f3fc284";
/** What the pages share: their directory's dictionary. */
const dictionary = new Uint8Array(63 * 1024);
/** Rows a page of rows holds at 1M objects, about. */
const ROWS = 18;
const before = settled();
for (let p = 0; p < entries; p++) {
  // A page of its own, as RowDirectory.decodePage keeps one cut out of a run, with its rows' ends.
  const stored = new Uint8Array(pageBytes);
  const ends = Uint32Array.from({ length: ROWS }, (_, i) => Math.ceil(((i + 1) * pageBytes) / ROWS));
  await cache.get(
    snapshotKey,
    `ROWP#${p}`,
    async () => new RowPage(p * ROWS, stored, 0, ends, dictionary, ROWS),
    0,
    true,
  );
}
const after = settled();
const counted = cache.stats().bytes / entries;
const heap = (after.heap - before.heap) / entries;
const buffers = (after.buffers - before.buffers) / entries;
console.log(`${entries} stored row pages of ${pageBytes} bytes, per entry:`);
console.log(
  `  heap ${heap.toFixed(0)} B, array buffers ${buffers.toFixed(0)} B: ${(heap + buffers).toFixed(0)} B in all`,
);
console.log(`  counted ${counted.toFixed(0)} B (the page's byteSize and ENTRY_BYTES, ${ENTRY_BYTES})`);
console.log(`  uncounted ${(heap + buffers - counted).toFixed(0)} B`);
