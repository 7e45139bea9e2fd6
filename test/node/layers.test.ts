// @module The layers keep to their lanes: src/format alone reads snapshot bytes; the query engine (src/query) asks it for sections, pages and values, and knows nothing of HTTP.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = resolve(import.meta.dirname, "../../src");

/** Each TypeScript file of `folder` (under src/) with its text. */
function sources(folder: string): { file: string; text: string }[] {
  return readdirSync(join(SRC, folder))
    .filter((name) => name.endsWith(".ts"))
    .map((name) => ({ file: `${folder}/${name}`, text: readFileSync(join(SRC, folder, name), "utf8") }));
}

/** What `text` imports (static and dynamic), as written. */
function imports(text: string): string[] {
  return [...text.matchAll(/\bfrom\s+"([^"]+)"|\bimport\s*\(\s*"([^"]+)"\s*\)/g)].map((m) => m[1] ?? m[2]);
}

/** `text` without its comments: a comment may name what the code must not use. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
}

describe("layers", () => {
  const query = sources("query");
  const format = sources("format");

  it("finds the modules it checks", () => {
    expect(query.length).toBeGreaterThan(20);
    expect(format.length).toBeGreaterThan(20);
  });

  it("the query engine imports the format, the contract and its own modules, never Hono or the HTTP layer", () => {
    const allowed = /^(\.\/|\.\.\/format\/|\.\.\/contract\/|\.\.\/storage\/catalog\.ts$|\.\.\/wait-until\.ts$)/;
    const offenders = query.flatMap(({ file, text }) =>
      imports(text)
        .filter((target) => !allowed.test(target))
        .map((target) => `${file} imports ${target}`),
    );
    expect(offenders).toEqual([]);
  });

  it("the query engine reads no bytes: no offsets, ranges, blocks or inflation, only sections, pages and values", () => {
    const byteLevel = /\.(readPart|pagesBlock|read)\(|\.offsets\b|\bDataView\b|\bBlocks\b|\binflate\w*|\bcrc32\b/g;
    const offenders = query.flatMap(({ file, text }) =>
      [...code(text).matchAll(byteLevel)].map((m) => `${file}: ${m[0]}`),
    );
    expect(offenders).toEqual([]);
  });

  it("the format imports neither the query engine nor HTTP", () => {
    const offenders = format.flatMap(({ file, text }) =>
      imports(text)
        .filter((target) => /^(hono|@hono\/)|^\.\.\/(query|http|mcp)\//.test(target))
        .map((target) => `${file} imports ${target}`),
    );
    expect(offenders).toEqual([]);
  });
});
