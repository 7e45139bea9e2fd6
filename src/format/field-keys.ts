// @module FieldKeys: what a nearly unique field's values are laid out into (its keys grouped with their ranks, key pages, trigram index and reversed order), most of it before the objects' ranks are known, on this thread or on another.
import type { Block } from "./blocks.ts";
import { reversedOrder } from "./code-unit-order.ts";
import { check } from "./errors.ts";
import { type EncodedKeyPages, encodeKeyPages } from "./key-pages.ts";
import type { ObjectRecord } from "./model.ts";
import { reversedSamples } from "./search-index.ts";
import { encodeTrigramIndex } from "./trigram-index.ts";

/** The nearly unique fields, whose keys are in key pages rather than a search index of their own. */
export type GroupedField = "KNAM" | "KFUL" | "KMNG";

export const GROUPED_FIELDS: readonly GroupedField[] = ["KNAM", "KFUL", "KMNG"];

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

/**
 * A field's keys laid out from its values alone, one per object in any order (the analysis's, as
 * read): the keys, their trigram index and reversed order need no ranks, so that all of this can be
 * done while the ranks are worked out; `ranked` then adds what depends on them.
 */
export class KeyLayout {
  readonly field: GroupedField;
  /** The distinct lower-cased values, sorted by UTF-16 code units (the format's key order). */
  readonly keys: string[];
  /** The key of each value, by its index in the values. */
  readonly keyOfValue: Uint32Array;
  readonly trigrams: Block[];
  readonly reversed: Uint32Array;

  constructor(field: GroupedField, values: readonly string[]) {
    this.field = field;
    const indexOf = new Map<string, number>();
    const distinct: string[] = [];
    const keyOfValue = (this.keyOfValue = new Uint32Array(values.length));
    for (let v = 0; v < values.length; v++) {
      const key = values[v].toLowerCase();
      let k = indexOf.get(key);
      if (k === undefined) indexOf.set(key, (k = distinct.push(key) - 1));
      keyOfValue[v] = k;
    }
    // The default sort compares strings by UTF-16 code units, natively.
    const keys = (this.keys = distinct.slice().sort());
    const place = new Uint32Array(keys.length);
    for (let k = 0; k < keys.length; k++) place[indexOf.get(keys[k])!] = k;
    for (let v = 0; v < values.length; v++) keyOfValue[v] = place[keyOfValue[v]];
    this.trigrams = encodeTrigramIndex(keys);
    this.reversed = reversedOrder(keys);
  }

  /** Everything, with the rank of each value's object (`rankOfValue[v]`, a permutation of the ranks). */
  ranked(rankOfValue: Uint32Array): FieldKeys {
    const { keys, keyOfValue } = this;
    check(
      rankOfValue.length === keyOfValue.length,
      `${this.field}: ${rankOfValue.length} ranks for ${keyOfValue.length} values`,
    );
    const keyOfRank = new Uint32Array(keyOfValue.length);
    for (let v = 0; v < keyOfValue.length; v++) keyOfRank[rankOfValue[v]] = keyOfValue[v];
    const offsets = new Uint32Array(keys.length + 1);
    for (const k of keyOfRank) offsets[k + 1]++;
    for (let k = 0; k < keys.length; k++) offsets[k + 1] += offsets[k];
    // Ranks in ascending order, each at the next place of its key: each key's postings ascend.
    const next = offsets.slice(0, keys.length);
    const postings = new Uint32Array(keyOfRank.length);
    for (let rank = 0; rank < keyOfRank.length; rank++) postings[next[keyOfRank[rank]]++] = rank;
    let ranks: Uint32Array | null = postings;
    if (this.field === "KNAM") {
      // A name's ranks are its postings' positions (ranks follow lower-cased names): KNAM stores counts alone.
      check(
        postings.every((rank, i) => rank === i),
        "KNAM: objects are not in lower-cased name order",
      );
      ranks = null;
    }
    return {
      offsets,
      postings,
      pages: encodeKeyPages(keys, { offsets, ranks }),
      trigrams: this.trigrams,
      reversed: this.reversed,
      reversedSamples: reversedSamples(keys, this.reversed),
    };
  }
}

/** A field's values, one per object in rank order, laid out now. */
export function layFieldKeys(field: GroupedField, values: readonly string[]): FieldKeys {
  const identity = new Uint32Array(values.length);
  for (let rank = 0; rank < values.length; rank++) identity[rank] = rank;
  return new KeyLayout(field, values).ranked(identity);
}
