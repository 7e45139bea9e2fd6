// @module startDevServer: publishes analyses into an isolated wrangler persistence folder and runs `wrangler dev` over it on 127.0.0.1.
//
//   const server = await startDevServer({ files: ["a-v1.json", "a-v2.json"] });
//   await fetch(`${server.url}/rest/ready`);
//   await server.stop();
//
// The folder is never the developer's `.wrangler/state`: by default a fresh temporary folder,
// removed by stop(). Layout: `wrangler dev --persist-to <dir>` keeps bindings' data under
// `<dir>/v3`, so the files are published through wrangler's platform proxy with
// `persist: { path: <dir>/v3 }` — the same code build/store.ts uses for `.wrangler/state/v3`.
// Bindings and vars come from wrangler.toml; secrets from an empty env file (`<dir>/isolated.env`),
// never the project's `.dev.vars`.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { publishFiles } from "../build/publish.ts";
import { openLocalStoreAt, PROJECT_ROOT } from "../build/store.ts";
import { ensureWebBuilt } from "./build-web.ts";

export const HOST = "127.0.0.1";
const WRANGLER = join(PROJECT_ROOT, "node_modules", ".bin", "wrangler");
const DEVELOPER_STATE = join(PROJECT_ROOT, ".wrangler", "state");
/** Lines of wrangler's output kept for diagnostics. */
const KEPT_LINES = 2000;

export interface DevServerOptions {
  /** The port `wrangler dev` listens on (127.0.0.1); a free one when omitted. */
  port?: number;
  /** wrangler's persistence folder (`--persist-to`); a fresh temporary folder, removed by stop(), when omitted. */
  persistDir?: string;
  /** Analyses (.json/.ndjson) or snapshots (.snap) published before the server starts, as `appstruct publish` does. */
  files: string[];
  /** Publishing lines ("…: published …"); silent when omitted. */
  log?: (line: string) => void;
  /** Worker vars and secrets for this run (`--var NAME:VALUE`), e.g. PUBLISH_TOKEN. */
  vars?: Record<string, string>;
  /** How long to wait for `/rest/ready` (default 90 s). */
  readyTimeoutMs?: number;
}

export interface DevServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  url: string;
  port: number;
  /** The port of the worker's V8 inspector (DevTools protocol) on 127.0.0.1: for reading its heap. */
  inspectorPort: number;
  /** Process id of `wrangler dev` (the leader of the group holding workerd): for memory readings. */
  pid: number;
  persistDir: string;
  /** The last lines wrangler printed (stdout and stderr). */
  output(): string;
  /** Stops wrangler and everything it started (its process group); removes a temporary persistence folder. */
  stop(): Promise<void>;
}

/**
 * The environment of a child tool: this Node first on PATH (tools are started with
 * `process.execPath`, and whatever they start finds the same Node), no colours in their output.
 */
export function childEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ""}`,
    NO_COLOR: "1",
    FORCE_COLOR: "0",
  };
}

/** A TCP port free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      server.close(() =>
        address && typeof address === "object" ? resolvePort(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/** Output of a child process, the last KEPT_LINES lines. */
export function keepOutput(child: ChildProcess): () => string {
  const lines: string[] = [];
  const add = (chunk: Buffer) => {
    lines.push(
      ...chunk
        .toString("utf8")
        .split("\n")
        .filter((l) => l.trim() !== ""),
    );
    if (lines.length > KEPT_LINES) lines.splice(0, lines.length - KEPT_LINES);
  };
  child.stdout?.on("data", add);
  child.stderr?.on("data", add);
  return () => lines.join("\n");
}

/**
 * Stops a child started with `detached: true` and everything in its process group: SIGTERM, then
 * SIGKILL to whatever is left after `graceMs`.
 */
export async function stopGroup(child: ChildProcess, graceMs = 5_000): Promise<void> {
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // ESRCH: the group is gone already.
    }
  };
  if (child.pid === undefined) return;
  const exited =
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((done) => child.once("exit", () => done()));
  signalGroup("SIGTERM");
  const timer = new Promise<void>((done) => setTimeout(done, graceMs).unref());
  await Promise.race([exited, timer]);
  // workerd and friends may outlive the leader: the group is killed either way.
  signalGroup("SIGKILL");
  await Promise.race([exited, new Promise<void>((done) => setTimeout(done, 1_000).unref())]);
}

/** Kills a detached child's group when this process exits without having stopped it. */
export function killOnExit(child: ChildProcess): () => void {
  const kill = () => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // gone already
    }
  };
  process.once("exit", kill);
  return () => process.off("exit", kill);
}

/** Polls `url` until it answers 200 with `true`; fails when `child` exits first or after `timeoutMs`. */
async function waitReady(url: string, child: ChildProcess, timeoutMs: number, output: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = "";
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(
        `wrangler dev exited (${child.exitCode ?? child.signalCode}) before ${url} was ready:\n${output()}`,
      );
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      const text = await response.text();
      if (response.status === 200 && text.trim() === "true") return;
      lastError = `${response.status} ${text.slice(0, 200)}`;
    } catch (error) {
      lastError = (error as Error).message;
    }
    await new Promise((done) => setTimeout(done, 250));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms (last: ${lastError}):\n${output()}`);
}

/** Publishes `files` into an isolated persistence folder, then serves it with `wrangler dev` on 127.0.0.1. */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  // wrangler.toml serves web/dist as static assets, and wrangler will not start without the folder.
  await ensureWebBuilt();
  const temporary = options.persistDir === undefined;
  const persistDir = resolve(options.persistDir ?? (await mkdtemp(join(tmpdir(), "appstruct-dev-"))));
  if (persistDir === resolve(DEVELOPER_STATE) || persistDir.startsWith(`${resolve(DEVELOPER_STATE)}/`)) {
    throw new Error(`startDevServer: ${persistDir} is the developer's wrangler state; give an isolated folder`);
  }
  const removeTemporary = async () => {
    if (temporary) await rm(persistDir, { recursive: true, force: true });
  };

  try {
    const opened = await openLocalStoreAt(join(persistDir, "v3"));
    try {
      await publishFiles(opened.store, options.files, options.log ?? (() => {}));
    } finally {
      await opened.close();
    }
  } catch (error) {
    await removeTemporary();
    throw error;
  }

  // An empty env file instead of the project's .dev.vars/.env: a developer's API_KEYS stay out.
  const envFile = join(persistDir, "isolated.env");
  await writeFile(envFile, "");
  const port = options.port ?? (await freePort());
  const inspectorPort = await freePort();
  const child = spawn(
    process.execPath,
    [
      WRANGLER,
      "dev",
      "--config",
      join(PROJECT_ROOT, "wrangler.toml"),
      "--ip",
      HOST,
      "--port",
      String(port),
      "--inspector-ip",
      HOST,
      "--inspector-port",
      String(inspectorPort),
      "--persist-to",
      persistDir,
      "--env-file",
      envFile,
      "--show-interactive-dev-session=false",
      ...Object.entries(options.vars ?? {}).flatMap(([name, value]) => ["--var", `${name}:${value}`]),
    ],
    {
      cwd: PROJECT_ROOT,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...childEnv(), WRANGLER_SEND_METRICS: "false" },
    },
  );
  const output = keepOutput(child);
  let spawnError: Error | undefined;
  child.once("error", (error) => (spawnError = error));
  const forget = killOnExit(child);
  const url = `http://${HOST}:${port}`;
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      await stopGroup(child);
      forget();
      await removeTemporary();
    })());

  try {
    await waitReady(`${url}/rest/ready`, child, options.readyTimeoutMs ?? 90_000, output);
  } catch (error) {
    await stop();
    throw spawnError ?? error;
  }
  return { url, port, inspectorPort, pid: child.pid!, persistDir, output, stop };
}
