// @module checkAnswers: every query of the mix answered by both sides and compared as parsed JSON before anything is timed.
import { firstDifference } from "./compare.ts";
import type { MixQuery } from "./mix.ts";

/** One side's full answer to a query: HTTP status and body text. */
export type AnsweringSide = (query: MixQuery) => Promise<{ status: number; body: string }>;

export interface Mismatch {
  /** Which pair of sides differed: over HTTP, in process, engine to engine. */
  where: string;
  query: MixQuery;
  difference: string;
}

export async function checkAnswers(
  where: string,
  mix: MixQuery[],
  ours: AnsweringSide,
  sqlite: AnsweringSide,
): Promise<Mismatch[]> {
  const mismatches: Mismatch[] = [];
  for (const query of mix) {
    const [a, b] = [await ours(query), await sqlite(query)];
    const difference =
      a.status !== 200 || b.status !== 200
        ? `status ${a.status} in ours, ${b.status} in SQLite's: ${a.status !== 200 ? a.body.slice(0, 300) : b.body.slice(0, 300)}`
        : firstDifference(JSON.parse(a.body), JSON.parse(b.body));
    if (difference) mismatches.push({ where, query, difference });
  }
  return mismatches;
}
