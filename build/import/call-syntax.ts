// @module What the source says of a reference: a call, a function passed as an argument, or neither, read around the occurrence's range.

export type ReferenceForm = "call" | "argument" | "other";

/** A balanced `<...>` of type arguments starting at `at`, returning the index after it, or -1. */
function skipTypeArguments(line: string, at: number): number {
  let depth = 0;
  for (let i = at; i < line.length; i++) {
    if (line[i] === "<") depth++;
    else if (line[i] === ">" && --depth === 0) return i + 1;
    else if (!/[\w\s.,[\]|&?]/.test(line[i])) return -1;
  }
  return -1;
}

/**
 * The form of a reference spanning [start, end) of `line`: a call when `(` (after type arguments or
 * `?.`) or a template's backquote follows, or `@` (a decorator) precedes, or `<` in JSX; an argument
 * when `(` or `,` precedes and `,` or `)` follows; otherwise something else (an export, an
 * assignment, a type position).
 */
export function referenceForm(line: string, start: number, end: number, jsx: boolean): ReferenceForm {
  let after = end;
  while (line[after] === " ") after++;
  if (line[after] === "<") {
    const skipped = skipTypeArguments(line, after);
    if (skipped > 0) after = skipped;
  }
  if (line.startsWith("?.", after)) after += 2;
  if (line[after] === "(" || line[after] === "`") return "call";
  let before = start - 1;
  while (before >= 0 && line[before] === " ") before--;
  if (line[before] === "@" || (jsx && line[before] === "<")) return "call";
  // `a.b.c` names c: look before the whole property path.
  let head = start;
  while (head > 0 && /[\w$.]/.test(line[head - 1])) head--;
  let previous = head - 1;
  while (previous >= 0 && line[previous] === " ") previous--;
  const next = line[after];
  if ((line[previous] === "(" || line[previous] === ",") && (next === "," || next === ")" || next === undefined))
    return "argument";
  return "other";
}

/** A document's lines, indexed by SCIP character offsets in the document's position encoding. */
export class SourceLines {
  private readonly lines: string[];
  private readonly encoding: number;

  /** `encoding`: scip.proto's PositionEncoding (1 UTF-8, 2 UTF-16, 3 UTF-32; 0 unspecified is read as UTF-16, JavaScript's). */
  constructor(text: string, encoding: number) {
    this.lines = text.split(/\r?\n/);
    this.encoding = encoding;
  }

  /** The line and the UTF-16 offsets of a range on it, or null when the range is not on one existing line. */
  range(line: number, start: number, end: number): { text: string; start: number; end: number } | null {
    const text = this.lines[line];
    if (text === undefined) return null;
    const offset = (n: number) => {
      if (this.encoding === 1) return Buffer.from(text).subarray(0, n).toString().length;
      if (this.encoding === 3) return [...text].slice(0, n).join("").length;
      return n;
    };
    return { text, start: offset(start), end: offset(end) };
  }
}
