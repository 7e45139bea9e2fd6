// @module What routes see: the app's dependencies and the resolved application of the request.
import type { Snapshot } from "../format/snapshot.ts";
import type { SourceLocator } from "../query/source-locator.ts";
import type { Catalog, Version } from "../storage/catalog.ts";
import type { AccessPolicy } from "./access.ts";
import type { RateLimiter } from "./rate-limit.ts";

export interface AppDeps {
  catalog: Catalog;
  /** null when the source code service is disabled or not configured. */
  sources: SourceLocator | null;
  /** null when no API keys are configured (everything is open). */
  access: AccessPolicy | null;
  /** Optional per-key rate limit; absent or null: unlimited. */
  rateLimit?: { limiter: RateLimiter; periodSeconds: number } | null;
}

/** Read with `c.get(name)`: `c.var` copies every variable into a new object at each access. */
export interface AppEnv {
  Variables: {
    deps: AppDeps;
    /** The decoded `{name}` path segment. */
    application: string;
    /** The application's published versions, once a route has looked them up (what the ETag derives from). */
    versions: Version[] | undefined;
  };
}

/** The application's history and the snapshot a route reads. */
export interface Resolved {
  versions: Version[];
  version: Version;
  snapshot: Snapshot;
}
