// @module KeyIndexer: the two indexes over a nearly unique field's sorted keys, its trigram index (`contains`) and its reversed order (`endswith`), built on this thread or on another.
import type { Block } from "./blocks.ts";
import { reversedOrder } from "./code-unit-order.ts";
import { encodeTrigramIndex } from "./trigram-index.ts";

export interface KeyIndexes {
  /** The trigram index's four blocks (encodeTrigramIndex). */
  trigrams: Block[];
  /** The key indices in the order of their keys reversed (reversedOrder). */
  reversed: Uint32Array;
}

/**
 * Builds both indexes of `keys`, here or on another thread: the returned function gives them,
 * waiting for them if need be. The bytes are the same wherever they are built.
 */
export type KeyIndexer = (keys: readonly string[]) => () => KeyIndexes;

/** Both indexes of `keys`, built now. */
export function indexKeys(keys: readonly string[]): KeyIndexes {
  return { trigrams: encodeTrigramIndex(keys), reversed: reversedOrder(keys) };
}

/** Builds on this thread, when first asked. */
export const indexKeysHere: KeyIndexer = (keys) => () => indexKeys(keys);
