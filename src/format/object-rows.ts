// @module ObjectRows: every object's displayed fields stored together in small compressed, checksummed pages (ROWP) with a directory (ROWD), so an answer about 50 objects reads a few pages, not nine columns.
//
// Answers list objects that are far apart in rank (a contains filter's matches, an object's callees):
// column by column that is a read per field per object, or whole columns. A row store puts one
// object's fields in one place, as Kythe's serving tables precompute what a page of results shows.
// Pages are deflated by fflate (pure JS: the same bytes on every machine, as content addressing
// needs; native zlib's output may vary with the CPU) and inflated natively (any correct inflater
// gives the same bytes, and node:zlib, in Node and in workerd, is about three times faster).
import { deflateSync } from "fflate";
import { type Block, type Blocks, checkBelow } from "./blocks.ts";
import { CorruptSnapshotError, check } from "./errors.ts";
import { inflateExactly } from "./inflate.ts";
import { NONE, type ObjectRecord, STATUSES, type Status, statusCode, statusFromCode } from "./model.ts";
import { PageDirectory, PageWriter, pageStartingAtOrBefore } from "./page-directory.ts";
import { decodeUtf8 } from "./string-list.ts";

/**
 * Pages are cut once their JSON reaches this many bytes, then deflated (to about a quarter: rows in
 * name order share packages and types): one object costs one read of a few KiB.
 */
export const ROW_PAGE_BYTES = 16384;

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
 * Largest JSON a page may hold: 64 pages' worth, room for one row far larger than any analysis
 * shows, while a page still costs a reader a few MiB to inflate and parse, not hundreds.
 */
export const MAX_RAW_PAGE = 64 * ROW_PAGE_BYTES;

/**
 * How many times its stored bytes a page's JSON may be (rows deflate about 4 to 8 times): a reader
 * then inflates no more than this for each byte it reads, however the directory is forged.
 */
export const MAX_INFLATION = 16;

export interface RowPages {
  /** ROWP's one block: the pages back to back, each a raw-deflated UTF-8 JSON array of row arrays. */
  pages: Uint8Array;
  firstRanks: Uint32Array;
  offsets: Uint32Array;
  crcs: Uint32Array;
  /** Bytes of each page's JSON, before deflating. */
  rawLengths: Uint32Array;
}

/** Lays out the rows of `objects` (in rank order) as pages. */
export function encodeRowPages(objects: readonly ObjectRecord[]): RowPages {
  const out = new PageWriter();
  const firstRanks: number[] = [];
  const rawLengths: number[] = [];
  let page: string[] = [];
  let pageBytes = 0;
  const cut = () => {
    const json = encoder.encode(`[${page.join(",")}]`);
    check(
      json.length <= MAX_RAW_PAGE,
      `objects ranked ${firstRanks[firstRanks.length - 1]}… take ${json.length} bytes of row JSON, more than a page may hold (${MAX_RAW_PAGE})`,
    );
    rawLengths.push(json.length);
    const deflated = deflateSync(json, { level: 6 });
    // Rows repetitive enough to deflate past the bound are stored uncompressed (DEFLATE's stored blocks).
    out.add(json.length <= MAX_INFLATION * deflated.length ? deflated : deflateSync(json, { level: 0 }));
    page = [];
    pageBytes = 0;
  };
  objects.forEach((o, rank) => {
    if (page.length === 0) firstRanks.push(rank);
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
    const text = JSON.stringify(row);
    page.push(text);
    pageBytes += text.length + 1;
    if (pageBytes >= ROW_PAGE_BYTES) cut();
  });
  if (page.length) cut();
  return { firstRanks: Uint32Array.from(firstRanks), rawLengths: Uint32Array.from(rawLengths), ...out.finish() };
}

/**
 * ROWD's four blocks: u32 first rank of each page (P), u32 byte offset of each page in ROWP's block
 * (P + 1), u32 CRC-32 of each page's stored (deflated) bytes (P), u32 length of each page's JSON (P).
 */
export function encodeRowDirectory(pages: RowPages): Block[] {
  return [pages.firstRanks, pages.offsets, pages.crcs, pages.rawLengths];
}

/** Where each page of rows lies and what its checksum is. */
export class RowDirectory extends PageDirectory {
  readonly firstRanks: Uint32Array;
  readonly rawLengths: Uint32Array;
  private readonly rows: number;

  constructor(blocks: Blocks, rows: number) {
    super(blocks.u32(1), blocks.u32(2), "row pages");
    this.firstRanks = blocks.u32(0);
    this.rawLengths = blocks.u32(3);
    this.rows = rows;
    const pages = this.firstRanks.length;
    check(
      this.crcs.length === pages && this.rawLengths.length === pages,
      `row directory: ${pages} pages but ${this.offsets.length} offsets, ${this.crcs.length} checksums and ${this.rawLengths.length} lengths`,
    );
    checkBelow(this.rawLengths, MAX_RAW_PAGE + 1, "row directory page lengths");
    for (let p = 0; p < pages; p++) {
      const stored = this.offsets[p + 1] - this.offsets[p];
      check(
        this.rawLengths[p] <= MAX_INFLATION * stored,
        () =>
          `row directory: page ${p} states ${this.rawLengths[p]} bytes of JSON from ${stored} stored bytes, more than ${MAX_INFLATION} times as many`,
      );
    }
    check(
      rows === 0 ? pages === 0 : pages > 0 && this.firstRanks[0] === 0,
      "row directory: pages do not start at rank 0",
    );
    checkBelow(this.firstRanks, Math.max(rows, 1), "row directory first ranks");
    for (let p = 1; p < pages; p++)
      check(this.firstRanks[p - 1] < this.firstRanks[p], `row directory: first ranks do not ascend at page ${p}`);
  }

  /** The page holding `rank`. */
  pageOf(rank: number): number {
    return pageStartingAtOrBefore(this.firstRanks, rank);
  }

  /** Decodes page `p` (its stored bytes exactly), after checking its checksum; then its length, JSON and rows. */
  decodePage(p: number, bytes: Uint8Array): ObjectRow[] {
    this.verify(p, bytes);
    const count = (p + 1 < this.firstRanks.length ? this.firstRanks[p + 1] : this.rows) - this.firstRanks[p];
    let rows: unknown;
    try {
      rows = JSON.parse(decodeUtf8(inflateExactly(bytes, this.rawLengths[p], `row page ${p}`)));
    } catch (error) {
      if (error instanceof CorruptSnapshotError) throw error;
      check(false, `row page ${p} is not deflated UTF-8 JSON`);
    }
    check(
      Array.isArray(rows) && rows.length === count,
      `row page ${p} holds ${Array.isArray(rows) ? rows.length : "no"} rows, expected ${count}`,
    );
    return (rows as unknown[]).map((row, i) => toRow(row, `row ${this.firstRanks[p] + i}`, this.rows));
  }

  override get byteSize(): number {
    return super.byteSize + this.firstRanks.byteLength + this.rawLengths.byteLength;
  }
}

const isString = (v: unknown): v is string => typeof v === "string";
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);

/** A row array checked field by field: a page that passed its checksum may still come from a faulty writer. */
function toRow(row: unknown, what: string, rows: number): ObjectRow {
  check(Array.isArray(row) && row.length === 14, `${what} is not a 14-field array`);
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
  check(
    isString(id) &&
      /^-?[0-9]+$/.test(id) &&
      isString(name) &&
      isString(fullName) &&
      isString(type) &&
      isString(typeId) &&
      isString(mangling),
    `${what} has a malformed text field`,
  );
  check(
    (filePath === null || isString(filePath)) && (language === null || isString(language)),
    `${what} has a malformed filePath or language`,
  );
  check(
    (external === 0 || external === 1) && (annotations === null || isStrings(annotations)) && isStrings(tags),
    `${what} has malformed flags, annotations or tags`,
  );
  check(Number.isInteger(parent) && parent >= -1 && parent < rows, `${what} has parent ${parent} of ${rows} objects`);
  const isCode = (code: unknown) =>
    Number.isInteger(code) && (code as number) >= 0 && (code as number) <= STATUSES.length;
  check(isCode(explicitStatus) && isCode(status), `${what} has a malformed status code`);
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
