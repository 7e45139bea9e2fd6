// @module `node scripts/profile-summary.ts <file.cpuprofile> [--top 40]`: where a V8 CPU profile's time went, by function: self time, then inclusive time.
//
// The profiles `--cpu-prof`, `npm run bench -- --profile-serve DIR` and `scripts/request-cost.ts
// --cpu-prof-dir DIR` write. Self time is what a function spent in its own code (a builtin it calls
// that the profiler does not show as a frame, such as JSON.parse, counts here); inclusive time adds
// its callees, counting a function once per stack even when it recurses. Idle time is listed and left
// out of the busy total that the percentages are of.
import { parseArgs } from "node:util";
import { type ProfileTimes, profileTimes, readCpuProfile, topEntries } from "./bench/cpu-profile.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: "string", default: "40" } },
});
const top = Number(values.top);
if (positionals.length !== 1 || !Number.isInteger(top) || top < 1) {
  process.stderr.write("usage: node scripts/profile-summary.ts <file.cpuprofile> [--top N]   (N a whole number ≥ 1)\n");
  process.exit(2);
}
let times: ProfileTimes;
try {
  times = profileTimes(readCpuProfile(positionals[0]));
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(2);
}
const { busy, idle, self, inclusive } = times;

const ms = (micros: number) => (micros / 1000).toFixed(1).padStart(9);
const share = (micros: number) => `${((100 * micros) / busy).toFixed(1).padStart(5)}%`;
const table = (title: string, entries: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [key, micros] of topEntries(entries, top)) console.log(`${ms(micros)} ms ${share(micros)}  ${key}`);
};
console.log(`busy ${ms(busy).trim()} ms, idle ${ms(idle).trim()} ms (percentages are of the busy time)`);
table("self time", self);
table("inclusive time", inclusive);
