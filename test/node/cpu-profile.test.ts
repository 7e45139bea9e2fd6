// @module Where a CPU profile's time went (scripts/bench/cpu-profile.ts), on a hand-worked profile: each sample's time, self and inclusive, idle apart, and the samples a time window keeps.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { type CpuProfile, profileTimes, readCpuProfile, topEntries } from "../../scripts/bench/cpu-profile.ts";

const frame = (functionName: string, file = "") => ({
  functionName,
  url: file && `file:///work/${file}`,
  lineNumber: file === "a.ts" ? 9 : 19,
});

/**
 * root ─ a ─ b ─ a (a recursion: node 5 is `a` again)
 *      └ (idle)
 * Samples at 1010 (a), 1015 (b), 1020 (b), 1040 (idle), 1045 (a), 1048 (a under b), 1052 (a): each
 * counts the time to the next one, 5, 5, 20, 5, 3, 4 and 0 µs.
 */
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame("(root)"), children: [2, 4] },
    { id: 2, callFrame: frame("a", "a.ts"), children: [3] },
    { id: 3, callFrame: frame("b", "b.ts"), children: [5] },
    { id: 4, callFrame: frame("(idle)") },
    { id: 5, callFrame: frame("a", "a.ts") },
  ],
  startTime: 1000,
  samples: [2, 3, 3, 4, 2, 5, 2],
  timeDeltas: [10, 5, 5, 20, 5, 3, 4],
};

test("each sample counts the time to the next; self by line, inclusive once per stack, idle apart", () => {
  const times = profileTimes(profile);
  expect(times.busy).toBe(5 + 5 + 20 + 3 + 4 + 0);
  expect(times.idle).toBe(5);
  expect(Object.fromEntries(times.self)).toEqual({ "a a.ts:10": 5 + 3 + 4 + 0, "b b.ts:20": 25 });
  // `a` is on every busy stack, counted once where it recurses; the root is left out.
  expect(Object.fromEntries(times.inclusive)).toEqual({ "a a.ts": 37, "b b.ts": 5 + 20 + 4 });
  expect(topEntries(times.self, 1)).toEqual([["b b.ts:20", 25]]);
});

test("a window keeps the samples taken inside it, by their time on the profile's clock", () => {
  const times = profileTimes(profile, (at) => at >= 1015 && at <= 1040);
  expect(times.busy).toBe(25);
  expect(times.idle).toBe(5);
  expect(Object.fromEntries(times.self)).toEqual({ "b b.ts:20": 25 });
  expect(Object.fromEntries(times.inclusive)).toEqual({ "a a.ts": 25, "b b.ts": 25 });
});

test("a file that is not a profile is refused with what is wrong", async () => {
  const folder = await mkdtemp(join(tmpdir(), "cpu-profile-"));
  try {
    const file = join(folder, "x.cpuprofile");
    await writeFile(file, JSON.stringify({ nodes: [] }));
    expect(() => readCpuProfile(file)).toThrow(/not a V8 CPU profile/);
    expect(() => readCpuProfile(join(folder, "none.cpuprofile"))).toThrow(/no such file/);
    await writeFile(file, JSON.stringify(profile));
    expect(readCpuProfile(file).samples).toEqual(profile.samples);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
});
