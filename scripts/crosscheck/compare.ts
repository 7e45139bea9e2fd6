// @module firstDifference: where two JSON answers differ (a path and both values), or undefined when they are deep-equal.

/** The first difference between `a` (ours) and `b` (SQLite), described for a person; undefined when equal. */
export function firstDifference(a: unknown, b: unknown, path = "$"): string | undefined {
  if (Object.is(a, b)) return undefined;
  const show = (v: unknown) => (JSON.stringify(v) ?? String(v)).slice(0, 200);
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const d = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
    return a.length === b.length ? undefined : `${path}: ${a.length} elements in ours, ${b.length} in SQLite's`;
  }
  if (isRecord(a) && isRecord(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const key of keys) {
      if (!(key in a)) return `${path}.${key}: absent in ours, ${show(b[key])} in SQLite's`;
      if (!(key in b)) return `${path}.${key}: ${show(a[key])} in ours, absent in SQLite's`;
      const d = firstDifference(a[key], b[key], `${path}.${key}`);
      if (d) return d;
    }
    return undefined;
  }
  return `${path}: ${show(a)} in ours, ${show(b)} in SQLite's`;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
