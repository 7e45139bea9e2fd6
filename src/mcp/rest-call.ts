// @module In-process REST calls for the MCP tools: the same Hono app answers them, so access rules, validation and errors are the REST API's by construction.
import type { ProblemBody } from "../contract/errors.ts";

/** A REST answer: the 200 body, or the problem body of an error. */
export type RestAnswer = { ok: true; body: unknown } | { ok: false; problem: ProblemBody };

/** Query parameters of one call; an array repeats the parameter, undefined leaves it out. */
export type RestQuery = Record<string, string | number | boolean | readonly string[] | undefined>;

/** Sends one GET to a route of the REST API (a path under /rest) and reads its JSON answer. */
export type RestCall = (path: string, query?: RestQuery) => Promise<RestAnswer>;

/** `/rest/applications/{name}{rest}`: the name is one path segment, percent-encoded once (`/` as %2F). */
export const applicationPath = (application: string, rest: string): string =>
  `/rest/applications/${encodeURIComponent(application)}${rest}`;

/**
 * Calls go through `fetch` (the app's own) with `headers` of the caller: its API key, so a key
 * limited to some applications gets the REST 403 on the others, and its address for the rate limit.
 */
export function restCaller(
  fetch: (request: Request) => Promise<Response>,
  origin: string,
  headers: Record<string, string>,
): RestCall {
  return async (path, query = {}) => {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) search.append(name, String(v));
    }
    const url = `${origin}${path}${search.size ? `?${search}` : ""}`;
    const response = await fetch(new Request(url, { headers }));
    const body: unknown = await response.json();
    return response.ok ? { ok: true, body } : { ok: false, problem: body as ProblemBody };
  };
}
