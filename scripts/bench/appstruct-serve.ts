// @module Our service on Node for the bench: `appstruct serve` over a temporary folder holding only the snapshot, as its own process.
import { readFileSync } from "node:fs";
import { mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PROJECT_ROOT } from "../../build/store.ts";
import { freePort } from "../dev-server.ts";
import { type ChildServer, startChildServer } from "./child-server.ts";

const APPSTRUCT = join(PROJECT_ROOT, "build", "bin", "appstruct.js");
/** The Node flags of the executable's shebang (`#!/usr/bin/env -S node <flags>`). */
const SHEBANG_FLAGS = readFileSync(APPSTRUCT, "utf8").split("\n")[0].split(/\s+/).slice(3);

/**
 * Node flags that write a CPU profile of the server into `dir` when it stops. The profile is written
 * on exit, and SIGTERM (how the bench stops its servers) would skip it: the server exits on it instead.
 */
export function profilingFlags(dir: string): string[] {
  return [
    "--cpu-prof",
    `--cpu-prof-dir=${resolve(dir)}`,
    "--import",
    'data:text/javascript,process.on("SIGTERM",()=>process.exit(0))',
  ];
}

/**
 * Serves `snapshot` with `appstruct serve --section-cache-mb <sectionCacheMB> --read-latency-ms
 * <readLatencyMs>`. The folder holds a link to the snapshot alone (the bench's data folder also
 * holds the NDJSON, which serve would compile), and serve reads the file by range, as the worker reads R2.
 * `nodeFlags` (e.g. `--cpu-prof`) run the executable on this Node with those flags added to its
 * shebang's; `executable` is another checkout's build/bin/appstruct.js (to compare two versions).
 */
export async function startAppstructServe(
  snapshot: string,
  sectionCacheMB: number,
  readLatencyMs = 0,
  { nodeFlags = [], executable = APPSTRUCT }: { nodeFlags?: readonly string[]; executable?: string } = {},
): Promise<ChildServer> {
  const folder = await mkdtemp(join(tmpdir(), "appstruct-bench-serve-"));
  try {
    await symlink(resolve(snapshot), join(folder, "bench.snap"));
    const port = await freePort();
    // The executable itself, as `npx appstruct` runs it (its shebang's Node flags included).
    const [command, before] = nodeFlags.length
      ? [process.execPath, [...SHEBANG_FLAGS, ...nodeFlags, executable]]
      : [executable, []];
    const server = await startChildServer(
      "appstruct serve",
      command,
      [
        ...before,
        "serve",
        "--data",
        folder,
        "--port",
        String(port),
        "--section-cache-mb",
        String(sectionCacheMB),
        "--read-latency-ms",
        String(readLatencyMs),
      ],
      port,
      "appstruct serving",
    );
    return {
      ...server,
      stop: async () => {
        await server.stop();
        await rm(folder, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
}
