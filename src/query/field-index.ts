// @module fieldIndex: what a text filter reads for one field — its search index, its keys (in memory or paged) and its trigram index (whole or by range).
import { check } from "../format/errors.ts";
import { NONE } from "../format/model.ts";
import type { SearchIndex } from "../format/search-index.ts";
import { CHUNKS_OF, KEY_PAGES_OF, type SearchIndexTag, TRIGRAMS_OF, type TrigramTag } from "../format/sections.ts";
import type { Snapshot } from "../format/snapshot.ts";
import { TRIGRAM_CHUNK_BYTES } from "../format/trigram-chunks.ts";
import { type PostingSpans, TrigramIndex } from "../format/trigram-index.ts";
import { loadPages } from "./pages.ts";
import { memoryKeys, PagedKeys, type SearchKeys } from "./search-keys.ts";

/** A search index with its keys and its trigram index (null in files of format 1.0, which then scan keys for `contains`). */
export interface FieldIndex {
  index: SearchIndex;
  keys: SearchKeys;
  trigrams: TrigramIndex | null;
  /**
   * The key of each rank (NONE where the object has no value), for an index whose keys are in pages
   * (fullName, mangling: one value an object); built once and kept like a section. Null for others.
   */
  keyOfRank: (() => Promise<Uint32Array>) | null;
}

/** The search index `tag` with its keys, and its trigram index when `withTrigrams` and the file has one. */
export async function fieldIndex(snapshot: Snapshot, tag: SearchIndexTag, withTrigrams: boolean): Promise<FieldIndex> {
  const trigramTag = TRIGRAMS_OF[tag];
  const [index, trigrams] = await Promise.all([
    snapshot.section(tag),
    withTrigrams && snapshot.has(trigramTag) ? trigramIndex(snapshot, trigramTag, tag) : null,
  ]);
  const keyOfRank =
    index.keys === null
      ? async () =>
          (
            await snapshot.remember(`${tag}#key-of-rank`, async () =>
              rankKeys(index, snapshot.meta.counts.objects, tag),
            )
          ).keys
      : null;
  return { index, keys: await searchKeys(snapshot, tag, index), trigrams, keyOfRank };
}

/**
 * The inverse of a single-valued index's postings: which key each rank has. Beside another filter,
 * the keys of its few hundred candidates are then read off at once, where finding them took a pass
 * over every posting (a million at 1M objects) per query.
 */
function rankKeys(index: SearchIndex, universe: number, tag: SearchIndexTag): { keys: Uint32Array; byteSize: number } {
  const keys = new Uint32Array(universe).fill(NONE);
  const { offsets, postings } = index;
  for (let k = 0; k < index.keyCount; k++)
    for (let p = offsets[k]; p < offsets[k + 1]; p++) {
      if (keys[postings[p]] !== NONE) check(false, `${tag}: object ${postings[p]} has two keys in a one-value index`);
      keys[postings[p]] = k;
    }
  return { keys, byteSize: keys.byteLength };
}

async function searchKeys(snapshot: Snapshot, tag: SearchIndexTag, index: SearchIndex): Promise<SearchKeys> {
  if (index.keys) return memoryKeys(index.keys);
  const paged = KEY_PAGES_OF[tag as keyof typeof KEY_PAGES_OF];
  check(paged, `${tag}: its keys are in key pages, but it has none`);
  const directory = await snapshot.section(paged.directory);
  check(
    directory.keyCount === index.keyCount,
    `${paged.directory}: ${directory.keyCount} keys in pages for the ${index.keyCount} keys of ${tag}`,
  );
  return new PagedKeys(snapshot, paged.pages, directory);
}

/**
 * A trigram index read whole takes this share of the section budget at most; a larger one (TFUL,
 * 41 MB at 1M objects) is read as its table, and its lists by range. One read of a section that fits
 * serves every later query from memory, without a chunk lookup per list.
 */
const WHOLE_TRIGRAMS_SHARE = 1 / 8;

/** A trigram index: whole in files before format 1.3 or when it fits; else its table alone, its lists read by range through its chunk directory. */
async function trigramIndex(snapshot: Snapshot, tag: TrigramTag, of: SearchIndexTag): Promise<TrigramIndex> {
  const chunksTag = CHUNKS_OF[tag];
  if (!snapshot.has(chunksTag) || snapshot.toc.get(tag)!.length <= snapshot.budgetBytes * WHOLE_TRIGRAMS_SHARE)
    return snapshot.section(tag);
  return snapshot.remember(
    `${tag}#table`,
    async () => {
      const [chunks, index] = await Promise.all([snapshot.section(chunksTag), snapshot.section(of)]);
      const head = chunks.readHead(await snapshot.readPart(tag, 0, chunks.headLength), tag);
      const table = { codes: head.u32(0), counts: head.u32(1), offsets: head.u32(2) };
      return TrigramIndex.ranged(
        table,
        chunks.postingLength,
        postingSpans(snapshot, tag),
        index.keyCount,
        `${tag} trigram index`,
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
      // A copy of its own, so a cached chunk does not hold the rest of a multi-chunk read.
      (c, bytes) => (chunks.verify(c, bytes), { bytes: bytes.slice(), byteSize: 64 + bytes.length }),
      async () => ({ start: chunks.headLength, length: chunks.postingLength }),
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
