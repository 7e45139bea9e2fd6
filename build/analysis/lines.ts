// @module readLines: a file's lines, read in large chunks (faster than node:readline for GB-sized NDJSON).
import { open } from "node:fs/promises";

const CHUNK = 4 << 20;
const decoder = new TextDecoder("utf-8");

/**
 * Calls `onLine(text, bytesReadSoFar)` for each line (`\r\n` and a missing final newline handled),
 * synchronously within each chunk; stops early when `onLine` returns false.
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
      let start = 0;
      for (let nl = chunk.indexOf(10); nl >= 0 && nl < filled; nl = chunk.indexOf(10, start)) {
        const end = nl > start && chunk[nl - 1] === 13 ? nl - 1 : nl;
        if (onLine(decoder.decode(chunk.subarray(start, end)), position - (filled - nl - 1)) === false) return;
        start = nl + 1;
      }
      carry = chunk.slice(start, filled);
      if (bytesRead === 0) {
        if (carry.length > 0)
          onLine(decoder.decode(carry[carry.length - 1] === 13 ? carry.subarray(0, -1) : carry), position);
        return;
      }
    }
  } finally {
    await file.close();
  }
}
