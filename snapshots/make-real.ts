// @module Makes the analyses of real code shipped in snapshots/: this project at two commits and zod at two versions, with `appstruct analyze`.
// Usage: npm run snapshots:real   (offline: needs the git history of this repository and the installed node_modules)
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..");
const BIN = join(ROOT, "build/bin/appstruct.js");

/** This project before the analyzer (main at 0ab8660) and with it: its history shows the analyzer Added. */
const COMMITS = ["0ab8660", "1f73c73"];

/** zod's core (src/v4/core, without its tests: the schemas, parsing and JSON Schema) at the two versions installed here; npm keeps no dates offline, so the dates only order them. */
const ZOD_VERSIONS = [
  {
    folder: "node_modules/@cloudflare/vitest-plugin/node_modules/zod",
    version: "4.6.6",
    analyzedAt: "2026-11-01T00:00:00Z",
  },
  { folder: "node_modules/zod", version: "4.6.7", analyzedAt: "2026-11-15T00:00:00Z" },
];

const work = mkdtempSync(join(tmpdir(), "appstruct-real-"));

function appstruct(...args: string[]): void {
  console.log(`$ appstruct ${args.join(" ")}`);
  execFileSync(process.execPath, [BIN, ...args], { stdio: "inherit" });
}

function analyzeCommit(commit: string): void {
  const folder = join(work, `appstruct-${commit}`);
  execFileSync("mkdir", ["-p", folder]);
  execFileSync("sh", [
    "-c",
    `git -C "${ROOT}" archive ${commit} src build package.json tsconfig.json | tar -x -C "${folder}"`,
  ]);
  const analyzedAt = execFileSync("git", ["-C", ROOT, "log", "-1", "--format=%cI", commit], {
    encoding: "utf8",
  }).trim();
  // The project's own code (src, build, with the bin script), without its tests and scripts; its dependencies are not installed there, so they are external.
  writeFileSync(
    join(folder, "tsconfig.analyze.json"),
    JSON.stringify({
      extends: "./tsconfig.json",
      include: ["src", "build"],
      compilerOptions: { types: [], allowJs: true },
    }),
  );
  const out = join(ROOT, "snapshots", `appstruct-${commit}.json`);
  appstruct(
    "analyze",
    folder,
    "--tsconfig",
    join(folder, "tsconfig.analyze.json"),
    "--name",
    "appstruct",
    "--analyzed-at",
    analyzedAt,
    // Without its text: this project's old code names folders of the machine it was written on,
    // which the repository must not (test/node/self-contained.test.ts). zod's analyses keep theirs.
    "--no-source",
    "-o",
    out,
  );
  appstruct("compile", out, "-o", join(work, `appstruct-${commit}.snap`));
}

function analyzeZod({ folder, version, analyzedAt }: (typeof ZOD_VERSIONS)[number]): void {
  const installed = JSON.parse(readFileSync(join(ROOT, folder, "package.json"), "utf8")).version;
  if (installed !== version)
    throw new Error(
      `${folder} is zod ${installed}, expected ${version}: update ZOD_VERSIONS in snapshots/make-real.ts`,
    );
  const copy = join(work, `zod-${version}`);
  cpSync(join(ROOT, folder, "src/v4/core"), copy, {
    recursive: true,
    filter: (path) => !path.split("/").includes("tests"),
  });
  const out = join(ROOT, "snapshots", `zod-${version}.json`);
  appstruct("analyze", copy, "--name", "zod", "--analyzed-at", analyzedAt, "-o", out);
  appstruct("compile", out, "-o", join(work, `zod-${version}.snap`));
}

try {
  for (const commit of COMMITS) analyzeCommit(commit);
  for (const zod of ZOD_VERSIONS)
    if (existsSync(join(ROOT, zod.folder))) analyzeZod(zod);
    else throw new Error(`${zod.folder} is not installed (run npm ci)`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
