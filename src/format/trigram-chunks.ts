// @module TrigramChunks: checksums of a trigram index in parts (CNAM … CPST), so its posting lists are read by range, not the whole section.
//
// TFUL is 41 MB at 1M objects, more than half the section budget, while a `contains` query reads a
// few of its lists. The section's TOC checksum covers it whole, so a part read alone needs checksums
// of its own: one for the head (block table, codes, counts, offsets: everything before the posting
// block) and one per 4 KiB chunk of the posting block, which is then paged like ROWP.
import { type Block, Blocks, encodeBlocks } from "./blocks.ts";
import { crc32 } from "./crc32.ts";
import { check } from "./errors.ts";
import { PageDirectory } from "./page-directory.ts";
import type { PagesBlock } from "./snapshot.ts";

/** Bytes of every chunk of the posting block but the last. */
export const TRIGRAM_CHUNK_BYTES = 4096;

/** The trigram index's block holding the posting lists; the three before it are its table. */
const POSTING_BLOCK = 3;

/**
 * Two blocks, from the trigram index's encoded blocks: u32 [head length, head CRC-32, posting
 * block length], then u32 CRC-32 of each chunk of the posting block.
 */
export function encodeTrigramChunks(trigramBlocks: readonly Block[]): Block[] {
  const body = encodeBlocks(trigramBlocks);
  const [start, length] = new Blocks(body, "trigram index", POSTING_BLOCK + 1).extent(POSTING_BLOCK);
  const crcs = new Uint32Array(Math.ceil(length / TRIGRAM_CHUNK_BYTES));
  for (let c = 0; c < crcs.length; c++)
    crcs[c] = crc32(
      body.subarray(start + c * TRIGRAM_CHUNK_BYTES, start + Math.min(length, (c + 1) * TRIGRAM_CHUNK_BYTES)),
    );
  return [Uint32Array.of(start, crc32(body.subarray(0, start)), length), crcs];
}

/**
 * At least the length of the head of a trigram index (what precedes its posting block) whose body is
 * `indexLength` bytes long and whose chunk directory's body `chunksLength` (both in the TOC), so the
 * head is read alongside its chunk directory rather than after it. The directory is a block table
 * of two blocks (24 bytes), the head's three numbers (padded to 16) and a checksum a chunk, padded to
 * 8 bytes: at least `(chunksLength − 44) / 4` chunks, every one but the last 4096 bytes long. The
 * bound exceeds the head by at most two chunks and the padding. A file laid out otherwise only makes
 * the bound too short, which the reader sees once the directory comes in.
 */
export function headLengthBound(indexLength: number, chunksLength: number): number {
  const fewestChunks = Math.floor((chunksLength - 44) / 4);
  return fewestChunks <= 1 ? indexLength : Math.max(0, indexLength - (fewestChunks - 1) * TRIGRAM_CHUNK_BYTES);
}

/** A chunk of a trigram index's posting block, as the section cache keeps it. */
export interface PostingChunk {
  bytes: Uint8Array;
  byteSize: number;
}

/** A trigram index's chunk directory: its posting block's chunks as pages, and the checksum of its head. */
export class TrigramChunks extends PageDirectory {
  /** Bytes of the section before its posting block: the block table and the trigram table. */
  readonly headLength: number;
  readonly postingLength: number;
  private readonly headCrc: number;

  constructor(blocks: Blocks, what: string) {
    const head = blocks.u32(0);
    check(head.length === 3, `${what}: its head holds ${head.length} numbers, expected 3`);
    const [headLength, headCrc, postingLength] = head;
    const crcs = blocks.u32(1);
    check(
      crcs.length === Math.ceil(postingLength / TRIGRAM_CHUNK_BYTES),
      `${what}: ${crcs.length} chunk checksums for ${postingLength} posting bytes`,
    );
    super(
      Uint32Array.from({ length: crcs.length + 1 }, (_, c) => Math.min(postingLength, c * TRIGRAM_CHUNK_BYTES)),
      crcs,
      what,
    );
    this.headLength = headLength;
    this.headCrc = headCrc;
    this.postingLength = postingLength;
  }

  /** Where the chunks lie in the trigram index's body: its posting block, after the head. */
  get chunksBlock(): PagesBlock {
    return { start: this.headLength, length: this.postingLength };
  }

  /** Chunk `c` from its stored bytes exactly, checked: a copy, so that a cached chunk does not hold the rest of a multi-chunk read. */
  decodePage(c: number, bytes: Uint8Array): PostingChunk {
    this.verify(c, bytes);
    return { bytes: bytes.slice(), byteSize: 64 + bytes.length };
  }

  /** Checks the head of the trigram index (its first `headLength` bytes) and views its blocks; the posting block must start where the head ends and be as long as the chunks say. */
  readHead(bytes: Uint8Array, tag: string): Blocks {
    check(
      bytes.length === this.headLength && crc32(bytes) === this.headCrc,
      `${tag}: its head does not match its chunk directory's checksum`,
    );
    const blocks = new Blocks(bytes, tag, POSTING_BLOCK + 1);
    const [start, length] = blocks.extent(POSTING_BLOCK);
    check(
      start === this.headLength && length === this.postingLength,
      `${tag}: its posting block [${start}, +${length}) is not where its chunk directory says`,
    );
    return blocks;
  }
}
