// @module The "sorted by name" order of docs/api.md#order, written for the cross-check from the documented contract alone.

/** Code-unit comparison of two JavaScript strings (what `<` does). */
export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Decimal ids compared as numbers: the shorter string first, then lexicographically (no leading zeros). */
export function byNumericId(a: string, b: string): number {
  return a.length - b.length || byCodeUnits(a, b);
}

/** Objects: lower-cased name, then name, then numeric id. */
export function compareObjectsByName(
  a: { lower: string; name: string; id: string },
  b: { lower: string; name: string; id: string },
): number {
  return byCodeUnits(a.lower, b.lower) || byCodeUnits(a.name, b.name) || byNumericId(a.id, b.id);
}

/**
 * Taxonomy nodes of one level: lower-cased name, then name. The contract makes `_id` the last key but
 * leaves how `_id` is assigned open; appstruct numbers each level in this order with fullName, then
 * key, breaking ties (several level-4 nodes are all called "JSP"), and so does the cross-check: this is
 * the one rule taken from appstruct's code rather than from the spec.
 */
export function compareNodesByName(
  a: { lower: string; name: string; fullName: string; key: string },
  b: { lower: string; name: string; fullName: string; key: string },
): number {
  return (
    byCodeUnits(a.lower, b.lower) ||
    byCodeUnits(a.name, b.name) ||
    byCodeUnits(a.fullName, b.fullName) ||
    byCodeUnits(a.key, b.key)
  );
}

/** The string's code points in reverse order: `s` ends with `p` exactly when reversed(s) starts with reversed(p). */
export function reversed(s: string): string {
  return Array.from(s).reverse().join("");
}
