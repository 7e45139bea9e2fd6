// @module LocationPages: each object's source locations in small checksummed varint pages by rank (SLCP) with a directory (SLCD), read by range for the objects an answer lists.
//
// An answer lists the locations of one object, or of a page of them, yet a million objects' locations
// take megabytes. Held as one section with the file table, they would be read and decoded whole for
// each such answer (23 MB at 1M objects), more than a 64 MiB section budget keeps beside the rest.
// Here an object's locations cost the page holding them: a few KiB of varints, read by range.
import type { Blocks } from "./blocks.ts";
import { check } from "./errors.ts";
import type { ObjectRecord, SourceLocation } from "./model.ts";
import { RankPageDirectory, type RankPages, varintRankPages } from "./page-directory.ts";
import { VarintReader } from "./varint.ts";

/** Pages are cut once they reach this many bytes: an object's locations cost one read of a few KiB. */
export const LOCATION_PAGE_BYTES = 4096;

/** A source location as the API writes it: the file by its id. */
export interface WireLocation {
  fileId: string;
  startLine: number;
  endLine: number;
}

/**
 * SLCP's pages, per rank, as LEB128: the object's location count, then per location (in analysis
 * order) its file's index in the file table, its startLine and its endLine. SLCD is their
 * directory (encodeRankPageDirectory).
 */
export function encodeLocationPages(objects: readonly ObjectRecord[]): RankPages {
  return varintRankPages(objects.length, LOCATION_PAGE_BYTES, (page, rank) => {
    const locations = objects[rank].sourceLocations;
    page.put(locations.length);
    for (const { file, startLine, endLine } of locations) {
      page.put(file);
      page.put(startLine);
      page.put(endLine);
    }
  });
}

export class LocationDirectory extends RankPageDirectory {
  readonly files: number;

  constructor(blocks: Blocks, rows: number, files: number) {
    super(blocks.u32(0), blocks.u32(1), blocks.u32(2), rows, "location pages", "location directory");
    this.files = files;
  }

  /** Page `p` (its stored bytes exactly), checked against its checksum, then walked once: each object's entry found, every file index within the file table. */
  decodePage(p: number, bytes: Uint8Array): LocationPage {
    this.verify(p, bytes);
    const first = this.firstRanks[p];
    const count = this.endOf(p) - first;
    const what = `location page ${p}`;
    const reader = new VarintReader(bytes, what);
    const starts = new Uint32Array(count);
    for (let i = 0; i < count; i++) {
      starts[i] = reader.at;
      for (let n = reader.next(); n > 0; n--) {
        const file = reader.next();
        if (!(file < this.files)) check(false, `${what}: object ${first + i} names file ${file} of ${this.files}`);
        reader.next();
        reader.next();
      }
    }
    check(reader.done, `${what}: bytes left after its ${count} objects`);
    return new LocationPage(bytes, first, starts, what);
  }
}

/** A page of locations as stored, with where each object's entry starts. */
export class LocationPage {
  readonly firstRank: number;
  private readonly bytes: Uint8Array;
  private readonly starts: Uint32Array;
  private readonly what: string;
  readonly byteSize: number;

  constructor(bytes: Uint8Array, firstRank: number, starts: Uint32Array, what: string) {
    this.bytes = bytes;
    this.firstRank = firstRank;
    this.starts = starts;
    this.what = what;
    this.byteSize = 64 + bytes.byteLength + starts.byteLength;
  }

  get count(): number {
    return this.starts.length;
  }

  /** The locations of `rank`, which this page holds, in analysis order. */
  locations(rank: number): SourceLocation[] {
    const reader = new VarintReader(this.bytes, this.what);
    reader.at = this.starts[rank - this.firstRank];
    const out: SourceLocation[] = [];
    for (let n = reader.next(); n > 0; n--)
      out.push({ file: reader.next(), startLine: reader.next(), endLine: reader.next() });
    return out;
  }
}

/** Every object's locations, from SLCP's body read whole (decodeSnapshotModel). */
export function decodeAllLocations(directory: LocationDirectory, body: Uint8Array): SourceLocation[][] {
  const pageBytes = directory.pagesOfBody(body, "SLCP", "SLCD");
  const out: SourceLocation[][] = [];
  for (let p = 0; p < directory.pageCount; p++) {
    const page = directory.decodePage(p, pageBytes(p));
    for (let rank = page.firstRank; rank < directory.endOf(p); rank++) out.push(page.locations(rank));
  }
  return out;
}
