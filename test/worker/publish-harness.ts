// @module Shared by the publish API tests: the worker with PUBLISH_TOKEN set, a PublishClient on it, the bucket's keys.

import { PublishClient } from "../../build/publish-client.ts";
import { R2Store } from "../../src/storage/r2-store.ts";
import workerModule, { type Env } from "../../src/worker.ts";
import { testEnv } from "./harness.ts";

export const TOKEN = "pub-3f9a/+= token";

const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;

/** The worker's fetch with `env` (one object per configuration: the worker caches its dependencies per env). */
export const fetcherFor = (env: Env) => (request: Request) =>
  Promise.resolve(workerModule.fetch!(request as Request<unknown, IncomingRequestCfProperties>, env, ctx));

/** With PUBLISH_TOKEN, and manifests never cached, so reads right after a publish see it. */
export const publishEnv = { ...testEnv, PUBLISH_TOKEN: TOKEN, MANIFEST_TTL_MS: "0" } as Env;
export const publishing = fetcherFor(publishEnv);
/** The same, verifying one check per commit request (PUBLISH_VERIFY_MS 0): a large snapshot's verification, in small. */
export const publishingInSteps = fetcherFor({ ...publishEnv, PUBLISH_VERIFY_MS: "0" } as Env);

/** A client of the publish API of `publishEnv`; `partSize` small to force several parts. */
export const clientFor = (
  options: { partSize?: number; token?: string; fetch?: (request: Request) => Promise<Response> } = {},
) =>
  new PublishClient({
    url: "http://appstruct.test",
    token: options.token ?? TOKEN,
    partSize: options.partSize,
    fetch: options.fetch ?? publishing,
  });

/** Every key in the bucket, sorted. */
export const bucketKeys = async () => (await new R2Store(testEnv.SNAPSHOTS).list("")).sort();

/** `fetch` that records each request's method and path before passing it on. */
export function recording(inner: (request: Request) => Promise<Response>) {
  const requests: string[] = [];
  return {
    requests,
    fetch: (request: Request) => (requests.push(`${request.method} ${new URL(request.url).pathname}`), inner(request)),
  };
}
