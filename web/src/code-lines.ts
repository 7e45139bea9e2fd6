// @module Which highlight.js grammar a source file gets (by the analysis' language name or the file's extension), and highlighted HTML cut into lines that each stand alone. Free of highlight.js itself, so it is tested without a browser's types.

/** The grammars bundled (web/src/highlight.ts registers exactly these). */
export const GRAMMAR_NAMES = [
  "c",
  "cpp",
  "csharp",
  "css",
  "go",
  "java",
  "javascript",
  "json",
  "kotlin",
  "pgsql",
  "php",
  "python",
  "sql",
  "typescript",
  "xml",
] as const;
export type GrammarName = (typeof GRAMMAR_NAMES)[number];

/** Language names as analyses write them (lower-cased) and file extensions, to grammars. */
const ALIASES: Record<string, GrammarName> = {
  "c#": "csharp",
  "c++": "cpp",
  cs: "csharp",
  h: "c",
  hpp: "cpp",
  html: "xml",
  js: "javascript",
  jsp: "xml",
  jsx: "javascript",
  kt: "kotlin",
  mjs: "javascript",
  "pl/sql": "sql",
  plsql: "sql",
  postgresql: "pgsql",
  py: "python",
  "t-sql": "sql",
  ts: "typescript",
  tsx: "typescript",
};

const grammarNamed = (name: string): GrammarName | undefined =>
  (GRAMMAR_NAMES as readonly string[]).includes(name) ? (name as GrammarName) : ALIASES[name];

/** The grammar for the analysis' language name, else for the file's extension; undefined when none is bundled. */
export function grammarFor(language: string | null, path: string): GrammarName | undefined {
  const byName = language ? grammarNamed(language.toLowerCase()) : undefined;
  const extension = /\.([a-z0-9+#]+)$/i.exec(path)?.[1]?.toLowerCase();
  return byName ?? (extension ? grammarNamed(extension) : undefined);
}

export const escapeHtml = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * Highlighted HTML (spans only) of `text` as one HTML string per line of the text. A span that
 * crosses lines (a block comment) is closed at each line end and opened again on the next line.
 */
export function htmlLines(html: string, text: string): string[] {
  const lines: string[] = [];
  const open: string[] = [];
  for (const line of html.split("\n")) {
    const start = open.join("");
    for (const tag of line.match(/<span[^>]*>|<\/span>/g) ?? []) {
      if (tag === "</span>") open.pop();
      else open.push(tag);
    }
    lines.push(start + line + "</span>".repeat(open.length));
  }
  if (lines.length > 1 && text.endsWith("\n")) lines.pop();
  return lines;
}
