// @module streamedStrings: some strings of a text column (NAME, FULL, MANG) read by streaming the section once, its checksum verified at the end, without loading or caching it.
//
// An answer about a sixth of a million objects (a level-5 node's 121k members) needs a string of
// most of them. Loading FULL (56 MB at 1M objects) into the cache beside the other columns took the
// process past 400 MB for one answer, where a Worker isolate has 128 MB. Streamed in 1 MiB reads, a
// column costs its offsets (4 bytes an object) and the strings of the window at hand. Its CRC,
// computed along, is compared with the TOC's when the stream ends: streamedStrings hands out no
// string before that; streamedStringBatches hands them out window by window (an answer written as
// it is read) and throws after the last batch on a mismatch, so such an answer is cut short.
import { checkOffsets } from "../format/blocks.ts";
import { crc32 } from "../format/crc32.ts";
import { check } from "../format/errors.ts";
import type { Snapshot } from "../format/snapshot.ts";
import { decodeUtf8 } from "../format/string-list.ts";

/** Bytes read at once. */
const CHUNK_BYTES = 1 << 20;

export type TextColumnTag = "NAME" | "FULL" | "MANG";

/** The strings at `ranks` (ascending, distinct) of text column `tag`, in that order, once the whole column is verified; `chunkBytes` read at once. */
export async function streamedStrings(
  snapshot: Snapshot,
  tag: TextColumnTag,
  ranks: readonly number[],
  chunkBytes = CHUNK_BYTES,
): Promise<string[]> {
  const out: string[] = [];
  for await (const batch of streamedStringBatches(snapshot, tag, ranks, chunkBytes)) for (const s of batch) out.push(s);
  return out;
}

/**
 * The strings at `ranks` (ascending, distinct) of text column `tag`, in that order, in batches:
 * those each read of `chunkBytes` completes (none empty). The column's checksum is compared after
 * the last batch: a mismatch throws then.
 */
export async function* streamedStringBatches(
  snapshot: Snapshot,
  tag: TextColumnTag,
  ranks: readonly number[],
  chunkBytes = CHUNK_BYTES,
): AsyncGenerator<string[]> {
  const entry = snapshot.toc.get(tag);
  check(entry, `snapshot has no ${tag} section`);
  const rows = snapshot.meta.counts.objects;
  let crc = 0;
  let at = 0;
  const read = async (length: number) => {
    check(at + length <= entry.length, `section ${tag}: its blocks run past its ${entry.length} bytes`);
    const bytes = await snapshot.readPart(tag, at, length);
    crc = crc32(bytes, crc);
    at += length;
    return bytes;
  };
  // The block table (SNAPSHOT-FORMAT.md §6): two blocks, the offsets (rows + 1 u32) then the bytes.
  const head = await read(24);
  const table = new DataView(head.buffer, head.byteOffset, 24);
  const [count, offsetsAt, offsetsLength, bytesAt, bytesLength] = [0, 8, 12, 16, 20].map((o) =>
    table.getUint32(o, true),
  );
  check(
    count === 2 &&
      offsetsAt === 24 &&
      offsetsLength === (rows + 1) * 4 &&
      bytesAt === ((offsetsAt + offsetsLength + 7) & ~7) &&
      bytesAt + bytesLength <= entry.length,
    `section ${tag} has a malformed block table`,
  );
  const offsetBytes = await read(offsetsLength);
  const offsets = new Uint32Array(offsetBytes.buffer, offsetBytes.byteOffset, rows + 1);
  // As StringList checks them: a string's bytes never lie behind the one before, so none is behind the window.
  checkOffsets(offsets, rows, bytesLength, `section ${tag} offsets`);
  await read(bytesAt - at);

  let next = 0;
  // The bytes block, chunk by chunk; a string across two chunks is cut from both.
  let carry = new Uint8Array(0);
  let carryFrom = 0;
  for (let from = 0; from < bytesLength; from += chunkBytes) {
    const chunk = await read(Math.min(chunkBytes, bytesLength - from));
    const window = carry.length ? concat(carry, chunk) : chunk;
    const windowFrom = carry.length ? carryFrom : from;
    const windowTo = from + chunk.length;
    const strings: string[] = [];
    for (; next < ranks.length; next++) {
      const r = ranks[next];
      check(r >= 0 && r < rows && (next === 0 || ranks[next - 1] < r), `rank ${r} is not an object`);
      const [start, end] = [offsets[r], offsets[r + 1]];
      if (end > windowTo) break;
      strings.push(decodeUtf8(window.subarray(start - windowFrom, end - windowFrom)));
    }
    // Keep what the next wanted string needs of this window.
    const keepFrom = next < ranks.length ? Math.max(windowFrom, Math.min(offsets[ranks[next]], windowTo)) : windowTo;
    carry = window.slice(keepFrom - windowFrom);
    carryFrom = keepFrom;
    if (strings.length) yield strings;
  }
  check(next === ranks.length, `section ${tag}: strings past its bytes`);
  await read(entry.length - at);
  check(crc === entry.crc, `section ${tag} checksum mismatch`);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/**
 * The strings at `ranks` (ascending, distinct) of several text columns, streamed side by side: each
 * batch holds the same number of strings of every column (batch[k] is column tags[k]'s). A column
 * runs ahead of the others by one read at most; reads of columns that ran dry go out together.
 */
export async function* streamedColumns(
  snapshot: Snapshot,
  tags: readonly TextColumnTag[],
  ranks: readonly number[],
  chunkBytes = CHUNK_BYTES,
): AsyncGenerator<string[][]> {
  const streams = tags.map((tag) => streamedStringBatches(snapshot, tag, ranks, chunkBytes));
  let pending: string[][] = tags.map(() => []);
  try {
    for (;;) {
      const dry = pending.flatMap((strings, k) => (strings.length === 0 ? [k] : []));
      const reads = await Promise.all(dry.map((k) => streams[k].next()));
      // Every column yields one string per rank: one ends exactly when all do, each checksum checked.
      if (reads.some((r) => r.done)) return;
      reads.forEach((r, i) => {
        pending[dry[i]] = r.value as string[];
      });
      const n = Math.min(...pending.map((strings) => strings.length));
      yield pending.map((strings) => strings.slice(0, n));
      pending = pending.map((strings) => strings.slice(n));
    }
  } finally {
    await Promise.all(streams.map((s) => s.return(undefined)));
  }
}
