// @module `npm start`: publishes the shipped analyses to the local store, prints working example URLs, runs `wrangler dev`.
import { spawn } from "node:child_process";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { publishFiles } from "../build/publish.ts";
import { openStore, PROJECT_ROOT } from "../build/store.ts";
import { findObjects } from "../src/query/find-objects.ts";
import { collect } from "../src/query/streamed-list.ts";
import { StoreCatalog } from "../src/storage/catalog.ts";

const port = process.env.PORT ?? "8787";
const folder = join(PROJECT_ROOT, "snapshots");
const files = (await readdir(folder)).filter((f) => /\.(json|ndjson|snap)$/.test(f)).map((f) => join(folder, f));

const opened = await openStore("local");
const examples: string[] = [];
try {
  const results = await publishFiles(opened.store, files, (line) => console.log(line));
  const catalog = new StoreCatalog(opened.store);
  for (const application of new Set(results.map((r) => r.application))) {
    const versions = (await catalog.versions(application))!;
    const snapshot = await catalog.open(versions[versions.length - 1]);
    const base = `http://localhost:${port}/rest/applications/${encodeURIComponent(application)}`;
    const [sample] = await collect(
      (
        await findObjects(snapshot, {
          filters: { type: ["method"], name: ["find"] },
          operator: "contains",
          searchtype: "internal",
          skip: 0,
          limit: 1,
        })
      ).objects,
    );
    examples.push(`${base}/objects?limit=5&name=owner`);
    if (sample) {
      examples.push(`${base}/objects/${sample.id}?select=source-locations`);
      examples.push(`${base}/objects/${sample.id}/callees?select=parent`);
      examples.push(`${base}/objects/${sample.id}/start-end-points?hops=3`);
    }
    examples.push(`${base}/levels/2/graph`);
    examples.push(`${base}/levels/3/nodes?name=a&select=children`);
  }
} finally {
  await opened.close();
}

console.log(
  `\nappstruct is starting on http://localhost:${port} — try:\n${examples.map((e) => `  curl '${e}'`).join("\n")}\n`,
);
const wrangler = spawn(
  join(PROJECT_ROOT, "node_modules", ".bin", "wrangler"),
  ["dev", "--port", port, ...process.argv.slice(2)],
  {
    stdio: "inherit",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  },
);
wrangler.on("exit", (code) => process.exit(code ?? 0));
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => wrangler.kill(signal));
