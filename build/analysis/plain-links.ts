// @module scanPlainLink: a link line in the shape the generator and most analyzers write, read from its UTF-8 bytes field by field into one reused record, its ids keyed as the collector keys them.

/**
 * The shape: {"kind":"link","from":"<id>","to":"<id>","type":"<type>"}, with ,"escalated":true or
 * ,"escalated":false before the brace or not; ids 0 or 1 to 19 digits without a leading zero; types
 * of 1 to 64 of A–Z, a–z, 0–9 and _; no space, no escape. A line in it passes LinkSchema as
 * JSON.parse reads it. Links are most lines of an analysis: read this way, one costs no string, no
 * record and no match (a regular expression made a match, five strings and a record of each), but
 * a type not met before or an id of more than 15 digits; and being read from bytes, its line is
 * never decoded.
 */
const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
const HEAD = ascii('{"kind":"link","from":"');
const TO = ascii('","to":"');
const TYPE = ascii('","type":"');
const ESCALATED = ascii(',"escalated":');
const TRUE = ascii("true");
const FALSE = ascii("false");

const QUOTE = 34;
const CLOSING_BRACE = 125;

/** The link of the line scanPlainLink read last: ids as numbers when of at most 15 digits (as slotKey keys them), else as their text. */
export const scannedLink: { from: string | number; to: string | number; type: string; escalated: boolean | undefined } =
  {
    from: 0,
    to: 0,
    type: "",
    escalated: undefined,
  };

/**
 * Link types met, by a hash of their bytes: a line's type is found in one comparison rather than
 * made into a string (an analysis has a few types; one that collides with another is made again).
 */
const TYPE_SLOTS = 64;
const typesMet: (string | undefined)[] = new Array(TYPE_SLOTS);

/** The id scanId read last. */
let scannedId: string | number = 0;

/** Whether `bytes[at, end)` begins with `pattern`. */
function startsWith(bytes: Uint8Array, at: number, end: number, pattern: Uint8Array): boolean {
  if (end - at < pattern.length) return false;
  for (let i = 0; i < pattern.length; i++) if (bytes[at + i] !== pattern[i]) return false;
  return true;
}

/** Where the id starting at `at` ends (its closing quote, before `end`), left in scannedId; -1 when there is none. */
function scanId(bytes: Uint8Array, at: number, end: number): number {
  let value = 0;
  let after = at;
  for (; after < end && after - at < 20; after++) {
    const c = bytes[after];
    if (c < 48 || c > 57) break;
    value = value * 10 + (c - 48);
  }
  const digits = after - at;
  if (digits === 0 || digits > 19 || (digits > 1 && bytes[at] === 48) || after >= end || bytes[after] !== QUOTE)
    return -1;
  // Up to 15 digits, the number is exact: the key the collector gives the id.
  scannedId = digits <= 15 ? value : String.fromCharCode(...bytes.subarray(at, after));
  return after;
}

/** The type in `bytes[start, end)` (hashed to `hash`), as the string met before when it was. */
function typeAt(bytes: Uint8Array, start: number, end: number, hash: number): string {
  const slot = hash & (TYPE_SLOTS - 1);
  const met = typesMet[slot];
  if (met !== undefined && met.length === end - start) {
    let same = true;
    for (let i = 0; i < met.length && same; i++) same = met.charCodeAt(i) === bytes[start + i];
    if (same) return met;
  }
  return (typesMet[slot] = String.fromCharCode(...bytes.subarray(start, end)));
}

const isTypeByte = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;

/** Whether the line `bytes[start, end)` (UTF-8, without its newline) is a plain link line; if so its link is left in scannedLink. */
export function scanPlainLink(bytes: Uint8Array, start: number, end: number): boolean {
  if (!startsWith(bytes, start, end, HEAD)) return false;
  let at = scanId(bytes, start + HEAD.length, end);
  if (at < 0 || !startsWith(bytes, at, end, TO)) return false;
  const from = scannedId;
  at = scanId(bytes, at + TO.length, end);
  if (at < 0 || !startsWith(bytes, at, end, TYPE)) return false;
  const to = scannedId;
  const typeStart = at + TYPE.length;
  let typeEnd = typeStart;
  let hash = 0;
  for (; typeEnd < end && typeEnd - typeStart <= 64; typeEnd++) {
    const c = bytes[typeEnd];
    if (!isTypeByte(c)) break;
    hash = Math.imul(hash, 31) + c;
  }
  if (typeEnd === typeStart || typeEnd - typeStart > 64 || typeEnd >= end || bytes[typeEnd] !== QUOTE) return false;
  at = typeEnd + 1;
  let escalated: boolean | undefined;
  if (startsWith(bytes, at, end, ESCALATED)) {
    at += ESCALATED.length;
    if (startsWith(bytes, at, end, TRUE)) (escalated = true), (at += TRUE.length);
    else if (startsWith(bytes, at, end, FALSE)) (escalated = false), (at += FALSE.length);
    else return false;
  }
  if (at !== end - 1 || bytes[at] !== CLOSING_BRACE) return false;
  scannedLink.from = from;
  scannedLink.to = to;
  scannedLink.type = typeAt(bytes, typeStart, typeEnd, hash);
  scannedLink.escalated = escalated;
  return true;
}
