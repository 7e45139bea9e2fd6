// @module Test helper: runs the appstruct command line as a child process and collects its exit code and output.
import { spawn } from "node:child_process";
import { join } from "node:path";

export const PROJECT_ROOT = join(import.meta.dirname, "../..");
const BIN = join(PROJECT_ROOT, "build/bin/appstruct.js");

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `appstruct args...` on the Node running the tests (the project's Node 24), from the project folder. */
export function appstruct(...args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, CI: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
