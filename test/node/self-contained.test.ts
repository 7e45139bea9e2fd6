// @module The repository stands alone: no tracked file reaches above the repository's root, nor into one machine's folders.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");

/** Tracked files (what a clone holds), with their text when they are text. */
function trackedTexts(): { path: string; text: string }[] {
  const paths = execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" }).split("\0").filter(Boolean);
  return paths.flatMap((path) => {
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(ROOT, path));
    } catch {
      return []; // listed but deleted in the working tree
    }
    return bytes.includes(0) ? [] : [{ path, text: bytes.toString("utf8") }];
  });
}

/**
 * The relative paths (`../x`, `../../x`…) in `text` that, taken from `file`'s folder, land outside the
 * repository: anywhere in code and configuration; in Markdown, link targets only (prose may show a
 * command run on the user's own folders).
 */
function escapes(file: string, text: string): string[] {
  const found: string[] = [];
  const pattern = file.endsWith(".md") ? /(?<=\]\()(?:\.\.\/)+[\w@./-]*/g : /(?<![\w.])(?:\.\.\/)+[\w@./-]*/g;
  for (const match of text.matchAll(pattern)) {
    const target = resolve(ROOT, dirname(file), match[0]);
    const inside = relative(ROOT, target);
    if (inside === ".." || inside.startsWith(`..${sep}`)) found.push(match[0]);
  }
  return found;
}

/** Analyzed fixture sources may hold any path their project has (data, never a path the project reads), and this file shows what it looks for. */
const EXEMPT = /^test\/fixtures\/analyze\/|^test\/node\/self-contained\.test\.ts$/;

describe("the repository stands alone", () => {
  const files = trackedTexts();

  it("tracks its files (git ls-files answers)", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((f) => f.path === "package.json")).toBe(true);
  });

  it("no tracked file reaches a folder above the repository through a relative path", () => {
    const offenders = files
      .filter((f) => !EXEMPT.test(f.path))
      .flatMap((f) => escapes(f.path, f.text).map((reference) => `${f.path}: ${reference}`));
    expect(offenders).toEqual([]);
  });

  it("no tracked file names the folder this machine keeps the checkout in, nor the spec folder beside it", () => {
    const offenders = files
      .filter((f) => !EXEMPT.test(f.path) && /\/work\/(main|shared)\b|shared\/spec\//.test(f.text))
      .map((f) => f.path);
    expect(offenders).toEqual([]);
  });

  it("finds an escaping reference where there is one", () => {
    expect(escapes("test/worker/x.test.ts", 'import a from "../../../shared/spec/examples/a.json";')).toEqual([
      "../../../shared/spec/examples/a.json",
    ]);
    expect(escapes("test/worker/x.test.ts", 'import a from "../fixtures/examples/a.json";')).toEqual([]);
    expect(escapes("README.md", "see [the spec](../shared/spec/interface.md)")).toEqual([
      "../shared/spec/interface.md",
    ]);
  });
});
