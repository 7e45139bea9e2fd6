// @module SourceFiles: the file table of the source locations, its ids (SFID) apart from their paths and languages (SFIL), which only the source code route reads.
import type { Block, Blocks } from "./blocks.ts";
import { check } from "./errors.ts";
import type { SourceFile } from "./model.ts";
import { encodeNullableStringList, encodeStringList, NullableStringList, StringList } from "./string-list.ts";

/** SFID's two blocks: the file ids (StringList), by file index. */
export function encodeFileIds(files: readonly SourceFile[]): Block[] {
  return encodeStringList(files.map((f) => f.id));
}

/** SFIL's five blocks: the file paths (StringList), then their languages (NullableStringList), by file index. */
export function encodeFileDetails(files: readonly SourceFile[]): Block[] {
  return [...encodeStringList(files.map((f) => f.path)), ...encodeNullableStringList(files.map((f) => f.language))];
}

/** The file ids, by file index: what a source location names its file by, 9 bytes a file where the paths take 75. */
export class FileIds extends StringList {
  constructor(blocks: Blocks, files: number) {
    super(blocks, 0, "file ids");
    check(this.length === files, `SFID holds ${this.length} file ids, META says ${files} files`);
  }
}

/** The file paths and languages, by file index. */
export class FileDetails {
  readonly paths: StringList;
  readonly languages: NullableStringList;

  constructor(blocks: Blocks, files: number) {
    this.paths = new StringList(blocks, 0, "file paths");
    this.languages = new NullableStringList(blocks, 2, "file languages");
    check(
      this.paths.length === files && this.languages.length === files,
      `SFIL holds ${this.paths.length} paths and ${this.languages.length} languages, META says ${files} files`,
    );
  }

  get byteSize(): number {
    return this.paths.byteSize + this.languages.byteSize;
  }
}

/** Every file of the table, from both sections (decodeSnapshotModel). */
export function sourceFiles(ids: FileIds, details: FileDetails): SourceFile[] {
  return Array.from({ length: ids.length }, (_, f) => ({
    id: ids.get(f),
    path: details.paths.get(f),
    language: details.languages.get(f),
  }));
}
