// @module The snapshot container: fixed header, tagged table of contents, checksummed sections.
//
// Format version history (one line per bump; see SNAPSHOT-FORMAT.md):
//   1: first version.
import { crc32 } from "./crc32.ts";
import { CorruptSnapshotError, check } from "./errors.ts";

export const MAGIC = "APPSTRCT";
export const FORMAT_VERSION = 1;
export const HEADER_SIZE = 64;
export const TOC_ENTRY_SIZE = 32;
/** A section a reader must understand to answer correctly; unknown sections without it are skipped. */
export const SECTION_REQUIRED = 1;

export interface TocEntry {
  tag: string;
  flags: number;
  offset: number;
  length: number;
  crc: number;
}

export interface SectionInput {
  tag: string;
  body: Uint8Array;
  flags?: number;
}

const align8 = (n: number) => (n + 7) & ~7;

/** Assembles header, table of contents and section bodies into one snapshot file. */
export function encodeContainer(sections: readonly SectionInput[]): Uint8Array {
  const tags = new Set<string>();
  for (const s of sections) {
    check(/^[\x20-\x7e]{4}$/.test(s.tag), `section tag ${JSON.stringify(s.tag)} is not 4 printable ASCII characters`);
    check(!tags.has(s.tag), `section ${s.tag} appears twice`);
    tags.add(s.tag);
  }
  const tocLength = sections.length * TOC_ENTRY_SIZE;
  let offset = align8(HEADER_SIZE + tocLength);
  const entries: TocEntry[] = sections.map((s) => {
    const entry = { tag: s.tag, flags: s.flags ?? SECTION_REQUIRED, offset, length: s.body.length, crc: crc32(s.body) };
    offset = align8(offset + s.body.length);
    return entry;
  });
  const out = new Uint8Array(offset);
  const view = new DataView(out.buffer);
  entries.forEach((e, i) => {
    const at = HEADER_SIZE + i * TOC_ENTRY_SIZE;
    for (let k = 0; k < 4; k++) out[at + k] = e.tag.charCodeAt(k);
    view.setUint32(at + 4, e.flags, true);
    view.setBigUint64(at + 8, BigInt(e.offset), true);
    view.setBigUint64(at + 16, BigInt(e.length), true);
    view.setUint32(at + 24, e.crc, true);
    out.set(sections[i].body, e.offset);
  });
  for (let k = 0; k < 8; k++) out[k] = MAGIC.charCodeAt(k);
  view.setUint16(8, FORMAT_VERSION, true);
  view.setUint16(10, 0, true);
  view.setUint32(12, sections.length, true);
  view.setBigUint64(16, BigInt(HEADER_SIZE), true);
  view.setUint32(24, tocLength, true);
  view.setUint32(28, crc32(out.subarray(HEADER_SIZE, HEADER_SIZE + tocLength)), true);
  view.setBigUint64(32, BigInt(out.length), true);
  view.setUint32(40, crc32(out.subarray(0, 40)), true);
  return out;
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
  check(bytes.length >= HEADER_SIZE, `file is ${bytes.length} bytes, too short for a snapshot header (${HEADER_SIZE} bytes)`);
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
  check(header.tocLength === view.getUint32(12, true) * TOC_ENTRY_SIZE, "table of contents length does not match its entry count");
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
  check(body.length === entry.length, `section ${entry.tag} is ${body.length} bytes, expected ${entry.length} (truncated file?)`);
  check(crc32(body) === entry.crc, `section ${entry.tag} checksum mismatch`);
}
