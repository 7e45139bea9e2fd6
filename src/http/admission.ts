// @module admit: who is asking — the presented API key checked against the policy, and the rate limit — before any application is read.
import type { Context } from "hono";
import { authenticate } from "./access.ts";
import type { AppEnv } from "./context.ts";
import { enforceRateLimit, rateLimitKey } from "./rate-limit.ts";

/** The API key of a request: X-API-KEY, else a bearer token, else the api-key parameter. */
function presentedKey(c: Context<AppEnv>): string | undefined {
  const bearer = /^Bearer\s+(.+)$/i.exec(c.req.header("Authorization") ?? "");
  return c.req.header("X-API-KEY") ?? (bearer ? bearer[1].trim() : undefined) ?? new URL(c.req.url).searchParams.get("api-key") ?? undefined;
}

/**
 * The applications the request may read (null: all), after the key check (401) and the rate limit
 * (429); without configured keys everything is open.
 */
export async function admit(c: Context<AppEnv>): Promise<Set<string> | null> {
  const { access, rateLimit } = c.var.deps;
  const key = presentedKey(c);
  const scope = access ? await authenticate(access, key) : null;
  if (rateLimit) await enforceRateLimit(rateLimit.limiter, await rateLimitKey(access ? key : undefined, c.req.header("CF-Connecting-IP")), rateLimit.periodSeconds);
  return scope;
}
