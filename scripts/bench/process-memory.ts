// @module Memory readings: peak RSS (VmHWM) of a process and of the workerd processes under wrangler, from /proc (Linux).
import { readdirSync, readFileSync } from "node:fs";

/** Peak resident set of `pid` in bytes (VmHWM), or null where /proc does not tell. */
export function peakRssBytes(pid: number): number | null {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Every live process below `root` (children, their children …), with its command name. */
function descendants(root: number): { pid: number; command: string }[] {
  const parentOf = new Map<number, { parent: number; command: string }>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // pid (comm) state ppid …: comm may hold spaces and parentheses, so split at the last ')'.
      const close = stat.lastIndexOf(")");
      parentOf.set(Number(entry), {
        parent: Number(stat.slice(close + 2).split(" ")[1]),
        command: stat.slice(stat.indexOf("(") + 1, close),
      });
    } catch {
      // exited meanwhile
    }
  }
  const found: { pid: number; command: string }[] = [];
  const visit = (pid: number) => {
    for (const [child, { parent, command }] of parentOf)
      if (parent === pid) found.push({ pid: child, command }), visit(child);
  };
  visit(root);
  return found;
}

/** Peak RSS of each workerd process under `wranglerPid`. */
export function workerdPeaks(wranglerPid: number): { pid: number; peakRssBytes: number | null }[] {
  return descendants(wranglerPid)
    .filter((p) => p.command.startsWith("workerd"))
    .map((p) => ({ pid: p.pid, peakRssBytes: peakRssBytes(p.pid) }));
}
