// @module The Cloudflare Worker: the API over R2 snapshots, plus the SourceService entrypoint behind `select=source-locations`.
import { WorkerEntrypoint } from "cloudflare:workers";
import type { WireLocation } from "./format/source-locations.ts";
import { parseAccessPolicy } from "./http/access.ts";
import { createApp } from "./http/app.ts";
import type { AppDeps } from "./http/context.ts";
import { SnapshotSourceLocator, type SourceLocator } from "./query/source-locator.ts";
import { type Version, SnapshotCache, StoreCatalog } from "./storage/catalog.ts";
import { R2Store } from "./storage/r2-store.ts";

export interface Env {
  SNAPSHOTS: R2Bucket;
  /** Service binding to SourceService (this worker's named entrypoint, or a separately deployed one). */
  SOURCE?: Service<SourceService>;
  /** Secret: JSON {"<key>": "*" | ["<application>", ...]}; unset = open. */
  API_KEYS?: string;
  /** How long a manifest is trusted before it is fetched again (ms); default 1000. */
  MANIFEST_TTL_MS?: string;
}

// Decoded snapshots live for the isolate's lifetime, shared by the API and the source service.
const snapshots = new SnapshotCache();
const depsByEnv = new WeakMap<object, Promise<AppDeps>>();

function catalogFor(env: Env): StoreCatalog {
  return new StoreCatalog(new R2Store(env.SNAPSHOTS), { manifestTtlMs: env.MANIFEST_TTL_MS ? Number(env.MANIFEST_TTL_MS) : undefined, snapshots });
}

function depsFor(env: Env): Promise<AppDeps> {
  let deps = depsByEnv.get(env);
  if (!deps) {
    deps = (async () => {
      const sources: SourceLocator | null = env.SOURCE ? { locations: (version, ranks) => env.SOURCE!.locations(version, ranks) } : null;
      return { catalog: catalogFor(env), sources, access: await parseAccessPolicy(env.API_KEYS) };
    })();
    deps.catch(() => depsByEnv.delete(env));
    depsByEnv.set(env, deps);
  }
  return deps;
}

const app = createApp((env) => depsFor(env as Env));

export default {
  fetch: (request, env, ctx) => app.fetch(request, env, ctx),
} satisfies ExportedHandler<Env>;

/** The source code service: reads the locations section of a published snapshot. Deployable on its own. */
export class SourceService extends WorkerEntrypoint<Env> {
  async locations(version: Version, ranks: number[]): Promise<(WireLocation[] | null)[]> {
    return new SnapshotSourceLocator(catalogFor(this.env)).locations(version, ranks);
  }
}
