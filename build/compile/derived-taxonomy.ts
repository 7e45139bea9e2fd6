// @module The default taxonomy for analyses that bring none (documented in docs/default-taxonomy.md).
import type { AnalysisObject, AnalysisTaxonomyNode } from "../analysis/schema.ts";

/** The five level names of an object under the default rules: boundary, language, top folder, typeId, type. */
function defaultPath(object: AnalysisObject): [string, string, string, string, string] {
  const folder = object.filePath
    ? (object.filePath.split(/[\\/]/).find((segment) => segment !== "") ?? "(root)")
    : "(no file)";
  return [
    object.external ? "External" : "Application",
    object.language ?? "Unknown language",
    folder,
    object.typeId,
    object.type,
  ];
}

/**
 * Builds taxonomy records for `objects` and returns them with each object's level-5 key.
 * Keys are the JSON of the path so far, so equal names under different parents stay distinct.
 */
export function deriveTaxonomy(objects: readonly AnalysisObject[]): {
  nodes: AnalysisTaxonomyNode[];
  level5: string[];
} {
  const nodes = new Map<string, AnalysisTaxonomyNode>();
  const level5 = objects.map((object) => {
    const path = defaultPath(object);
    let parent: string | null = null;
    for (let l = 0; l < 5; l++) {
      const key = JSON.stringify(path.slice(0, l + 1));
      if (!nodes.has(key)) nodes.set(key, { key, level: l + 1, name: path[l], parent });
      parent = key;
    }
    return parent!;
  });
  return { nodes: [...nodes.values()], level5 };
}
