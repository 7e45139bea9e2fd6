// @module inflateExactly: a raw-deflated page to exactly the length its directory states, in bounded memory on Node and in workerd.
import { inflateRawSync } from "node:zlib";
import { CorruptSnapshotError } from "./errors.ts";

/** zlib's default output chunk, the first buffer an inflater grows. */
const INFLATE_CHUNK = 16 * 1024;

/**
 * Inflates `bytes`, which must expand to exactly `rawLength` bytes, else CorruptSnapshotError naming
 * `what`. The output is bounded so a damaged or hostile stream throws instead of allocating more. The
 * bound leaves twice the length and a chunk because workerd bounds the buffer it grows by doubling,
 * not the bytes written: with one byte of room, pages of some lengths (48 KiB among them) failed
 * there with "Memory limit exceeded" although their stream was right.
 */
export function inflateExactly(bytes: Uint8Array, rawLength: number, what: string): Uint8Array {
  let raw: Uint8Array;
  try {
    raw = inflateRawSync(bytes, { maxOutputLength: 2 * rawLength + INFLATE_CHUNK });
  } catch {
    throw new CorruptSnapshotError(`${what} is not a raw deflate stream of ${rawLength} bytes`);
  }
  if (raw.length !== rawLength)
    throw new CorruptSnapshotError(`${what} inflates to ${raw.length} bytes, not ${rawLength}`);
  return raw;
}
