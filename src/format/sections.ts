// @module The section catalogue of the snapshot format (container.ts: FORMAT_VERSION): each tag with its encoder and decoder, side by side.
import { ArrayColumn, encodeArrayColumn } from "./array-column.ts";
import { type Block, Blocks, encodeBlocks } from "./blocks.ts";
import { DictionaryColumn, encodeDictionaryColumn } from "./dictionary-column.ts";
import { encodeFlowPoints, FlowPoints } from "./flow-points.ts";
import { encodeIdDirectory, IdDirectory } from "./id-pages.ts";
import { encodeKeyDirectory, encodeKeysOfRanks, KeyDirectory, KeysOfRanks } from "./key-pages.ts";
import type { LayoutPlan, Planned, SteppedPlanned } from "./layout-plan.ts";
import { encodeLinkDirectory, LinkDirectory } from "./link-pages.ts";
import { LocationDirectory } from "./location-pages.ts";
import { encodeMemberDirectory, MemberDirectory } from "./member-pages.ts";
import type { ObjectRecord, SnapshotMeta } from "./model.ts";
import { encodeObjectCore, ObjectCore, objectFlags } from "./object-core.ts";
import { encodeRowDirectory, RowDirectory } from "./object-rows.ts";
import { encodeRankPageDirectory } from "./page-directory.ts";
import { encodePointHops, PointHops, reversedGraph } from "./point-hops.ts";
import { encodePointDirectory, PointDirectory } from "./point-pages.ts";
import { encodePostIts, PostItColumn } from "./post-its.ts";
import { encodeSearchIndex, ReversedOrder, reversedSamples, SearchIndex } from "./search-index.ts";
import { encodeFileIds, FileDirectory, FileIds } from "./source-files.ts";
import { encodeTextDirectory, TextDirectory } from "./source-text.ts";
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
  /** The section's blocks, from the plan of the snapshot (which a paged section and its directory share). */
  encode(plan: LayoutPlan): Block[];
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
   * Where the writer puts a section read ahead whole: in the file's opening, its first 64 KiB (the
   * id directory, which the first read brings with the header); else in its closing, after every
   * other section, with the others read on opening (SnapshotOptions.readAhead reads them together).
   */
  opening?: true;
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
  (plan: LayoutPlan) =>
    plan.model.objects.map(pick);

const dictionaryColumn = (pick: (o: ObjectRecord) => string | null): SectionCodec<DictionaryColumn> => ({
  blocks: 3,
  encode: (plan) => encodeDictionaryColumn(column(pick)(plan)),
  decode: (b, c) => new DictionaryColumn(b, 0, rows(c), "dictionary column"),
});

/** A layout of the plan that a paged section and its directory are encoded from. */
type PagedLayout<L> = (plan: LayoutPlan) => Planned<L> | SteppedPlanned<L>;

/** The one block of a paged section: read page by page (or whole: SectionCodec.wholeShare); its directory says where. */
const pagedData = (
  layout: PagedLayout<{ pages: Uint8Array }>,
  wholeShare?: number,
): SectionCodec<{ byteSize: number }> => ({
  blocks: 1,
  encode: (plan) => [layout(plan).value.pages],
  decode: (b) => ({ byteSize: b.u8(0).byteLength }),
  readAhead: "small pages",
  wholeShare,
});

/** A paged section's directory, encoded from the same layout as its pages. Written after them, it releases that layout. */
const pageDirectory = <L, D>(
  blocks: number,
  layout: PagedLayout<L>,
  encode: (layout: L) => Block[],
  decode: (blocks: Blocks, rows: number, context: DecodeContext) => D,
): SectionCodec<D> => ({
  blocks,
  encode: (plan) => {
    const encoded = encode(layout(plan).value);
    layout(plan).release();
    return encoded;
  },
  decode: (b, c) => decode(b, rows(c), c),
  readAhead: "whole",
});

const isPaged = (tag: SearchIndexTag): tag is PagedIndexTag => tag in KEY_PAGES_OF;

/** The sorted keys of search index `of`, as its section encoded them (encoded again when it was not encoded with this plan). */
const searchKeys = (plan: LayoutPlan, of: StoredIndexTag): readonly string[] => {
  if (!plan.searchKeys.has(of)) SECTIONS[of].encode(plan);
  return plan.searchKeys.get(of)!;
};

const searchIndex = (
  tag: StoredIndexTag,
  pick: (o: ObjectRecord) => string | readonly string[] | null,
): SectionCodec<SearchIndex> => ({
  blocks: 5,
  encode: (plan) =>
    encodeSearchIndex(
      plan.model.objects.length,
      (r) => pick(plan.model.objects[r]),
      (keys) => plan.searchKeys.set(tag, keys),
    ),
  decode: (b, c) => new SearchIndex(b, rows(c), "search index"),
});

/** The trigram index over the keys of search index `of`. */
const trigramIndex = (of: SearchIndexTag): SectionCodec<TrigramIndex> => ({
  blocks: 4,
  encode: (plan) => {
    let blocks: Block[];
    if (isPaged(of)) blocks = plan.keyIndexes[of].value.trigrams;
    else {
      const keys = searchKeys(plan, of);
      blocks = encodeTrigramIndex(keys);
      plan.searchKeys.delete(of);
    }
    plan.trigramBlocks.set(of, blocks);
    return blocks;
  },
  decode: async (b, c) => TrigramIndex.whole(b, await c.keyCount(of), `${of} trigram index`),
  consults: () => [keysCountedBy(of)],
});
/** The checksums of trigram index `trigrams` in parts, so that readers read its lists by range. */
const trigramChunks = (
  of: SearchIndexTag,
  trigrams: "TNAM" | "TFUL" | "TTYP" | "TPTH" | "TMNG" | "TANN" | "TTAG" | "TPST",
): SectionCodec<TrigramChunks> => ({
  blocks: 2,
  encode: (plan) => {
    const blocks = plan.trigramBlocks.get(of) ?? (SECTIONS[trigrams].encode(plan) as Block[]);
    plan.trigramBlocks.delete(of);
    return encodeTrigramChunks(blocks);
  },
  decode: (b) => new TrigramChunks(b, `${trigrams} chunk directory`),
  readAhead: "whole",
});

/** The key pages of a nearly unique field, each key with its postings. */
const keyPages = (tag: PagedIndexTag) => pagedData((plan) => plan.keyPages[tag]);
const keyDirectory = (tag: PagedIndexTag) =>
  pageDirectory(
    6,
    (plan) => plan.keyPages[tag],
    encodeKeyDirectory,
    (b, n) => new KeyDirectory(b, `${tag} directory`, n, tag !== "KNAM"),
  );
/** The key indices of a nearly unique field in the order of their keys reversed, for `endswith`; releases the grouped field and its indexes. */
const reversedKeys = (tag: PagedIndexTag): SectionCodec<ReversedOrder> => ({
  blocks: 3,
  encode: (plan) => {
    const { keys } = plan.grouped[tag].value;
    const order = plan.keyIndexes[tag].value.reversed;
    plan.grouped[tag].release();
    plan.keyIndexes[tag].release();
    return [order, ...reversedSamples(keys, order)];
  },
  decode: (b) => new ReversedOrder(b, `${tag} reversed order`),
});

/** The key holding each object of a field whose key pages store their ranks (fullName, mangling). */
const keysOfRanks = (tag: "KFUL" | "KMNG"): SectionCodec<KeysOfRanks> => ({
  blocks: 1,
  encode: (plan) => {
    const { offsets, postings } = plan.grouped[tag].value;
    return [encodeKeysOfRanks(plan.model.objects.length, { offsets, ranks: postings })];
  },
  decode: async (b, c) => new KeysOfRanks(b, rows(c), await c.keyCount(tag), `${tag} key of each object`),
  consults: () => [KEY_PAGES_OF[tag].directory],
});

/** Every section of version 5. Tags are 4 ASCII characters; the TOC may list them in any order. */
export const SECTIONS = {
  // First after META, so that a cold reader gets the id directory with the header and the table of
  // contents, and reads an object's id page in the round that follows.
  IDXD: {
    ...pageDirectory(
      3,
      (plan) => plan.idPages,
      encodeIdDirectory,
      (b, n) => new IdDirectory(b, n),
    ),
    // The id pages are written later, from the same layout: they release it.
    encode: (plan) => encodeIdDirectory(plan.idPages.value),
    opening: true,
  } as SectionCodec<IdDirectory>,
  OBJC: {
    blocks: 2,
    encode: (plan) => encodeObjectCore(plan.model.objects),
    decode: (b, c) => new ObjectCore(b, rows(c), c.meta.counts.levels[4]),
  } as SectionCodec<ObjectCore>,
  TYPE: dictionaryColumn((o) => o.type),
  TYID: dictionaryColumn((o) => o.typeId),
  LANG: dictionaryColumn((o) => o.language),
  FPTH: dictionaryColumn((o) => o.filePath),
  ANNO: {
    blocks: 5,
    encode: (plan) => encodeArrayColumn(column((o) => o.annotations)(plan)),
    decode: (b, c) => new ArrayColumn(b, 0, rows(c), "annotations"),
  } as SectionCodec<ArrayColumn>,
  TAGS: {
    blocks: 5,
    encode: (plan) => encodeArrayColumn(column((o) => o.tags)(plan)),
    decode: (b, c) => new ArrayColumn(b, 0, rows(c), "tags"),
  } as SectionCodec<ArrayColumn>,
  PSTI: {
    blocks: 6,
    encode: (plan) => encodePostIts(plan.model.objects),
    decode: (b, c) => new PostItColumn(b, rows(c)),
  } as SectionCodec<PostItColumn>,
  STAT: {
    blocks: 5,
    encode: (plan) => encodeStatusColumn(plan.model.objects),
    decode: (b, c) => new StatusColumn(b, rows(c)),
  } as SectionCodec<StatusColumn>,
  TAXO: {
    blocks: 40,
    encode: (plan) => encodeTaxonomy(plan.model),
    decode: (b, c) => new Taxonomy(b, rows(c), c.meta.counts.levels),
  } as SectionCodec<Taxonomy>,
  LGRA: {
    blocks: 10,
    encode: (plan) => encodeLevelGraphs(plan.model),
    decode: async (b, c) => new LevelGraphs(b, await c.taxonomy()),
    consults: () => ["TAXO"],
  } as SectionCodec<LevelGraphs>,
  // The source files: their ids in id order, which locations name them by, apart from their paths
  // and languages in pages, which only the source code route reads.
  SFID: {
    blocks: 2,
    encode: (plan) => encodeFileIds(plan.model.files),
    decode: (b, c) => new FileIds(b, c.meta.counts.files),
  } as SectionCodec<FileIds>,
  SFLP: pagedData((plan) => plan.filePages),
  SFLD: pageDirectory(
    3,
    (plan) => plan.filePages,
    encodeRankPageDirectory,
    (b, _, c) => new FileDirectory(b, c.meta.counts.files),
  ),
  // Each object's source locations, in pages by rank.
  SLCP: pagedData((plan) => plan.locationPages),
  SLCD: pageDirectory(
    3,
    (plan) => plan.locationPages,
    encodeRankPageDirectory,
    (b, n, c) => new LocationDirectory(b, n, c.meta.counts.files),
  ),
  XTYP: searchIndex("XTYP", (o) => o.type),
  XPTH: searchIndex("XPTH", (o) => o.filePath),
  XANN: searchIndex("XANN", (o) => o.annotations),
  XTAG: searchIndex("XTAG", (o) => o.tags),
  XPST: searchIndex("XPST", (o) => o.postIts.map((p) => p.title)),
  // Each trigram index follows its search index, so that the keys it is encoded from are still at
  // hand, and is followed by its chunk directory. Name, fullName and mangling have no search index:
  // their keys, each with its postings, are in key pages after their trigram index, with a
  // directory and their reversed order.
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
  ROWP: pagedData((plan) => plan.rowPages),
  ROWD: pageDirectory(
    4,
    (plan) => plan.rowPages,
    encodeRowDirectory,
    (b, n) => new RowDirectory(b, n),
  ),
  // Links and the id index in pages, so one object's links or id cost a page, not a whole section.
  LNKP: pagedData((plan) => plan.linkPages),
  LNKD: pageDirectory(
    5,
    (plan) => plan.linkPages,
    encodeLinkDirectory,
    (b, n) => new LinkDirectory(b, n),
  ),
  // Each start and end point with the size of its graph, which a walk at each request cannot afford.
  FLOW: {
    blocks: 4,
    encode: (plan) => {
      const blocks = encodeFlowPoints(plan.flowTotals.value);
      plan.flowTotals.release();
      return blocks;
    },
    decode: (b, c) => new FlowPoints(b, rows(c)),
  } as SectionCodec<FlowPoints>,
  // Each start and end point as the start and end points answer lists it, in FLOW's order.
  // 1.6 MB at 1M objects, where a 3-hop walk lists some 30 points from as many pages.
  PNTP: pagedData((plan) => plan.pointPages, 1 / 16),
  PNTD: pageDirectory(
    4,
    (plan) => plan.pointPages,
    encodePointDirectory,
    (b, n) => new PointDirectory(b, n),
  ),
  // Fewest links from each object to a point each way, so that a walk expands only objects that lead
  // to one, and the points one link away, so that its last step reads no link page.
  HOPS: {
    blocks: 5,
    encode: ({ model }) =>
      encodePointHops(Uint8Array.from(model.objects, objectFlags), model.callees, reversedGraph(model.callees)),
    decode: (b, c) => new PointHops(b, rows(c)),
  } as SectionCodec<PointHops>,
  // The id directory is written first (above); the id pages, written here, release what both came from.
  IDXP: {
    ...pagedData((plan) => plan.idPages),
    encode: (plan) => {
      const { pages } = plan.idPages.value;
      plan.idPages.release();
      return [pages];
    },
  } as SectionCodec<{ byteSize: number }>,
  // The files' source text, in pages of whole lines read by range.
  SRCP: pagedData((plan) => plan.textPages),
  SRCD: pageDirectory(
    6,
    (plan) => plan.textPages,
    encodeTextDirectory,
    (b, _, c) => new TextDirectory(b, c.meta.counts.files),
  ),
  // Each level-5 node's members as its children answer lists them.
  MEMP: pagedData((plan) => plan.memberPages),
  MEMD: pageDirectory(
    5,
    (plan) => plan.memberPages,
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

/** The chunk directory of each trigram index. */
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

/**
 * Whether the writer puts `tag` in the file's closing: a directory a reader reads on opening, not in
 * the opening (SectionCodec.opening). Together, the reader reads them in a few reads, not one each:
 * a Worker has six reads of R2 waiting at once, and at 1M objects a cold answer spent four turns
 * of them on 18 directories.
 */
export function inClosing(tag: string): boolean {
  if (!Object.hasOwn(SECTIONS, tag)) return false;
  const codec = SECTIONS[tag as SectionTag] as SectionCodec<unknown>;
  return codec.readAhead === "whole" && !codec.opening;
}

/** What of `tag` a reader reads on opening the file (see SectionCodec.readAhead), if anything. */
export function readAheadOf(tag: SectionTag): "whole" | "small pages" | undefined {
  return (SECTIONS[tag] as SectionCodec<unknown>).readAhead;
}

export type Decoded<T extends SectionTag> = Awaited<ReturnType<(typeof SECTIONS)[T]["decode"]>>;

/** The metadata section, JSON in UTF-8: small, read with the header on open. */
export const META_TAG = "META";

/** Section `tag`'s bytes, from `plan` (the other sections encoded from it share its layouts). */
export function encodeSection(tag: SectionTag, plan: LayoutPlan): Uint8Array {
  return encodeBlocks(SECTIONS[tag].encode(plan));
}

export async function decodeSection<T extends SectionTag>(
  tag: T,
  bytes: Uint8Array,
  context: DecodeContext,
): Promise<Decoded<T>> {
  return (await SECTIONS[tag].decode(new Blocks(bytes, tag, SECTIONS[tag].blocks), context)) as Decoded<T>;
}
