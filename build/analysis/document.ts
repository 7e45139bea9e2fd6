// @module validateDocument: validates an analysis already parsed from `.json` (no file system: runs in workerd too).
import { AnalysisCollector, type ValidatedAnalysis } from "./collector.ts";
import { RECORD_KINDS, type RecordKind } from "./schema.ts";

/** Validates an analysis already parsed from `.json` (also what tests inside workerd compile from). */
export function validateDocument(document: unknown): ValidatedAnalysis {
  return collectDocument(new AnalysisCollector(jsonLocator), document);
}

export const jsonLocator = (kind: RecordKind | "header", i: number) =>
  kind === "header" ? "document" : `${RECORD_KINDS[kind].array}[${i}]`;

export function collectDocument(collector: AnalysisCollector, document: unknown): ValidatedAnalysis {
  if (!collector.acceptHeader(document, 0)) return collector.finish();
  const doc = document as Record<string, unknown>;
  if (!("objects" in doc)) collector.fault("document", "objects", "is required (an array, possibly empty)");
  for (const [kind, { array }] of Object.entries(RECORD_KINDS) as [RecordKind, { array: string }][]) {
    const records = doc[array];
    if (records === undefined) continue;
    if (!Array.isArray(records)) {
      collector.fault("document", array, `must be an array, found ${records === null ? "null" : typeof records}`);
      continue;
    }
    records.forEach((record, i) => collector.record(kind, record, i));
  }
  return collector.finish();
}
