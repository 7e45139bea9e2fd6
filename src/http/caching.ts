// @module HTTP caching of answers: an ETag derived from the application's published versions and the request, 304 on a match.
import type { MiddlewareHandler } from "hono";
import type { Version } from "../storage/catalog.ts";
import type { AppEnv } from "./context.ts";

/**
 * An answer depends only on the request and the application's published snapshots (the newest and,
 * for status and `date`, the others), all immutable and content-addressed: their addresses and the
 * request URL identify it exactly. Publishing any version changes the tag.
 */
export async function entityTag(versions: readonly Version[], requestUrl: string): Promise<string> {
  const url = new URL(requestUrl);
  const input = `${versions.map((v) => v.sha256).join(",")}\n${url.pathname}${url.search}`;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(input)));
  return `"${Array.from(digest.subarray(0, 16), (b) => b.toString(16).padStart(2, "0")).join("")}"`;
}

function matches(ifNoneMatch: string | undefined, tag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.trim() === "*" || ifNoneMatch.split(",").some((t) => t.trim().replace(/^W\//, "") === tag);
}

/**
 * Successful answers carry the ETag and `Cache-Control: public, no-cache` (any cache may keep them but
 * must revalidate, since "the newest version" moves on publish); a matching If-None-Match gets 304.
 * Errors are not stored.
 */
export const conditionalGet: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  const versions = c.var.versions;
  if (c.res.status !== 200 || !versions) {
    if (c.res.status >= 400) c.res.headers.set("Cache-Control", "no-store");
    return;
  }
  const tag = await entityTag(versions, c.req.url);
  const headers = { ETag: tag, "Cache-Control": "public, no-cache" };
  if (matches(c.req.header("If-None-Match"), tag)) {
    c.res = new Response(null, { status: 304, headers: { ...headers, "Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": "ETag" } });
    return;
  }
  for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
};
