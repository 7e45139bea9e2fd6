// @module rangedTrigramIndex: a trigram index too large to read whole (TFUL, 41 MB at 1M objects) read as its table, and its posting lists by range, in the 4 KiB chunks its chunk directory checks.
import { loadPages } from "./page-loads.ts";
import { CHUNKS_OF, type SearchIndexTag, type TrigramTag } from "./sections.ts";
import type { Snapshot } from "./snapshot.ts";
import { headLengthBound, TRIGRAM_CHUNK_BYTES } from "./trigram-chunks.ts";
import { type PostingSpans, TrigramIndex } from "./trigram-index.ts";

/** Trigram index `tag` (of search index `of`) as its table, kept; its lists are read as they are asked for. The file must have its chunk directory. */
export function rangedTrigramIndex(snapshot: Snapshot, tag: TrigramTag, of: SearchIndexTag): Promise<TrigramIndex> {
  const chunksTag = CHUNKS_OF[tag];
  return snapshot.remember(
    `${tag}#table`,
    async () => {
      // The head is read with the chunk directory, not after it (a cold filter would wait a round
      // for it): as many bytes as it may take, cut to its length once the directory gives it, so
      // that the table pins no more.
      const bound = headLengthBound(snapshot.toc.get(tag)!.length, snapshot.toc.get(chunksTag)!.length);
      const [chunks, keyCount, first] = await Promise.all([
        snapshot.section(chunksTag),
        snapshot.keyCount(of),
        snapshot.readPart(tag, 0, bound),
      ]);
      const { headLength } = chunks;
      const headBytes =
        first.length === headLength
          ? first
          : first.length > headLength
            ? first.slice(0, headLength)
            : await snapshot.readPart(tag, 0, headLength);
      const head = chunks.readHead(headBytes, tag);
      const table = { codes: head.u32(0), counts: head.u32(1), offsets: head.u32(2) };
      return TrigramIndex.ranged(
        table,
        chunks.postingLength,
        postingSpans(snapshot, tag),
        keyCount,
        `${tag} trigram index`,
        snapshot.connections,
      );
    },
    // It keeps the lists it decodes: measured again like a section.
    false,
  );
}

/** Spans of a trigram index's posting block, read as the 4 KiB chunks covering them, each checked against the chunk directory. */
function postingSpans(snapshot: Snapshot, tag: TrigramTag): PostingSpans {
  return async (spans) => {
    const chunks = await snapshot.section(CHUNKS_OF[tag]);
    const wanted = new Set<number>();
    for (const [from, to] of spans)
      for (let c = Math.floor(from / TRIGRAM_CHUNK_BYTES); c * TRIGRAM_CHUNK_BYTES < to; c++) wanted.add(c);
    const loaded = await loadPages(
      snapshot,
      tag,
      chunks,
      [...wanted].sort((a, b) => a - b),
      () => chunks.chunksBlock,
    );
    return spans.map(([from, to]) => {
      const first = Math.floor(from / TRIGRAM_CHUNK_BYTES);
      const last = Math.floor((to - 1) / TRIGRAM_CHUNK_BYTES);
      const base = first * TRIGRAM_CHUNK_BYTES;
      if (first === last) return loaded.get(first)!.bytes.subarray(from - base, to - base);
      const out = new Uint8Array(to - from);
      for (let c = first; c <= last; c++) {
        const chunk = loaded.get(c)!.bytes;
        const start = c * TRIGRAM_CHUNK_BYTES;
        out.set(
          chunk.subarray(Math.max(0, from - start), Math.min(chunk.length, to - start)),
          Math.max(0, start - from),
        );
      }
      return out;
    });
  };
}
