// @module SQL text split into statements at top-level semicolons, with their lines, skipping comments, quotes and dollar quotes.

export interface SqlStatement {
  text: string;
  /** 1-based lines of the statement's first and last character, counted from the text's first line. */
  startLine: number;
  endLine: number;
}

/** The end (exclusive) of the quoted run, comment or dollar-quoted body starting at `i`, or `i` when none starts there. */
function skipQuoted(sql: string, i: number): number {
  const c = sql[i];
  if (c === "-" && sql[i + 1] === "-") {
    const end = sql.indexOf("\n", i);
    return end < 0 ? sql.length : end;
  }
  if (c === "/" && sql[i + 1] === "*") {
    const end = sql.indexOf("*/", i + 2);
    return end < 0 ? sql.length : end + 2;
  }
  if (c === "'" || c === '"' || c === "`") {
    // A doubled quote inside the run is an escaped quote; a backslash escapes in MySQL strings.
    let j = i + 1;
    while (j < sql.length) {
      if (sql[j] === "\\" && c === "'") j += 2;
      else if (sql[j] === c && sql[j + 1] === c) j += 2;
      else if (sql[j] === c) return j + 1;
      else j++;
    }
    return sql.length;
  }
  if (c === "$") {
    const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i, i + 64));
    if (tag) {
      const end = sql.indexOf(tag[0], i + tag[0].length);
      return end < 0 ? sql.length : end + tag[0].length;
    }
  }
  return i;
}

/** The offset of the first character that is neither blank nor in a comment, or -1 when there is none. */
function firstCode(text: string): number {
  for (let i = 0; i < text.length; ) {
    if (/\s/.test(text[i])) i++;
    else if ((text[i] === "-" && text[i + 1] === "-") || (text[i] === "/" && text[i + 1] === "*"))
      i = skipQuoted(text, i);
    else return i;
  }
  return -1;
}

export function splitStatements(sql: string): SqlStatement[] {
  const statements: SqlStatement[] = [];
  const newlines: number[] = [];
  for (let k = sql.indexOf("\n"); k >= 0; k = sql.indexOf("\n", k + 1)) newlines.push(k);
  /** 1 + the number of line breaks before the offset. */
  const lineAt = (offset: number) => {
    let low = 0;
    let high = newlines.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (newlines[mid] < offset) low = mid + 1;
      else high = mid;
    }
    return low + 1;
  };
  const push = (from: number, to: number) => {
    const raw = sql.slice(from, to);
    const lead = firstCode(raw);
    if (lead < 0) return;
    const text = raw.slice(lead).trimEnd();
    statements.push({ text, startLine: lineAt(from + lead), endLine: lineAt(from + lead + text.length - 1) });
  };
  let start = 0;
  let i = 0;
  while (i < sql.length) {
    const skipped = skipQuoted(sql, i);
    if (skipped > i) i = skipped;
    else if (sql[i] === ";") {
      push(start, i);
      start = ++i;
    } else i++;
  }
  push(start, sql.length);
  return statements;
}
