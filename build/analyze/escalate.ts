// @module Escalated links: links between members lifted to their classes and files, as CAST lifts links to saved parents.
import type { CodeModel, CodeObject } from "./model.ts";

/** Link types that are lifted (INHERIT and DISPATCH already connect the classes or members themselves). */
const LIFTED = new Set(["CALL", "USE", "ACCESS", "REFER"]);

const classOf = (o: CodeObject): CodeObject | null => {
  for (let p = o.parent; p; p = p.parent) if (p.kind === "class" || p.kind === "interface") return p;
  return null;
};

/** The file of an internal object, the package of an external one. */
const containerOf = (o: CodeObject): CodeObject => {
  let p = o;
  while (p.parent) p = p.parent;
  return p;
};

/**
 * For each direct CALL/USE/ACCESS/REFER link A → B: an escalated link between the classes that
 * contain A and B (or A's class and B itself when B is a class) when they differ, and between
 * their files (B's package for an external B) when they differ.
 */
export function escalateLinks(model: CodeModel): void {
  for (const link of [...model.links]) {
    if (link.escalated || !LIFTED.has(link.type)) continue;
    const fromClass = classOf(link.from);
    const toClass = link.to.kind === "class" || link.to.kind === "interface" ? link.to : classOf(link.to);
    if (fromClass && toClass && fromClass !== toClass && (fromClass !== link.from || toClass !== link.to))
      model.link(fromClass, toClass, link.type, true);
    const fromFile = containerOf(link.from);
    const toFile = containerOf(link.to);
    if (fromFile !== toFile && (fromFile !== link.from || toFile !== link.to))
      model.link(fromFile, toFile, link.type, true);
  }
}
