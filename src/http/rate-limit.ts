// @module Optional rate limiting per API key (or per client address without keys) through a Workers rate-limit binding.
import { ApiError } from "../contract/errors.ts";
import { sha256 } from "../digests.ts";
import { hex } from "../hex.ts";

/** The shape of a Workers rate-limit binding (`[[ratelimits]]` in wrangler.toml). */
export interface RateLimiter {
  limit(options: { key: string }): Promise<{ success: boolean }>;
}

/** Throws 429 rate_limited when `key` has used up its allowance for the current period. */
export async function enforceRateLimit(limiter: RateLimiter, key: string, periodSeconds: number): Promise<void> {
  const { success } = await limiter.limit({ key });
  if (!success)
    throw new ApiError(
      "rate_limited",
      `too many requests from this API key or client; try again in at most ${periodSeconds} s`,
      {
        headers: { "Retry-After": String(periodSeconds) },
      },
    );
}

/** The limiter key of a request: a digest of its API key (never the key itself), else the client address. */
export async function rateLimitKey(apiKey: string | undefined, clientAddress: string | undefined): Promise<string> {
  if (!apiKey) return `address:${clientAddress ?? "unknown"}`;
  return `key:${hex((await sha256(apiKey)).subarray(0, 16))}`;
}
