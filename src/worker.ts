// @module The Cloudflare Worker: the API over R2 snapshots, plus the SourceService entrypoint behind `select=source-locations`.
import { WorkerEntrypoint } from "cloudflare:workers";
import { createApp } from "./app.ts";
import { parseAccessPolicy } from "./http/access.ts";
import type { AppDeps } from "./http/context.ts";
import type { RateLimiter } from "./http/rate-limit.ts";
import {
  answerOf,
  type FileAnswer,
  type LineRange,
  type LocationsAnswer,
  SnapshotSourceLocator,
  type SourceLocator,
  serviceAnswer,
} from "./query/source-locator.ts";
import { StoreCatalog, type Version } from "./storage/catalog.ts";
import { DelayedStore, storageLatencyMs } from "./storage/delayed-store.ts";
import { EdgeCacheStore } from "./storage/edge-cache-store.ts";
import { isolateCaches, sectionBudgetBytes } from "./storage/isolate-caches.ts";
import { isSnapshotKey } from "./storage/manifest.ts";
import { R2Store } from "./storage/r2-store.ts";
import { runWithWaitUntil } from "./wait-until.ts";

export interface Env {
  SNAPSHOTS: R2Bucket;
  /** Service binding to SourceService (this worker's named entrypoint, or a separately deployed one). */
  SOURCE?: Service<SourceService>;
  /** Secret: JSON {"<key>": "*" | ["<application>", ...]}; unset = open. */
  API_KEYS?: string;
  /** How long a manifest is trusted before it is fetched again (ms); default 1000. */
  MANIFEST_TTL_MS?: string;
  /** Optional rate-limit binding (see wrangler.toml): requests per period, per API key or client address. */
  RATE_LIMITER?: RateLimiter;
  /** The period of RATE_LIMITER in seconds, for Retry-After; default 60. */
  RATE_LIMIT_PERIOD?: string;
  /** Secret: the bearer token of the publish API (/publish); unset = publishing disabled (403). */
  PUBLISH_TOKEN?: string;
  /** How long (ms) one publish commit verifies before answering 202 "verifying" (docs/publish-api.md); default 4000. */
  PUBLISH_VERIFY_MS?: string;
  /** Megabytes (2^20 bytes) of decoded sections kept per isolate, least recently used evicted first; default 64. */
  SECTION_CACHE_MB?: string;
  /**
   * "off": snapshot ranges are not kept in the data centre's cache (the Workers Cache API) between
   * isolate memory and R2; anything else or unset: they are.
   */
  EDGE_CACHE?: string;
  /** Milliseconds every storage call waits first (R2's latency, in local runs and tests); unset or 0: none. `appstruct serve --read-latency-ms` on Node. */
  STORAGE_LATENCY_MS?: string;
}

/** Dependencies made for an env, kept once made: a promise of them would tie later requests to the first one's I/O. */
const depsByEnv = new WeakMap<object, AppDeps>();

// Opened snapshots and their decoded sections live for the isolate's lifetime, shared by the API and
// the source service; the sections under SECTION_CACHE_MB.
function catalogFor(env: Env): StoreCatalog {
  const { snapshots, sections } = isolateCaches(sectionBudgetBytes(env.SECTION_CACHE_MB));
  const bucket = new R2Store(env.SNAPSHOTS);
  const latencyMs = storageLatencyMs(env.STORAGE_LATENCY_MS);
  const r2 = latencyMs > 0 ? new DelayedStore(bucket, latencyMs) : bucket;
  // The data centre's cache in front of R2 (not of the latency: a hit costs what the cache costs).
  const store = edgeCacheOn(env.EDGE_CACHE) ? new EdgeCacheStore(r2, caches.default, isSnapshotKey) : r2;
  return new StoreCatalog(store, {
    manifestTtlMs: env.MANIFEST_TTL_MS ? Number(env.MANIFEST_TTL_MS) : undefined,
    snapshots,
    sections,
  });
}

/** Whether EDGE_CACHE leaves the data centre's cache on: unless "off". */
function edgeCacheOn(setting: string | undefined): boolean {
  const value = setting?.trim() ?? "";
  if (value === "off") return false;
  if (value === "" || value === "on") return true;
  throw new Error(`EDGE_CACHE must be "on" or "off" (unset: on), not ${JSON.stringify(setting)}`);
}

async function depsFor(env: Env): Promise<AppDeps> {
  const made = depsByEnv.get(env);
  if (made) return made;
  const sources: SourceLocator | null = env.SOURCE
    ? {
        locations: async (version, ranks) => answerOf(await env.SOURCE!.lookup(version, ranks)),
        file: async (version, fileId, range) => answerOf(await env.SOURCE!.file(version, fileId, range)),
      }
    : null;
  const rateLimit = env.RATE_LIMITER
    ? { limiter: env.RATE_LIMITER, periodSeconds: Number(env.RATE_LIMIT_PERIOD ?? 60) }
    : null;
  const deps = { catalog: catalogFor(env), sources, access: await parseAccessPolicy(env.API_KEYS), rateLimit };
  // Requests that made deps at once keep the first: one catalog per env.
  if (!depsByEnv.has(env)) depsByEnv.set(env, deps);
  return depsByEnv.get(env)!;
}

const app = createApp((env) => depsFor(env as Env));

export default {
  fetch: (request, env, ctx) => runWithWaitUntil(ctx.waitUntil.bind(ctx), () => app.fetch(request, env, ctx)),
} satisfies ExportedHandler<Env>;

/** The source code service: reads the locations and source text of a published snapshot. Deployable on its own. */
export class SourceService extends WorkerEntrypoint<Env> {
  /** Source locations of objects (by rank) of a published version; storage failures come back as data. */
  async lookup(version: Version, ranks: number[]): Promise<LocationsAnswer> {
    return serviceAnswer(() => new SnapshotSourceLocator(catalogFor(this.env)).locations(version, ranks));
  }

  /** Lines of one file of a published version (null: not listed, or listed without text); storage failures come back as data. */
  async file(version: Version, fileId: string, range: LineRange): Promise<FileAnswer> {
    return serviceAnswer(() => new SnapshotSourceLocator(catalogFor(this.env)).file(version, fileId, range));
  }
}
