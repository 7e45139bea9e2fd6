// @module Test helper: analyses a fixture mini-project and renders its objects and links as compact lines to compare with hand-worked answers.
import { join } from "node:path";
import { expect } from "vitest";
import { validateDocument } from "../../build/analysis/document.ts";
import { type AnalyzeResult, analyzeProject } from "../../build/analyze/analyze.ts";

export const FIXTURES = join(import.meta.dirname, "../fixtures/analyze");

export type Analysis = AnalyzeResult["document"];

/** Analyses `test/fixtures/analyze/<name>` at a fixed date, and checks the output is a valid analysis. */
export function analyzeFixture(name: string, folder = join(FIXTURES, name)): AnalyzeResult {
  const result = analyzeProject({ folder, analyzedAt: "2026-11-01T00:00:00Z" });
  expect(validateDocument(result.document).objects.length).toBe(result.document.objects.length);
  return result;
}

/** Internal objects other than files as `type | fullName | file:start-end`, or `type | fullName | (no file)`. */
export function objectLines(d: Analysis): string[] {
  return d.objects
    .filter((o) => !o.external && !o.typeId.endsWith("_FILE"))
    .map((o) => {
      const at = o.sourceLocations?.[0];
      return `${o.type} | ${o.fullName} | ${at ? `${o.filePath}:${at.startLine}-${at.endLine}` : "(no file)"}`;
    });
}

/** Direct links of the given types as `TYPE from -> to` by fullName, sorted. */
export function linkLines(d: Analysis, types: string[], { escalated = false } = {}): string[] {
  const fullName = new Map(d.objects.map((o) => [o.id, o.fullName]));
  return d.links
    .filter((l) => types.includes(l.type) && !!l.escalated === escalated)
    .map((l) => `${l.type} ${fullName.get(l.from)} -> ${fullName.get(l.to)}`)
    .sort();
}

/** The names of an object's taxonomy path, level 1 to 5. */
export function levelNames(d: Analysis, o: Analysis["objects"][number]): string[] {
  const nodes = new Map(d.taxonomy.map((n) => [n.key, n]));
  const names: string[] = [];
  for (let key: string | null = o.level5; key !== null; key = nodes.get(key)!.parent)
    names.unshift(nodes.get(key)!.name);
  return names;
}

export const object = (d: Analysis, fullName: string) => {
  const found = d.objects.find((o) => o.fullName === fullName);
  if (!found) throw new Error(`no object ${fullName}`);
  return found;
};
