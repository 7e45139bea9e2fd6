// @module FieldKeys: what a nearly unique field's values are laid out into (its keys grouped with their ranks, key pages, trigram index and reversed order), on this thread or on another.
import type { Block } from "./blocks.ts";
import { reversedOrder } from "./code-unit-order.ts";
import { check } from "./errors.ts";
import { type EncodedKeyPages, encodeKeyPages } from "./key-pages.ts";
import type { ObjectRecord } from "./model.ts";
import { reversedSamples } from "./search-index.ts";
import { encodeTrigramIndex } from "./trigram-index.ts";

/** The nearly unique fields, whose keys are in key pages rather than a search index of their own. */
export type GroupedField = "KNAM" | "KFUL" | "KMNG";

export const FIELD_VALUES: Record<GroupedField, (o: ObjectRecord) => string> = {
  KNAM: (o) => o.name,
  KFUL: (o) => o.fullName,
  KMNG: (o) => o.mangling,
};

/**
 * Everything the sections of one nearly unique field are encoded from. The keys themselves (the
 * distinct lower-cased values, sorted) are not kept: what is encoded from them is, so that only the
 * thread that lays them out holds them.
 */
export interface FieldKeys {
  /** Key k holds the ranks `postings[offsets[k] .. offsets[k + 1])`, ascending: the key of each object (OFUL, OMNG). */
  offsets: Uint32Array;
  postings: Uint32Array;
  /** The key pages and what their directory is encoded from (KNAM, DNAM…). */
  pages: EncodedKeyPages;
  /** The trigram index's four blocks (TNAM…). */
  trigrams: Block[];
  /** The key indices in the order of their keys reversed, then the blocks of its sampled keys (RNAM…). */
  reversed: Uint32Array;
  reversedSamples: Block[];
}

/** A field's keys: sorted, distinct, lower-cased; key k holding the ranks `postings[offsets[k] .. offsets[k + 1])`. */
export interface GroupedKeys {
  keys: string[];
  offsets: Uint32Array;
  postings: Uint32Array;
}

/** Groups a field's values (one per object in rank order) into its sorted distinct keys, the ranks in key order as their postings (no list per key). */
export function groupUnique(values: readonly string[]): GroupedKeys {
  const rows = values.length;
  const lower = new Array<string>(rows);
  let sorted = true;
  for (let r = 0; r < rows; r++) {
    lower[r] = values[r].toLowerCase();
    if (r > 0 && lower[r - 1] > lower[r]) sorted = false;
  }
  // Ranks in key order. Names arrive in rank order, which is lower-cased name order: no sort needed.
  // Otherwise the sort is stable, so each key's ranks stay ascending: its postings.
  const order = Array.from(lower.keys());
  if (!sorted) order.sort((a, b) => (lower[a] < lower[b] ? -1 : lower[a] > lower[b] ? 1 : 0));
  const keys: string[] = [];
  const starts: number[] = [];
  for (let i = 0; i < rows; i++)
    if (i === 0 || lower[order[i]] !== lower[order[i - 1]]) keys.push(lower[order[i]]), starts.push(i);
  starts.push(rows);
  return { keys, offsets: Uint32Array.from(starts), postings: Uint32Array.from(order) };
}

/**
 * Lays out a field's values (one per object, in rank order), here or on another thread: the
 * returned function gives them, waiting for them if need be. The bytes are the same wherever they
 * are laid out.
 */
export type KeyLayouter = (field: GroupedField, values: readonly string[]) => () => FieldKeys;

/** A field's values, one per object in rank order, laid out now. */
export function layFieldKeys(field: GroupedField, values: readonly string[]): FieldKeys {
  const { keys, offsets, postings } = groupUnique(values);
  let ranks: Uint32Array | null = postings;
  if (field === "KNAM") {
    // A name's ranks are its postings' positions (ranks follow lower-cased names): KNAM stores counts alone.
    check(
      postings.every((rank, i) => rank === i),
      "KNAM: objects are not in lower-cased name order",
    );
    ranks = null;
  }
  const reversed = reversedOrder(keys);
  return {
    offsets,
    postings,
    pages: encodeKeyPages(keys, { offsets, ranks }),
    trigrams: encodeTrigramIndex(keys),
    reversed,
    reversedSamples: reversedSamples(keys, reversed),
  };
}
