// @module readLines: a file's lines, read in large chunks (faster than node:readline for GB-sized NDJSON).
import { open } from "node:fs/promises";

const CHUNK = 4 << 20;
// A byte order mark is kept by the decoder and dropped by `lineText`, at the start of every line alike.
const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });

/**
 * Calls `onLine(text, bytesReadSoFar)` for each line (`\r\n` and a missing final newline handled),
 * synchronously within each chunk; stops early when `onLine` returns false. Each chunk's whole lines
 * are decoded at once (a decoder call per line cost more than the lines' JSON parsing took).
 */
export async function readLines(
  path: string,
  onLine: (text: string, bytesRead: number) => boolean | undefined,
): Promise<void> {
  const file = await open(path, "r");
  try {
    let carry = new Uint8Array(0);
    let position = 0;
    for (;;) {
      const chunk = new Uint8Array(carry.length + CHUNK);
      chunk.set(carry);
      const { bytesRead } = await file.read(chunk, carry.length, CHUNK, position);
      position += bytesRead;
      const filled = carry.length + bytesRead;
      if (bytesRead === 0) {
        if (filled > 0) {
          const text = decoder.decode(chunk.subarray(0, filled));
          onLine(lineText(text, 0, text.length), position);
        }
        return;
      }
      const lastNewline = chunk.lastIndexOf(10, filled - 1);
      if (lastNewline >= 0) {
        // Whole lines only: a newline byte never falls inside a UTF-8 sequence, so none is cut.
        const text = decoder.decode(chunk.subarray(0, lastNewline + 1));
        for (let start = 0, nl = text.indexOf("\n"); nl >= 0; start = nl + 1, nl = text.indexOf("\n", start))
          if (onLine(lineText(text, start, nl), position) === false) return;
      }
      carry = chunk.slice(lastNewline + 1, filled);
    }
  } finally {
    await file.close();
  }
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
