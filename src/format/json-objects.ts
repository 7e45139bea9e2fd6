// @module jsonObjectsIn: whether a page's text is a JSON array of objects of one shape exactly as JSON.stringify writes them, and where each starts: such a page goes into answers as it is.

/**
 * A JSON string as JSON.stringify writes one (no raw control characters, only JSON's escapes). Runs
 * of plain characters are matched by one repeated class, an escape between two runs: the same
 * strings as an alternation tried at every character, checked at some 550 MB/s instead of 300 (a
 * page of 400 level-5 members, 74 KB).
 */
const PLAIN = String.raw`[^"\\\u0000-\u001f]*`;
/**
 * The escapes JSON.stringify writes, and no other spelling of the same character (`\u000c` for
 * `\f`, `\/`, `\u0041`): a quote, a backslash, the five short ones, the other control characters
 * in lower-case hex, and a surrogate that is not half of a pair (an escaped pair is written as its
 * character).
 */
const ESCAPE = String.raw`\\(?:["\\bfnrt]|u00(?:0[0-7bef]|1[0-9a-f])|ud[89ab][0-9a-f]{2}(?!\\ud[c-f])|ud[c-f][0-9a-f]{2})`;
const JSON_STRING = `"${PLAIN}(?:${ESCAPE}${PLAIN})*"`;
/** An object id as the API writes it: a decimal string. */
const JSON_ID = `"-?[0-9]+"`;

/**
 * A sticky pattern of one object holding `fields` in this order, each a JSON string (`id` a decimal
 * one), nothing else and no whitespace: as JSON.stringify writes an object of those string fields.
 */
export function stringFieldsObject(fields: readonly string[]): RegExp {
  const members = fields.map((f) => `${JSON.stringify(f)}:${f === "id" ? JSON_ID : JSON_STRING}`);
  return new RegExp(String.raw`\{${members.join(",")}\}`, "y");
}

/**
 * How many objects matching `object` (a sticky pattern: stringFieldsObject) the JSON array `text`
 * holds, separated by commas and nothing else; -1 if it is anything else. `starts`, if given, gets
 * where each object starts, then the text's length: object i is text.slice(starts[i], starts[i + 1] - 1),
 * less the comma or the closing bracket after it. A page that passed its checksum
 * may still come from a faulty writer, and its text goes into answers unparsed.
 */
export function jsonObjectsIn(text: string, object: RegExp, starts?: number[]): number {
  const COMMA = 0x2c;
  if (text.charCodeAt(0) !== 0x5b || text.charCodeAt(text.length - 1) !== 0x5d) return -1;
  if (text.length === 2) {
    starts?.push(text.length);
    return 0;
  }
  object.lastIndex = 1;
  for (let count = 1; ; count++) {
    starts?.push(object.lastIndex);
    if (!object.test(text)) return -1;
    const next = text.charCodeAt(object.lastIndex);
    if (next !== COMMA) {
      if (object.lastIndex !== text.length - 1) return -1;
      starts?.push(object.lastIndex + 1);
      return count;
    }
    object.lastIndex++;
  }
}

/** `},{"first":` in UTF-8, by field: made once, not for every page read. */
const boundaries = new Map<string, Uint8Array>();
function boundaryOf(first: string): Uint8Array {
  let boundary = boundaries.get(first);
  if (!boundary) boundaries.set(first, (boundary = new TextEncoder().encode(`},{${JSON.stringify(first)}:`)));
  return boundary;
}

/**
 * Where each object of `json` (UTF-8) starts, then its length, in bytes, for a text jsonObjectsIn
 * accepted (a page checked once) whose objects start with field `first`: object i + 1 starts two
 * bytes after the "}" of `},{"first":`. No string of such a text holds that, since a string holds
 * a quote only escaped, and no byte of a character past ASCII is an ASCII one; a pass of indexOf,
 * where the pattern walks every character.
 */
export function objectStarts(json: Uint8Array, first: string): number[] {
  if (json.length === 2) return [2];
  const boundary = boundaryOf(first);
  const starts = [1];
  for (let at = json.indexOf(boundary[0], 1); at >= 0; at = json.indexOf(boundary[0], at + 1)) {
    let matched = 1;
    while (matched < boundary.length && json[at + matched] === boundary[matched]) matched++;
    if (matched === boundary.length) starts.push(at + 2);
  }
  starts.push(json.length);
  return starts;
}
