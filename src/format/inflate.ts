// @module Deflated pages (level-5 members, points, source text): deflatePage writes one, inflateExactly reads it back to exactly the length its directory states, in bounded memory on Node and in workerd.
//
// Pages are deflated by fflate (pure JS: the same bytes on every machine, as content addressing
// needs; native zlib's output may vary with the CPU) and inflated natively (any correct inflater
// gives the same bytes, and node:zlib, in Node and in workerd, is about three times faster).
import { inflateRawSync } from "node:zlib";
import { deflateSync } from "fflate";
import { CorruptSnapshotError } from "./errors.ts";

/**
 * How many times its stored bytes a page's raw bytes may be (JSON deflates about 4 to 6 times): a
 * reader then inflates no more than this for each byte it reads, however its directory is forged.
 */
export const MAX_INFLATION = 16;

/** `raw` raw-deflated; raw bytes repetitive enough to deflate past MAX_INFLATION are stored uncompressed (DEFLATE's stored blocks). */
export function deflatePage(raw: Uint8Array): Uint8Array {
  const deflated = deflateSync(raw, { level: 6 });
  return raw.length <= MAX_INFLATION * deflated.length ? deflated : deflateSync(raw, { level: 0 });
}

/**
 * Pages this isolate has inflated so far (inflateExactly), and their raw bytes: a page's first touch
 * costs its inflating (some 20 µs for 4 KiB of JSON), which no storage meter shows. Scripts read it
 * before and after an answer (scripts/cache-trace.ts).
 */
export const inflated = { pages: 0, bytes: 0 };

/** zlib's default output chunk, the first buffer an inflater grows. */
const INFLATE_CHUNK = 16 * 1024;

/** The smallest output chunk zlib takes (zlib.constants.Z_MIN_CHUNK). */
const MIN_CHUNK = 64;

/**
 * Inflates `bytes`, which must expand to exactly `rawLength` bytes, else CorruptSnapshotError naming
 * `what`; they come in a buffer of their own (at most a byte longer), which a page may keep views of. The output is bounded so a damaged or hostile stream throws instead of allocating more. The
 * bound leaves twice the length and a chunk because workerd bounds the buffer it grows by doubling,
 * not the bytes written: with one byte of room, pages of some lengths (48 KiB among them) failed
 * there with "Memory limit exceeded" although their stream was right.
 *
 * The inflater writes into one buffer of the stated length and a byte (room to see the stream end
 * in the same pass), not zlib's default 16 KiB: a 4 KiB row page then costs one allocation its
 * size, and inflating the row pages of a 3-hop walk's points took a sixth less CPU.
 */
export function inflateExactly(bytes: Uint8Array, rawLength: number, what: string): Uint8Array {
  inflated.pages++;
  inflated.bytes += rawLength;
  let raw: Uint8Array;
  try {
    raw = inflateRawSync(bytes, {
      maxOutputLength: 2 * rawLength + INFLATE_CHUNK,
      chunkSize: Math.max(MIN_CHUNK, rawLength + 1),
    });
  } catch {
    throw new CorruptSnapshotError(`${what} is not a raw deflate stream of ${rawLength} bytes`);
  }
  if (raw.length !== rawLength)
    throw new CorruptSnapshotError(`${what} inflates to ${raw.length} bytes, not ${rawLength}`);
  // Node hands out outputs under its pool size as slices of a slab other buffers share, which a
  // page kept in a cache would pin: only those are copied (into a Uint8Array: a Buffer's slice is a
  // view). workerd's output, and Node's larger ones, are a buffer of their own (of the length and
  // the byte of room asked for), kept as it is.
  return raw.buffer.byteLength <= rawLength + 1 ? raw : new Uint8Array(raw);
}
