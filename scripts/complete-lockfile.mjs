// @module Adds lock entries for optional platform packages the registry reachable here does not serve.
//
// Why: workerd lists prebuilt binaries for every platform as optional dependencies. The registry
// these machines reach serves only the Linux ones, so `npm install` writes a lock file without the
// darwin/windows entries, and `npm ci` then refuses that lock file as out of sync. The entries added
// here carry `os`/`cpu`, so npm skips them on Linux and fetches them by name@version elsewhere.
// Run after any `npm install` that changes package-lock.json.
import { readFileSync, writeFileSync } from "node:fs";

const LOCK = new URL("../package-lock.json", import.meta.url);
/** Platform suffixes of workerd's (`@cloudflare/workerd-…`) and Biome's (`@biomejs/cli-…`) binary packages. */
const PLATFORMS = {
  "android-arm64": { os: "android", cpu: "arm64" },
  "android-x64": { os: "android", cpu: "x64" },
  "darwin-x64": { os: "darwin", cpu: "x64" },
  "linux-x64": { os: "linux", cpu: "x64" },
  "linux-x64-musl": { os: "linux", cpu: "x64", libc: "musl" },
  "linux-arm64-musl": { os: "linux", cpu: "arm64", libc: "musl" },
  "win32-x64": { os: "win32", cpu: "x64" },
  "win32-arm64": { os: "win32", cpu: "arm64" },
  "darwin-64": { os: "darwin", cpu: "x64" },
  "darwin-arm64": { os: "darwin", cpu: "arm64" },
  "linux-64": { os: "linux", cpu: "x64" },
  "linux-arm64": { os: "linux", cpu: "arm64" },
  "windows-64": { os: "win32", cpu: "x64" },
};

const BINARY_PACKAGES = [
  { prefix: "@cloudflare/workerd-", license: "Apache-2.0" },
  { prefix: "@biomejs/cli-", license: "MIT OR Apache-2.0" },
];

const lock = JSON.parse(readFileSync(LOCK, "utf8"));
let added = 0;
for (const entry of Object.values(lock.packages)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const prefix = BINARY_PACKAGES.find((p) => dep.startsWith(p.prefix));
    const platform = prefix && PLATFORMS[dep.slice(prefix.prefix.length)];
    const path = `node_modules/${dep}`;
    if (!platform || lock.packages[path]) continue;
    lock.packages[path] = {
      version,
      dev: entry.dev,
      optional: true,
      os: [platform.os],
      cpu: [platform.cpu],
      ...(platform.libc ? { libc: [platform.libc] } : {}),
      license: prefix.license,
    };
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : 1)),
);
writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: ${added} platform entr${added === 1 ? "y" : "ies"} added`);
