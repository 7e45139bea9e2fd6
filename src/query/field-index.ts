// @module fieldIndex: what a text filter reads for one field — its keys and their postings (in memory or paged) and its trigram index (whole or by range).
import type { Operator } from "../contract/params.ts";
import { rangedTrigramIndex } from "../format/ranged-trigrams.ts";
import type { SearchIndex } from "../format/search-index.ts";
import {
  CHUNKS_OF,
  KEY_PAGES_OF,
  type PagedIndexTag,
  type SearchIndexTag,
  type StoredIndexTag,
  TRIGRAMS_OF,
  type TrigramTag,
} from "../format/sections.ts";
import type { Snapshot } from "../format/snapshot.ts";
import type { TrigramIndex } from "../format/trigram-index.ts";
import { waitUntil } from "../wait-until.ts";
import { type KeyPostings, memoryKeys, PagedKeys, type SearchKeys, storedPostings } from "./search-keys.ts";

/** What a text filter reads for one field: its keys, the ranks each holds, and its trigram index (null when not asked for). */
export interface FieldIndex {
  /** The search index in memory, for a field whose keys are stored with it; null for key pages (name, fullName, mangling). */
  index: SearchIndex | null;
  keys: SearchKeys;
  postings: KeyPostings;
  trigrams: TrigramIndex | null;
  /**
   * What was worked out of this field's keys, kept with the snapshot's sections under `name` (one
   * name, one value for the snapshot's life), or made by `make` and kept.
   */
  remember<T extends { byteSize: number }>(name: string, make: () => Promise<T>): Promise<T>;
}

/**
 * The search index `tag` (or key pages) with its keys, for filters under `operator`: with its trigram
 * index for a `contains` (when the file has one). For an `endswith` on key pages, their reversed
 * order is read alongside the directory: the suffix is searched in it first, and a cold answer
 * would otherwise wait a round of reads for it after the directory's.
 */
export async function fieldIndex(snapshot: Snapshot, tag: SearchIndexTag, operator: Operator): Promise<FieldIndex> {
  const trigramTag = TRIGRAMS_OF[tag];
  const trigrams = operator === "contains" && snapshot.has(trigramTag) ? trigramIndex(snapshot, trigramTag, tag) : null;
  if (tag in KEY_PAGES_OF) {
    const paged = tag as PagedIndexTag;
    if (operator === "endswith") waitUntil(snapshot.section(KEY_PAGES_OF[paged].reversed));
    const [directory, lists] = await Promise.all([snapshot.section(KEY_PAGES_OF[paged].directory), trigrams]);
    const keys = new PagedKeys(snapshot, paged, directory);
    return { index: null, keys, postings: keys, trigrams: lists, remember: rememberFor(snapshot, tag) };
  }
  const [index, lists] = await Promise.all([snapshot.section(tag as StoredIndexTag), trigrams]);
  return {
    index,
    keys: memoryKeys(index.keys),
    postings: storedPostings(index),
    trigrams: lists,
    remember: rememberFor(snapshot, tag),
  };
}

/** FieldIndex.remember for the field indexed by `tag`. */
function rememberFor(snapshot: Snapshot, tag: SearchIndexTag): FieldIndex["remember"] {
  return (name, make) => snapshot.remember(`${tag} ${name}`, make);
}

/**
 * A trigram index read whole takes this share of the section budget at most; a larger one (TFUL,
 * 41 MB at 1M objects) is read as its table, and its lists by range. One read of a section that fits
 * serves every later query from memory, without a chunk lookup per list.
 */
const WHOLE_TRIGRAMS_SHARE = 1 / 8;

/** A trigram index: whole without its chunk directory or when it fits; else its table alone, its lists read by range through its chunk directory. */
function trigramIndex(snapshot: Snapshot, tag: TrigramTag, of: SearchIndexTag): Promise<TrigramIndex> {
  if (!snapshot.has(CHUNKS_OF[tag]) || snapshot.toc.get(tag)!.length <= snapshot.budgetBytes * WHOLE_TRIGRAMS_SHARE)
    return snapshot.section(tag);
  return rangedTrigramIndex(snapshot, tag, of);
}
