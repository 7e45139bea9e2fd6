// @module Strict query-string decoding (docs/api.md#requests): form-urlencoded, invalid encodings refused, repeats kept.
import { ApiError } from "../contract/errors.ts";

/** The query of `url` as [name, value] pairs in order, `+` as space, `%XX` decoded as UTF-8. */
export function parseQuery(url: string): [string, string][] {
  const q = url.indexOf("?");
  if (q < 0) return [];
  const hash = url.indexOf("#", q);
  const query = url.slice(q + 1, hash < 0 ? undefined : hash);
  const pairs: [string, string][] = [];
  for (const part of query.split("&")) {
    if (part === "") continue;
    const eq = part.indexOf("=");
    const rawName = eq < 0 ? part : part.slice(0, eq);
    const rawValue = eq < 0 ? "" : part.slice(eq + 1);
    const name = decodeComponent(rawName, null);
    pairs.push([name, decodeComponent(rawValue, name)]);
  }
  return pairs;
}

/** Percent-decodes one component; malformed escapes or invalid UTF-8 are a 400 naming the parameter. */
function decodeComponent(raw: string, parameter: string | null): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, " "));
  } catch {
    const what = parameter === null ? "a parameter name" : `the value of ${parameter}`;
    throw new ApiError(
      "invalid_parameter",
      `${what} is not valid percent-encoded UTF-8: ${JSON.stringify(raw.slice(0, 100))}`,
      parameter === null ? {} : { parameter },
    );
  }
}
