// @module Test helpers that read, patch and reassemble snapshot bytes by hand (from SNAPSHOT-FORMAT.md, not the reader), keeping checksums valid.
import { FORMAT_MINOR, FORMAT_VERSION } from "../../src/format/container.ts";
import { crc32 } from "../../src/format/crc32.ts";
import { VarintReader } from "../../src/format/varint.ts";

export const HEADER = 64;
export const ENTRY = 32;

export interface RawSection {
  tag: string;
  flags: number;
  offset: number;
  length: number;
  crc: number;
  /** Index of the entry in the table of contents. */
  index: number;
}

const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
const align8 = (n: number) => Math.ceil(n / 8) * 8;

/** The table of contents, parsed from the header fields (no checks). */
export function rawSections(bytes: Uint8Array): RawSection[] {
  const v = view(bytes);
  const count = v.getUint32(12, true);
  const tocOffset = Number(v.getBigUint64(16, true));
  return Array.from({ length: count }, (_, index) => {
    const at = tocOffset + index * ENTRY;
    return {
      tag: String.fromCharCode(...bytes.subarray(at, at + 4)),
      flags: v.getUint32(at + 4, true),
      offset: Number(v.getBigUint64(at + 8, true)),
      length: Number(v.getBigUint64(at + 16, true)),
      crc: v.getUint32(at + 24, true),
      index,
    };
  });
}

export function rawSection(bytes: Uint8Array, tag: string): RawSection {
  const section = rawSections(bytes).find((s) => s.tag === tag);
  if (!section) throw new Error(`test setup: no section ${tag}`);
  return section;
}

/** Rewrites the TOC checksum, then the header checksum, after a change to the TOC or the header. */
export function resealHeader(bytes: Uint8Array): void {
  const v = view(bytes);
  const tocOffset = Number(v.getBigUint64(16, true));
  const tocLength = v.getUint32(24, true);
  v.setUint32(28, crc32(bytes.subarray(tocOffset, tocOffset + tocLength)), true);
  v.setUint32(40, crc32(bytes.subarray(0, 40)), true);
}

/**
 * A copy of `bytes` where `mutate` changed the body of section `tag` in place (same length), with
 * the section's TOC checksum, the TOC checksum and the header checksum all rewritten to match:
 * only the decoder's own checks can then catch the change.
 */
export function patchSection(
  bytes: Uint8Array,
  tag: string,
  mutate: (body: Uint8Array, view: DataView) => void,
): Uint8Array {
  const out = bytes.slice();
  const s = rawSection(out, tag);
  const body = out.subarray(s.offset, s.offset + s.length);
  mutate(body, view(body));
  view(out).setUint32(HEADER + s.index * ENTRY + 24, crc32(body), true);
  resealHeader(out);
  return out;
}

/** Offset (within the section body) and byte length of block `index`, from the body's block table. */
export function block(body: Uint8Array, index: number): { offset: number; length: number } {
  const v = view(body);
  return { offset: v.getUint32(8 + index * 8, true), length: v.getUint32(12 + index * 8, true) };
}

/** Sets element `i` of the u32 block `index` of a section body. */
export function setU32(body: Uint8Array, index: number, i: number, value: number): void {
  view(body).setUint32(block(body, index).offset + i * 4, value, true);
}

export function getU32(body: Uint8Array, index: number, i: number): number {
  return view(body).getUint32(block(body, index).offset + i * 4, true);
}

/** Swaps elements `i` and `j` of the u32 block `index` of a section body. */
export function swapU32(body: Uint8Array, index: number, i: number, j: number): void {
  const [a, b] = [getU32(body, index, i), getU32(body, index, j)];
  setU32(body, index, i, b);
  setU32(body, index, j, a);
}

/** A section to assemble: its tag, flags and body. */
export interface SectionSpec {
  tag: string;
  flags: number;
  body: Uint8Array;
}

/** The sections of `bytes` with copies of their bodies, in TOC order. */
export function sectionSpecs(bytes: Uint8Array): SectionSpec[] {
  return rawSections(bytes).map((s) => ({
    tag: s.tag,
    flags: s.flags,
    body: bytes.slice(s.offset, s.offset + s.length),
  }));
}

/** Writes a container by the layout of SNAPSHOT-FORMAT.md §3–4: header, TOC at 64, bodies 8-aligned in TOC order. */
export function assemble(sections: readonly SectionSpec[], version = FORMAT_VERSION, minor = FORMAT_MINOR): Uint8Array {
  const tocLength = sections.length * ENTRY;
  let offset = align8(HEADER + tocLength);
  const offsets = sections.map((s) => {
    const at = offset;
    offset = align8(offset + s.body.length);
    return at;
  });
  const out = new Uint8Array(offset);
  const v = view(out);
  out.set(new TextEncoder().encode("APPSTRCT"), 0);
  v.setUint16(8, version, true);
  v.setUint16(10, minor, true);
  v.setUint32(12, sections.length, true);
  v.setBigUint64(16, BigInt(HEADER), true);
  v.setUint32(24, tocLength, true);
  v.setBigUint64(32, BigInt(out.length), true);
  sections.forEach((s, i) => {
    const at = HEADER + i * ENTRY;
    for (let k = 0; k < 4; k++) out[at + k] = s.tag.charCodeAt(k);
    v.setUint32(at + 4, s.flags, true);
    v.setBigUint64(at + 8, BigInt(offsets[i]), true);
    v.setBigUint64(at + 16, BigInt(s.body.length), true);
    v.setUint32(at + 24, crc32(s.body), true);
    out.set(s.body, offsets[i]);
  });
  resealHeader(out);
  return out;
}

/** Lays out blocks as a section body (SNAPSHOT-FORMAT.md §6): count, table of (offset, length), 8-aligned blocks. */
export function blockBody(blocks: readonly ArrayBufferView[]): Uint8Array {
  let size = align8(8 + blocks.length * 8);
  const at = blocks.map((b) => {
    const here = size;
    size = align8(size + b.byteLength);
    return here;
  });
  const out = new Uint8Array(size);
  const v = view(out);
  v.setUint32(0, blocks.length, true);
  blocks.forEach((b, i) => {
    v.setUint32(8 + i * 8, at[i], true);
    v.setUint32(12 + i * 8, b.byteLength, true);
    out.set(new Uint8Array(b.buffer, b.byteOffset, b.byteLength), at[i]);
  });
  return out;
}

/** The `count` coded rows of a row page as stored (each one's length as LEB128, then each one), copied. */
export function codedRows(page: Uint8Array, count: number): Uint8Array[] {
  const lengths = new VarintReader(page, "row page");
  const counts = Array.from({ length: count }, () => lengths.next());
  let at = lengths.at;
  return counts.map((length) => page.slice(at, (at += length)));
}
