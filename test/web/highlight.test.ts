// @module The explorer's code highlighting (web/src/highlight.ts): grammars found by language or extension, and highlighted text cut into lines that each stand alone.
import { describe, expect, it } from "vitest";
import { grammarFor, highlightedLines } from "../../web/src/highlight.ts";

/** The text of HTML markup, entities decoded. */
const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, "&");
const balanced = (html: string) => (html.match(/<span[^>]*>/g) ?? []).length === (html.match(/<\/span>/g) ?? []).length;

describe("grammarFor", () => {
  it("by the analysis' language name, its usual spellings, or the file's extension", () => {
    expect(grammarFor("Java", "A.java")).toBe("java");
    expect(grammarFor("TypeScript", "a.ts")).toBe("typescript");
    expect(grammarFor("C#", "a.cs")).toBe("csharp");
    expect(grammarFor("JSP", "a.jsp")).toBe("xml");
    expect(grammarFor("SQL", "schema.sql")).toBe("sql");
    expect(grammarFor(null, "src/server.js")).toBe("js");
    expect(grammarFor("Unknown", "db/schema.sql")).toBe("sql");
    expect(grammarFor("COBOL", "PAYROLL.cbl")).toBeUndefined();
  });
});

describe("highlightedLines", () => {
  const java = 'class A {\n  /* a comment\n     over two lines */\n  String s = "<b>";\n}\n';
  it("one line of HTML per line of text, the same text, each line's spans closed", () => {
    const lines = highlightedLines(java, "java");
    expect(lines.map(textOf)).toEqual(java.replace(/\n$/, "").split("\n"));
    for (const line of lines) expect(balanced(line), line).toBe(true);
    // The comment's second line is still marked as a comment.
    expect(lines[2]).toMatch(/^<span class="hljs-comment">\s+over two lines \*\/<\/span>/);
  });
  it("without a grammar, the text escaped, line by line", () => {
    expect(highlightedLines("a < b\n&c", undefined)).toEqual(["a &lt; b", "&amp;c"]);
  });
});
