// @module Reference implementation of changes between two analyses and of source code by line range, straight from docs/api.md over the raw analysis JSON.
//
// As naive as reference.ts: maps and sorts over whole documents, no snapshot code.
import { byName } from "./reference.ts";

export interface HistoryAnalysis {
  analyzedAt: string;
  objects: readonly Record<string, unknown>[];
  files?: readonly { id: string; path: string; text?: string }[];
}

interface Described {
  id: string;
  name: string;
  fullName: string;
  type: string;
  typeId: string;
}

const LABELS = { added: "Added", deleted: "Deleted", modified: "Modified" } as const;
type Change = keyof typeof LABELS;

/** GET …/changes between `from` and `to`: statuses (lower-case) default to all three. */
export function referenceChanges(
  from: HistoryAnalysis,
  to: HistoryAnalysis,
  query: { statuses?: readonly string[]; skip?: number; limit: number },
) {
  const before = new Map(from.objects.map((o) => [o.id as string, o]));
  const after = new Map(to.objects.map((o) => [o.id as string, o]));
  const changed: (Described & { change: Change })[] = [];
  const describe = (o: Record<string, unknown>, change: Change) => ({
    id: o.id as string,
    name: o.name as string,
    fullName: o.fullName as string,
    type: o.type as string,
    typeId: o.typeId as string,
    change,
  });
  for (const [id, o] of after) {
    const old = before.get(id);
    if (!old) changed.push(describe(o, "added"));
    else if (typeof o.checksum === "string" && typeof old.checksum === "string" && o.checksum !== old.checksum)
      changed.push(describe(o, "modified"));
  }
  for (const [id, o] of before) if (!after.has(id)) changed.push(describe(o, "deleted"));
  changed.sort(byName);
  const count = (c: Change) => changed.filter((o) => o.change === c).length;
  const wanted = new Set(query.statuses?.length ? query.statuses : ["added", "deleted", "modified"]);
  const listed = changed.filter((o) => wanted.has(o.change));
  const skip = query.skip ?? 0;
  return {
    from: from.analyzedAt,
    to: to.analyzedAt,
    totals: { added: count("added"), deleted: count("deleted"), modified: count("modified") },
    totalObjects: listed.length,
    objects: listed
      .slice(skip, skip + query.limit)
      .map(({ change, ...o }) => ({ ...o, status: LABELS[change] as string })),
  };
}

/** GET …/files/{fileId}: null for a file not listed or listed without text (404 file_not_found). */
export function referenceFileText(analysis: HistoryAnalysis, fileId: string, startLine?: number, endLine?: number) {
  const file = analysis.files?.find((f) => f.id === fileId);
  if (file?.text === undefined) return null;
  // A line runs to a line feed, included; the last may have none.
  const lines = file.text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const start = startLine ?? 1;
  const end = Math.min(endLine ?? lines.length, lines.length);
  return {
    fileId,
    path: file.path,
    startLine: start,
    endLine: end,
    totalLines: lines.length,
    text: lines.slice(start - 1, Math.max(start - 1, end)).join(""),
  };
}
