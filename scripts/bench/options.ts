// @module Command-line option values of the bench scripts, checked: a clear refusal names the option and what it allows.

/** A whole number ≥ `min` from option `--name`, or a clear refusal. */
export function integerOption(name: string, value: string, min: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer ≥ ${min}, got ${value}`);
  return n;
}
