// @module admit: who is asking — the presented API key checked against the policy, and the rate limit — before any application is read.
import type { Context } from "hono";
import { authenticate, presentedKey } from "./access.ts";
import type { AppEnv } from "./context.ts";
import { enforceRateLimit, rateLimitKey } from "./rate-limit.ts";

/**
 * The applications the request may read (null: all), after the key check (401) and the rate limit
 * (429); without configured keys everything is open.
 */
export async function admit(c: Context<AppEnv>): Promise<Set<string> | null> {
  const { access, rateLimit } = c.var.deps;
  const key = presentedKey(c.req.raw);
  const scope = access ? await authenticate(access, key) : null;
  if (rateLimit)
    await enforceRateLimit(
      rateLimit.limiter,
      await rateLimitKey(access ? key : undefined, c.req.header("CF-Connecting-IP")),
      rateLimit.periodSeconds,
    );
  return scope;
}
