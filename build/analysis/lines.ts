// @module readLines: a file's lines, read in large chunks (faster than node:readline for GB-sized NDJSON), each offered as bytes before it is decoded.
import { open } from "node:fs/promises";

const CHUNK = 4 << 20;
// A byte order mark is kept by the decoder and dropped by `lineText`, at the start of every line alike.
const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });

const NEWLINE = 10;
const CARRIAGE_RETURN = 13;

/** What a reader of lines may do besides taking their text. */
export interface LineHooks {
  /**
   * Offered each line's UTF-8 bytes, `bytes[start, end)` without its newline nor a final `\r`, with
   * its number (from 1): how many lines it takes from this one on, which are then neither offered,
   * nor decoded, nor handed to `onLine` (0: none; more than one when it knows them already, as the
   * link thread does). The bytes are only valid during the call. It is called before the lines
   * before it have all been handed to `onLine` (lines not taken are decoded together): it must not
   * depend on them, nor they on it; what does goes in `onTaken`.
   */
  take?(bytes: Uint8Array, start: number, end: number, lineNumber: number): number;
  /**
   * Called with the lines `take` took, once every line before them has been handed to `onLine`:
   * false gives the first of them back (what the lines before it held says it is not to be taken),
   * to be decoded and handed to `onLine` as any other; the others are offered again.
   */
  onTaken?(lineNumber: number, count: number): boolean | undefined;
  /** Awaited before the lines that end at or before byte `end` of the file are offered: what `take` needs of them may be on its way. */
  beforeLines?(end: number): Promise<void> | undefined;
  /** Called once every line that ends at or before byte `end` of the file has been offered. */
  afterLines?(end: number): void;
}

/**
 * Calls `onLine(text, lineNumber, bytesRead)` for each line not taken (`\r\n` and a missing final
 * newline handled), synchronously within each chunk; stops early when `onLine` returns false.
 * Lines not taken are decoded in runs of some hundreds of KiB at a time (a decoder call per line
 * cost more than the lines' JSON parsing took).
 */
export async function readLines(
  path: string,
  onLine: (text: string, lineNumber: number, bytesRead: number) => boolean | undefined,
  hooks: LineHooks = {},
): Promise<void> {
  const { take, onTaken, beforeLines, afterLines } = hooks;
  const file = await open(path, "r");
  try {
    // One buffer for the whole file, the part line left from the last chunk moved to its front: a
    // buffer a chunk would be 750 MB of array buffers at 1M objects, and V8 answers each 64 MB of
    // those with a full collection of a heap growing to 650 MB.
    let buffer = new Uint8Array(2 * CHUNK);
    let carried = 0;
    let position = 0;
    let lineNumber = 0;
    // Lines taken that are still to be passed over: a run taken may go on into the next chunk.
    let skipping = 0;
    /** Decodes the lines of `buffer[from, to)` (`to` just after a newline, or the file's end) and hands them to onLine, numbered from `first`. */
    const emit = (from: number, to: number, first: number): boolean => {
      const text = decoder.decode(buffer.subarray(from, to));
      let number = first;
      let start = 0;
      for (let nl = text.indexOf("\n"); nl >= 0; start = nl + 1, nl = text.indexOf("\n", start))
        if (onLine(lineText(text, start, nl), number++, position) === false) return false;
      if (start < text.length) return onLine(lineText(text, start, text.length), number, position) !== false;
      return true;
    };
    for (;;) {
      if (buffer.length - carried < CHUNK) {
        const bigger = new Uint8Array(carried + 2 * CHUNK);
        bigger.set(buffer.subarray(0, carried));
        buffer = bigger;
      }
      const { bytesRead } = await file.read(buffer, carried, CHUNK, position);
      position += bytesRead;
      const filled = carried + bytesRead;
      // The file's end: the part line left, if any, is the last line.
      const last = bytesRead === 0 ? filled - 1 : buffer.lastIndexOf(NEWLINE, filled - 1);
      const linesEnd = position - (filled - last - 1);
      await beforeLines?.(linesEnd);
      // Runs of lines not taken, decoded together: a newline byte never falls inside a UTF-8
      // sequence, so none is cut.
      let run = -1;
      let runLine = 0;
      for (let at = 0; at <= last; ) {
        let newline = bytesRead === 0 ? filled : buffer.indexOf(NEWLINE, at);
        if (newline < 0 || newline > last) newline = last + 1;
        lineNumber++;
        if (skipping > 0) {
          skipping--;
          at = newline + 1;
          continue;
        }
        const end = newline > at && buffer[newline - 1] === CARRIAGE_RETURN ? newline - 1 : newline;
        const taken = take?.(buffer, at, end, lineNumber) ?? 0;
        if (taken > 0) {
          if (run >= 0 && !emit(run, at, runLine)) return;
          run = -1;
          if (onTaken?.(lineNumber, taken) === false) {
            run = at;
            runLine = lineNumber;
          } else skipping = taken - 1;
        } else if (run < 0) {
          run = at;
          runLine = lineNumber;
        } else if (newline + 1 - run > PIECE) {
          // Node makes a decoded string of more than about a megabyte an external one, and V8
          // answers each 64 MB of those with a full collection: a run is cut before it grows so.
          if (!emit(run, at, runLine)) return;
          run = at;
          runLine = lineNumber;
        }
        at = newline + 1;
      }
      if (run >= 0 && !emit(run, Math.min(last + 1, filled), runLine)) return;
      afterLines?.(linesEnd);
      if (bytesRead === 0) return;
      buffer.copyWithin(0, last + 1, filled);
      carried = filled - last - 1;
    }
  } finally {
    await file.close();
  }
}

/** Bytes of lines decoded into one string at most, but for a longer line alone. */
const PIECE = 512 << 10;

/**
 * The line `text[start, end)` without a final `\r`, nor a leading byte order mark, which a decoder
 * drops at the start of its input: every line reads alike, whether it starts a chunk or not.
 */
function lineText(text: string, start: number, end: number): string {
  if (end > start && text.charCodeAt(end - 1) === 13) end--;
  if (text.charCodeAt(start) === 0xfeff && start < end) start++;
  return text.slice(start, end);
}
