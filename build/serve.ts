// @module startNodeServer: the same Hono app on Node, over a FolderCatalog, with the in-process source service.
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { createApp } from "../src/app.ts";
import { SectionCache } from "../src/format/section-cache.ts";
import { delayedSource } from "../src/format/snapshot.ts";
import { parseAccessPolicy } from "../src/http/access.ts";
import { SnapshotSourceLocator } from "../src/query/source-locator.ts";
import { explorerFiles } from "./explorer-files.ts";
import { loadFolderCatalog } from "./folder-catalog.ts";
import { PROJECT_ROOT } from "./store.ts";

export interface NodeServeOptions {
  data: string;
  port: number;
  host: string;
  /** Decoded sections kept, least recently used evicted first, as the worker's SECTION_CACHE_MB. */
  sectionBudgetBytes: number;
  /** How long every snapshot read waits first, as the worker's STORAGE_LATENCY_MS. */
  readLatencyMs: number;
}

/** What `appstruct serve` answers with: the explorer's files, else the app; `explorer` false when the explorer is not built. */
export async function nodeFetch(
  options: Pick<NodeServeOptions, "data" | "sectionBudgetBytes" | "readLatencyMs">,
): Promise<{ fetch: (request: Request) => Response | Promise<Response>; explorer: boolean }> {
  const { readLatencyMs } = options;
  const catalog = await loadFolderCatalog(options.data, (line) => console.error(line), {
    sections: new SectionCache(options.sectionBudgetBytes),
    readThrough: readLatencyMs > 0 ? (source) => delayedSource(source, readLatencyMs) : undefined,
  });
  const deps = {
    catalog,
    sources: new SnapshotSourceLocator(catalog),
    access: await parseAccessPolicy(process.env.API_KEYS),
  };
  const app = createApp(() => deps);
  // The explorer's files first, as Workers static assets go before the worker; the API answers the rest.
  const files = await explorerFiles(join(PROJECT_ROOT, "web/dist"));
  if (!files) return { fetch: (request) => app.fetch(request), explorer: false };
  return { fetch: async (request) => (await files(request)) ?? app.fetch(request), explorer: true };
}

export async function startNodeServer(options: NodeServeOptions): Promise<void> {
  const { fetch, explorer: files } = await nodeFetch(options);
  if (!files) console.error("the explorer is not built (npm run build): serving the API alone");
  await new Promise<void>((resolve, reject) => {
    const server = serve({ fetch, port: options.port, hostname: options.host }, (info) => {
      const origin = `http://${options.host}:${info.port}`;
      console.log(`appstruct serving ${options.data} on ${origin}/rest/applications/{name}/objects?limit=10`);
      if (files) console.log(`the explorer: ${origin}/`);
      resolve();
    });
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "EADDRINUSE"
          ? new Error(`port ${options.port} on ${options.host} is already in use; choose another with --port`)
          : error,
      ),
    );
  });
}
