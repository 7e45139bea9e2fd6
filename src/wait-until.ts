// @module waitUntil: work a request starts that must outlive its answer, handed to the runtime that would otherwise drop it (workerd's ctx.waitUntil).
//
// In workerd, I/O belongs to the request that started it, and once its answer has gone out the
// runtime may cancel what is still pending: a read ahead that another request is about to use, a
// write to the data centre's cache. Handed to ctx.waitUntil, such work runs to its end. The worker
// sets the request's waitUntil around its handling; AsyncLocalStorage carries it to whoever starts
// the work, as it carries the StorageMeter, so nothing in between passes it along. Node never
// cancels a pending read, and sets nothing: there the work simply runs.
import { AsyncLocalStorage } from "node:async_hooks";

type WaitUntil = (work: Promise<unknown>) => void;

const current = new AsyncLocalStorage<WaitUntil>();

/** Runs `run` (a request's handling) with `waitUntil` keeping alive what it starts in the background. */
export function runWithWaitUntil<T>(waitUntil: WaitUntil, run: () => T): T {
  return current.run(waitUntil, run);
}

/** `work`, started by the request running now, kept alive past its answer where the runtime needs telling; its failure is its owner's to report. */
export function waitUntil(work: Promise<unknown>): void {
  const settled = work.catch(() => {});
  current.getStore()?.(settled);
}
