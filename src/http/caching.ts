// @module HTTP caching of answers: an ETag derived from the application's published versions and the request, 304 on a match.
import type { Context, MiddlewareHandler } from "hono";
import { sha256 } from "../digests.ts";
import { hex } from "../hex.ts";
import type { Version } from "../storage/catalog.ts";
import type { AppEnv } from "./context.ts";
import { requestTarget } from "./request-target.ts";

/**
 * SHA-256 of each published version set met lately, by the set's addresses: a manifest refresh that
 * changes nothing finds its digest again. Bounded: cleared past this many sets. Only computed digests
 * are kept: a request never waits on another's promise (see SharedLoads for why).
 */
const versionDigests = new Map<string, string>();
const MAX_VERSION_SETS = 1024;

/** The headers of an answer a cross-origin reader may read (Access-Control-Expose-Headers), errors and 304 included. */
export const EXPOSED_HEADERS = "ETag, Server-Timing";

/** The digest of each version list met lately: a catalog hands out the same list until it changes. */
const listDigests = new WeakMap<readonly Version[], string>();

async function versionsDigest(versions: readonly Version[]): Promise<string> {
  const listed = listDigests.get(versions);
  if (listed) return listed;
  const addresses = versions.map((v) => v.sha256).join(",");
  const known = versionDigests.get(addresses);
  if (known) {
    listDigests.set(versions, known);
    return known;
  }
  const digest = hex((await sha256(addresses)).subarray(0, 8));
  if (versionDigests.size >= MAX_VERSION_SETS) versionDigests.clear();
  versionDigests.set(addresses, digest);
  listDigests.set(versions, digest);
  return digest;
}

/** Two 32-bit FNV-1a hashes of `text` (different offsets), as 16 hex digits. */
function fnv64(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 15);
  }
  return (a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0");
}

/**
 * An answer depends only on the request and the application's published snapshots (the newest and,
 * for status and `date`, the others), all immutable and content-addressed: their addresses and the
 * request URL identify it exactly. Publishing any version changes the tag.
 *
 * The versions part is a SHA-256, computed once per version set: a tag compared with an earlier
 * answer of the same URL (the only comparison HTTP caches make) differs exactly when the versions
 * do. The URL part only keeps tags of different URLs apart, so a fast hash does; hashing the URL
 * with WebCrypto on every request cost ~70 µs (Node runs it on its thread pool), more than most answers.
 */
async function entityTag(versions: readonly Version[], requestUrl: string): Promise<string> {
  return `"${await versionsDigest(versions)}${fnv64(requestTarget(requestUrl))}"`;
}

/** Whether If-None-Match is `*`: any current answer, whatever its tag. */
const anyTag = (ifNoneMatch: string) => ifNoneMatch.trim() === "*";

function matches(ifNoneMatch: string | undefined, tag: string): boolean {
  if (!ifNoneMatch) return false;
  return anyTag(ifNoneMatch) || ifNoneMatch.split(",").some((t) => t.trim().replace(/^W\//, "") === tag);
}

/** The headers of every tagged answer, 304s included. */
const taggedHeaders = (tag: string) => ({ ETag: tag, "Cache-Control": "public, no-cache" });

/**
 * The application's versions when a revalidation names a tag and the tag is known before the
 * answer: on an application's route, from the catalog alone. Null otherwise: `*` asks whether the
 * answer exists (a missing object is still a 404), and the catalog route lists versions it reads.
 */
async function versionsUpFront(
  c: Context<AppEnv>,
  ifNoneMatch: string | undefined,
): Promise<readonly Version[] | null> {
  const application = c.get("application");
  if (!ifNoneMatch || anyTag(ifNoneMatch) || application === undefined) return null;
  return c.get("deps").catalog.versions(application);
}

/**
 * Successful answers carry the ETag and `Cache-Control: public, no-cache` (any cache may keep them but
 * must revalidate, since "the newest version" moves on publish); a matching If-None-Match gets 304.
 * On an application's route the tag is known from the catalog alone, so a revalidation naming it is
 * answered before any of the answer is computed: nothing read from the snapshot, nothing looked up
 * (a browser, which revalidates every answer it keeps under no-cache, then costs the service almost
 * nothing). Errors are not stored. The tag does not depend on the body, so a streamed answer is
 * tagged as any other; one that is not sent (304, HEAD) is cancelled, which stops it reading the
 * snapshot.
 */
export const conditionalGet: MiddlewareHandler<AppEnv> = async (c, next) => {
  const ifNoneMatch = c.req.header("If-None-Match");
  const known = await versionsUpFront(c, ifNoneMatch);
  if (known) {
    const tag = await entityTag(known, c.req.url);
    if (matches(ifNoneMatch, tag)) return c.body(null, 304, taggedHeaders(tag));
  }
  await next();
  const versions = c.get("versions");
  if (c.res.status !== 200 || !versions) {
    if (c.res.status >= 400) c.res.headers.set("Cache-Control", "no-store");
    return;
  }
  const tag = await entityTag(versions, c.req.url);
  const headers = taggedHeaders(tag);
  const fresh = matches(ifNoneMatch, tag);
  // Hono drops the body of a HEAD answer; a streamed one must also stop reading the snapshot.
  if (fresh || c.req.method === "HEAD") await c.res.body?.cancel();
  if (fresh) {
    c.res = new Response(null, {
      status: 304,
      headers: { ...headers, "Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": EXPOSED_HEADERS },
    });
    return;
  }
  for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
};
