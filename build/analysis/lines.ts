// @module readLines: a file's lines, read in large chunks (faster than node:readline for GB-sized NDJSON).
import { open } from "node:fs/promises";

const CHUNK = 4 << 20;
// A byte order mark is kept by the decoder and dropped by `lineText`, at the start of every line alike.
const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });

/**
 * Calls `onLine(text, bytesReadSoFar)` for each line (`\r\n` and a missing final newline handled),
 * synchronously within each chunk; stops early when `onLine` returns false. A chunk's whole lines
 * are decoded a piece of some hundreds of KiB at a time (a decoder call per line cost more than the
 * lines' JSON parsing took).
 */
export async function readLines(
  path: string,
  onLine: (text: string, bytesRead: number) => boolean | undefined,
): Promise<void> {
  const file = await open(path, "r");
  try {
    // One buffer for the whole file, the part line left from the last chunk moved to its front: a
    // buffer a chunk was 750 MB of array buffers at 1M objects, and V8 answers each 64 MB of those
    // with a full collection of a heap growing to 650 MB.
    let buffer = new Uint8Array(2 * CHUNK);
    let carried = 0;
    let position = 0;
    for (;;) {
      if (buffer.length - carried < CHUNK) {
        const bigger = new Uint8Array(carried + 2 * CHUNK);
        bigger.set(buffer.subarray(0, carried));
        buffer = bigger;
      }
      const { bytesRead } = await file.read(buffer, carried, CHUNK, position);
      position += bytesRead;
      const filled = carried + bytesRead;
      if (bytesRead === 0) {
        if (filled > 0) {
          const text = decoder.decode(buffer.subarray(0, filled));
          onLine(lineText(text, 0, text.length), position);
        }
        return;
      }
      const lastNewline = buffer.lastIndexOf(10, filled - 1);
      // Whole lines only, a piece at a time: a newline byte never falls inside a UTF-8 sequence, so
      // none is cut.
      for (let from = 0; from <= lastNewline; ) {
        const to = pieceEnd(buffer, from, lastNewline + 1);
        const text = decoder.decode(buffer.subarray(from, to));
        for (let start = 0, nl = text.indexOf("\n"); nl >= 0; start = nl + 1, nl = text.indexOf("\n", start))
          if (onLine(lineText(text, start, nl), position) === false) return;
        from = to;
      }
      buffer.copyWithin(0, lastNewline + 1, filled);
      carried = filled - lastNewline - 1;
    }
  } finally {
    await file.close();
  }
}

/**
 * Bytes decoded into one string at most, lines allowed: Node makes a decoded string of more than
 * about a megabyte an external one, and V8 answers each 64 MB of those with a full collection.
 */
const PIECE = 512 << 10;

/** Where the piece of whole lines that starts at `from` ends: after the last newline within PIECE bytes, or after the first one past them (a longer line is one piece). `end` follows a newline. */
function pieceEnd(buffer: Uint8Array, from: number, end: number): number {
  if (end - from <= PIECE) return end;
  const last = buffer.lastIndexOf(10, from + PIECE - 1);
  return last >= from ? last + 1 : buffer.indexOf(10, from + PIECE) + 1;
}

/**
 * The line `text[start, end)` without a final `\r`, nor a leading byte order mark: decoding each line
 * on its own dropped one, so a line beginning with one reads the same as before.
 */
function lineText(text: string, start: number, end: number): string {
  if (end > start && text.charCodeAt(end - 1) === 13) end--;
  if (text.charCodeAt(start) === 0xfeff && start < end) start++;
  return text.slice(start, end);
}
