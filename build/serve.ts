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

/**
 * `sectionBudgetBytes`: decoded sections kept, least recently used evicted first, as the worker's
 * SECTION_CACHE_MB. `readLatencyMs`: how long every snapshot read waits first, as the worker's STORAGE_LATENCY_MS.
 */
export async function startNodeServer(options: {
  data: string;
  port: number;
  host: string;
  sectionBudgetBytes: number;
  readLatencyMs: number;
}): Promise<void> {
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
  if (!files) console.error("the explorer is not built (npm run build): serving the API alone");
  const fetch = files ? async (request: Request) => (await files(request)) ?? app.fetch(request) : app.fetch;
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
