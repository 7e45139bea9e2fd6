// @module Just enough Markdown for the documentation tests: headings and their sections, pipe tables, fenced code blocks, GitHub heading anchors.

export interface Heading {
  depth: number;
  text: string;
  /** Index of the heading's line. */
  line: number;
}

export interface Fence {
  /** The info string after the opening backticks (`json`, `http`…). */
  lang: string;
  body: string;
  /** Index of the opening line. */
  line: number;
}

export interface Section {
  heading: Heading;
  /** The lines under the heading, up to the next heading of the same or a higher level. */
  lines: string[];
}

/** The document's lines with the lines inside fenced blocks blanked, so a `#` or `|` in code counts for nothing. */
function proseLines(lines: readonly string[]): string[] {
  let inFence = false;
  return lines.map((line) => {
    if (/^\s*```/.test(line)) {
      inFence = !inFence;
      return "";
    }
    return inFence ? "" : line;
  });
}

export function headings(markdown: string): Heading[] {
  const found: Heading[] = [];
  proseLines(markdown.split("\n")).forEach((line, i) => {
    const m = /^(#{1,6})\s+(.*?)\s*$/.exec(line);
    if (m) found.push({ depth: m[1].length, text: m[2], line: i });
  });
  return found;
}

/** Every section whose heading satisfies `match`. */
export function sections(markdown: string, match: (heading: Heading) => boolean): Section[] {
  const lines = markdown.split("\n");
  const all = headings(markdown);
  return all.filter(match).map((heading) => {
    const next = all.find((h) => h.line > heading.line && h.depth <= heading.depth);
    return { heading, lines: lines.slice(heading.line + 1, next ? next.line : lines.length) };
  });
}

/** The pipe tables of `lines` (fenced code excluded): header cells and body rows, cells trimmed. */
export function tables(lines: readonly string[]): { header: string[]; rows: string[][] }[] {
  const prose = proseLines(lines);
  const found: { header: string[]; rows: string[][] }[] = [];
  for (let i = 0; i < prose.length; i++) {
    if (!prose[i].trimStart().startsWith("|") || !/^\s*\|[\s:|-]+\|\s*$/.test(prose[i + 1] ?? "")) continue;
    const block: string[] = [];
    while (i < prose.length && prose[i].trimStart().startsWith("|")) block.push(prose[i++]);
    const [header, , ...rows] = block.map(cells);
    found.push({ header, rows });
  }
  return found;
}

/** The cells of one table row; `\|` inside a cell is a literal bar. */
function cells(row: string): string[] {
  return row
    .trim()
    .replace(/^\||\|$/g, "")
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replace(/\\\|/g, "|"));
}

export function fences(markdown: string): Fence[] {
  const lines = markdown.split("\n");
  const found: Fence[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^\s*```(\S*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    while (++i < lines.length && !/^\s*```\s*$/.test(lines[i])) body.push(lines[i]);
    found.push({ lang: open[1], body: body.join("\n"), line: start });
  }
  return found;
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
export function anchor(headingText: string): string {
  return headingText
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The `code` spans of a piece of Markdown. */
export function codeSpans(text: string): string[] {
  return [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
}
