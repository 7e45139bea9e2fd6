// @module Shared harness of the workers tests: typed bindings and worker export, publishing and status-base helpers.
import { env, exports } from "cloudflare:workers";
import type { StatusBase } from "../../build/compile/build-model.ts";
import { compileDocument } from "../../build/compile/compile-document.ts";
import { sha256Hex } from "../../src/digests.ts";
import type { RateLimiter } from "../../src/http/rate-limit.ts";
import { type PublishResult, publishSnapshot } from "../../src/storage/publish.ts";
import { R2Store } from "../../src/storage/r2-store.ts";
import type { Env } from "../../src/worker.ts";

/** The bindings of wrangler.toml (SNAPSHOTS, SOURCE, MANIFEST_TTL_MS), as the worker sees them. */
export const testEnv = env as unknown as Env;

/** The worker's default export, called like a service binding. */
export const worker = (
  exports as unknown as { default: { fetch(input: Request | string, init?: RequestInit): Promise<Response> } }
).default;

export const BASE = "http://appstruct.test";

export const fetchWorker = (request: Request): Promise<Response> => worker.fetch(request);

/** `/rest/applications/{name}` with the name percent-encoded once. */
export const appPath = (application: string): string => `/rest/applications/${encodeURIComponent(application)}`;

/** What `compile --previous` computes: the content address of the earlier snapshot and its checksums by object id. */
export async function statusBaseOf(
  document: { objects: readonly { id: string; checksum?: string | null }[] },
  bytes: Uint8Array,
): Promise<StatusBase> {
  return { key: await sha256Hex(bytes), checksums: new Map(document.objects.map((o) => [o.id, o.checksum ?? null])) };
}

/** Compiles each document (statuses against the one before it) and publishes them in order into `bucket`. */
export async function publishHistory(
  documents: readonly unknown[],
  bucket: R2Bucket = testEnv.SNAPSHOTS,
): Promise<{ bytes: Uint8Array[]; results: PublishResult[] }> {
  const store = new R2Store(bucket);
  const bytes: Uint8Array[] = [];
  const results: PublishResult[] = [];
  let previous: StatusBase | null = null;
  for (const document of documents) {
    const compiled = compileDocument(document, previous);
    bytes.push(compiled.bytes);
    results.push(await publishSnapshot(store, compiled.bytes));
    previous = await statusBaseOf(document as { objects: { id: string; checksum?: string | null }[] }, compiled.bytes);
  }
  return { bytes, results };
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Status, content type and parsed JSON body (undefined when the body is empty). */
export async function call(
  input: Request | string,
  init?: RequestInit,
  fetcher: (request: Request) => Promise<Response> = fetchWorker,
): Promise<{ status: number; headers: Headers; text: string; body: Json | undefined }> {
  const request =
    typeof input === "string" ? new Request(input.startsWith("http") ? input : BASE + input, init) : input;
  const response = await fetcher(request);
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: text === "" ? undefined : (JSON.parse(text) as Json),
  };
}

/** A limiter allowing `allowance` requests per key, recording the keys it was asked about. */
export function fakeLimiter(allowance: number): RateLimiter & { keys: string[] } {
  const used = new Map<string, number>();
  const keys: string[] = [];
  return {
    keys,
    async limit({ key }) {
      keys.push(key);
      used.set(key, (used.get(key) ?? 0) + 1);
      return { success: used.get(key)! <= allowance };
    },
  };
}
