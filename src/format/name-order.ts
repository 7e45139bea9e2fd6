// @module The total "sorted by name" order of docs/api.md#order, for objects and taxonomy nodes (the compiler ranks by it, changes merge by it), and the order of ids that also sorts the file table.

/** Compares by lower-cased name, then name, both by UTF-16 code units. */
export function compareNames(lowerA: string, a: string, lowerB: string, b: string): number {
  if (lowerA !== lowerB) return lowerA < lowerB ? -1 : 1;
  if (a !== b) return a < b ? -1 : 1;
  return 0;
}

/** Compares decimal ids numerically: shorter first, then lexicographic. */
export function compareIds(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}
