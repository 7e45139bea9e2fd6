// @module V8 CPU profiles (`--cpu-prof`): read one, and add up where its time went by function, self and inclusive, over all samples or those a test keeps.
import { existsSync, readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  /** µs on the clock process.hrtime reads (Linux: CLOCK_MONOTONIC), as are the samples' times. */
  startTime: number;
  samples: number[];
  /** µs from the sample before (the first: from startTime). */
  timeDeltas: number[];
}

/** The profile at `path`; throws with what is wrong when it is not one. */
export function readCpuProfile(path: string): CpuProfile {
  if (!existsSync(path)) throw new Error(`${path}: no such file; give a .cpuprofile written by node --cpu-prof`);
  const profile = JSON.parse(readFileSync(path, "utf8")) as CpuProfile;
  if (!Array.isArray(profile.nodes) || !Array.isArray(profile.samples) || !Array.isArray(profile.timeDeltas))
    throw new Error(`${path}: not a V8 CPU profile (it needs nodes, samples and timeDeltas)`);
  return profile;
}

/** µs by function: its own code (`self`, by function and line) and with its callees (`inclusive`, a function once per stack). */
export interface ProfileTimes {
  busy: number;
  idle: number;
  self: Map<string, number>;
  inclusive: Map<string, number>;
}

/**
 * Where the profile's time went, over the samples taken at a time `keep` accepts (µs, the profile's
 * clock), all when not given. A sample's time is the delta to the next sample. Idle time is counted
 * apart from the busy time the maps add up.
 */
export function profileTimes(profile: CpuProfile, keep: (at: number) => boolean = () => true): ProfileTimes {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const fileOf = (url: string) => url.slice(url.lastIndexOf("/") + 1);
  const frame = (n: ProfileNode) => `${n.callFrame.functionName || "(anonymous)"} ${fileOf(n.callFrame.url)}`;
  const selfKey = (n: ProfileNode) => `${frame(n)}:${n.callFrame.lineNumber + 1}`;

  const microsByNode = new Map<number, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i];
    if (keep(at)) microsByNode.set(id, (microsByNode.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
  });

  const times: ProfileTimes = { busy: 0, idle: 0, self: new Map(), inclusive: new Map() };
  for (const [id, micros] of microsByNode) {
    const node = nodes.get(id)!;
    if (node.callFrame.functionName === "(idle)") {
      times.idle += micros;
      continue;
    }
    times.busy += micros;
    times.self.set(selfKey(node), (times.self.get(selfKey(node)) ?? 0) + micros);
    const seen = new Set<string>();
    for (let up: number | undefined = id; up !== undefined; up = parent.get(up)) {
      const key = frame(nodes.get(up)!);
      if (seen.has(key)) continue;
      seen.add(key);
      times.inclusive.set(key, (times.inclusive.get(key) ?? 0) + micros);
    }
  }
  times.inclusive.delete("(root) ");
  return times;
}

/** The `top` entries of `entries`, most time first. */
export function topEntries(entries: Map<string, number>, top: number): [string, number][] {
  return [...entries].sort((a, b) => b[1] - a[1]).slice(0, top);
}
