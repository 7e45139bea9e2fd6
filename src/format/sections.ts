// @module The section catalogue of format version 1: each tag with its encoder and decoder, side by side.
import { ArrayColumn, encodeArrayColumn } from "./array-column.ts";
import { type Block, Blocks, encodeBlocks } from "./blocks.ts";
import { DictionaryColumn, encodeDictionaryColumn } from "./dictionary-column.ts";
import { check } from "./errors.ts";
import { countFlows, encodeFlowPoints, FlowPoints } from "./flow-points.ts";
import { encodeIdDirectory, encodeIdPages, IdDirectory } from "./id-pages.ts";
import { deflateHere, type PageDeflater } from "./inflate.ts";
import { encodeKeyDirectory, encodeKeyPages, encodeKeysOfRanks, KeyDirectory, KeysOfRanks } from "./key-pages.ts";
import { encodeLinkDirectory, encodeLinkPages, LinkDirectory } from "./link-pages.ts";
import { encodeMemberDirectory, MemberDirectory, memberPageSteps } from "./member-pages.ts";
import type { ObjectRecord, SnapshotMeta, SnapshotModel } from "./model.ts";
import { encodeObjectCore, ObjectCore, objectFlags, ranksById } from "./object-core.ts";
import { encodeRowDirectory, RowDirectory, type RowPages, rowPageSteps } from "./object-rows.ts";
import { Stepwise } from "./page-directory.ts";
import { encodePointHops, PointHops, reversedGraph } from "./point-hops.ts";
import { encodePointDirectory, encodePointPages, PointDirectory } from "./point-pages.ts";
import { encodePostIts, PostItColumn } from "./post-its.ts";
import {
  encodeSearchIndex,
  type Grouped,
  groupUnique,
  ReversedOrder,
  reversedOrder,
  reversedSamples,
  SearchIndex,
} from "./search-index.ts";
import { encodeSourceLocations, SourceLocations } from "./source-locations.ts";
import { encodeTextDirectory, encodeTextPages, TextDirectory } from "./source-text.ts";
import { encodeStatusColumn, StatusColumn } from "./status-column.ts";
import { encodeLevelGraphs, encodeTaxonomy, LevelGraphs, Taxonomy } from "./taxonomy.ts";
import { encodeTrigramChunks, TrigramChunks } from "./trigram-chunks.ts";
import { encodeTrigramIndex, TrigramIndex } from "./trigram-index.ts";

/** What a decoder may consult besides its own bytes: the metadata and already decoded sections. */
export interface DecodeContext {
  meta: SnapshotMeta;
  taxonomy(): Promise<Taxonomy>;
  /** The number of keys of a search index (from its key directory when paged), for the trigram index that serves it. */
  keyCount(tag: SearchIndexTag): Promise<number>;
}

interface SectionCodec<T> {
  /** How many blocks the section body holds; a reader refuses any other count. */
  blocks: number;
  /** `deflater` deflates the pages of a paged section (its directory is encoded from the same layout). */
  encode(model: SnapshotModel, deflater: PageDeflater): Block[];
  decode(blocks: Blocks, context: DecodeContext): T | Promise<T>;
  /** Sections its decoder asks for, in a file that has the sections `has` says: read along with it, in the same round trip. */
  consults?(has: (tag: string) => boolean): readonly string[];
  /**
   * Read as soon as the file is opened, before a query asks: `whole`, a small directory that cold
   * queries consult before anything else; `small pages`, a paged section small enough to be read
   * whole (a larger one's pages are read by range, located by its directory alone).
   */
  readAhead?: "whole" | "small pages";
  /**
   * For a paged section: read whole, its pages then sliced from it, while it takes at most this
   * share of the section budget. For one whose pages each answer scatters over, a few of many (a
   * walk's points): a round of reads per answer would otherwise be spent on a page or two.
   */
  wholeShare?: number;
}

const rows = (c: DecodeContext) => c.meta.counts.objects;
const column =
  <T>(pick: (o: ObjectRecord) => T) =>
  (m: SnapshotModel) =>
    m.objects.map(pick);

const dictionaryColumn = (pick: (o: ObjectRecord) => string | null): SectionCodec<DictionaryColumn> => ({
  blocks: 3,
  encode: (m) => encodeDictionaryColumn(column(pick)(m)),
  decode: (b, c) => new DictionaryColumn(b, 0, rows(c), "dictionary column"),
});

/**
 * A value computed from a model once for several sections (a paged section and its directory),
 * kept per model until the last of them is encoded.
 */
interface PerModel<T> {
  of(m: SnapshotModel, deflater?: PageDeflater): T;
  done(m: SnapshotModel): void;
}
function perModel<T>(compute: (m: SnapshotModel, deflater: PageDeflater) => T): PerModel<T> {
  const values = new WeakMap<SnapshotModel, T>();
  return {
    of: (m, deflater = deflateHere) => {
      let value = values.get(m);
      if (value === undefined) values.set(m, (value = compute(m, deflater)));
      return value;
    },
    done: (m) => void values.delete(m),
  };
}
/**
 * A paged layout whose encoder runs in steps: started ahead of its sections (see `encodeAhead`), it
 * is finished when they are encoded; else encoded then, whole.
 */
function steppedLayout<T>(steps: (m: SnapshotModel, deflater: PageDeflater) => Generator<void, T>) {
  const started = new WeakMap<SnapshotModel, Stepwise<T>>();
  const layout = perModel<T>((m, deflater) => {
    const run = started.get(m) ?? new Stepwise(steps(m, deflater));
    started.delete(m);
    return run.finish();
  });
  const start = (m: SnapshotModel, deflater: PageDeflater): Stepwise<T> => {
    let run = started.get(m);
    if (!run) started.set(m, (run = new Stepwise(steps(m, deflater))));
    return run;
  };
  return { ...layout, start };
}
const rowPages = steppedLayout<RowPages>((m, deflater) => rowPageSteps(m.objects, deflater));
const linkPages = perModel((m) => encodeLinkPages(m));
const idPages = perModel((m) => encodeIdPages(m.objects, ranksById(m.objects)));
const textPages = perModel((m, deflater) => encodeTextPages(m.files, deflater));
const memberPages = steppedLayout(memberPageSteps);
const pointPages = perModel((m, deflater) => encodePointPages(m, deflater));

/**
 * Starts the row and member pages of `m` (most of what is deflated) and returns what encodes more
 * of them, while `deflater` has room (only one deflating on other threads has): called between
 * sections, so that its threads deflate those pages while the sections before them are encoded.
 * The pages are the same, in the same order, as when encoded in their turn.
 */
export function encodeAhead(m: SnapshotModel, deflater: PageDeflater): () => void {
  const hasRoom = deflater.hasRoom?.bind(deflater);
  if (!hasRoom) return () => {};
  const runs = [rowPages.start(m, deflater), memberPages.start(m, deflater)];
  return () => {
    for (const run of runs) while (hasRoom() && run.step());
  };
}

/** The one block of a paged section: read page by page (or whole: SectionCodec.wholeShare); its directory says where. */
const pagedData = (
  layout: PerModel<{ pages: Uint8Array }>,
  wholeShare?: number,
): SectionCodec<{ byteSize: number }> => ({
  blocks: 1,
  encode: (m, deflater) => [layout.of(m, deflater).pages],
  decode: (b) => ({ byteSize: b.u8(0).byteLength }),
  readAhead: "small pages",
  wholeShare,
});

/**
 * A paged section's directory, encoded from the same layout as its pages. Written after them, it
 * releases that layout, and `alsoReleased` (what the layout was computed from).
 */
const pageDirectory = <L, D>(
  blocks: number,
  layout: PerModel<L>,
  encode: (layout: L) => Block[],
  decode: (blocks: Blocks, rows: number, context: DecodeContext) => D,
  alsoReleased: readonly PerModel<unknown>[] = [],
): SectionCodec<D> => ({
  blocks,
  encode: (m, deflater) => {
    const encoded = encode(layout.of(m, deflater));
    for (const released of [layout, ...alsoReleased]) released.done(m);
    return encoded;
  },
  decode: (b, c) => decode(b, rows(c), c),
  readAhead: "whole",
});

/**
 * The sorted keys each search index encoded, kept per model for the sections encoded from them
 * (its trigram index, then its key pages), so that sorting a million keys happens once.
 */
const encodedKeys = new WeakMap<SnapshotModel, Map<SearchIndexTag, readonly string[]>>();
const keepKeys = (m: SnapshotModel, tag: SearchIndexTag) => (keys: readonly string[]) => {
  let byTag = encodedKeys.get(m);
  if (!byTag) encodedKeys.set(m, (byTag = new Map()));
  byTag.set(tag, keys);
};
/**
 * Each nearly unique field grouped once per model, for its trigram index, key pages and reversed
 * order; the reversed order, written last, releases it.
 */
const groupedField = (pick: (o: ObjectRecord) => string) =>
  perModel((m) => groupUnique(m.objects.length, (r) => pick(m.objects[r])));
const GROUPED: Record<PagedIndexTag, PerModel<Grouped>> = {
  KNAM: groupedField((o) => o.name),
  KFUL: groupedField((o) => o.fullName),
  KMNG: groupedField((o) => o.mangling),
};
const isPaged = (tag: SearchIndexTag): tag is PagedIndexTag => tag in GROUPED;

/** The keys of search index `of`, as its encoder sorted them (grouped again when it was encoded on its own). */
const indexKeys = (of: SearchIndexTag): PerModel<readonly string[]> =>
  isPaged(of)
    ? { of: (m) => GROUPED[of].of(m).keys, done: () => {} }
    : {
        of: (m) => {
          if (!encodedKeys.get(m)?.has(of)) SECTIONS[of].encode(m, deflateHere);
          return encodedKeys.get(m)!.get(of)!;
        },
        done: (m) => void encodedKeys.get(m)?.delete(of),
      };

const searchIndex = (
  tag: StoredIndexTag,
  pick: (o: ObjectRecord) => string | readonly string[] | null,
): SectionCodec<SearchIndex> => ({
  blocks: 5,
  encode: (m) => encodeSearchIndex(m.objects.length, (r) => pick(m.objects[r]), keepKeys(m, tag)),
  decode: (b, c) => new SearchIndex(b, rows(c), "search index"),
});

/** The blocks of each trigram index, kept from its encoding until its chunk directory is encoded from them. */
const trigramBlocks = new WeakMap<SnapshotModel, Map<SearchIndexTag, Block[]>>();
/** The trigram index over the keys of search index `of`. */
const trigramIndex = (of: SearchIndexTag): SectionCodec<TrigramIndex> => ({
  blocks: 4,
  encode: (m) => {
    const keys = indexKeys(of);
    const blocks = encodeTrigramIndex(keys.of(m));
    keys.done(m);
    let byTag = trigramBlocks.get(m);
    if (!byTag) trigramBlocks.set(m, (byTag = new Map()));
    byTag.set(of, blocks);
    return blocks;
  },
  decode: async (b, c) => TrigramIndex.whole(b, await c.keyCount(of), `${of} trigram index`),
  consults: () => [keysCountedBy(of)],
});
/** Minor 3: the checksums of trigram index `trigrams` in parts, so readers read its lists by range. */
const trigramChunks = (
  of: SearchIndexTag,
  trigrams: "TNAM" | "TFUL" | "TTYP" | "TPTH" | "TMNG" | "TANN" | "TTAG" | "TPST",
): SectionCodec<TrigramChunks> => ({
  blocks: 2,
  encode: (m) => {
    const blocks = trigramBlocks.get(m)?.get(of) ?? (SECTIONS[trigrams].encode(m, deflateHere) as Block[]);
    trigramBlocks.get(m)?.delete(of);
    return encodeTrigramChunks(blocks);
  },
  decode: (b) => new TrigramChunks(b, `${trigrams} chunk directory`),
  readAhead: "whole",
});

/**
 * The key pages of a nearly unique field (minor 7: with their postings). A name's
 * ranks are its postings' positions (ranks follow lower-cased names), so KNAM stores counts alone.
 */
const keyLayout = (tag: PagedIndexTag) =>
  perModel((m) => {
    const { keys, offsets, postings } = GROUPED[tag].of(m);
    if (tag !== "KNAM") return encodeKeyPages(keys, { offsets, ranks: postings });
    check(
      postings.every((rank, i) => rank === i),
      "KNAM: objects are not in lower-cased name order",
    );
    return encodeKeyPages(keys, { offsets, ranks: null });
  });
const KEY_LAYOUTS = { KNAM: keyLayout("KNAM"), KFUL: keyLayout("KFUL"), KMNG: keyLayout("KMNG") };
const keyPages = (tag: PagedIndexTag) => pagedData(KEY_LAYOUTS[tag]);
const keyDirectory = (tag: PagedIndexTag) =>
  pageDirectory(
    6,
    KEY_LAYOUTS[tag],
    encodeKeyDirectory,
    (b, n) => new KeyDirectory(b, `${tag} directory`, n, tag !== "KNAM"),
  );
/** The key indices of a nearly unique field in the order of their keys reversed, for `endswith`; releases the grouped field. */
const reversedKeys = (tag: PagedIndexTag): SectionCodec<ReversedOrder> => ({
  blocks: 3,
  encode: (m) => {
    const { keys } = GROUPED[tag].of(m);
    const order = reversedOrder(keys);
    GROUPED[tag].done(m);
    return [order, ...reversedSamples(keys, order)];
  },
  decode: (b) => new ReversedOrder(b, `${tag} reversed order`),
});

/** The key holding each object of a field whose key pages store their ranks (fullName, mangling). */
const keysOfRanks = (tag: "KFUL" | "KMNG"): SectionCodec<KeysOfRanks> => ({
  blocks: 1,
  encode: (m) => {
    const { offsets, postings } = GROUPED[tag].of(m);
    return [encodeKeysOfRanks(m.objects.length, { offsets, ranks: postings })];
  },
  decode: async (b, c) => new KeysOfRanks(b, rows(c), await c.keyCount(tag), `${tag} key of each object`),
  consults: () => [KEY_PAGES_OF[tag].directory],
});

/** Every section of version 1. Tags are 4 ASCII characters; the TOC may list them in any order. */
export const SECTIONS = {
  // Minor 10: first after META, so that a cold reader gets the id directory with the header and the
  // table of contents, and reads an object's id page in the round that follows.
  IDXD: {
    ...pageDirectory(3, idPages, encodeIdDirectory, (b, n) => new IdDirectory(b, n)),
    // The id pages are written later, from the same layout: they release it.
    encode: (m) => encodeIdDirectory(idPages.of(m)),
  } as SectionCodec<IdDirectory>,
  OBJC: {
    blocks: 2,
    encode: (m) => encodeObjectCore(m.objects),
    decode: (b, c) => new ObjectCore(b, rows(c), c.meta.counts.levels[4]),
  } as SectionCodec<ObjectCore>,
  TYPE: dictionaryColumn((o) => o.type),
  TYID: dictionaryColumn((o) => o.typeId),
  LANG: dictionaryColumn((o) => o.language),
  FPTH: dictionaryColumn((o) => o.filePath),
  ANNO: {
    blocks: 5,
    encode: (m) => encodeArrayColumn(column((o) => o.annotations)(m)),
    decode: (b, c) => new ArrayColumn(b, 0, rows(c), "annotations"),
  } as SectionCodec<ArrayColumn>,
  TAGS: {
    blocks: 5,
    encode: (m) => encodeArrayColumn(column((o) => o.tags)(m)),
    decode: (b, c) => new ArrayColumn(b, 0, rows(c), "tags"),
  } as SectionCodec<ArrayColumn>,
  PSTI: {
    blocks: 6,
    encode: (m) => encodePostIts(m.objects),
    decode: (b, c) => new PostItColumn(b, rows(c)),
  } as SectionCodec<PostItColumn>,
  STAT: {
    blocks: 5,
    encode: (m) => encodeStatusColumn(m.objects),
    decode: (b, c) => new StatusColumn(b, rows(c)),
  } as SectionCodec<StatusColumn>,
  TAXO: {
    blocks: 40,
    encode: encodeTaxonomy,
    decode: (b, c) => new Taxonomy(b, rows(c), c.meta.counts.levels),
  } as SectionCodec<Taxonomy>,
  LGRA: {
    blocks: 10,
    encode: encodeLevelGraphs,
    decode: async (b, c) => new LevelGraphs(b, await c.taxonomy()),
    consults: () => ["TAXO"],
  } as SectionCodec<LevelGraphs>,
  SLOC: {
    blocks: 11,
    encode: (m) => encodeSourceLocations(m.files, m.objects),
    decode: (b, c) => new SourceLocations(b, rows(c)),
  } as SectionCodec<SourceLocations>,
  XTYP: searchIndex("XTYP", (o) => o.type),
  XPTH: searchIndex("XPTH", (o) => o.filePath),
  XANN: searchIndex("XANN", (o) => o.annotations),
  XTAG: searchIndex("XTAG", (o) => o.tags),
  XPST: searchIndex("XPST", (o) => o.postIts.map((p) => p.title)),
  // Minor 1: each trigram index follows its search index, so the encoder's keys are still at hand.
  // Minor 3: each is followed by its chunk directory. Minor 7: name, fullName and mangling have no
  // search index; their keys, each with its postings, are in key pages after their trigram index,
  // with a directory and their reversed order.
  TNAM: trigramIndex("KNAM"),
  CNAM: trigramChunks("KNAM", "TNAM"),
  KNAM: keyPages("KNAM"),
  DNAM: keyDirectory("KNAM"),
  RNAM: reversedKeys("KNAM"),
  TFUL: trigramIndex("KFUL"),
  CFUL: trigramChunks("KFUL", "TFUL"),
  KFUL: keyPages("KFUL"),
  DFUL: keyDirectory("KFUL"),
  OFUL: keysOfRanks("KFUL"),
  RFUL: reversedKeys("KFUL"),
  TTYP: trigramIndex("XTYP"),
  CTYP: trigramChunks("XTYP", "TTYP"),
  TPTH: trigramIndex("XPTH"),
  CPTH: trigramChunks("XPTH", "TPTH"),
  TMNG: trigramIndex("KMNG"),
  CMNG: trigramChunks("KMNG", "TMNG"),
  KMNG: keyPages("KMNG"),
  DMNG: keyDirectory("KMNG"),
  OMNG: keysOfRanks("KMNG"),
  RMNG: reversedKeys("KMNG"),
  TANN: trigramIndex("XANN"),
  CANN: trigramChunks("XANN", "TANN"),
  TTAG: trigramIndex("XTAG"),
  CTAG: trigramChunks("XTAG", "TTAG"),
  TPST: trigramIndex("XPST"),
  CPST: trigramChunks("XPST", "TPST"),
  // The row store. ROWD says where each page of ROWP lies.
  ROWP: pagedData(rowPages),
  ROWD: pageDirectory(4, rowPages, encodeRowDirectory, (b, n) => new RowDirectory(b, n)),
  // Links and the id index in pages, so one object's links or id cost a page, not a whole section.
  LNKP: pagedData(linkPages),
  LNKD: pageDirectory(5, linkPages, encodeLinkDirectory, (b, n) => new LinkDirectory(b, n)),
  // Each start and end point with the size of its graph, which a walk at each request cannot afford.
  FLOW: {
    blocks: 4,
    encode: (m) => encodeFlowPoints(countFlows(m)),
    decode: (b, c) => new FlowPoints(b, rows(c)),
  } as SectionCodec<FlowPoints>,
  // Each start and end point as the start and end points answer lists it, in FLOW's order.
  // 1.6 MB at 1M objects, where a 3-hop walk lists some 30 points from as many pages.
  PNTP: pagedData(pointPages, 1 / 16),
  PNTD: pageDirectory(4, pointPages, encodePointDirectory, (b, n) => new PointDirectory(b, n)),
  // Fewest links from each object to a point each way, so that a walk expands only objects that lead
  // to one, and the points one link away, so that its last step reads no link page.
  HOPS: {
    blocks: 5,
    encode: (m) => encodePointHops(Uint8Array.from(m.objects, objectFlags), m.callees, reversedGraph(m.callees)),
    decode: (b, c) => new PointHops(b, rows(c)),
  } as SectionCodec<PointHops>,
  // The id directory is written first (above); the id pages, written here, release what both came from.
  IDXP: {
    ...pagedData(idPages),
    encode: (m) => {
      const { pages } = idPages.of(m);
      idPages.done(m);
      return [pages];
    },
  } as SectionCodec<{ byteSize: number }>,
  // The files' source text, in pages of whole lines read by range.
  SRCP: pagedData(textPages),
  SRCD: pageDirectory(6, textPages, encodeTextDirectory, (b, _, c) => new TextDirectory(b, c.meta.counts.files)),
  // Each level-5 node's members as its children answer lists them.
  MEMP: pagedData(memberPages),
  MEMD: pageDirectory(
    5,
    memberPages,
    encodeMemberDirectory,
    (b, n, c) => new MemberDirectory(b, c.meta.counts.levels[4], n),
  ),
} satisfies Record<string, SectionCodec<unknown>>;

export type SectionTag = keyof typeof SECTIONS;
/** Search indexes with their keys and postings in a section of their own. */
export type StoredIndexTag = "XTYP" | "XPTH" | "XANN" | "XTAG" | "XPST";
/** The key pages of the nearly unique fields (name, fullName, mangling): their search indexes. */
export type PagedIndexTag = "KNAM" | "KFUL" | "KMNG";
/** What a text filter searches: a search index, or key pages. */
export type SearchIndexTag = StoredIndexTag | PagedIndexTag;

/** The trigram index serving each search index. */
export const TRIGRAMS_OF = {
  KNAM: "TNAM",
  KFUL: "TFUL",
  XTYP: "TTYP",
  XPTH: "TPTH",
  KMNG: "TMNG",
  XANN: "TANN",
  XTAG: "TTAG",
  XPST: "TPST",
} as const satisfies Record<SearchIndexTag, SectionTag>;
export type TrigramTag = (typeof TRIGRAMS_OF)[SearchIndexTag];

/** The chunk directory of each trigram index (minor 3). */
export const CHUNKS_OF = {
  TNAM: "CNAM",
  TFUL: "CFUL",
  TTYP: "CTYP",
  TPTH: "CPTH",
  TMNG: "CMNG",
  TANN: "CANN",
  TTAG: "CTAG",
  TPST: "CPST",
} as const satisfies Record<TrigramTag, SectionTag>;

/**
 * The directory and reversed order of each field's key pages, and the key of each object where
 * the pages store ranks (a name's key follows from its rank and the directory).
 */
export const KEY_PAGES_OF = {
  KNAM: { directory: "DNAM", reversed: "RNAM", ofRanks: null },
  KFUL: { directory: "DFUL", reversed: "RFUL", ofRanks: "OFUL" },
  KMNG: { directory: "DMNG", reversed: "RMNG", ofRanks: "OMNG" },
} as const satisfies Record<PagedIndexTag, { directory: SectionTag; reversed: SectionTag; ofRanks: SectionTag | null }>;

/** The section counting the keys of search index `tag`: itself, or its key directory. */
export function keysCountedBy(tag: SearchIndexTag): StoredIndexTag | (typeof KEY_PAGES_OF)[PagedIndexTag]["directory"] {
  return isPaged(tag) ? KEY_PAGES_OF[tag].directory : tag;
}

/** The sections decoding `tag` asks for, in a file having the sections `has` says it has. */
export function consultedBy(tag: SectionTag, has: (tag: string) => boolean): SectionTag[] {
  return ((SECTIONS[tag] as SectionCodec<unknown>).consults?.(has) ?? []).filter((t) => has(t)) as SectionTag[];
}

/** The share of the section budget up to which paged section `tag` is read whole (SectionCodec.wholeShare); 0: never. */
export function wholeShareOf(tag: SectionTag): number {
  return (SECTIONS[tag] as SectionCodec<unknown>).wholeShare ?? 0;
}

/** What of `tag` a reader reads on opening the file (see SectionCodec.readAhead), if anything. */
export function readAheadOf(tag: SectionTag): "whole" | "small pages" | undefined {
  return (SECTIONS[tag] as SectionCodec<unknown>).readAhead;
}

export type Decoded<T extends SectionTag> = Awaited<ReturnType<(typeof SECTIONS)[T]["decode"]>>;

/** The metadata section, JSON in UTF-8: small, read with the header on open. */
export const META_TAG = "META";

export function encodeSection(tag: SectionTag, model: SnapshotModel, deflater = deflateHere): Uint8Array {
  return encodeBlocks(SECTIONS[tag].encode(model, deflater));
}

export async function decodeSection<T extends SectionTag>(
  tag: T,
  bytes: Uint8Array,
  context: DecodeContext,
): Promise<Decoded<T>> {
  return (await SECTIONS[tag].decode(new Blocks(bytes, tag, SECTIONS[tag].blocks), context)) as Decoded<T>;
}
