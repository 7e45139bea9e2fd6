// @module ObjectRows: every object's displayed fields stored together in small checksummed pages (ROWP), each row compressed alone against a dictionary its directory (ROWD) holds, so an answer about 50 objects reads a few pages and decodes 50 rows.
//
// Answers list objects that are far apart in rank (a contains filter's matches, an object's callees):
// column by column that is a read per field per object, or whole columns. A row store puts one
// object's fields in one place, as Kythe's serving tables precompute what a page of results shows.
// Rows are coded by row-codec.ts.
import type { Block, Blocks } from "./blocks.ts";
import { DecodedRows } from "./decoded-rows.ts";
import { check, SnapshotLimitError } from "./errors.ts";
import { NONE, type ObjectRecord, STATUSES, type Status, statusCode, statusFromCode } from "./model.ts";
import { encodeHere, type PageEncoder } from "./page-codec.ts";
import { PageWriter, RankPageDirectory, Stepwise } from "./page-directory.ts";
import { buildRowDictionary, decodeRow, MAX_DICTIONARY_BYTES, MAX_ROW_BYTES } from "./row-codec.ts";
import { decodeUtf8, includesFolded, type LowerNeedle } from "./string-list.ts";
import { VarintReader, varintSize } from "./varint.ts";

/**
 * Pages are cut once their rows' JSON (and its lengths) reaches this many bytes: some 18 rows, about
 * 1.1 KiB stored at 1M objects. A page is the unit of reading and of caching: an answer listing one
 * row of a page reads, checks and keeps the others' bytes too.
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
 * Most bytes of rows (their JSON and lengths) a page of several rows holds: a row that would take
 * a page further starts a page of its own, where it may take MAX_ROW_BYTES (what a row decodes to
 * at most) and its length. Room for one row far larger than any analysis shows.
 */
export const MAX_RAW_PAGE = MAX_ROW_BYTES;

/**
 * Largest page stored. Coding may lengthen incompressible rows a little (a count byte for every 255
 * literals, a token and a length for each row), so the bound leaves an eighth over MAX_RAW_PAGE:
 * every page a writer cuts fits it, and a reader still reads a bounded page.
 */
export const MAX_STORED_PAGE = MAX_RAW_PAGE + MAX_RAW_PAGE / 8;

/**
 * The rows a dictionary is built from: about every (rows / this)th row. At 1M objects 20,000 rows
 * build a 63 KiB dictionary in about a second.
 */
const DICTIONARY_SAMPLE_ROWS = 20_000;

/**
 * A dictionary takes at most this share of the rows' JSON: a small application's rows would not
 * repay 63 KiB in every opening's read of ROWD.
 */
const DICTIONARY_SHARE = 1 / 16;

export interface RowPages {
  /** ROWP's one block: the pages back to back, each its rows' coded lengths, then its rows coded. */
  pages: Uint8Array;
  firstRanks: Uint32Array;
  offsets: Uint32Array;
  crcs: Uint32Array;
  /** What every row is coded against. */
  dictionary: Uint8Array;
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

  /** Adds a row; returns its bytes of UTF-8. */
  add(json: string): number {
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
    return written;
  }

  /** The body of every row but the last, as `take` makes it; the last row starts the next page. */
  takeAllButLast(): Uint8Array {
    const last = this.lengths.pop()!;
    const lastStart = this.used - last;
    this.used = lastStart;
    this.bytes -= varintSize(last) + last;
    const body = this.take();
    this.rows.copyWithin(0, lastStart, lastStart + last);
    this.used = last;
    this.lengths.push(last);
    this.bytes = varintSize(last) + last;
    return body;
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

/** Rows encoded between two steps of `rowPageSteps`: a few batches of pages. */
const ROWS_PER_STEP = 512;

/** Lays out the rows of `objects` (in rank order) as pages, coded by `pages`. */
export function encodeRowPages(objects: readonly ObjectRecord[], pages: PageEncoder = encodeHere): RowPages {
  return new Stepwise(rowPageSteps(objects, pages)).finish();
}

/** An object's row as its JSON array, the text each row is coded from. */
export function rowJson(o: ObjectRecord): string {
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
  return JSON.stringify(row);
}

/**
 * The dictionary the rows of `objects` are coded against, from evenly spaced rows: at most
 * MAX_DICTIONARY_BYTES and DICTIONARY_SHARE of their JSON (its size told from the sample's).
 */
function rowDictionary(objects: readonly ObjectRecord[]): Uint8Array {
  const every = Math.max(1, Math.floor(objects.length / DICTIONARY_SAMPLE_ROWS));
  const sample: Uint8Array[] = [];
  for (let rank = 0; rank < objects.length; rank += every) sample.push(encoder.encode(rowJson(objects[rank])));
  const sampleBytes = sample.reduce((sum, row) => sum + row.length, 0);
  const size = Math.min(MAX_DICTIONARY_BYTES, Math.floor(sampleBytes * every * DICTIONARY_SHARE));
  return buildRowDictionary(sample, size);
}

/** `encodeRowPages` in steps of ROWS_PER_STEP rows (the dictionary built in the first). */
export function* rowPageSteps(objects: readonly ObjectRecord[], pages: PageEncoder): Generator<void, RowPages> {
  const dictionary = rowDictionary(objects);
  const out = new PageWriter(pages, { kind: "rows", dictionary });
  const firstRanks: number[] = [];
  const page = new PageBody();
  for (let rank = 0; rank < objects.length; rank++) {
    if (page.count === 0) firstRanks.push(rank);
    const bytes = page.add(rowJson(objects[rank]));
    if (bytes > MAX_ROW_BYTES)
      throw new SnapshotLimitError(
        `object ${objects[rank].id} has ${bytes} bytes of displayed fields as JSON (its names, type, file path, annotations and tags); a snapshot holds at most ${MAX_ROW_BYTES} for an object`,
      );
    if (page.count > 1 && page.bytes > MAX_RAW_PAGE) {
      out.add(page.takeAllButLast());
      firstRanks.push(rank);
    }
    if (page.bytes >= ROW_PAGE_BYTES) out.add(page.take());
    if (rank % ROWS_PER_STEP === ROWS_PER_STEP - 1) yield;
  }
  if (page.count) out.add(page.take());
  const stored = out.finish();
  for (let p = 0; p < firstRanks.length; p++) {
    const bytes = stored.offsets[p + 1] - stored.offsets[p];
    check(
      bytes <= MAX_STORED_PAGE,
      `row page ${p} takes ${bytes} bytes coded, more than a reader reads (${MAX_STORED_PAGE})`,
    );
  }
  return { firstRanks: Uint32Array.from(firstRanks), dictionary, ...stored };
}

/**
 * ROWD's four blocks: u32 first rank of each page (P), u32 byte offset of each page in ROWP's block
 * (P + 1), u32 CRC-32 of each page's stored bytes (P), and the dictionary every row is coded against (u8).
 */
export function encodeRowDirectory(pages: RowPages): Block[] {
  return [pages.firstRanks, pages.offsets, pages.crcs, pages.dictionary];
}

/** What starts every escape in JSON. */
const BACKSLASH = 0x5c;

/**
 * One page of rows as stored, its checksum and row lengths checked: what the section cache keeps
 * of a page. A row is decoded when asked for, alone; the page keeps none decoded (the directory
 * keeps those answers list again, DecodedRows).
 */
export class RowPage {
  readonly firstRank: number;
  /** The page as stored; its rows start at `rowsAt`. */
  private readonly bytes: Uint8Array;
  private readonly rowsAt: number;
  /** Where each coded row ends, from `rowsAt`. */
  private readonly ends: Uint32Array;
  private readonly dictionary: Uint8Array;
  private readonly objects: number;

  constructor(
    firstRank: number,
    bytes: Uint8Array,
    rowsAt: number,
    ends: Uint32Array,
    dictionary: Uint8Array,
    objects: number,
  ) {
    this.firstRank = firstRank;
    this.bytes = bytes;
    this.rowsAt = rowsAt;
    this.ends = ends;
    this.dictionary = dictionary;
    this.objects = objects;
  }

  get count(): number {
    return this.ends.length;
  }

  /** What it holds on the heap: its bytes and ends, and some 320 bytes of objects (scripts/cache-entry-cost.ts). */
  get byteSize(): number {
    return 320 + this.bytes.byteLength + this.ends.byteLength;
  }

  /** The row of rank `rank`, which the page must hold. */
  row(rank: number): ObjectRow {
    return this.decoded(rank).row;
  }

  /** The row of rank `rank` and what it weighs decoded on the heap: about twice its JSON (strings, arrays, objects). */
  decoded(rank: number): { row: ObjectRow; bytes: number } {
    const json = this.json(rank);
    let row: unknown;
    try {
      row = JSON.parse(decodeUtf8(json));
    } catch {
      check(false, `row ${rank} is not UTF-8 JSON`);
    }
    return { row: toRow(row, rank, this.objects), bytes: 64 + 2 * json.length };
  }

  /**
   * Whether the row of `rank` may hold one of `needles` (lower-cased) in one of its strings, told
   * from its JSON without parsing it: false only when none is in its bytes, in any case, and the
   * bytes tell, being all ASCII and free of escapes (JSON may spell any character as one).
   */
  mayHold(rank: number, needles: readonly LowerNeedle[]): boolean {
    const json = this.json(rank);
    if (needles.some((needle) => includesFolded(json, 0, json.length, needle) !== false)) return true;
    return json.includes(BACKSLASH);
  }

  /** The JSON of the row of `rank`, decoded into a buffer the next row's decoding reuses. */
  private json(rank: number): Uint8Array {
    const i = rank - this.firstRank;
    if (!(i >= 0 && i < this.ends.length)) check(false, `rank ${rank} is not an object`);
    const start = this.rowsAt + (i === 0 ? 0 : this.ends[i - 1]);
    return decodeRow(this.bytes.subarray(start, this.rowsAt + this.ends[i]), this.dictionary, `row ${rank}`);
  }
}

/**
 * Bytes of the rows a directory keeps decoded (DecodedRows), counted in the section budget. The rows
 * answers list again and again (a popular find's page, the objects people look at, their parents
 * and callees) are then neither read nor decoded again. Rows, not pages: an answer lists a row or
 * two of most pages it reads. Measured in the mixed workload at 1M objects (docs/benchmarks.md,
 * "Rows kept decoded"): kept least recently used in 1 MiB, the medium words' row pages were decoded
 * again 2,169 times a pass, in 4 MiB 530 times; kept as DecodedRows keeps them, 2 MiB decoded them
 * 3 times, and 4 MiB took room that key and link pages needed.
 */
const DECODED_ROWS_BYTES = 2 * 1024 * 1024;

/** Where each page of rows lies, what its checksum is, and what its rows are coded against; and rows kept decoded. */
export class RowDirectory extends RankPageDirectory {
  readonly dictionary: Uint8Array;
  private readonly decoded = new DecodedRows(DECODED_ROWS_BYTES);

  constructor(blocks: Blocks, rows: number) {
    super(blocks.u32(0), blocks.u32(1), blocks.u32(2), rows, "row pages", "row directory");
    this.dictionary = blocks.u8(3);
    check(
      this.dictionary.length <= MAX_DICTIONARY_BYTES,
      `row directory: a dictionary of ${this.dictionary.length} bytes, more than ${MAX_DICTIONARY_BYTES}`,
    );
    for (let p = 0; p < this.pageCount; p++)
      if (this.storedBytes(p) > MAX_STORED_PAGE)
        check(false, `row directory: page ${p} takes ${this.storedBytes(p)} bytes, more than ${MAX_STORED_PAGE}`);
  }

  /** Rows on page `p`. */
  countOf(p: number): number {
    return this.endOf(p) - this.firstRanks[p];
  }

  /**
   * Page `p` from its stored bytes exactly, checked against its checksum, its row lengths checked
   * (each row is checked as it is decoded): copied when the bytes are part of a larger read (a run
   * of pages), which the cache would otherwise pin whole.
   */
  decodePage(p: number, bytes: Uint8Array): RowPage {
    this.verify(p, bytes);
    const count = this.countOf(p);
    const lengths = new VarintReader(bytes, `row page ${p}`);
    const ends = new Uint32Array(count);
    // Summed as a number and bounded by the page at each row: lengths that wrap a u32 must not add up.
    let end = 0;
    for (let i = 0; i < count; i++) {
      const length = lengths.next();
      if (!(length > 0)) check(false, `row page ${p}: row ${i} is empty`);
      end += length;
      if (lengths.at + end > bytes.length)
        check(false, `row page ${p}: row ${i} ends at byte ${lengths.at + end}, past the page's ${bytes.length}`);
      ends[i] = end;
    }
    if (lengths.at + end !== bytes.length)
      check(false, `row page ${p}: its rows end at byte ${lengths.at + end}, the page at ${bytes.length}`);
    const own = bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
    return new RowPage(this.firstRanks[p], own, lengths.at, ends, this.dictionary, this.rows);
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
    const { row, bytes } = page.decoded(rank);
    this.keep(rank, row, bytes);
    return row;
  }

  /** Keeps `row`, decoded for `rank` and weighing `bytes` (RowPage.decoded), unless it is kept already. */
  keep(rank: number, row: ObjectRow, bytes: number): void {
    this.decoded.add(rank, row, bytes);
  }

  /** Grows and shrinks with the rows it keeps decoded: the section cache measures it again. */
  override get byteSize(): number {
    return super.byteSize + this.dictionary.byteLength + this.decoded.bytes;
  }
}

const isString = (v: unknown): v is string => typeof v === "string";
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);

const isStatusCode = (code: unknown) =>
  Number.isInteger(code) && (code as number) >= 0 && (code as number) <= STATUSES.length;

/**
 * Row `rank`'s array checked field by field: a page that passed its checksum may still come from a
 * faulty writer. Each test is made before calling check: messages made for every row that passes
 * would be most of the garbage of a page of rows decoded.
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
    const page = directory.decodePage(p, pageBytes(p));
    for (let i = 0; i < page.count; i++) rows.push(page.row(page.firstRank + i));
  }
  check(rows.length === objects, `ROWP: ${rows.length} rows for ${objects} objects`);
  return rows;
}
