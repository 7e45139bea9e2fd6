// @module Rank sets: ascending Uint32Arrays of object ranks (i.e. objects in name order), unions and intersections.

/** Union of ascending rank lists; `universe` is the object count (for the bitmap path). */
export function unionRanks(lists: readonly Uint32Array[], universe: number): Uint32Array {
  if (lists.length === 0) return new Uint32Array(0);
  if (lists.length === 1) return lists[0];
  let total = 0;
  for (const l of lists) total += l.length;
  if (total * 8 < universe) {
    // Few ranks: sort the concatenation instead of touching a bitmap of every object.
    const all = new Uint32Array(total);
    let at = 0;
    for (const l of lists) all.set(l, (at += l.length) - l.length);
    all.sort();
    let out = 0;
    for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[out++] = all[i];
    return all.subarray(0, out);
  }
  const seen = new Uint8Array(universe);
  let count = 0;
  for (const l of lists) for (let i = 0; i < l.length; i++) if (!seen[l[i]]) (seen[l[i]] = 1), count++;
  const out = new Uint32Array(count);
  for (let r = 0, at = 0; r < universe; r++) if (seen[r]) out[at++] = r;
  return out;
}

/** Intersection of ascending rank lists, smallest first; binary search where one side is much larger. */
export function intersectRanks(lists: readonly Uint32Array[]): Uint32Array {
  const sorted = [...lists].sort((a, b) => a.length - b.length);
  let result = sorted[0];
  for (let k = 1; k < sorted.length && result.length > 0; k++) {
    const other = sorted[k];
    const out = new Uint32Array(result.length);
    let n = 0;
    if (other.length > result.length * 16) {
      let lo = 0;
      for (const r of result) {
        let hi = other.length;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (other[mid] < r) lo = mid + 1;
          else hi = mid;
        }
        if (lo < other.length && other[lo] === r) out[n++] = r;
      }
    } else {
      for (let i = 0, j = 0; i < result.length && j < other.length; ) {
        if (result[i] === other[j]) (out[n++] = result[i]), i++, j++;
        else if (result[i] < other[j]) i++;
        else j++;
      }
    }
    result = out.subarray(0, n);
  }
  return result;
}

/** The ranks of `ranks` (null: all of [0, universe)) that satisfy `keep`, ascending. */
export function filterRanks(ranks: Uint32Array | null, universe: number, keep: (rank: number) => boolean): Uint32Array {
  const out: number[] = [];
  if (ranks) for (const r of ranks) keep(r) && out.push(r);
  else for (let r = 0; r < universe; r++) keep(r) && out.push(r);
  return Uint32Array.from(out);
}
