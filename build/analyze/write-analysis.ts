// @module Writes the model as an analysis document (shared/spec/analysis-format.md) into a file, atomically.
import { rename, rm, writeFile } from "node:fs/promises";
import { ANALYSIS_FORMAT } from "../analysis/schema.ts";
import { displayType } from "./kinds.ts";
import type { CodeModel } from "./model.ts";
import type { Taxonomy } from "./taxonomy.ts";

export interface AnalysisHeaderFields {
  application: string;
  analyzedAt: string;
  analyzer: { name: string; version: string };
}

export function analysisDocument(model: CodeModel, taxonomy: Taxonomy, header: AnalysisHeaderFields) {
  return {
    format: ANALYSIS_FORMAT,
    ...header,
    files: model.files.map((f) => ({ id: f.id, path: f.path, language: f.language })),
    taxonomy: taxonomy.nodes,
    objects: model.objects.map((o) => ({
      id: o.id,
      name: o.name,
      fullName: o.fullName,
      ...displayType(o.kind, o.language ?? "", o.packageKind ?? "npm"),
      language: o.language,
      filePath: o.filePath,
      mangling: o.mangling,
      external: o.external,
      annotations: o.annotations.length ? o.annotations : null,
      tags: [...o.tags].sort(),
      parent: o.parent?.id ?? null,
      level5: taxonomy.level5.get(o.id)!,
      role: o.role,
      checksum: o.checksum,
      ...(o.location ? { sourceLocations: [o.location] } : {}),
    })),
    links: [...model.links].map((l) => ({ from: l.from.id, to: l.to.id, type: l.type, ...(l.escalated ? { escalated: true } : {}) })),
    postIts: model.postIts.map((p) => ({ object: p.object.id, title: p.title, text: p.text })),
  };
}

export type AnalysisDocument = ReturnType<typeof analysisDocument>;

/** Writes to a temporary file renamed into place, so a failed write leaves no half file. */
export async function writeAnalysisFile(path: string, document: AnalysisDocument): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, JSON.stringify(document));
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
