// @module codeUnitOrder: the indices of a million keys in the order of their UTF-16 code units read from the first or from the last, by a radix sort: the objects' name order, and the reversed orders `endswith` searches (RNAM, RFUL, RMNG).
//
// Array.prototype.sort with a comparator takes some 8 s of the compiling thread at 1M objects for the
// reversed orders, and 4 s for the name order: a call into the comparator for each of some twenty
// comparisons a key. The radix sort reads a key's code units once each for the levels it takes part
// in, and keys part ways within a few code units (the reversed order of 1M fullNames in 0.7–1.2 s,
// against 1.5–2.2 s). Reversing the keys to sort them natively makes a million strings of garbage and
// is slower still.

/** Ranges of at most this many keys are finished by insertion: counting code units costs more there. */
const SMALL_RANGE = 24;

/** Key indices in the order of their keys reversed: a field's keys are distinct, so their reversals are too. */
export const reversedOrder = (keys: readonly string[]): Uint32Array => codeUnitOrder(keys, true);

/**
 * The indices `0 .. keys.length − 1` in the order of their keys compared by UTF-16 code units, from
 * the first (`fromEnd` false: the order of `<` on strings) or from the last (the order of their
 * reversals); a key that runs out first sorts first. Stable: equal keys keep their index order.
 */
export function codeUnitOrder(keys: readonly string[], fromEnd: boolean): Uint32Array {
  const n = keys.length;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  if (n < 2) return order;

  // Code units as dense symbols from 1 in their own order (0: the key has run out), so that a level's
  // counts span the alphabet the keys use, a few dozen symbols, not 65,536.
  const symbolOf = new Uint32Array(65536);
  for (const key of keys) for (let i = 0; i < key.length; i++) symbolOf[key.charCodeAt(i)] = 1;
  let symbols = 1;
  for (let unit = 0; unit < 65536; unit++) if (symbolOf[unit]) symbolOf[unit] = symbols++;
  /** The symbol of the code unit `depth` into `key`, from the chosen end. */
  const symbol = (key: string, depth: number): number =>
    depth >= key.length ? 0 : symbolOf[key.charCodeAt(fromEnd ? key.length - 1 - depth : depth)];
  /** x against y by their symbols from `depth` on (they agree before it). */
  const compareFrom = (x: string, y: string, depth: number): number => {
    const longest = Math.max(x.length, y.length);
    for (let d = depth; d < longest; d++) {
      const difference = symbol(x, d) - symbol(y, d);
      if (difference !== 0) return difference;
    }
    return 0;
  };
  /** Sorts order[from, to) by the keys' symbols from `depth` on, stably, by insertion. */
  const insertionSort = (from: number, to: number, depth: number): void => {
    for (let i = from + 1; i < to; i++) {
      const moving = order[i];
      const key = keys[moving];
      let j = i;
      while (j > from && compareFrom(keys[order[j - 1]], key, depth) > 0) {
        order[j] = order[j - 1];
        j--;
      }
      order[j] = moving;
    }
  };
  /** The first depth from `depth` on at which the keys of order[from, to) do not all agree. */
  const agreeUntil = (from: number, to: number, depth: number): number => {
    const first = keys[order[from]];
    let until = first.length;
    for (let i = from + 1; i < to && until > depth; i++) {
      const key = keys[order[i]];
      const last = Math.min(until, key.length);
      let d = depth;
      if (fromEnd) {
        const shift = key.length - first.length;
        for (let at = first.length - 1 - d; d < last && first.charCodeAt(at) === key.charCodeAt(at + shift); d++, at--);
      } else for (; d < last && first.charCodeAt(d) === key.charCodeAt(d); d++);
      until = d;
    }
    return until;
  };

  const counts = new Uint32Array(symbols + 1);
  const symbolAt = new Uint32Array(n);
  const scratch = new Uint32Array(n);
  // Ranges [from, to) whose keys agree on `depth` code units from the chosen end, still to sort.
  const stack: number[] = [0, n, 0];
  while (stack.length > 0) {
    const depth = stack.pop() as number;
    const to = stack.pop() as number;
    const from = stack.pop() as number;
    if (to - from <= SMALL_RANGE) {
      insertionSort(from, to, depth);
      continue;
    }
    if (to - from < symbols) {
      // Fewer keys than symbols (names in a script of thousands of characters): counting them would
      // cost more than comparing them.
      order.subarray(from, to).sort((a, b) => compareFrom(keys[a], keys[b], depth) || a - b);
      continue;
    }
    counts.fill(0);
    for (let i = from; i < to; i++) counts[(symbolAt[i] = symbol(keys[order[i]], depth)) + 1]++;
    const shared = symbolAt[from];
    if (counts[shared + 1] === to - from) {
      // Every key has the same code unit here (fullNames share their packages): skip to where they
      // part in one pass rather than a pass for each unit. Keys that all run out are equal.
      if (shared !== 0) stack.push(from, to, agreeUntil(from, to, depth + 1));
      continue;
    }
    // counts[s + 1] was the count of symbol s: now counts[s] is where symbol s starts.
    for (let s = 1; s <= symbols; s++) counts[s] += counts[s - 1];
    for (let i = from; i < to; i++) scratch[from + counts[symbolAt[i]]++] = order[i];
    order.set(scratch.subarray(from, to), from);
    // counts[s] is now where symbol s ends. Keys that ran out (symbol 0) are equal: they stay as they are.
    for (let s = 1, start = from + counts[0]; s < symbols; s++) {
      const end = from + counts[s];
      if (end - start > 1) stack.push(start, end, depth + 1);
      start = end;
    }
  }
  return order;
}
