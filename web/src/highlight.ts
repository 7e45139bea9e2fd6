// @module Source code highlighted by highlight.js (bundled: its core and the grammars of web/src/code-lines.ts), as lines that keep their markup.
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
import { escapeHtml, type GrammarName, htmlLines } from "./code-lines.ts";

const GRAMMARS: Record<GrammarName, typeof java> = {
  c,
  cpp,
  csharp,
  css,
  go,
  java,
  javascript,
  json,
  kotlin,
  pgsql,
  php,
  python,
  sql,
  typescript,
  xml,
};
for (const [name, grammar] of Object.entries(GRAMMARS)) hljs.registerLanguage(name, grammar);

/** The text as HTML lines, highlighted when there is a grammar. */
export function highlightedLines(text: string, grammar: GrammarName | undefined): string[] {
  const html = grammar ? hljs.highlight(text, { language: grammar, ignoreIllegals: true }).value : escapeHtml(text);
  return htmlLines(html, text);
}
