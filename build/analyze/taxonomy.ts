// @module The five-level taxonomy from the rules file: abstracted service, service, concept, technology, object type.
import { DATA_KINDS, displayType, PACKAGE_TYPES } from "./kinds.ts";
import type { CodeObject } from "./model.ts";
import { firstMatch, type Rules } from "./rules.ts";

/** Taxonomy keys are the node's position, e.g. `1.2.3.1.4` (first level-1 node, its second child ...): short, since every object names its level-5 key. */
export interface TaxonomyNode {
  key: string;
  level: number;
  name: string;
  parent: string | null;
}

/** Level-5 keys by object id, and the nodes they need (built from paths of names, one node per distinct path prefix). */
export interface Taxonomy {
  nodes: TaxonomyNode[];
  level5: Map<string, string>;
}

/** Level 3: the first `depth` folders of the file's path after the folders the rules skip (`src/`, `lib/` ...). */
export function conceptOf(path: string, rules: Rules["concept"]): string {
  const folders = path.split("/").slice(0, -1);
  while (folders.length > 0 && rules.skipFolders.includes(folders[0])) folders.shift();
  return folders.length === 0 ? rules.rootName : folders.slice(0, rules.depth).join("/");
}

const fileOf = (o: CodeObject): CodeObject => {
  let p = o;
  while (p.parent) p = p.parent;
  return p;
};

export function buildTaxonomy(
  objects: readonly CodeObject[],
  fileImports: ReadonlyMap<CodeObject, ReadonlySet<string>>,
  rules: Rules,
): Taxonomy {
  const nodes = new Map<string, TaxonomyNode>();
  const children = new Map<string | null, number>();
  const level5 = new Map<string, string>();
  const perFile = new Map<CodeObject, string[]>();
  const pathOf = (o: CodeObject): string[] => {
    const file = fileOf(o);
    if (o.external) {
      const pkg = file.packageKind ?? "npm";
      return [rules.abstracted.external, "Libraries", file.name, PACKAGE_TYPES[pkg][2]];
    }
    // Tables, views and collections are data wherever the statement creating them is (a TypeScript migration too), or when nothing creates them.
    if (DATA_KINDS.has(o.kind)) {
      const concept = o.filePath ? conceptOf(o.filePath, rules.concept) : rules.concept.rootName;
      return [rules.abstracted.internal, rules.sql.service, concept, o.language!];
    }
    let prefix = perFile.get(file);
    if (!prefix) {
      const imports = fileImports.get(file) ?? new Set<string>();
      const service = firstMatch(rules.services, file.filePath!, imports)?.name ?? "Logic Services";
      const technology = firstMatch(rules.technologies, file.filePath!, imports)?.name ?? file.language!;
      prefix = [rules.abstracted.internal, service, conceptOf(file.filePath!, rules.concept), technology];
      perFile.set(file, prefix);
    }
    return prefix;
  };
  for (const o of objects) {
    const path = [...pathOf(o), displayType(o.kind, o.language ?? "", o.packageKind ?? "npm").type];
    let parent: TaxonomyNode | null = null;
    path.forEach((name, i) => {
      const pathKey = JSON.stringify(path.slice(0, i + 1));
      let node = nodes.get(pathKey);
      if (!node) {
        const n = (children.get(parent?.key ?? null) ?? 0) + 1;
        children.set(parent?.key ?? null, n);
        node = { key: parent ? `${parent.key}.${n}` : String(n), level: i + 1, name, parent: parent?.key ?? null };
        nodes.set(pathKey, node);
      }
      parent = node;
    });
    level5.set(o.id, parent!.key);
  }
  return { nodes: [...nodes.values()], level5 };
}
