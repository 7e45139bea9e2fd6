// @module admit: who is asking — the presented API key checked against the policy, and the rate limit — before any application is read.
import type { Context } from "hono";
import { authenticate, presentedKey } from "./access.ts";
import type { AppEnv } from "./context.ts";
import { enforceRateLimit, rateLimitKey } from "./rate-limit.ts";

/**
 * The applications the request may read (null: all), after the key check (401) and the rate limit
 * (429); without configured keys everything is open. A request with a valid key counts against that
 * key; any other (no keys configured, or a missing or wrong key) against its client address, so
 * guessing keys is limited like everything else.
 */
export async function admit(c: Context<AppEnv>): Promise<Set<string> | null> {
  const { access, rateLimit } = c.get("deps");
  // Open and unlimited, as a server on one's own machine usually is: nothing to read from the request.
  if (!access && !rateLimit) return null;
  const key = presentedKey(c.req.raw);
  let scope: Set<string> | null = null;
  let refusal: unknown;
  try {
    scope = access ? await authenticate(access, key) : null;
  } catch (error) {
    refusal = error;
  }
  if (rateLimit) {
    const limitedKey = access && refusal === undefined ? key : undefined;
    const limiterKey = await rateLimitKey(limitedKey, c.req.header("CF-Connecting-IP"));
    await enforceRateLimit(rateLimit.limiter, limiterKey, rateLimit.periodSeconds);
  }
  if (refusal !== undefined) throw refusal;
  return scope;
}
