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
 * "" and `endLine` is the file's last line, before `startLine`. The page of the file's path and those
 * of its lines are read together, one round.
 */
export async function fileText(snapshot: Snapshot, fileId: string, range: LineRange): Promise<FileText | null> {
  const [ids, files, directory] = await Promise.all([
    snapshot.section("SFID"),
    snapshot.section("SFLD"),
    snapshot.section("SRCD"),
  ]);
  const file = ids.indexOf(fileId);
  if (file < 0) return null;
  const totalLines = directory.lines(file);
  if (totalLines === null) return null;
  const startLine = range.startLine ?? 1;
  const endLine = Math.min(range.endLine ?? totalLines, totalLines);
  const p = files.pageOf(file);
  const [pages, text] = await Promise.all([
    loadPages(snapshot, "SFLP", files, [p]),
    startLine <= endLine ? linesOf(snapshot, directory, file, startLine, endLine) : "",
  ]);
  return { fileId, path: pages.get(p)!.path(file), startLine, endLine, totalLines, text };
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
