// @module SourceLocations: the file table and each object's source locations, read by the source code service.
import { type Block, type Blocks, checkBelow, checkOffsets } from "./blocks.ts";
import { check } from "./errors.ts";
import type { ObjectRecord, SourceFile, SourceLocation } from "./model.ts";
import { encodeNullableStringList, encodeStringList, NullableStringList, StringList } from "./string-list.ts";

/**
 * Eleven blocks: file ids (StringList), file paths (StringList), file languages (NullableStringList);
 * u32 location row offsets by rank (rows + 1); u32 file index, u32 startLine, u32 endLine per location.
 */
export function encodeSourceLocations(files: readonly SourceFile[], objects: readonly ObjectRecord[]): Block[] {
  const offsets = new Uint32Array(objects.length + 1);
  objects.forEach((o, i) => (offsets[i + 1] = offsets[i] + o.sourceLocations.length));
  const all = objects.flatMap((o) => o.sourceLocations);
  return [
    ...encodeStringList(files.map((f) => f.id)),
    ...encodeStringList(files.map((f) => f.path)),
    ...encodeNullableStringList(files.map((f) => f.language)),
    offsets,
    Uint32Array.from(all, (l) => l.file),
    Uint32Array.from(all, (l) => l.startLine),
    Uint32Array.from(all, (l) => l.endLine),
  ];
}

export interface WireLocation {
  fileId: string;
  startLine: number;
  endLine: number;
}

export class SourceLocations {
  readonly fileIds: StringList;
  readonly filePaths: StringList;
  readonly fileLanguages: NullableStringList;
  private readonly offsets: Uint32Array;
  private readonly fileOf: Uint32Array;
  private readonly starts: Uint32Array;
  private readonly ends: Uint32Array;

  constructor(blocks: Blocks, rows: number) {
    this.fileIds = new StringList(blocks, 0, "file ids");
    this.filePaths = new StringList(blocks, 2, "file paths");
    this.fileLanguages = new NullableStringList(blocks, 4, "file languages");
    this.offsets = blocks.u32(7);
    this.fileOf = blocks.u32(8);
    this.starts = blocks.u32(9);
    this.ends = blocks.u32(10);
    const files = this.fileIds.length;
    check(this.filePaths.length === files && this.fileLanguages.length === files, "file columns differ in length");
    checkOffsets(this.offsets, rows, this.fileOf.length, "source locations");
    check(
      this.starts.length === this.fileOf.length && this.ends.length === this.fileOf.length,
      "location columns differ in length",
    );
    checkBelow(this.fileOf, files, "location files");
  }

  /** Locations of one object, in analysis order (the raw model form). */
  raw(rank: number): SourceLocation[] {
    const out: SourceLocation[] = [];
    for (let i = this.offsets[rank]; i < this.offsets[rank + 1]; i++)
      out.push({ file: this.fileOf[i], startLine: this.starts[i], endLine: this.ends[i] });
    return out;
  }

  /** Locations of one object as the API writes them, or null when it has none. */
  forObject(rank: number): WireLocation[] | null {
    if (this.offsets[rank] === this.offsets[rank + 1]) return null;
    return this.raw(rank).map((l) => ({
      fileId: this.fileIds.get(l.file),
      startLine: l.startLine,
      endLine: l.endLine,
    }));
  }

  files(): SourceFile[] {
    return Array.from({ length: this.fileIds.length }, (_, i) => ({
      id: this.fileIds.get(i),
      path: this.filePaths.get(i),
      language: this.fileLanguages.get(i),
    }));
  }

  get byteSize(): number {
    return (
      this.fileIds.byteSize +
      this.filePaths.byteSize +
      this.fileLanguages.byteSize +
      this.offsets.byteLength +
      this.fileOf.byteLength * 3
    );
  }
}
