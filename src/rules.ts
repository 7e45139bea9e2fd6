// @module Syntax rules the analysis format and the API share: RFC 3339 instants and application names.

/** RFC 3339 date-time with a zone; fractional seconds allowed. */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/;

/** What parseRfc3339 accepts, for messages about a value it refused. */
export const RFC3339_EXPECTED = "an RFC 3339 date-time with a zone, e.g. 2026-09-01T12:00:00Z";

/** Milliseconds since the epoch of an RFC 3339 date-time, or null when it is not one (or not a real date). */
export function parseRfc3339(value: string): number | null {
  const m = RFC3339.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth || hour > 23 || minute > 59 || second > 60) return null;
  if (m[9] !== undefined && (Number(m[9]) > 23 || Number(m[10]) > 59)) return null;
  // A leap second (:60) orders as :59.999; fractions beyond milliseconds are truncated by Date.parse.
  const ms = Date.parse(value.replace(/:60(\.\d+)?(?=[Zz+-])/, ":59.999").toUpperCase());
  return Number.isNaN(ms) ? null : ms;
}

/**
 * Bytes of UTF-8 an application name may take: its manifest key (`apps/<base64url of the name>/manifest.json`)
 * then stays within R2's 1024-byte keys (819 bytes at most), and any 200 characters of the Basic
 * Multilingual Plane fit (3 bytes each at most).
 */
const MAX_APPLICATION_NAME_BYTES = 600;

/** Why `name` is not a valid application name (1 to 200 characters, no back-quote or control character), or null: what the read API accepts in a path. */
export function applicationNameProblem(name: string): string | null {
  const length = [...name].length;
  if (length < 1 || length > 200) return `must be 1 to 200 characters long (this one has ${length})`;
  const bad = /[`\u0000-\u001f\u007f]/.exec(name);
  if (bad)
    return `must not contain ${bad[0] === "`" ? "a back-quote" : `the control character U+${bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`}`;
  return null;
}

/**
 * Why an application named `name` cannot be published (or analysed for publishing), or null: a
 * valid name that also fits MAX_APPLICATION_NAME_BYTES. The read API accepts any valid name; one
 * over the bound has no manifest, so it is simply not found.
 */
export function publishableNameProblem(name: string): string | null {
  const problem = applicationNameProblem(name);
  if (problem) return problem;
  const bytes = new TextEncoder().encode(name).length;
  return bytes > MAX_APPLICATION_NAME_BYTES
    ? `must take at most ${MAX_APPLICATION_NAME_BYTES} bytes of UTF-8 (this one takes ${bytes})`
    : null;
}
