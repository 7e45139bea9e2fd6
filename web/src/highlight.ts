// @module Source code highlighted by highlight.js (bundled: its core and the grammars of the languages analyzers report), split into lines that keep their markup.
import hljs from "highlight.js/lib/core";
import c from "highlight.js/lib/languages/c";
import cpp from "highlight.js/lib/languages/cpp";
import csharp from "highlight.js/lib/languages/csharp";
import css from "highlight.js/lib/languages/css";
import go from "highlight.js/lib/languages/go";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import kotlin from "highlight.js/lib/languages/kotlin";
import pgsql from "highlight.js/lib/languages/pgsql";
import php from "highlight.js/lib/languages/php";
import python from "highlight.js/lib/languages/python";
import sql from "highlight.js/lib/languages/sql";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";

const GRAMMARS = { c, cpp, csharp, css, go, java, javascript, json, kotlin, pgsql, php, python, sql, typescript, xml };
for (const [name, grammar] of Object.entries(GRAMMARS)) hljs.registerLanguage(name, grammar);

/** Language names as analyses write them (lower-cased) that are not highlight.js's own names. */
const ALIASES: Record<string, string> = {
  "c#": "csharp",
  "c++": "cpp",
  html: "xml",
  jsp: "xml",
  plsql: "sql",
  "pl/sql": "sql",
  postgresql: "pgsql",
  "t-sql": "sql",
  tsx: "typescript",
  jsx: "javascript",
};

/** highlight.js's grammar for a language name or a file's extension; undefined when it has none bundled. */
export function grammarFor(language: string | null, path: string): string | undefined {
  const byName = language?.toLowerCase();
  if (byName && hljs.getLanguage(ALIASES[byName] ?? byName)) return ALIASES[byName] ?? byName;
  const extension = /\.([a-z0-9+#]+)$/i.exec(path)?.[1]?.toLowerCase();
  if (extension && hljs.getLanguage(ALIASES[extension] ?? extension)) return ALIASES[extension] ?? extension;
  return undefined;
}

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * The text as HTML lines, highlighted when a grammar is known. A token that spans lines (a block
 * comment) is closed at each line end and opened again on the next line, so every line stands alone.
 */
export function highlightedLines(text: string, grammar: string | undefined): string[] {
  const html = grammar ? hljs.highlight(text, { language: grammar, ignoreIllegals: true }).value : escapeHtml(text);
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
