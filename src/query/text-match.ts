// @module Text filters (semantics.md §2): which keys of a SearchIndex match one value under an operator.
import type { SearchIndex } from "../format/search-index.ts";
import { unionRanks } from "./rank-set.ts";

export const OPERATORS = ["contains", "equals", "startswith", "endswith"] as const;
export type Operator = (typeof OPERATORS)[number];

/** Ranks of the objects with at least one value of the field matching at least one of `values`. */
export function matchRanks(index: SearchIndex, operator: Operator, values: readonly string[], universe: number): Uint32Array {
  const postings: Uint32Array[] = [];
  for (const value of new Set(values.map((v) => v.toLowerCase()))) {
    for (const key of matchingKeys(index, operator, value)) postings.push(index.posting(key));
  }
  return unionRanks(postings, universe);
}

function* matchingKeys(index: SearchIndex, operator: Operator, value: string): Iterable<number> {
  switch (operator) {
    case "equals": {
      const k = index.lowerBound(value);
      if (k < index.keys.length && index.keys.get(k) === value) yield k;
      return;
    }
    case "startswith": {
      const [from, to] = index.prefixRange(value);
      for (let k = from; k < to; k++) yield k;
      return;
    }
    case "endswith":
      yield* index.suffixKeys(value);
      return;
    case "contains": {
      const keys = index.keys.all();
      for (let k = 0; k < keys.length; k++) if (keys[k].includes(value)) yield k;
      return;
    }
  }
}
