// @module Writes the model as an analysis document (docs/analysis-format.md) into a file, atomically.
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
    files: model.files.map((f) => ({
      id: f.id,
      path: f.path,
      language: f.language,
      ...(f.text === undefined ? {} : { text: f.text }),
    })),
    taxonomy: taxonomy.nodes,
    // Fields at their format default are left out: the analyses of real projects stay a third smaller.
    objects: model.objects.map((o) => ({
      id: o.id,
      name: o.name,
      fullName: o.fullName,
      ...displayType(o.kind, o.language ?? "", o.packageKind ?? "npm"),
      ...(o.language ? { language: o.language } : {}),
      ...(o.filePath ? { filePath: o.filePath } : {}),
      ...(o.mangling ? { mangling: o.mangling } : {}),
      ...(o.external ? { external: true } : {}),
      ...(o.annotations.length ? { annotations: o.annotations } : {}),
      ...(o.tags.size ? { tags: [...o.tags].sort() } : {}),
      ...(o.parent ? { parent: o.parent.id } : {}),
      level5: taxonomy.level5.get(o.id)!,
      ...(o.role ? { role: o.role } : {}),
      checksum: o.checksum,
      ...(o.location ? { sourceLocations: [o.location] } : {}),
    })),
    links: [...model.links].map((l) => ({
      from: l.from.id,
      to: l.to.id,
      type: l.type,
      ...(l.escalated ? { escalated: true } : {}),
    })),
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
