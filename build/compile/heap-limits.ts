// @module countExternalMemoryInHeapLimit: a compile's garbage collections paced by all the memory it holds, not by each 64 MB of array buffers it allocates.
import { setFlagsFromString } from "node:v8";

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
