// @module `node scripts/profile-summary.ts <file.cpuprofile> [--top 40]`: where a V8 CPU profile's time went, by function: self time, then inclusive time.
//
// The profiles `--cpu-prof`, `npm run bench -- --profile-serve DIR` and `scripts/request-cost.ts
// --cpu-prof-dir DIR` write. Self time is what a function spent in its own code (a builtin it calls
// that the profiler does not show as a frame, such as JSON.parse, counts here); inclusive time adds
// its callees, counting a function once per stack even when it recurses. Idle time is listed and left
// out of the busy total that the percentages are of.
import { existsSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: "string", default: "40" } },
});
const top = Number(values.top);
if (positionals.length !== 1 || !Number.isInteger(top) || top < 1) {
  process.stderr.write("usage: node scripts/profile-summary.ts <file.cpuprofile> [--top N]   (N a whole number ≥ 1)\n");
  process.exit(2);
}
if (!existsSync(positionals[0])) {
  process.stderr.write(`${positionals[0]}: no such file; give a .cpuprofile written by node --cpu-prof\n`);
  process.exit(2);
}
const profile = JSON.parse(readFileSync(positionals[0], "utf8")) as Profile;
if (!Array.isArray(profile.nodes) || !Array.isArray(profile.samples) || !Array.isArray(profile.timeDeltas)) {
  process.stderr.write(`${positionals[0]}: not a V8 CPU profile (it needs nodes, samples and timeDeltas)\n`);
  process.exit(2);
}

const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const fileOf = (url: string) => url.slice(url.lastIndexOf("/") + 1);
const frame = (n: ProfileNode) => `${n.callFrame.functionName || "(anonymous)"} ${fileOf(n.callFrame.url)}`;
const selfKey = (n: ProfileNode) => `${frame(n)}:${n.callFrame.lineNumber + 1}`;

// Microseconds per node: a sample's time is the delta to the next sample.
const microsByNode = new Map<number, number>();
profile.samples.forEach((id, i) =>
  microsByNode.set(id, (microsByNode.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0)),
);

const self = new Map<string, number>();
const inclusive = new Map<string, number>();
let idle = 0;
let busy = 0;
for (const [id, micros] of microsByNode) {
  const node = nodes.get(id)!;
  if (node.callFrame.functionName === "(idle)") {
    idle += micros;
    continue;
  }
  busy += micros;
  self.set(selfKey(node), (self.get(selfKey(node)) ?? 0) + micros);
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const key = frame(nodes.get(at)!);
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + micros);
  }
}
inclusive.delete("(root) ");

const ms = (micros: number) => (micros / 1000).toFixed(1).padStart(9);
const share = (micros: number) => `${((100 * micros) / busy).toFixed(1).padStart(5)}%`;
const table = (title: string, entries: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [key, micros] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${ms(micros)} ms ${share(micros)}  ${key}`);
};
console.log(`busy ${ms(busy).trim()} ms, idle ${ms(idle).trim()} ms (percentages are of the busy time)`);
table("self time", self);
table("inclusive time", inclusive);
