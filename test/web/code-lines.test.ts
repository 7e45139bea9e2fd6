// @module What the explorer does to source code around highlight.js (web/src/code-lines.ts): the grammar a file gets, and highlighted HTML cut into lines that each stand alone.
import { describe, expect, it } from "vitest";
import { escapeHtml, grammarFor, htmlLines } from "../../web/src/code-lines.ts";

const balanced = (html: string) => (html.match(/<span[^>]*>/g) ?? []).length === (html.match(/<\/span>/g) ?? []).length;
const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

describe("grammarFor", () => {
  it("by the analysis' language name or its usual spellings, else by the file's extension", () => {
    expect(grammarFor("Java", "A.java")).toBe("java");
    expect(grammarFor("TypeScript", "a.ts")).toBe("typescript");
    expect(grammarFor("C#", "a.cs")).toBe("csharp");
    expect(grammarFor("JSP", "a.jsp")).toBe("xml");
    expect(grammarFor(null, "src/server.js")).toBe("javascript");
    expect(grammarFor("Unknown", "db/schema.sql")).toBe("sql");
    expect(grammarFor("COBOL", "PAYROLL.cbl")).toBeUndefined();
  });
});

describe("htmlLines", () => {
  // As highlight.js marks a Java block comment over two lines and a string with markup in it.
  const text = 'class A {\n  /* a comment\n     over two lines */\n  String s = "<b>";\n}\n';
  const html = `<span class="hljs-keyword">class</span> <span class="hljs-title class_">A</span> {\n  <span class="hljs-comment">/* a comment\n     over two lines */</span>\n  <span class="hljs-type">String</span> <span class="hljs-variable">s</span> = <span class="hljs-string">&quot;${escapeHtml("<b>")}&quot;</span>;\n}\n`;
  it("one line of HTML per line of text, the same text, each line's spans closed", () => {
    const lines = htmlLines(html, text);
    expect(lines.map(textOf).map((l) => l.replace(/&quot;/g, '"'))).toEqual(text.replace(/\n$/, "").split("\n"));
    for (const line of lines) expect(balanced(line), line).toBe(true);
    // The comment's second line is still marked as a comment, and closed.
    expect(lines[1]).toBe('  <span class="hljs-comment">/* a comment</span>');
    expect(lines[2]).toBe('<span class="hljs-comment">     over two lines */</span>');
  });
  it("text without a final newline keeps its last line; escaped text passes through", () => {
    expect(htmlLines(escapeHtml("a < b\n&c"), "a < b\n&c")).toEqual(["a &lt; b", "&amp;c"]);
  });
});
