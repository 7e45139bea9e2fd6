// @module What the scripts comparing this checkout with another share (ab-in-process.ts, ab-over-http.ts): the check of the folders they are given, the bench's sequences asked of both sides by turns, and the table of their answers class by class.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { MixEntry, QueryClass } from "./mix.ts";

/**
 * Exits with a clear refusal (status 2) unless `benchFolder` holds what `npm run bench --reuse` made
 * and `otherFile` (a file of the other checkout the script runs) exists.
 */
export function requireFolders(benchFolder: string, otherFile: string): void {
  for (const [what, path] of [
    ["--reuse", join(benchFolder, "analysis.snap")],
    ["--reuse", join(benchFolder, "baseline.sqlite")],
    ["--against", otherFile],
  ]) {
    if (!existsSync(path)) {
      process.stderr.write(
        `${what}: ${path} does not exist; --reuse names a folder \`npm run bench --reuse\` made, --against a checkout of appstruct\n`,
      );
      process.exit(2);
    }
  }
}

/** Each side's warm answer times in ms, by class. */
export type ClassTimes = Map<QueryClass, number[]>;

/**
 * Asks both sides every request of the cold then the warm sequence, `passes` times over, each
 * request of both in a random order, so that the machine's drift falls on both alike; `ask` answers
 * a request on one side, and `compare` sees both answers to it (in the sides' order). Returns the
 * times of the warm passes' answers, side by side.
 */
export async function timeBothSides<S, A>(
  sides: readonly [S, S],
  { cold, warm }: { cold: readonly MixEntry[]; warm: readonly MixEntry[] },
  passes: number,
  ask: (side: S, path: string) => Promise<A>,
  compare: (answers: readonly [A, A], path: string) => void = () => {},
): Promise<[ClassTimes, ClassTimes]> {
  const times: [ClassTimes, ClassTimes] = [new Map(), new Map()];
  for (let pass = 0; pass < passes; pass++)
    for (const sequence of [cold, warm])
      for (const entry of sequence) {
        const answers = new Array<A>(2) as [A, A];
        for (const i of Math.random() < 0.5 ? [0, 1] : [1, 0]) {
          const started = performance.now();
          answers[i] = await ask(sides[i], entry.path);
          const ms = performance.now() - started;
          if (sequence !== warm) continue;
          const byClass = times[i].get(entry.cls) ?? [];
          byClass.push(ms);
          times[i].set(entry.cls, byClass);
        }
        compare(answers, entry.path);
      }
  return times;
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];
const total = (values: readonly number[]) => values.reduce((sum, v) => sum + v, 0);

/**
 * Prints, per class, both sides' median answer time (in `unit`), their ratio (this checkout's
 * against the other's: below 1 is faster) and the ms each spent on the class in all. Times are
 * given in ms.
 */
export function printComparison(
  heading: string,
  ours: ReadonlyMap<QueryClass, readonly number[]>,
  theirs: ReadonlyMap<QueryClass, readonly number[]>,
  unit: "µs" | "ms",
): void {
  const shown = (ms: number) => (unit === "µs" ? (ms * 1000).toFixed(0) : ms.toFixed(3));
  console.log(heading);
  console.log("");
  console.log(
    `| class | answers | this ${unit} p50 | other ${unit} p50 | this / other | this ms in all | other ms in all |`,
  );
  console.log("|---|--:|--:|--:|--:|--:|--:|");
  for (const [cls, mine] of ours) {
    const other = theirs.get(cls)!;
    console.log(
      `| ${cls} | ${mine.length} | ${shown(median(mine))} | ${shown(median(other))} | ${(median(mine) / median(other)).toFixed(2)} | ${total(mine).toFixed(0)} | ${total(other).toFixed(0)} |`,
    );
  }
}
