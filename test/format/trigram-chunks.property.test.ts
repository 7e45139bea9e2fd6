// @module headLengthBound: for trigram indexes of any size, the bound a reader takes from the TOC's two lengths covers the index's head and overshoots it by at most two chunks.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Blocks, encodeBlocks } from "../../src/format/blocks.ts";
import {
  encodeTrigramChunks,
  headLengthBound,
  TRIGRAM_CHUNK_BYTES,
  TrigramChunks,
} from "../../src/format/trigram-chunks.ts";
import { encodeTrigramIndex } from "../../src/format/trigram-index.ts";

/** Keys with many distinct trigrams, so that the posting block spans from none to many chunks. */
const keysArbitrary = fc
  .uniqueArray(fc.stringMatching(/^[a-z0-9.]{0,24}$/), { maxLength: 1500 })
  .map((keys) => [...keys].sort());

describe("headLengthBound", () => {
  it("is at least the head length and at most two chunks and the padding more, from the sections' lengths alone", () => {
    fc.assert(
      fc.property(keysArbitrary, (keys) => {
        const index = encodeTrigramIndex(keys);
        const indexLength = encodeBlocks(index).length;
        const chunkBody = encodeBlocks(encodeTrigramChunks(index));
        const { headLength, postingLength } = new TrigramChunks(new Blocks(chunkBody, "CTST", 2), "CTST");
        const bound = headLengthBound(indexLength, chunkBody.length);
        expect(bound).toBeGreaterThanOrEqual(headLength);
        expect(bound).toBeLessThanOrEqual(indexLength);
        expect(bound - headLength).toBeLessThanOrEqual(2 * TRIGRAM_CHUNK_BYTES + 8);
        return postingLength >= 0;
      }),
      { numRuns: 60 },
    );
  });

  it("is the whole index when its chunk directory lists at most one chunk", () => {
    expect(headLengthBound(1000, 40)).toBe(1000);
    expect(headLengthBound(1000, 48)).toBe(1000);
    // Three chunks at least (56 = 24 + 16 + 3·4 + 4 of padding): all but the last two chunks are posting bytes.
    expect(headLengthBound(100_000, 56)).toBe(100_000 - 2 * TRIGRAM_CHUNK_BYTES);
  });
});
