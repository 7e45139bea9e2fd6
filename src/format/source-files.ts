// @module SourceFiles: the file table of the source locations, its ids (SFID) in id order apart from its paths and languages in small checksummed pages (SFLP, SFLD), which only the source code route reads, a page for a file.
//
// The source code route shows one file's path. Held as one section, the paths and languages of a
// million objects' files (94k files, 7.85 MB) would be read and kept whole for it. Here the file's id
// is found by a binary search of the ids, and its path costs the page holding it: a few KiB, by range.
import type { Block, Blocks } from "./blocks.ts";
import { check } from "./errors.ts";
import type { SourceFile } from "./model.ts";
import { compareIds } from "./name-order.ts";
import { RankPageDirectory, type RankPages, varintRankPages } from "./page-directory.ts";
import { decodeUtf8, encodeStringList, StringList } from "./string-list.ts";
import { VarintReader } from "./varint.ts";

/** Pages are cut once they reach this many bytes: a file's path costs one read of a few KiB. */
export const FILE_PAGE_BYTES = 4096;

/** SFID's two blocks: the file ids (StringList), by file index. */
export function encodeFileIds(files: readonly SourceFile[]): Block[] {
  for (let f = 1; f < files.length; f++)
    check(compareIds(files[f - 1].id, files[f].id) < 0, `the file table is not in id order at file ${f}`);
  return encodeStringList(files.map((f) => f.id));
}

/** The file ids, by file index, in the order of compareIds (as object ids are ordered): what a source location names its file by, 9 bytes a file where the paths take 75. */
export class FileIds extends StringList {
  constructor(blocks: Blocks, files: number) {
    super(blocks, 0, "file ids");
    check(this.length === files, `SFID holds ${this.length} file ids, META says ${files} files`);
  }

  /**
   * The index of file `id`, or -1 when the table has none: a binary search, which trusts the
   * order `appstruct verify` checks (out of order, a file may be reported absent, never another one).
   */
  indexOf(id: string): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareIds(this.get(mid), id) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.length && this.get(lo) === id ? lo : -1;
  }

  /** Whether the ids ascend strictly in the table's order (verification: a reader's lookups rely on it). */
  inOrder(): boolean {
    for (let f = 1, before = this.get(0); f < this.length; f++) {
      const id = this.get(f);
      if (compareIds(before, id) >= 0) return false;
      before = id;
    }
    return true;
  }
}

const utf8 = new TextEncoder();

/**
 * SFLP's pages, per file in file index order: its path's UTF-8 length as LEB128 and its bytes, then
 * its language's (0 for none, else the length plus one) and its bytes. SFLD is their directory
 * (encodeRankPageDirectory), the first file of each page its first rank.
 */
export function encodeFilePages(files: readonly SourceFile[]): RankPages {
  return varintRankPages(files.length, FILE_PAGE_BYTES, (page, f) => {
    const path = utf8.encode(files[f].path);
    page.put(path.length);
    page.putBytes(path);
    const { language } = files[f];
    if (language === null) page.put(0);
    else {
      const bytes = utf8.encode(language);
      page.put(bytes.length + 1);
      page.putBytes(bytes);
    }
  });
}

/** Where each page of file paths and languages lies, by file index. */
export class FileDirectory extends RankPageDirectory {
  constructor(blocks: Blocks, files: number) {
    super(blocks.u32(0), blocks.u32(1), blocks.u32(2), files, "file pages", "file directory");
  }

  /** Page `p` (its stored bytes exactly), checked against its checksum, decoded: each of its files' path and language, and no byte more. */
  decodePage(p: number, bytes: Uint8Array): FilePage {
    this.verify(p, bytes);
    const first = this.firstRanks[p];
    const count = this.endOf(p) - first;
    const reader = new VarintReader(bytes, `file page ${p}`);
    const paths: string[] = [];
    const languages: (string | null)[] = [];
    for (let i = 0; i < count; i++) {
      paths.push(decodeUtf8(reader.bytesOf(reader.next())));
      const language = reader.next();
      languages.push(language === 0 ? null : decodeUtf8(reader.bytesOf(language - 1)));
    }
    check(reader.done, `file page ${p}: bytes left after its ${count} files`);
    return new FilePage(first, paths, languages, bytes.byteLength);
  }
}

/** The paths and languages of a page's files, decoded. */
export class FilePage {
  readonly firstFile: number;
  private readonly paths: string[];
  private readonly languages: (string | null)[];
  readonly byteSize: number;

  constructor(firstFile: number, paths: string[], languages: (string | null)[], storedBytes: number) {
    this.firstFile = firstFile;
    this.paths = paths;
    this.languages = languages;
    // Strings take about twice their UTF-8 bytes and a slot each.
    this.byteSize = 64 + 2 * storedBytes + 16 * paths.length;
  }

  get count(): number {
    return this.paths.length;
  }

  /** The path of file `file`, which this page holds. */
  path(file: number): string {
    return this.paths[file - this.firstFile];
  }

  language(file: number): string | null {
    return this.languages[file - this.firstFile];
  }
}

/** Every file of the table, from SFID and SFLP's body read whole (decodeSnapshotModel). */
export function decodeAllFiles(ids: FileIds, directory: FileDirectory, body: Uint8Array): SourceFile[] {
  const pageBytes = directory.pagesOfBody(body, "SFLP", "SFLD");
  const files: SourceFile[] = [];
  for (let p = 0; p < directory.pageCount; p++) {
    const page = directory.decodePage(p, pageBytes(p));
    for (let f = page.firstFile; f < directory.endOf(p); f++)
      files.push({ id: ids.get(f), path: page.path(f), language: page.language(f) });
  }
  return files;
}
