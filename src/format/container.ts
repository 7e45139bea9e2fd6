// @module The snapshot container: fixed header, tagged table of contents, checksummed sections.
//
// The format is a document of its own, SNAPSHOT-FORMAT.md, whose §13 says what each version changed.
// A change a reader of the version would misread bumps FORMAT_VERSION (readers refuse every other
// version: snapshots are recompiled, never converted); a section readers of the version may skip,
// or sections placed elsewhere in the file, which they find through the table of contents alike,
// bumps FORMAT_MINOR.
import { crc32 } from "./crc32.ts";
import { CorruptSnapshotError, check } from "./errors.ts";

export const MAGIC = "APPSTRCT";
export const FORMAT_VERSION = 5;
/** Minor revision written: what a reader of the same version reads correctly (sections it skips, sections placed elsewhere). */
export const FORMAT_MINOR = 0;
export const HEADER_SIZE = 64;
const TOC_ENTRY_SIZE = 32;
/** A section a reader must understand to answer correctly; unknown sections without it are skipped. */
export const SECTION_REQUIRED = 1;

export interface TocEntry {
  tag: string;
  flags: number;
  offset: number;
  length: number;
  crc: number;
}

/** `n` rounded up to a multiple of 8: sections start on 8-byte boundaries. */
export const align8 = (n: number) => (n + 7) & ~7;

/** Where a ContainerWriter puts bytes: a growing buffer, or a file written by position (synchronously). */
export interface ByteSink {
  write(offset: number, bytes: Uint8Array): void;
}

/**
 * Writes a snapshot section by section: the header and table of contents are reserved up front
 * (the section count is known) and filled in by finish(), so no body needs to stay in memory
 * once written.
 */
export class ContainerWriter {
  private readonly sink: ByteSink;
  private readonly sectionCount: number;
  private readonly entries: TocEntry[] = [];
  private offset: number;

  constructor(sink: ByteSink, sectionCount: number) {
    this.sink = sink;
    this.sectionCount = sectionCount;
    this.offset = align8(HEADER_SIZE + sectionCount * TOC_ENTRY_SIZE);
  }

  add(tag: string, body: Uint8Array, flags = SECTION_REQUIRED): void {
    check(/^[\x20-\x7e]{4}$/.test(tag), `section tag ${JSON.stringify(tag)} is not 4 printable ASCII characters`);
    check(!this.entries.some((e) => e.tag === tag), `section ${tag} appears twice`);
    check(this.entries.length < this.sectionCount, `more sections than the ${this.sectionCount} reserved`);
    this.entries.push({ tag, flags, offset: this.offset, length: body.length, crc: crc32(body) });
    this.sink.write(this.offset, body);
    const end = this.offset + body.length;
    this.offset = align8(end);
    // Padding is written, not skipped: a file sink must really reach the length the header states.
    if (this.offset > end) this.sink.write(end, new Uint8Array(this.offset - end));
  }

  /** Writes header and table of contents; returns the file length. */
  finish(): number {
    check(
      this.entries.length === this.sectionCount,
      `${this.entries.length} sections written, ${this.sectionCount} reserved`,
    );
    const tocLength = this.sectionCount * TOC_ENTRY_SIZE;
    const head = new Uint8Array(HEADER_SIZE + tocLength);
    const view = new DataView(head.buffer);
    this.entries.forEach((e, i) => {
      const at = HEADER_SIZE + i * TOC_ENTRY_SIZE;
      for (let k = 0; k < 4; k++) head[at + k] = e.tag.charCodeAt(k);
      view.setUint32(at + 4, e.flags, true);
      view.setBigUint64(at + 8, BigInt(e.offset), true);
      view.setBigUint64(at + 16, BigInt(e.length), true);
      view.setUint32(at + 24, e.crc, true);
    });
    for (let k = 0; k < 8; k++) head[k] = MAGIC.charCodeAt(k);
    view.setUint16(8, FORMAT_VERSION, true);
    view.setUint16(10, FORMAT_MINOR, true);
    view.setUint32(12, this.sectionCount, true);
    view.setBigUint64(16, BigInt(HEADER_SIZE), true);
    view.setUint32(24, tocLength, true);
    view.setUint32(28, crc32(head.subarray(HEADER_SIZE)), true);
    view.setBigUint64(32, BigInt(this.offset), true);
    view.setUint32(40, crc32(head.subarray(0, 40)), true);
    this.sink.write(0, head);
    return this.offset;
  }
}

/** A ByteSink over one growing in-memory buffer. */
export class MemorySink implements ByteSink {
  private buffer = new Uint8Array(1 << 16);
  private length = 0;

  write(offset: number, bytes: Uint8Array): void {
    const end = offset + bytes.length;
    if (end > this.buffer.length) {
      const bigger = new Uint8Array(Math.max(end, this.buffer.length * 2));
      bigger.set(this.buffer.subarray(0, this.length));
      this.buffer = bigger;
    }
    this.buffer.set(bytes, offset);
    this.length = Math.max(this.length, end);
  }

  bytes(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }
}

export interface ContainerHeader {
  version: number;
  fileLength: number;
  tocOffset: number;
  tocLength: number;
  tocCrc: number;
}

/** Reads and checks the fixed header: magic first, then version, then the header checksum. */
export function decodeHeader(bytes: Uint8Array): ContainerHeader {
  check(
    bytes.length >= HEADER_SIZE,
    `file is ${bytes.length} bytes, too short for a snapshot header (${HEADER_SIZE} bytes)`,
  );
  let magic = "";
  for (let k = 0; k < 8; k++) magic += String.fromCharCode(bytes[k]);
  check(magic === MAGIC, "not an appstruct snapshot (bad magic)");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint16(8, true);
  if (version !== FORMAT_VERSION)
    throw new CorruptSnapshotError(
      `snapshot is format version ${version} but this reader supports version ${FORMAT_VERSION}` +
        (version > FORMAT_VERSION ? "; upgrade appstruct" : "; recompile the analysis"),
    );
  check(crc32(bytes.subarray(0, 40)) === view.getUint32(40, true), "snapshot header checksum mismatch");
  const header = {
    version,
    tocOffset: Number(view.getBigUint64(16, true)),
    tocLength: view.getUint32(24, true),
    tocCrc: view.getUint32(28, true),
    fileLength: Number(view.getBigUint64(32, true)),
  };
  check(
    header.tocLength === view.getUint32(12, true) * TOC_ENTRY_SIZE,
    "table of contents length does not match its entry count",
  );
  check(header.tocOffset + header.tocLength <= header.fileLength, "table of contents runs past the end of the file");
  return header;
}

/** Reads and checks the table of contents (`toc` holds exactly its bytes). */
export function decodeToc(header: ContainerHeader, toc: Uint8Array): Map<string, TocEntry> {
  check(toc.length === header.tocLength, `table of contents is ${toc.length} bytes, expected ${header.tocLength}`);
  check(crc32(toc) === header.tocCrc, "table of contents checksum mismatch");
  const view = new DataView(toc.buffer, toc.byteOffset, toc.byteLength);
  const entries = new Map<string, TocEntry>();
  for (let at = 0; at < toc.length; at += TOC_ENTRY_SIZE) {
    const tag = String.fromCharCode(toc[at], toc[at + 1], toc[at + 2], toc[at + 3]);
    const entry: TocEntry = {
      tag,
      flags: view.getUint32(at + 4, true),
      offset: Number(view.getBigUint64(at + 8, true)),
      length: Number(view.getBigUint64(at + 16, true)),
      crc: view.getUint32(at + 24, true),
    };
    check(!entries.has(tag), `section ${tag} appears twice in the table of contents`);
    check(entry.offset % 8 === 0, `section ${tag} is not 8-byte aligned`);
    check(entry.offset >= header.tocOffset + header.tocLength, `section ${tag} overlaps the table of contents`);
    check(entry.offset + entry.length <= header.fileLength, `section ${tag} runs past the end of the file`);
    entries.set(tag, entry);
  }
  return entries;
}

/** Checks a section body against its table-of-contents checksum before anything decodes it. */
export function verifySection(entry: TocEntry, body: Uint8Array): void {
  check(
    body.length === entry.length,
    `section ${entry.tag} is ${body.length} bytes, expected ${entry.length} (truncated file?)`,
  );
  check(crc32(body) === entry.crc, `section ${entry.tag} checksum mismatch`);
}
