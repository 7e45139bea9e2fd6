// @module SourceText: each source file's text in pages of whole lines, deflated and checksummed (SRCP), with a directory (SRCD).
//
// A file is read by line range: the directory gives each page's first line, so a 40-line range of a
// large file costs one or two pages of a few KiB, not the file. Pages are deflated by fflate, as row
// pages are (the same bytes on every machine), and inflated natively.
import { type Block, type Blocks, checkOffsets } from "./blocks.ts";
import { CorruptSnapshotError, check } from "./errors.ts";
import { inflateExactly, MAX_INFLATION } from "./inflate.ts";
import { NONE, type SourceFile } from "./model.ts";
import { encodeHere, type PageEncoder } from "./page-codec.ts";
import { PageDirectory, PageWriter, pageStartingAtOrBefore } from "./page-directory.ts";

/** A page is cut after the line that takes its text to this many UTF-16 code units (a longer line makes a longer page). */
export const TEXT_PAGE_UNITS = 16 * 1024;

const encoder = new TextEncoder();
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The lines of `text`, each with its terminator: a line ends after `\n` (a `\r` before it stays
 * in the line), the last one at the end of the text. "" has no line; "a\n" one.
 */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  for (let at = 0; at < text.length; ) {
    const end = text.indexOf("\n", at);
    const next = end < 0 ? text.length : end + 1;
    lines.push(text.slice(at, next));
    at = next;
  }
  return lines;
}

export interface TextPages {
  /** SRCP's one block: every page's deflated UTF-8 text, back to back. */
  pages: Uint8Array;
  offsets: Uint32Array;
  crcs: Uint32Array;
  /** Lines of each file, or NONE when the analysis gives it no text. */
  lineCounts: Uint32Array;
  /** CSR offsets by file into the pages: file f's pages are [filePages[f], filePages[f + 1]). */
  filePages: Uint32Array;
  /** The number (1-based) of each page's first line in its file. */
  firstLines: Uint32Array;
  /** Bytes of each page's UTF-8 text, before deflating. */
  rawLengths: Uint32Array;
}

/** Lays out the text of `files` (in the analysis's order) as pages of whole lines. */
export function encodeTextPages(files: readonly SourceFile[], pages: PageEncoder = encodeHere): TextPages {
  const out = new PageWriter(pages);
  const lineCounts = new Uint32Array(files.length);
  const filePages = new Uint32Array(files.length + 1);
  const firstLines: number[] = [];
  const rawLengths: number[] = [];
  files.forEach((file, f) => {
    if (file.text === undefined) lineCounts[f] = NONE;
    else {
      const lines = splitLines(file.text);
      check(lines.length < NONE, `file ${file.id} has more lines than the format counts`);
      lineCounts[f] = lines.length;
      let first = 0;
      let units = 0;
      const cut = (end: number) => {
        const raw = encoder.encode(lines.slice(first, end).join(""));
        out.add(raw);
        firstLines.push(first + 1);
        rawLengths.push(raw.length);
        first = end;
        units = 0;
      };
      lines.forEach((line, i) => {
        units += line.length;
        if (units >= TEXT_PAGE_UNITS) cut(i + 1);
      });
      if (first < lines.length) cut(lines.length);
    }
    filePages[f + 1] = out.pageCount;
  });
  return {
    ...out.finish(),
    lineCounts,
    filePages,
    firstLines: Uint32Array.from(firstLines),
    rawLengths: Uint32Array.from(rawLengths),
  };
}

/**
 * SRCD's six blocks: u32 line count of each file or NONE (F), u32 CSR offsets by file into the
 * pages (F + 1), u32 first line of each page (P), u32 byte offset of each page in SRCP's block
 * (P + 1), u32 CRC-32 of each page's stored bytes (P), u32 length of each page's UTF-8 text (P).
 */
export function encodeTextDirectory(pages: TextPages): Block[] {
  return [pages.lineCounts, pages.filePages, pages.firstLines, pages.offsets, pages.crcs, pages.rawLengths];
}

/** A decoded page: its text, whole lines. */
export interface TextPage {
  text: string;
  byteSize: number;
}

/** Which files have text, how many lines, and where each page of it lies. */
export class TextDirectory extends PageDirectory {
  readonly lineCounts: Uint32Array;
  readonly filePages: Uint32Array;
  readonly firstLines: Uint32Array;
  readonly rawLengths: Uint32Array;

  constructor(blocks: Blocks, files: number) {
    super(blocks.u32(3), blocks.u32(4), "text pages");
    this.lineCounts = blocks.u32(0);
    this.filePages = blocks.u32(1);
    this.firstLines = blocks.u32(2);
    this.rawLengths = blocks.u32(5);
    const pages = this.crcs.length;
    check(this.lineCounts.length === files, `text directory: ${this.lineCounts.length} files, META says ${files}`);
    checkOffsets(this.filePages, files, pages, "text directory file pages");
    check(
      this.firstLines.length === pages && this.rawLengths.length === pages,
      `text directory: ${pages} pages but ${this.firstLines.length} first lines and ${this.rawLengths.length} lengths`,
    );
    // Each test is made before calling check, here and below: a message closure for each file and
    // page is garbage left by every directory read.
    for (let f = 0; f < files; f++) {
      const from = this.filePages[f];
      const to = this.filePages[f + 1];
      const lines = this.lineCounts[f];
      // A file without text, or with none of its lines, has no page; otherwise its pages start at
      // line 1 and their first lines ascend within the file.
      if (!(lines === NONE || lines === 0 ? from === to : from < to && this.firstLines[from] === 1))
        check(
          false,
          `text directory: file ${f} has ${to - from} pages for ${lines === NONE ? "no text" : `${lines} lines`}`,
        );
      for (let p = from + 1; p < to; p++)
        if (!(this.firstLines[p - 1] < this.firstLines[p] && this.firstLines[p] <= lines))
          check(false, `text directory: first lines of file ${f} do not ascend within it at page ${p}`);
    }
    for (let p = 0; p < pages; p++) {
      const stored = this.storedBytes(p);
      if (!(this.rawLengths[p] > 0 && this.rawLengths[p] <= MAX_INFLATION * stored))
        check(
          false,
          `text directory: page ${p} states ${this.rawLengths[p]} bytes of text from ${stored} stored bytes`,
        );
    }
  }

  /** The file's line count, or null when the analysis gave it no text. */
  lines(file: number): number | null {
    const n = this.lineCounts[file];
    return n === NONE ? null : n;
  }

  /** The pages of `file` holding lines `start` to `end` (1 ≤ start ≤ end ≤ its line count): [first, last]. */
  pagesOf(file: number, start: number, end: number): [number, number] {
    const [from, to] = [this.filePages[file], this.filePages[file + 1]];
    const firsts = this.firstLines.subarray(from, to);
    return [from + pageStartingAtOrBefore(firsts, start), from + pageStartingAtOrBefore(firsts, end)];
  }

  /** The line count of page `p`, from the next page's first line or its file's line count. */
  private pageLines(p: number): number {
    const f = this.fileOf(p);
    const next = p + 1 < this.filePages[f + 1] ? this.firstLines[p + 1] : this.lineCounts[f] + 1;
    return next - this.firstLines[p];
  }

  /** Checks and decodes page `p` (its stored bytes exactly): its checksum, length, UTF-8 and line count. */
  decodePage(p: number, bytes: Uint8Array): TextPage {
    this.verify(p, bytes);
    let text: string;
    try {
      text = utf8.decode(inflateExactly(bytes, this.rawLengths[p], `text page ${p}`));
    } catch (error) {
      if (error instanceof CorruptSnapshotError) throw error;
      throw new CorruptSnapshotError(`text page ${p} is not deflated UTF-8 text`);
    }
    const lines = splitLines(text).length;
    check(
      lines === this.pageLines(p),
      () => `text page ${p} holds ${lines} lines, its directory says ${this.pageLines(p)}`,
    );
    // Every page but a file's last ends its last line: the next page starts a line.
    check(
      text.endsWith("\n") || this.isLastOfFile(p),
      () => `text page ${p} ends inside a line but is not its file's last page`,
    );
    return { text, byteSize: 64 + text.length * 2 };
  }

  private isLastOfFile(p: number): boolean {
    return p + 1 === this.filePages[this.fileOf(p) + 1];
  }

  /** The file page `p` belongs to: the last whose pages start at or before it (files without pages start where the next does). */
  private fileOf(p: number): number {
    return pageStartingAtOrBefore(this.filePages, p);
  }

  override get byteSize(): number {
    return (
      super.byteSize +
      this.lineCounts.byteLength +
      this.filePages.byteLength +
      this.firstLines.byteLength +
      this.rawLengths.byteLength
    );
  }
}

/** Every file's text (undefined for a file without), from SRCP's whole body: for a full decode of the model. */
export function decodeAllText(directory: TextDirectory, body: Uint8Array): (string | undefined)[] {
  const pageBytes = directory.pagesOfBody(body, "SRCP", "SRCD");
  return Array.from(directory.lineCounts, (lines, f) => {
    if (lines === NONE) return undefined;
    let text = "";
    for (let p = directory.filePages[f]; p < directory.filePages[f + 1]; p++)
      text += directory.decodePage(p, pageBytes(p)).text;
    return text;
  });
}
