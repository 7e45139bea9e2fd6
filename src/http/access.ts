// @module API keys (docs/api.md#access-api-keys): X-API-KEY header or api-key parameter, compared in constant time, scoped per application.
import { ApiError } from "../contract/errors.ts";
import { constantTimeEqual, sha256 } from "../digests.ts";
import { queryParameter } from "./request-target.ts";

/** Parsed from the API_KEYS secret: JSON `{"<key>": "*" | ["<application>", ...]}`. */
export interface AccessPolicy {
  /** SHA-256 of each key, with the applications it may read (null: all). */
  keys: { hash: Uint8Array; applications: Set<string> | null }[];
}

export async function parseAccessPolicy(secret: string | undefined): Promise<AccessPolicy | null> {
  if (!secret || secret.trim() === "") return null;
  let json: unknown;
  try {
    json = JSON.parse(secret);
  } catch {
    throw new Error('API_KEYS must be JSON: {"<key>": "*" | ["<application>", ...]}');
  }
  if (!json || typeof json !== "object" || Array.isArray(json))
    throw new Error('API_KEYS must be a JSON object: {"<key>": "*" | ["<application>", ...]}');
  const keys = await Promise.all(
    Object.entries(json as Record<string, unknown>).map(async ([key, scope]) => {
      if (scope !== "*" && !(Array.isArray(scope) && scope.every((a) => typeof a === "string")))
        throw new Error(`API_KEYS: the scope of a key must be "*" or an array of application names`);
      return { hash: await sha256(key), applications: scope === "*" ? null : new Set(scope as string[]) };
    }),
  );
  return keys.length ? { keys } : null;
}

/** What a 401 of the read API says it wants: the key as a bearer token (X-API-KEY and api-key work too). */
const KEY_CHALLENGE = { headers: { "WWW-Authenticate": 'Bearer realm="appstruct"' } };

/** The scope of `presented`, or a 401: every configured key is compared, so timing reveals nothing. */
export async function authenticate(policy: AccessPolicy, presented: string | undefined): Promise<Set<string> | null> {
  if (presented === undefined || presented === "")
    throw new ApiError(
      "unauthorized",
      "an API key is required: send it in the X-API-KEY header, as Authorization: Bearer <key>, or in the api-key parameter",
      KEY_CHALLENGE,
    );
  const hash = await sha256(presented);
  let match: AccessPolicy["keys"][number] | undefined;
  for (const key of policy.keys) if (constantTimeEqual(key.hash, hash)) match = key;
  if (!match) throw new ApiError("unauthorized", "the API key is not valid", KEY_CHALLENGE);
  return match.applications;
}

/** The key a request presents: X-API-KEY, else `Authorization: Bearer <key>`, else the api-key parameter. */
export function presentedKey(request: Request): string | undefined {
  const bearer = /^Bearer\s+(.+)$/i.exec(request.headers.get("Authorization") ?? "");
  return (
    request.headers.get("X-API-KEY") ??
    (bearer ? bearer[1].trim() : undefined) ??
    queryParameter(request.url, "api-key")
  );
}

export function authorize(scope: Set<string> | null, application: string): void {
  if (scope && !scope.has(application))
    throw new ApiError("forbidden", `this API key may not read application ${JSON.stringify(application)}`);
}
