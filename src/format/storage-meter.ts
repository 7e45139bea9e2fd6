// @module StorageMeter: the snapshot reads one request makes, the time it waits on storage and its section-cache hits, attributed through AsyncLocalStorage.
//
// Sources, opened snapshots and decoded sections are shared by every request a process or an isolate
// serves, so a read cannot be charged to whoever holds the source: it is charged to the request in
// whose async context it starts. AsyncLocalStorage carries that request's meter along each await,
// timer and I/O callback (node:async_hooks; in workerd with the nodejs_als compatibility flag), so
// the query engine needs no meter passed through every function for a concern it does not have.
//
// A shared load (SectionCache and SharedLoads: one request loads a section, others wait for it) runs
// in the context of the request that started it: its reads and bytes are that request's alone. A
// request that finds the load under way is charged the time it waits, which its client pays, but not
// the reads, which it did not make; summed over requests, every byte read counts once.
import { AsyncLocalStorage } from "node:async_hooks";

const current = new AsyncLocalStorage<StorageMeter>();

export class StorageMeter {
  /** Reads this request started, and their bytes. */
  reads = 0;
  bytes = 0;
  /** Sections and pages found decoded in the cache; those loaded, or waited for while another request loaded them. */
  hits = 0;
  misses = 0;
  /** The meter of the request this one was made inside (an MCP tool call answered by the REST routes): it hears of everything too. */
  private readonly parent: StorageMeter | undefined;
  /** Waits under way, since when there has been one, and the time there was one before. */
  private waits = 0;
  private waitingSince = 0;
  private waitedMs = 0;

  constructor(parent?: StorageMeter) {
    this.parent = parent;
  }

  /** Runs `run` (a request's handling) with this meter charged for what it reads. */
  measure<T>(run: () => T): T {
    return current.run(this, run);
  }

  /**
   * Milliseconds during which at least one wait was under way: reads in parallel count once, as
   * the client waits once for them. A wait still under way counts up to now.
   */
  get storageMs(): number {
    return this.waitedMs + (this.waits > 0 ? performance.now() - this.waitingSince : 0);
  }

  /** `pending`, the time until it settles counted as waiting on storage. */
  waitFor<T>(pending: Promise<T>): Promise<T> {
    this.begin();
    return pending.finally(() => this.end());
  }

  read(bytes: number): void {
    this.reads++;
    this.bytes += bytes;
    this.parent?.read(bytes);
  }

  hit(): void {
    this.hits++;
    this.parent?.hit();
  }

  miss(): void {
    this.misses++;
    this.parent?.miss();
  }

  private begin(): void {
    if (this.waits++ === 0) this.waitingSince = performance.now();
    this.parent?.begin();
  }

  private end(): void {
    if (--this.waits === 0) this.waitedMs += performance.now() - this.waitingSince;
    this.parent?.end();
  }
}

/** The meter of the request running now, if it is metered. */
export function currentStorageMeter(): StorageMeter | undefined {
  return current.getStore();
}
