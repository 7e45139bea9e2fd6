// @module wholeNumberProblem: the one rule for every number the publish API takes (JSON fields, path segments, headers).

/** Plain decimal digits: no sign, exponent, fraction, hexadecimal prefix, spaces or leading zeros. */
const DECIMAL = /^(0|[1-9][0-9]*)$/;

/** `value` as a message quotes it: a path segment may be kilobytes long. */
const shown = (value: number | string) => {
  const text = typeof value === "string" ? JSON.stringify(value) : String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
};

/**
 * Why `value` is not a whole number from `min` to `max` (at most 2^53 − 1), or null. A JSON number
 * must be an integer; text (a path segment, a header) must be plain decimal digits, so that `1e3`,
 * `0x10`, ` 12` or `012` are refused rather than read as another number than was meant.
 */
export function wholeNumberProblem(value: number | string, min: number, max: number): string | null {
  if (typeof value === "string" && !DECIMAL.test(value))
    return `must be a whole number in decimal digits, not ${shown(value)}`;
  const n = Number(value);
  if (!Number.isInteger(n)) return `must be a whole number, not ${shown(value)}`;
  if (n < min || n > max) return `must be from ${min} to ${max}, not ${shown(value)}`;
  return null;
}
