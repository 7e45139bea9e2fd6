// @module PointPages: each start and end point as the start and end points answer lists it (PNTP pages, PNTD directory), a covering index whose pages are kept inflated, as UTF-8.
//
// A walk's start and end points are scattered over the name order (a 3-hop walk at 1M objects
// lists a hundred or so), so reading them from the row store inflated a 4 KiB row page and parsed a
// 14-field row for nearly each, a quarter of the walk's time. Points are a few percent of the
// objects (62k of 1M): here each is the JSON text its answer lists, {id, name, fullName, type}, in
// FLOW's order (the start points, then the end points, each ascending), in pages of 4 KiB. Kept
// inflated, 6 MB at 1M objects serve every walk: an answer writes their text out as it is. Names,
// full names and types are stored again for that, as the member pages store them.
//
// Pages are kept as UTF-8, not as strings. A string lives in V8's heap, and V8 lets its heap grow
// to a multiple of what it holds live before collecting it: in a Worker isolate through the mixed
// workload at 1M objects, the heap climbed to 48–54 MiB between collections with the point pages
// held as strings, and to 37 MiB in the same mix without point walks.
import type { Block, Blocks } from "./blocks.ts";
import { check } from "./errors.ts";
import { inflateExactly } from "./inflate.ts";
import { jsonObjectsIn, objectStarts, stringFieldsObject } from "./json-objects.ts";
import type { SnapshotModel } from "./model.ts";
import { encodeHere, type PageEncoder } from "./page-codec.ts";
import { PageDirectory, PageWriter, pageStartingAtOrBefore } from "./page-directory.ts";
import { decodeUtf8 } from "./string-list.ts";

/** A page is cut once its JSON reaches this many bytes: a miss reads and inflates little for the one point it wants. */
export const POINT_PAGE_BYTES = 4096;

/** Largest JSON a page may hold: room for one point far larger than any analysis shows, bounded for readers. */
export const MAX_POINT_PAGE = 16 * POINT_PAGE_BYTES;

/** What the start and end points answer lists of each point, in this order: a page holds its points as JSON.stringify writes this. */
export interface PointSummary {
  id: string;
  name: string;
  fullName: string;
  type: string;
}

export interface PointPages {
  /** PNTP's one block: the pages back to back, each a raw-deflated UTF-8 JSON array of point objects. */
  pages: Uint8Array;
  /** The first point of each page, in FLOW's order, then the number of points (P + 1). */
  firstPoints: Uint32Array;
  offsets: Uint32Array;
  crcs: Uint32Array;
  rawLengths: Uint32Array;
}

const encoder = new TextEncoder();

/** The ranks of the start points, then those of the end points, each ascending: FLOW's blocks 0 and 2, in this order. */
export function pointRanks(model: SnapshotModel): number[] {
  const ranks: number[] = [];
  for (const role of ["start", "end"] as const) model.objects.forEach((o, rank) => o.role === role && ranks.push(rank));
  return ranks;
}

/** Lays out every start and end point as pages of its JSON text, in FLOW's order. */
export function encodePointPages(model: SnapshotModel, pages: PageEncoder = encodeHere): PointPages {
  const out = new PageWriter(pages);
  const firstPoints = [0];
  const rawLengths: number[] = [];
  let page: string[] = [];
  let pageBytes = 0;
  let points = 0;
  const cut = () => {
    const json = encoder.encode(`[${page.join(",")}]`);
    check(
      json.length <= MAX_POINT_PAGE,
      `a start or end point takes more than a point page may hold (${MAX_POINT_PAGE})`,
    );
    out.add(json);
    rawLengths.push(json.length);
    firstPoints.push(points);
    page = [];
    pageBytes = 0;
  };
  for (const rank of pointRanks(model)) {
    const { id, name, fullName, type } = model.objects[rank];
    const point: PointSummary = { id, name, fullName, type };
    const text = JSON.stringify(point);
    page.push(text);
    pageBytes += text.length + 1;
    points++;
    if (pageBytes >= POINT_PAGE_BYTES) cut();
  }
  if (page.length) cut();
  return { firstPoints: Uint32Array.from(firstPoints), rawLengths: Uint32Array.from(rawLengths), ...out.finish() };
}

/**
 * PNTD's four blocks: u32 first point of each page, then the number of points (P + 1), u32 byte
 * offset of each page in PNTP's block (P + 1), u32 CRC-32 of each page's stored bytes (P), u32
 * length of each page's JSON (P).
 */
export function encodePointDirectory(pages: PointPages): Block[] {
  return [pages.firstPoints, pages.offsets, pages.crcs, pages.rawLengths];
}

/** One point as JSON.stringify writes a PointSummary. */
const POINT = stringFieldsObject(["id", "name", "fullName", "type"]);

/** A page of points inflated: its JSON text in UTF-8, and where each point's object lies in it. */
export class PointPage {
  readonly firstPoint: number;
  private readonly json: Uint8Array;
  /** Where each point's object starts in `json`, then its length, in bytes (see objectStarts). */
  private readonly starts: Uint32Array;
  readonly byteSize: number;

  constructor(firstPoint: number, json: Uint8Array, starts: Uint32Array) {
    this.firstPoint = firstPoint;
    this.json = json;
    this.starts = starts;
    this.byteSize = 64 + json.byteLength + starts.byteLength;
  }

  get count(): number {
    return this.starts.length - 1;
  }

  /** The JSON text of point `point` (in FLOW's order), which this page holds, in UTF-8. */
  pointText(point: number): Uint8Array {
    const i = point - this.firstPoint;
    return this.json.subarray(this.starts[i], this.starts[i + 1] - 1);
  }
}

const COMMA = 0x2c;

/** The JSON array of `points` (each on the page `pageOf` gives), in UTF-8, as JSON.stringify writes their PointSummary[]. */
export function pointsJson(points: ArrayLike<number>, pageOf: (point: number) => PointPage): Uint8Array {
  const texts = Array.from(points, (point) => pageOf(point).pointText(point));
  const json = new Uint8Array(texts.reduce((sum, text) => sum + text.length + 1, 1 + (texts.length === 0 ? 1 : 0)));
  json[0] = 0x5b;
  let at = 1;
  for (const text of texts) {
    json.set(text, at);
    at += text.length;
    json[at++] = COMMA;
  }
  // The last comma, or the byte after "[" when there is none, closes the array.
  json[json.length - 1] = 0x5d;
  return json;
}

/** The points of `json` (pointsJson). */
export function parsePoints(json: Uint8Array): PointSummary[] {
  return JSON.parse(decodeUtf8(json)) as PointSummary[];
}

/** Where each page of points lies, and which points it holds. */
export class PointDirectory extends PageDirectory {
  readonly firstPoints: Uint32Array;
  readonly rawLengths: Uint32Array;

  constructor(blocks: Blocks, objects: number) {
    super(blocks.u32(1), blocks.u32(2), "point pages");
    this.firstPoints = blocks.u32(0);
    this.rawLengths = blocks.u32(3);
    const pages = this.crcs.length;
    check(
      this.firstPoints.length === pages + 1 && this.rawLengths.length === pages,
      `point directory: ${pages} pages, but ${this.firstPoints.length} first points and ${this.rawLengths.length} lengths`,
    );
    check(this.firstPoints[0] === 0, "point directory: the first page does not start at point 0");
    for (let p = 0; p < pages; p++)
      check(this.firstPoints[p] < this.firstPoints[p + 1], `point directory: page ${p} holds no points`);
    check(
      this.firstPoints[pages] <= objects,
      `point directory: its pages hold ${this.firstPoints[pages]} points of ${objects} objects`,
    );
    this.checkRawLengths(this.rawLengths, MAX_POINT_PAGE, "point directory", "JSON");
  }

  /** Start and end points in all. */
  get pointCount(): number {
    return this.firstPoints[this.pageCount];
  }

  /** The page holding point `point` (in FLOW's order: the start points, then the end points). */
  pageOf(point: number): number {
    check(point >= 0 && point < this.pointCount, `point pages: no point ${point}`);
    return pageStartingAtOrBefore(this.firstPoints, point);
  }

  /**
   * Page `p` (its stored bytes exactly), after checking its checksum, its length, and, the first
   * time (checkOnce), its UTF-8 and that it is a JSON array of exactly its points, each as
   * JSON.stringify writes a PointSummary: the text that passes is written into answers as it is.
   * Pages are read again as they leave the cache and come back: the check cost a twentieth of a
   * mixed workload's CPU.
   */
  decodePage(p: number, bytes: Uint8Array): PointPage {
    this.verify(p, bytes);
    const json = inflateExactly(bytes, this.rawLengths[p], `point page ${p}`);
    this.checkOnce(p, () => {
      const count = jsonObjectsIn(decodeUtf8(json), POINT);
      check(count >= 0, `point page ${p} is not a JSON array of {id, name, fullName, type} points`);
      const expected = this.firstPoints[p + 1] - this.firstPoints[p];
      check(count === expected, `point page ${p} holds ${count} points, expected ${expected}`);
    });
    return new PointPage(this.firstPoints[p], json, Uint32Array.from(objectStarts(json, "id")));
  }

  override get byteSize(): number {
    return super.byteSize + this.firstPoints.byteLength + this.rawLengths.byteLength;
  }
}
