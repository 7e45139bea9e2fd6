// @module PageCodec: how the raw pages of a paged section become the pages stored, on this thread or on others: deflated (members, points, source text), or rows coded one by one against the row store's dictionary.
import { deflatePage } from "./inflate.ts";
import { encodeRowPage, RowEncoder } from "./row-codec.ts";

/** A section's page codec: a plain value, posted as it is to the threads that encode pages. */
export type PageCodec = { kind: "deflate" } | { kind: "rows"; dictionary: Uint8Array };

export const DEFLATE: PageCodec = { kind: "deflate" };

/**
 * The encoder of the last row dictionary seen, kept from batch to batch: indexing a dictionary costs
 * some 6 ms, and every batch of a compile's row pages brings the same one.
 */
let rowEncoder: { dictionary: Uint8Array; encoder: RowEncoder } | undefined;

function rowEncoderFor(dictionary: Uint8Array): RowEncoder {
  const last = rowEncoder;
  if (last && sameBytes(last.dictionary, dictionary)) return last.encoder;
  rowEncoder = { dictionary: dictionary.slice(), encoder: new RowEncoder(dictionary) };
  return rowEncoder.encoder;
}

/** Whether `a` and `b` hold the same bytes: a loop, as `every` with its callback took 0.4 s of a compile. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** `raws` encoded by `codec`, in order. The bytes depend on the pages and the codec alone. */
export function encodePages(raws: readonly Uint8Array[], codec: PageCodec): Uint8Array[] {
  if (codec.kind === "deflate") return raws.map(deflatePage);
  const encoder = rowEncoderFor(codec.dictionary);
  return raws.map((raw) => encodeRowPage(raw, encoder));
}

/**
 * Encodes batches of raw pages as encodePages does, here or on other threads: `encode` starts a
 * batch and returns what gives its pages back, in the batch's order, once asked for (blocking until
 * they are done). The raw pages are left as they were.
 */
export interface PageEncoder {
  encode(raws: Uint8Array[], codec: PageCodec): () => Uint8Array[];
  /**
   * Whether it would take another batch without waiting: an encoder on other threads says so, and
   * paged sections are then encoded ahead of their turn, while other sections are encoded.
   */
  hasRoom?(): boolean;
}

/** Encodes each batch on this thread, at once. */
export const encodeHere: PageEncoder = {
  encode: (raws, codec) => {
    const pages = encodePages(raws, codec);
    return () => pages;
  },
};
