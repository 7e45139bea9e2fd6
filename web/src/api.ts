// @module The explorer's REST client: GET /rest/... with the API key, JSON answers, and every failure as an ApiProblem carrying the API's detail.
import type { ProblemBody } from "../../src/contract/errors.ts";

/** A failed request as the API explained it (RFC 9457 body), or as close as the page can tell. */
export class ApiProblem extends Error {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  readonly parameter: string | undefined;

  constructor(body: { status: number; code: string; title: string; detail: string; parameter?: string }) {
    super(body.detail);
    this.status = body.status;
    this.code = body.code;
    this.title = body.title;
    this.detail = body.detail;
    this.parameter = body.parameter;
  }
}

const KEY_STORAGE = "appstruct.apiKey";

/** The API key typed into the page, kept for the browser tab only (never in the URL). */
export const apiKey = (): string => sessionStorage.getItem(KEY_STORAGE) ?? "";
export const setApiKey = (key: string): void =>
  key ? sessionStorage.setItem(KEY_STORAGE, key) : sessionStorage.removeItem(KEY_STORAGE);

export type Query = Record<string, string | readonly string[] | undefined>;

/** `path?query`, repeated parameters repeated, form-encoded as the API reads them. */
export function restUrl(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query))
    for (const v of value === undefined ? [] : typeof value === "string" ? [value] : value) params.append(name, v);
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/** `/rest/applications/{name}` with the name percent-encoded (a `/` in it becomes %2F). */
export const appPath = (application: string): string => `/rest/applications/${encodeURIComponent(application)}`;

function isProblem(body: unknown): body is ProblemBody {
  return (
    typeof body === "object" &&
    body !== null &&
    typeof (body as ProblemBody).detail === "string" &&
    typeof (body as ProblemBody).code === "string"
  );
}

/** GETs `url` and parses its JSON; a non-2xx answer throws ApiProblem with the API's own detail. */
export async function apiGet<T>(url: string, signal?: AbortSignal): Promise<T> {
  const key = apiKey();
  let response: Response;
  try {
    response = await fetch(url, { headers: key ? { "X-API-KEY": key } : {}, signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiProblem({
      status: 0,
      code: "network_error",
      title: "Network error",
      detail: `the server could not be reached (${(error as Error).message})`,
    });
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (response.ok && body !== undefined) return body as T;
  if (isProblem(body)) throw new ApiProblem(body);
  throw new ApiProblem({
    status: response.status,
    code: "unexpected_answer",
    title: response.statusText || "Unexpected answer",
    detail: `HTTP ${response.status}: ${text.slice(0, 200) || "empty body"}`,
  });
}
