// @module SCIP ranges: the half-open [start, end) spans of occurrences, and which definition bodies contain each occurrence.

export type Position = readonly [line: number, character: number];

export interface Span {
  start: Position;
  end: Position;
}

export const before = (a: Position, b: Position) => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);

/** Spans by start, an outer span before the spans it holds. */
export const outerFirst = (a: Span, b: Span) =>
  before(a.start, b.start) ? -1 : before(b.start, a.start) ? 1 : before(b.end, a.end) ? -1 : 1;

/** A range of scip.proto: `[startLine, startCharacter, endLine, endCharacter]`, or three numbers on one line; null when malformed. */
export function spanOf(range: readonly number[]): Span | null {
  if (range.length !== 3 && range.length !== 4) return null;
  if (range.some((n) => n < 0)) return null;
  const [line, character] = range;
  const end: Position = range.length === 3 ? [line, range[2]] : [range[2], range[3]];
  return before(end, [line, character]) ? null : { start: [line, character], end };
}

/**
 * For each point, the spans containing its start, outermost first. One sweep over both sorted by
 * start: a stack holds the spans open at the current point (definition bodies nest).
 */
export function spansContaining<T extends { span: Span }>(spans: readonly T[], points: readonly Span[]): T[][] {
  const order = [...spans].sort((a, b) => outerFirst(a.span, b.span));
  const pointOrder = points
    .map((_, i) => i)
    .sort((a, b) =>
      before(points[a].start, points[b].start) ? -1 : before(points[b].start, points[a].start) ? 1 : a - b,
    );
  const result: T[][] = points.map(() => []);
  const open: T[] = [];
  let next = 0;
  for (const i of pointOrder) {
    const at = points[i].start;
    while (next < order.length && !before(at, order[next].span.start)) open.push(order[next++]);
    // Spans that ended at or before this point close; a span that does not nest inside the one below it closes with it.
    for (let k = open.length - 1; k >= 0; k--) if (!before(at, open[k].span.end)) open.splice(k, 1);
    result[i] = [...open];
  }
  return result;
}
