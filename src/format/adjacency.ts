// @module Link adjacency: the distinct callers of each object, derived from the callees by caller (for the link pages and level graphs).
import type { CalleeLinks } from "./model.ts";

/** CSR offsets by callee rank and the distinct caller ranks of each (ascending), derived from the callees. */
export function callersOf(links: CalleeLinks, rows: number): [offsets: Uint32Array, callers: Uint32Array] {
  const counts = new Uint32Array(rows + 1);
  const lastSeen = new Int32Array(rows).fill(-1);
  forEachDistinctTarget(links, rows, (from, to) => {
    if (lastSeen[to] !== from) (lastSeen[to] = from), counts[to + 1]++;
  });
  for (let i = 0; i < rows; i++) counts[i + 1] += counts[i];
  const offsets = counts.slice();
  const callers = new Uint32Array(offsets[rows]);
  const cursor = offsets.slice(0, rows);
  lastSeen.fill(-1);
  // Callers are visited in ascending rank, so each row comes out sorted.
  forEachDistinctTarget(links, rows, (from, to) => {
    if (lastSeen[to] !== from) (lastSeen[to] = from), (callers[cursor[to]++] = from);
  });
  return [offsets, callers];
}

/** Calls `visit(from, to)` once per distinct (caller, callee) pair, callers in ascending rank. */
export function forEachDistinctTarget(
  links: Pick<CalleeLinks, "offsets" | "targets">,
  rows: number,
  visit: (from: number, to: number) => void,
): void {
  for (let from = 0; from < rows; from++) {
    let previous = -1;
    for (let i = links.offsets[from]; i < links.offsets[from + 1]; i++) {
      const to = links.targets[i];
      if (to !== previous) visit(from, to);
      previous = to;
    }
  }
}
