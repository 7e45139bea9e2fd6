// @module The correctness check before timing: for every mix query, the baseline's answer must equal ours, whole.
import { isDeepStrictEqual } from "node:util";
import type { MixEntry } from "./mix.ts";

export interface Mismatch {
  cls: string;
  path: string;
  /** Where the answers first differ (a JSON path) and the two values there. */
  detail: string;
}

/** The first place where `a` and `b` differ, as `$.objects[3].name: "x" ≠ "y"`; null when equal. */
export function firstDifference(a: unknown, b: unknown, at = "$"): string | null {
  if (isDeepStrictEqual(a, b)) return null;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const d = firstDifference(a[i], b[i], `${at}[${i}]`);
      if (d) return d;
    }
    return `${at}: ${a.length} elements ≠ ${b.length}`;
  }
  if (a && b && typeof a === "object" && typeof b === "object" && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    for (const k of keys) {
      const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${at}.${k}`);
      if (d) return d;
    }
  }
  const show = (x: unknown) => (JSON.stringify(x) ?? "undefined").slice(0, 200);
  return `${at}: ours ${show(a)} ≠ baseline ${show(b)}`;
}

/** Compares both sides' answers for every entry; returns the mismatches (empty when all agree). */
export async function compareAnswers(
  entries: readonly MixEntry[],
  ours: (e: MixEntry) => Promise<unknown>,
  baseline: (e: MixEntry) => Promise<unknown>,
  progress: (line: string) => void = () => {},
): Promise<Mismatch[]> {
  const mismatches: Mismatch[] = [];
  for (const [i, e] of entries.entries()) {
    const detail = firstDifference(await ours(e), await baseline(e));
    if (detail) mismatches.push({ cls: e.cls, path: e.path, detail });
    if ((i + 1) % 10 === 0) progress(`  checked ${i + 1} of ${entries.length}`);
  }
  return mismatches;
}

/** One line when all agree, else one per mismatch. */
export function logMismatches(where: string, mismatches: readonly Mismatch[], log: (line: string) => void): void {
  if (mismatches.length === 0) log(`correctness ${where}: every answer of the baseline equals ours`);
  for (const m of mismatches) log(`MISMATCH ${where} [${m.cls}] ${m.path}\n    ${m.detail}`);
}
