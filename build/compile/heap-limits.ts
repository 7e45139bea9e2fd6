// @module How a compile's garbage is collected: paced by all the memory it holds, not by each 64 MB of array buffers it allocates (countExternalMemoryInHeapLimit), and in full once its analysis's records die (collectGarbageNow).
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * Makes V8 count array buffers toward the heap's own growing limit. By default every 64 MB of them
 * allocated since the last full collection starts another one, however large the heap: a compile
 * allocates its pages as array buffers, and at 1M objects it collected its 650 MB heap in full some
 * 40 times, most of them freeing nothing. Counted in the limit, a fifth to a third of the compile's
 * time and a third of its CPU went, and the peak grew by some 650 MB of garbage held between fewer
 * collections (2.3–2.7 GB there). Only for the compile commands: a server keeps its pages bounded by
 * the collections the default brings. Set for the V8 of Node 24 on; an older one, which may not know
 * the flag, keeps its default.
 */
export function countExternalMemoryInHeapLimit(): void {
  if (Number(process.versions.v8.split(".")[0]) >= 13)
    setFlagsFromString("--external-memory-accounted-in-global-limit");
}

let collect: (() => void) | undefined;

/**
 * Collects the heap in full, now. A compile calls it once its model is built: the analysis's
 * records die then (some 500 MB at 1M objects), and the compiling thread, whose largest indexes
 * are built on other threads, allocates too little afterwards for V8 to collect them before the
 * end (the peak RSS held them: 3,219 MiB against 2,843 at 1M). No command line asks for `gc`: it is
 * exposed to a fresh context for this.
 */
export function collectGarbageNow(): void {
  if (!collect) {
    setFlagsFromString("--expose-gc");
    collect = runInNewContext("gc") as () => void;
  }
  collect();
}
