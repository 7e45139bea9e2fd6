// @module Each thread's time on a core and waiting for one, read from /proc (Linux) by a sampler thread while this process works: what a compile's threads did, and how long its compiling thread was ready to run but had no core.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";

/** One thread's times, as last read: a thread that ended loses what it ran after its last reading. */
export interface ThreadTimes {
  /** The kernel's name for it: MainThread, WorkerThread (a worker_threads Worker), V8Worker (V8's helpers) … */
  name: string;
  tid: number;
  /** When it was first and last seen running, in seconds from the sampler's start. */
  fromSeconds: number;
  toSeconds: number;
  /** Time on a core. */
  cpuSeconds: number;
  /** Time ready to run, waiting for a core (schedstat's run-queue time). */
  waitForCoreSeconds: number;
}

/** On a core and waiting for one, in ns, from `/proc/self/task/<tid>/schedstat`; null when the thread is gone or the kernel does not keep them. */
export function scheduledNs(tid: number): { runNs: number; waitNs: number } | null {
  try {
    const [run, wait] = readFileSync(`/proc/self/task/${tid}/schedstat`, "utf8").split(" ").map(Number);
    return Number.isFinite(run) && Number.isFinite(wait) ? { runNs: run, waitNs: wait } : null;
  } catch {
    return null;
  }
}

/** The kernel's id of the calling thread (its entry under /proc/self/task). */
export const currentThreadId = (): number => Number(readlinkSync("/proc/thread-self").split("/").pop());

/** Whether this system keeps each thread's scheduling times where scheduledNs reads them. */
export const threadTimesKept = (): boolean => scheduledNs(process.pid) !== null;

/**
 * Samples every thread of this process every `intervalMs` until `stop` is called, which resolves
 * with every thread seen, in the order they were first seen. `ready` resolves once the first
 * reading is made: a thread started after it is seen by a later one.
 */
export function sampleThreads(intervalMs = 250): { ready: Promise<void>; stop(): Promise<ThreadTimes[]> } {
  const worker = new Worker(fileURLToPath(import.meta.url), { workerData: { threadSampler: { intervalMs } } });
  let first: () => void = () => {};
  const ready = new Promise<void>((resolve) => (first = resolve));
  const done = new Promise<ThreadTimes[]>((resolve, reject) => {
    worker.on("message", (message: "ready" | ThreadTimes[]) => (message === "ready" ? first() : resolve(message)));
    worker.once("error", reject);
  });
  return {
    ready,
    stop: () => {
      worker.postMessage("stop");
      return done.finally(() => worker.terminate());
    },
  };
}

/** The sampler, run on a thread of its own: a thread busy with synchronous work cannot time itself, nor can timers on it. */
function runSampler(intervalMs: number): void {
  const self = currentThreadId();
  const started = performance.now();
  const seen = new Map<number, ThreadTimes>();
  const sample = () => {
    const at = (performance.now() - started) / 1000;
    for (const entry of readdirSync("/proc/self/task")) {
      const tid = Number(entry);
      if (tid === self) continue;
      const times = scheduledNs(tid);
      if (!times) continue;
      let thread = seen.get(tid);
      if (!thread) {
        let name = "?";
        try {
          name = readFileSync(`/proc/self/task/${tid}/comm`, "utf8").trim();
        } catch {
          // gone meanwhile
        }
        thread = { name, tid, fromSeconds: at, toSeconds: at, cpuSeconds: 0, waitForCoreSeconds: 0 };
        seen.set(tid, thread);
      }
      if (times.runNs / 1e9 > thread.cpuSeconds) thread.toSeconds = at;
      thread.cpuSeconds = times.runNs / 1e9;
      thread.waitForCoreSeconds = times.waitNs / 1e9;
    }
  };
  sample();
  parentPort?.postMessage("ready");
  const timer = setInterval(sample, intervalMs);
  parentPort?.once("message", () => {
    clearInterval(timer);
    sample();
    parentPort?.postMessage([...seen.values()]);
  });
}

if (!isMainThread && typeof workerData?.threadSampler?.intervalMs === "number")
  runSampler(workerData.threadSampler.intervalMs);
