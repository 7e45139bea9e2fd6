// @module fileText: a range of lines of one source file of a snapshot, as the source code service answers it (docs/api.md#source-code-get-restapplicationsnamefilesfileid).

import { loadPages } from "../format/page-loads.ts";
import type { Snapshot } from "../format/snapshot.ts";
import { splitLines, type TextDirectory } from "../format/source-text.ts";

/** The answer of GET …/files/{fileId}. */
export interface FileText {
  fileId: string;
  path: string;
  startLine: number;
  endLine: number;
  totalLines: number;
  text: string;
}

/** Lines asked for: 1-based and inclusive, each bound optional (then the file's first or last line). */
export interface LineRange {
  startLine?: number;
  endLine?: number;
}

/**
 * Lines `startLine` to `endLine` of file `fileId`, the end cut to the file; null when the snapshot
 * does not list the file or lists it without text. A start past the end gives no line: `text` is
 * "" and `endLine` is the file's last line, before `startLine`.
 */
export async function fileText(snapshot: Snapshot, fileId: string, range: LineRange): Promise<FileText | null> {
  const file = (await fileIndex(snapshot)).get(fileId);
  if (file === undefined) return null;
  const directory = await snapshot.section("SRCD");
  const totalLines = directory.lines(file);
  if (totalLines === null) return null;
  const startLine = range.startLine ?? 1;
  const endLine = Math.min(range.endLine ?? totalLines, totalLines);
  const text = startLine <= endLine ? await linesOf(snapshot, directory, file, startLine, endLine) : "";
  const { paths } = await snapshot.section("SFIL");
  return { fileId, path: paths.get(file), startLine, endLine, totalLines, text };
}

/** File ids to their index in the file table, made once per snapshot. */
function fileIndex(snapshot: Snapshot): Promise<Map<string, number> & { byteSize: number }> {
  return snapshot.remember("file ids", async () => {
    const fileIds = await snapshot.section("SFID");
    const index = new Map<string, number>() as Map<string, number> & { byteSize: number };
    let bytes = 0;
    for (let f = 0; f < fileIds.length; f++) {
      const id = fileIds.get(f);
      index.set(id, f);
      bytes += 48 + id.length * 2;
    }
    index.byteSize = bytes;
    return index;
  });
}

/** Lines `start` to `end` (within the file) of `file`, from the pages that hold them. */
async function linesOf(
  snapshot: Snapshot,
  directory: TextDirectory,
  file: number,
  start: number,
  end: number,
): Promise<string> {
  const [first, last] = directory.pagesOf(file, start, end);
  const wanted = Array.from({ length: last - first + 1 }, (_, i) => first + i);
  const pages = await loadPages(snapshot, "SRCP", directory, wanted);
  const lines = splitLines(wanted.map((p) => pages.get(p)!.text).join(""));
  const from = start - directory.firstLines[first];
  return lines.slice(from, from + end - start + 1).join("");
}
