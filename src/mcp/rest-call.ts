// @module In-process REST calls for the MCP tools: the same Hono app answers them, so access rules, validation and errors are the REST API's by construction; an answer past the tools' byte cap is not read.
import { ApiError, type ProblemBody } from "../contract/errors.ts";
import { boundedText } from "./bounded-text.ts";

/** A REST answer: the 200 body, or the problem body of an error. */
export type RestAnswer = { ok: true; body: unknown } | { ok: false; problem: ProblemBody };

/** Query parameters of one call; an array repeats the parameter, undefined leaves it out. */
export type RestQuery = Record<string, string | number | boolean | readonly string[] | undefined>;

/**
 * The most JSON one tool call reads of its REST answer: 1 MiB, some 250k tokens, more than an agent
 * reads at once. The MCP answer repeats it (structured and as text) in one JSON-RPC message held
 * whole, so the cap is also what keeps a tool call within the request memory budget (docs/memory.md).
 */
export const MAX_TOOL_ANSWER_BYTES = 1 << 20;

/** What a tool tells the agent when its answer is past MAX_TOOL_ANSWER_BYTES: the argument to change, and how. */
export interface Narrowing {
  parameter?: string;
  advice: string;
}

/** Sends one GET to a route of the REST API (a path under /rest) and reads its JSON answer. */
export type RestCall = (path: string, query: RestQuery, narrowing: Narrowing) => Promise<RestAnswer>;

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
  return async (path, query, narrowing) => {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) search.append(name, String(v));
    }
    const url = `${origin}${path}${search.size ? `?${search}` : ""}`;
    const response = await fetch(new Request(url, { headers }));
    const text = await boundedText(response.body, MAX_TOOL_ANSWER_BYTES);
    if (text === null)
      return {
        ok: false,
        problem: new ApiError(
          "invalid_parameter",
          `the answer is larger than ${MAX_TOOL_ANSWER_BYTES} bytes of JSON, the most one tool call returns; ${narrowing.advice}`,
          { parameter: narrowing.parameter },
        ).toBody(),
      };
    const body: unknown = JSON.parse(text);
    return response.ok ? { ok: true, body } : { ok: false, problem: body as ProblemBody };
  };
}
