// @module scanPlainLinkLine: a link line in the shape the generator and most analyzers write, read field by field into one reused record, its ids keyed as the collector keys them.

/**
 * The shape: {"kind":"link","from":"<id>","to":"<id>","type":"<type>"}, with ,"escalated":true or
 * ,"escalated":false before the brace or not; ids 0 or 1 to 19 digits without a leading zero; types
 * of 1 to 64 of A–Z, a–z, 0–9 and _; no space, no escape. A line in it passes LinkSchema as
 * JSON.parse reads it. Links are most lines of an analysis: read this way, one costs no string, no
 * record and no match (a regular expression made a match, five strings and a record of each), but
 * a type not met before or an id of more than 15 digits.
 */
const HEAD = '{"kind":"link","from":"';
const TO = '","to":"';
const TYPE = '","type":"';
const ESCALATED = ',"escalated":';

/** The link of the line scanPlainLinkLine read last: ids as numbers when of at most 15 digits (as slotKey keys them), else as their text. */
export const scannedLink: { from: string | number; to: string | number; type: string; escalated: boolean | undefined } =
  {
    from: 0,
    to: 0,
    type: "",
    escalated: undefined,
  };

/**
 * Link types met, by a hash of their text: a line's type is found in one comparison rather than cut
 * out of it (an analysis has a few types; one that collides with another is cut out again).
 */
const TYPE_SLOTS = 64;
const typesMet: (string | undefined)[] = new Array(TYPE_SLOTS);

/** The id scanId read last. */
let scannedId: string | number = 0;

/** Where the id starting at `at` ends (its closing quote), left in scannedId; -1 when there is none. */
function scanId(text: string, at: number): number {
  let value = 0;
  let end = at;
  for (; end < text.length && end - at < 20; end++) {
    const c = text.charCodeAt(end);
    if (c < 48 || c > 57) break;
    value = value * 10 + (c - 48);
  }
  const digits = end - at;
  if (digits === 0 || digits > 19 || (digits > 1 && text.charCodeAt(at) === 48) || text.charCodeAt(end) !== 34)
    return -1;
  // Up to 15 digits, the number is exact: the key the collector gives the id.
  scannedId = digits <= 15 ? value : text.slice(at, end);
  return end;
}

/** The type between `start` and `end` (its units hashed to `hash`), as the string met before when it was. */
function typeAt(text: string, start: number, end: number, hash: number): string {
  const slot = hash & (TYPE_SLOTS - 1);
  const met = typesMet[slot];
  if (met !== undefined && met.length === end - start && text.startsWith(met, start)) return met;
  return (typesMet[slot] = text.slice(start, end));
}

const isTypeUnit = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;

/** Whether `text` is a plain link line; if so its link is left in scannedLink. */
export function scanPlainLinkLine(text: string): boolean {
  if (!text.startsWith(HEAD)) return false;
  let at = scanId(text, HEAD.length);
  if (at < 0 || !text.startsWith(TO, at)) return false;
  const from = scannedId;
  at = scanId(text, at + TO.length);
  if (at < 0 || !text.startsWith(TYPE, at)) return false;
  const to = scannedId;
  const typeStart = at + TYPE.length;
  let typeEnd = typeStart;
  let hash = 0;
  for (; typeEnd < text.length && typeEnd - typeStart <= 64; typeEnd++) {
    const c = text.charCodeAt(typeEnd);
    if (!isTypeUnit(c)) break;
    hash = Math.imul(hash, 31) + c;
  }
  if (typeEnd === typeStart || typeEnd - typeStart > 64 || text.charCodeAt(typeEnd) !== 34) return false;
  at = typeEnd + 1;
  let escalated: boolean | undefined;
  if (text.startsWith(ESCALATED, at)) {
    at += ESCALATED.length;
    if (text.startsWith("true", at)) (escalated = true), (at += 4);
    else if (text.startsWith("false", at)) (escalated = false), (at += 5);
    else return false;
  }
  if (at !== text.length - 1 || text.charCodeAt(at) !== 125) return false;
  scannedLink.from = from;
  scannedLink.to = to;
  scannedLink.type = typeAt(text, typeStart, typeEnd, hash);
  scannedLink.escalated = escalated;
  return true;
}
