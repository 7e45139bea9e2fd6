// @module openStore: the R2 bucket `publish`/`list` write and read — wrangler's local persistence or the real bucket.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { BlobStore } from "../src/storage/blob-store.ts";
import { R2Store } from "../src/storage/r2-store.ts";

export const PROJECT_ROOT = fileURLToPath(new URL("..", import.meta.url).href);
const CONFIG = join(PROJECT_ROOT, "wrangler.toml");
/** Where `wrangler dev` (and so `npm run dev`) keeps local bindings' data. */
const LOCAL_STATE = join(PROJECT_ROOT, ".wrangler", "state", "v3");

export interface OpenedStore {
  store: BlobStore;
  where: string;
  close(): Promise<void>;
}

/**
 * `local`: the store `npm run dev` reads, through wrangler's platform proxy (workerd's own R2, so
 * conditional puts behave as in production). `remote`: the configured bucket, through wrangler's
 * remote bindings (needs `wrangler login` or CLOUDFLARE_API_TOKEN).
 */
export async function openStore(mode: "local" | "remote"): Promise<OpenedStore> {
  return openProxyStore(mode, LOCAL_STATE);
}

/**
 * A local store persisted under `persistPath` instead of `.wrangler/state/v3`: what
 * `wrangler dev --persist-to <dir>` serves when `persistPath` is `<dir>/v3` (scripts/dev-server.ts).
 */
export async function openLocalStoreAt(persistPath: string): Promise<OpenedStore> {
  return openProxyStore("local", persistPath);
}

async function openProxyStore(mode: "local" | "remote", localState: string): Promise<OpenedStore> {
  process.env.WRANGLER_SEND_METRICS ??= "false";
  const { getPlatformProxy } = await import("wrangler");
  // A config with only the bucket: the proxy needs nothing else, and the worker's self service
  // binding would only warn that no worker runs. Marked remote, the proxy talks to the real bucket.
  const bucket = /bucket_name\s*=\s*"([^"]+)"/.exec(await readFile(CONFIG, "utf8"))?.[1];
  if (!bucket) throw new Error(`${CONFIG} names no R2 bucket`);
  const temporary = await mkdtemp(join(tmpdir(), "appstruct-"));
  const configPath = join(temporary, "wrangler.toml");
  await writeFile(
    configPath,
    `name = "appstruct-publish"\ncompatibility_date = "2026-11-01"\n[[r2_buckets]]\nbinding = "SNAPSHOTS"\nbucket_name = "${bucket}"\n${mode === "remote" ? "remote = true\n" : ""}`,
  );
  const proxy = await getPlatformProxy<{ SNAPSHOTS: R2Bucket }>({
    configPath,
    persist: mode === "local" ? { path: localState } : false,
    remoteBindings: mode === "remote",
    envFiles: [],
  });
  return {
    store: new R2Store(proxy.env.SNAPSHOTS),
    where: mode === "local" ? `local store ${localState}` : "remote bucket",
    async close() {
      await proxy.dispose();
      await rm(temporary, { recursive: true, force: true });
    },
  };
}
