// @module A server of the bench as a child process of its own (process group): started, awaited until it says it listens, stopped.
import { spawn } from "node:child_process";
import { childEnv, HOST, killOnExit, stopGroup } from "../dev-server.ts";

export interface ChildServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** Runs `command args` listening on `port`, resolved once its stdout contains `readyText`; rejected with its stderr if it exits first. */
export async function startChildServer(
  what: string,
  command: string,
  args: readonly string[],
  port: number,
  readyText: string,
): Promise<ChildServer> {
  const child = spawn(command, args, { detached: true, stdio: ["ignore", "pipe", "pipe"], env: childEnv() });
  const forget = killOnExit(child);
  const stop = async () => {
    await stopGroup(child, 2_000);
    forget();
  };
  let errors = "";
  child.stderr!.on("data", (d: Buffer) => (errors = (errors + d).slice(-4000)));
  let said = "";
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on("data", (d: Buffer) => {
        said = (said + d).slice(-4000);
        if (said.includes(readyText)) resolve();
      });
      child.once("exit", (code) => reject(new Error(`${what} exited (${code}) before listening: ${errors.trim()}`)));
      child.once("error", reject);
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `http://${HOST}:${port}`, pid: child.pid!, stop };
}
