// @module ObjectRows: every object's displayed fields stored together in small compressed, checksummed pages (ROWP) with a directory (ROWD), so an answer about 50 objects reads a few pages, not nine columns.
//
// Answers list objects that are far apart in rank (a contains filter's matches, an object's callees):
// column by column that is a read per field per object, or whole columns. A row store puts one
// object's fields in one place, as Kythe's serving tables precompute what a page of results shows.
// Pages are deflated and inflated as every deflated page is (inflate.ts).
import type { Block, Blocks } from "./blocks.ts";
import { DecodedRows } from "./decoded-rows.ts";
import { check } from "./errors.ts";
import { deflateHere, inflateExactly, type PageDeflater } from "./inflate.ts";
import { NONE, type ObjectRecord, STATUSES, type Status, statusCode, statusFromCode } from "./model.ts";
import { PageWriter, RankPageDirectory, Stepwise } from "./page-directory.ts";
import { decodeUtf8, includesFolded, type LowerNeedle } from "./string-list.ts";
import { VarintReader } from "./varint.ts";

/**
 * Pages are cut once their body (offset table and rows) reaches this many bytes, then deflated (to
 * about a fifth: rows in name order share packages and types). Reading one row inflates its whole
 * page, so pages are small; smaller still deflate worse.
 */
export const ROW_PAGE_BYTES = 4096;

/** One object's displayed fields. */
export interface ObjectRow {
  id: string;
  name: string;
  fullName: string;
  type: string;
  typeId: string;
  filePath: string | null;
  mangling: string;
  external: boolean;
  annotations: string[] | null;
  tags: string[];
  language: string | null;
  /** Rank of the parent, or NONE. */
  parent: number;
  /** Status given in the analysis, and status as served (against meta.statusBase), as in STAT. */
  explicitStatus: Status | null;
  status: Status | null;
}

type RowJson = [
  string,
  string,
  string,
  string,
  string,
  string | null,
  string,
  0 | 1,
  string[] | null,
  string[],
  string | null,
  number,
  number,
  number,
];

const encoder = new TextEncoder();

/**
 * Largest body a page may hold: room for one row far larger than any analysis shows, while a page
 * still costs a reader a MiB to inflate, not hundreds.
 */
export const MAX_RAW_PAGE = 1024 * 1024;

export interface RowPages {
  /** ROWP's one block: the pages back to back, each a raw-deflated body (row lengths, then rows). */
  pages: Uint8Array;
  firstRanks: Uint32Array;
  offsets: Uint32Array;
  crcs: Uint32Array;
  /** Bytes of each page's body, before deflating. */
  rawLengths: Uint32Array;
}

/**
 * A page being filled: its rows' JSON encoded back to back into one buffer kept from page to page
 * (a buffer per row, a million times over, cost more than the encoding) and each row's length.
 */
class PageBody {
  private rows = new Uint8Array(2 * ROW_PAGE_BYTES);
  private used = 0;
  private readonly lengths: number[] = [];
  /** Bytes the body takes so far: row lengths (LEB128) and rows. */
  bytes = 0;

  get count(): number {
    return this.lengths.length;
  }

  add(json: string): void {
    // UTF-8 takes at most three bytes per UTF-16 code unit.
    if (this.rows.length - this.used < 3 * json.length) {
      const bigger = new Uint8Array(2 * (this.used + 3 * json.length));
      bigger.set(this.rows.subarray(0, this.used));
      this.rows = bigger;
    }
    const { written } = encoder.encodeInto(json, this.rows.subarray(this.used));
    this.used += written;
    this.lengths.push(written);
    this.bytes += varintSize(written) + written;
  }

  /** The body (each row's length in bytes as LEB128, then each row's JSON), and a fresh start. */
  take(): Uint8Array {
    const body = new Uint8Array(this.bytes);
    let at = 0;
    for (let length of this.lengths) {
      while (length >= 0x80) {
        body[at++] = (length % 0x80) | 0x80;
        length = Math.floor(length / 0x80);
      }
      body[at++] = length;
    }
    body.set(this.rows.subarray(0, this.used), at);
    this.used = 0;
    this.lengths.length = 0;
    this.bytes = 0;
    return body;
  }
}

/** Bytes of `n` as LEB128. */
function varintSize(n: number): number {
  let size = 1;
  for (let v = n; v >= 0x80; v = Math.floor(v / 0x80)) size++;
  return size;
}

/** Rows encoded between two steps of `rowPageSteps`: a few batches of pages. */
const ROWS_PER_STEP = 512;

/** Lays out the rows of `objects` (in rank order) as pages, deflated by `deflater`. */
export function encodeRowPages(objects: readonly ObjectRecord[], deflater: PageDeflater = deflateHere): RowPages {
  return new Stepwise(rowPageSteps(objects, deflater)).finish();
}

/** `encodeRowPages` in steps of ROWS_PER_STEP rows. */
export function* rowPageSteps(objects: readonly ObjectRecord[], deflater: PageDeflater): Generator<void, RowPages> {
  const out = new PageWriter(deflater);
  const firstRanks: number[] = [];
  const rawLengths: number[] = [];
  const page = new PageBody();
  const cut = () => {
    check(
      page.bytes <= MAX_RAW_PAGE,
      `objects ranked ${firstRanks[firstRanks.length - 1]}… take ${page.bytes} bytes of rows, more than a page may hold (${MAX_RAW_PAGE})`,
    );
    rawLengths.push(page.bytes);
    out.add(page.take());
  };
  for (let rank = 0; rank < objects.length; rank++) {
    const o = objects[rank];
    if (page.count === 0) firstRanks.push(rank);
    const row: RowJson = [
      o.id,
      o.name,
      o.fullName,
      o.type,
      o.typeId,
      o.filePath,
      o.mangling,
      o.external ? 1 : 0,
      o.annotations,
      o.tags,
      o.language,
      o.parent === NONE ? -1 : o.parent,
      statusCode(o.explicitStatus),
      statusCode(o.status),
    ];
    page.add(JSON.stringify(row));
    if (page.bytes >= ROW_PAGE_BYTES) cut();
    if (rank % ROWS_PER_STEP === ROWS_PER_STEP - 1) yield;
  }
  if (page.count) cut();
  return { firstRanks: Uint32Array.from(firstRanks), rawLengths: Uint32Array.from(rawLengths), ...out.finish() };
}

/**
 * ROWD's four blocks: u32 first rank of each page (P), u32 byte offset of each page in ROWP's block
 * (P + 1), u32 CRC-32 of each page's stored (deflated) bytes (P), u32 length of each page's body (P).
 */
export function encodeRowDirectory(pages: RowPages): Block[] {
  return [pages.firstRanks, pages.offsets, pages.crcs, pages.rawLengths];
}

/** What starts every escape in JSON. */
const BACKSLASH = 0x5c;

/**
 * One page of rows, inflated, its row lengths checked: a row is decoded when first asked for, alone,
 * then kept while the page is (a batch may list a row twice).
 */
export class RowPage {
  readonly firstRank: number;
  /** The rows' JSON back to back, and where each ends in it. */
  private readonly rows: Uint8Array;
  private readonly ends: Uint32Array;
  private readonly objects: number;
  private readonly decoded: (ObjectRow | undefined)[] = [];

  constructor(firstRank: number, rows: Uint8Array, ends: Uint32Array, objects: number) {
    this.firstRank = firstRank;
    this.rows = rows;
    this.ends = ends;
    this.objects = objects;
  }

  get count(): number {
    return this.ends.length;
  }

  /** The row of rank `rank`, which the page must hold. */
  row(rank: number): ObjectRow {
    const i = rank - this.firstRank;
    const kept = this.decoded[i];
    if (kept) return kept;
    if (!(i >= 0 && i < this.ends.length)) check(false, `rank ${rank} is not an object`);
    let row: unknown;
    try {
      row = JSON.parse(decodeUtf8(this.rows.subarray(this.startOf(i), this.ends[i])));
    } catch {
      check(false, `row ${rank} is not UTF-8 JSON`);
    }
    const decoded = toRow(row, rank, this.objects);
    this.decoded[i] = decoded;
    return decoded;
  }

  /** What the row of `rank` weighs decoded on the heap: about twice its JSON (strings, arrays, objects). */
  rowBytes(rank: number): number {
    const i = rank - this.firstRank;
    return 64 + 2 * (this.ends[i] - this.startOf(i));
  }

  /**
   * Whether the row of `rank` may hold one of `needles` (lower-cased) in one of its strings, told
   * from its JSON without decoding it: false only when none is in its bytes, in any case, and the
   * bytes tell, being all ASCII and free of escapes (JSON may spell any character as one).
   */
  mayHold(rank: number, needles: readonly LowerNeedle[]): boolean {
    const i = rank - this.firstRank;
    check(i >= 0 && i < this.ends.length, `rank ${rank} is not an object`);
    const [start, end] = [this.startOf(i), this.ends[i]];
    if (needles.some((needle) => includesFolded(this.rows, start, end, needle) !== false)) return true;
    return this.rows.subarray(start, end).includes(BACKSLASH);
  }

  /** Where the page's row `i` starts in `rows`: where the one before it ends. */
  private startOf(i: number): number {
    return i === 0 ? 0 : this.ends[i - 1];
  }
}

/**
 * A page as stored (deflated), its checksum checked: what the section cache keeps of a page. Five
 * times as many pages fit as inflated (at 300k objects the whole row store takes 17 MB so), and
 * each missed page costs a read, where inflating one again costs some 20 µs.
 */
export class StoredRowPage {
  readonly bytes: Uint8Array;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }

  get byteSize(): number {
    return 64 + this.bytes.byteLength;
  }
}

/**
 * Bytes of the rows a directory keeps decoded (DecodedRows), counted in the section budget. The rows
 * answers list again and again (a popular find's page, the objects people look at, their parents
 * and callees) are then neither read nor inflated again. Rows, not pages: an answer lists a row or
 * two of most pages it reads, and pages kept inflated held some twenty rows for each one listed (a
 * mix at 1M objects inflated three pages for each page it needed). Measured in the mixed workload at
 * 1M objects (docs/benchmarks.md): kept least recently used first, 1 MiB inflated the pages of the
 * medium words' rows again 2,169 times a pass, 4 MiB 530 times; kept as DecodedRows keeps them, 2
 * MiB inflated them 3 times, where 4 MiB took room that key and link pages needed.
 */
const DECODED_ROWS_BYTES = 2 * 1024 * 1024;

/** Where each page of rows lies and what its checksum is; and rows kept decoded. */
export class RowDirectory extends RankPageDirectory {
  readonly rawLengths: Uint32Array;
  private readonly decoded = new DecodedRows(DECODED_ROWS_BYTES);

  constructor(blocks: Blocks, rows: number) {
    super(blocks.u32(0), blocks.u32(1), blocks.u32(2), rows, "row pages", "row directory");
    this.rawLengths = blocks.u32(3);
    const pages = this.firstRanks.length;
    check(
      this.rawLengths.length === pages,
      `row directory: ${pages} pages but ${this.offsets.length} offsets, ${this.crcs.length} checksums and ${this.rawLengths.length} lengths`,
    );
    this.checkRawLengths(this.rawLengths, MAX_RAW_PAGE, "row directory", "rows");
  }

  /** Rows on page `p`. */
  countOf(p: number): number {
    return this.endOf(p) - this.firstRanks[p];
  }

  /**
   * Page `p` as the cache keeps it, from its stored bytes exactly, checked against its checksum:
   * copied when they are part of a larger read (a run of pages), which the cache would otherwise
   * pin whole.
   */
  decodePage(p: number, bytes: Uint8Array): StoredRowPage {
    this.verify(p, bytes);
    return new StoredRowPage(bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice());
  }

  /** Page `p`, inflated from `stored` (its checksum checked as it was stored). */
  page(p: number, stored: StoredRowPage): RowPage {
    return this.inflatePage(p, stored.bytes);
  }

  /** Whether the row of `rank` is kept decoded (nothing is read, and no use is counted). */
  keeps(rank: number): boolean {
    return this.decoded.has(rank);
  }

  /** The row of `rank` if it is kept decoded, a use counted; else undefined. */
  keptRow(rank: number): ObjectRow | undefined {
    return this.decoded.get(rank);
  }

  /** The row of `rank` from `page`, which holds it, kept decoded. */
  row(page: RowPage, rank: number): ObjectRow {
    const kept = this.keptRow(rank);
    if (kept) return kept;
    const row = page.row(rank);
    this.decoded.add(rank, row, page.rowBytes(rank));
    return row;
  }

  /**
   * Page `p` inflated from its stored bytes exactly: checked against its checksum, inflated to its
   * stated length, its row lengths checked (the rows themselves are checked as each is decoded).
   */
  inflatedPage(p: number, bytes: Uint8Array): RowPage {
    this.verify(p, bytes);
    return this.inflatePage(p, bytes);
  }

  /** `inflatedPage` of stored bytes whose checksum was checked already. */
  private inflatePage(p: number, bytes: Uint8Array): RowPage {
    const body = inflateExactly(bytes, this.rawLengths[p], `row page ${p}`);
    const count = this.countOf(p);
    const lengths = new VarintReader(body, `row page ${p}`);
    const ends = new Uint32Array(count);
    for (let i = 0, end = 0; i < count; i++) {
      const length = lengths.next();
      check(length > 0, `row page ${p}: row ${i} is empty`);
      ends[i] = end += length;
    }
    check(
      lengths.at + ends[count - 1] === body.length,
      `row page ${p}: its rows end at byte ${lengths.at + ends[count - 1]}, its body at ${body.length}`,
    );
    // A view, not a copy: the inflater's output is a buffer of the page's own (inflateExactly).
    return new RowPage(this.firstRanks[p], body.subarray(lengths.at), ends, this.rows);
  }

  /** Grows and shrinks with the rows it keeps decoded: the section cache measures it again. */
  override get byteSize(): number {
    return super.byteSize + this.rawLengths.byteLength + this.decoded.bytes;
  }
}

const isString = (v: unknown): v is string => typeof v === "string";
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);

const isStatusCode = (code: unknown) =>
  Number.isInteger(code) && (code as number) >= 0 && (code as number) <= STATUSES.length;

/**
 * Row `rank`'s array checked field by field: a page that passed its checksum may still come from a
 * faulty writer. Each test is made before calling check: messages made for every row that passes
 * were most of the garbage of a page of rows decoded.
 */
function toRow(row: unknown, rank: number, rows: number): ObjectRow {
  if (!(Array.isArray(row) && row.length === 14)) check(false, `row ${rank} is not a 14-field array`);
  const [
    id,
    name,
    fullName,
    type,
    typeId,
    filePath,
    mangling,
    external,
    annotations,
    tags,
    language,
    parent,
    explicitStatus,
    status,
  ] = row as RowJson;
  if (
    !(
      isString(id) &&
      /^-?[0-9]+$/.test(id) &&
      isString(name) &&
      isString(fullName) &&
      isString(type) &&
      isString(typeId) &&
      isString(mangling)
    )
  )
    check(false, `row ${rank} has a malformed text field`);
  if (!((filePath === null || isString(filePath)) && (language === null || isString(language))))
    check(false, `row ${rank} has a malformed filePath or language`);
  if (!((external === 0 || external === 1) && (annotations === null || isStrings(annotations)) && isStrings(tags)))
    check(false, `row ${rank} has malformed flags, annotations or tags`);
  if (!(Number.isInteger(parent) && parent >= -1 && parent < rows))
    check(false, `row ${rank} has parent ${parent} of ${rows} objects`);
  if (!(isStatusCode(explicitStatus) && isStatusCode(status))) check(false, `row ${rank} has a malformed status code`);
  return {
    id,
    name,
    fullName,
    type,
    typeId,
    filePath,
    mangling,
    external: external === 1,
    annotations,
    tags,
    language,
    parent: parent < 0 ? NONE : parent,
    explicitStatus: statusFromCode(explicitStatus),
    status: statusFromCode(status),
  };
}

/** Every object's row in rank order, from ROWP's body read whole (decodeSnapshotModel). */
export function decodeAllRows(directory: RowDirectory, body: Uint8Array, objects: number): ObjectRow[] {
  const pageBytes = directory.pagesOfBody(body, "ROWP", "ROWD");
  const rows: ObjectRow[] = [];
  for (let p = 0; p < directory.pageCount; p++) {
    const page = directory.inflatedPage(p, pageBytes(p));
    for (let i = 0; i < page.count; i++) rows.push(page.row(page.firstRank + i));
  }
  check(rows.length === objects, `ROWP: ${rows.length} rows for ${objects} objects`);
  return rows;
}
