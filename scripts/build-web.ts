// @module The explorer's build: `npm run build` bundles web/ into web/dist (Vite); `--if-stale` builds only when a source is newer than the bundle (npm start/dev, the e2e tests).
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { PROJECT_ROOT } from "../build/store.ts";

export const WEB_ROOT = join(PROJECT_ROOT, "web");
export const WEB_DIST = join(WEB_ROOT, "dist");
const BUNDLE_INDEX = join(WEB_DIST, "index.html");

/** Newest modification time under `path` (files only), leaving out the bundle itself. */
async function newestSource(path: string): Promise<number> {
  const info = await stat(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = 0;
  for (const entry of await readdir(path)) {
    if (join(path, entry) === WEB_DIST) continue;
    newest = Math.max(newest, await newestSource(join(path, entry)));
  }
  return newest;
}

/** Whether web/dist is missing or older than a file of web/ (or the package lock: a library changed). */
export async function webBundleIsStale(): Promise<boolean> {
  const built = await stat(BUNDLE_INDEX).then(
    (s) => s.mtimeMs,
    () => null,
  );
  if (built === null) return true;
  return Math.max(await newestSource(WEB_ROOT), await newestSource(join(PROJECT_ROOT, "package-lock.json"))) > built;
}

/** Bundles web/ into web/dist with web/vite.config.ts. */
export async function buildWeb(): Promise<void> {
  const { build } = await import("vite");
  await build({ root: WEB_ROOT, logLevel: "warn" });
}

/** Builds the bundle when it is missing or stale; says which. */
export async function ensureWebBuilt(log: (line: string) => void = console.log): Promise<void> {
  if (!(await webBundleIsStale())) return;
  log("explorer: building web/ into web/dist …");
  await buildWeb();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  if (process.argv.includes("--if-stale")) await ensureWebBuilt();
  else await buildWeb();
}
