// @module SharedLoads: concurrent requests for one key share a load in flight, but never wait on it past its deadline.
//
// Why a deadline. In workerd, I/O belongs to the request that started it: when that request is
// cancelled (its client went away) or has ended, its pending reads never settle. A promise shared
// with other requests would hold every one of them until the runtime cancels it as hung, and, left
// in a map, every later request too. So a load is shared only while it is younger than its
// deadline: a request that finds another's load waits for it at most until then, and then loads for
// itself, its own load taking the stale one's place. A load that fails is never handed on either:
// the failure may be its owner's alone (cancelled, or I/O refused across requests), so each joiner
// then loads for itself. Only settled values are cached, by the callers; this module shares waits.
//
// Joining a load of one's own request needs none of that: its I/O is this request's, so the load's
// promise is awaited as is, with no poll. A walk whose two directions need one page, or a query
// needing a directory its request read ahead on opening the snapshot, then waits for the read and
// not up to a poll interval past it (as long again as the read, for a read of 20 ms).

/** A load in flight: its outcome once settled, when it stops being worth waiting for, the request that started it and its promise (once started). */
interface Load<V> {
  readonly deadline: number;
  readonly owner: unknown;
  promise: Promise<V> | undefined;
  outcome: Outcome<V> | undefined;
}

type Outcome<V> = { fulfilled: true; value: V } | { fulfilled: false };

/**
 * Past this many entries, loads past their deadline (their owners gone) are swept at the next
 * start; then not again until the entries have doubled. A walk's round starts some hundreds of page
 * loads at once: sweeping at each start past 256 would go over all of them every time, and the
 * pairs that iteration makes would be a fourteenth of the heap the mixed workload allocates at 1M objects.
 */
const SWEEP_ABOVE = 256;
/**
 * A joiner looks at the load again after a quarter of the time it has waited so far, at least 1 ms
 * and at most this: it sees a settled load at most a quarter of its wait late (5 ms for a 20 ms
 * read, where doubling intervals saw it up to 11 ms late), at some dozen polls a read.
 */
const LONGEST_POLL_MS = 16;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class SharedLoads<K, V> {
  private readonly loads = new Map<K, Load<V>>();
  /** The number of entries past which the next start sweeps. */
  private sweepAbove = SWEEP_ABOVE;
  private readonly now: () => number;
  private readonly scope: (() => unknown) | undefined;

  /**
   * `now` is the clock deadlines are measured on (tests pass their own). `scope` names the request
   * running now (the same value throughout one request, another in each other; undefined outside
   * any): a load is joined without polling by its own request. Without it, every join polls.
   */
  constructor(now: () => number = Date.now, scope?: () => unknown) {
    this.now = now;
    this.scope = scope;
  }

  /**
   * `load()`'s value for `key`, or the value of a load of `key` another caller started less than
   * `deadlineMs` ago. `started` hears whether this call started a load of its own.
   */
  run(key: K, load: () => Promise<V>, deadlineMs: number, started?: () => void): Promise<V> {
    const current = this.loads.get(key);
    if (current && current.deadline > this.now()) {
      // A failed load of its own request's is not handed on either: this call then loads for itself.
      const scope = this.scope?.();
      if (scope !== undefined && current.owner === scope && current.promise)
        return current.promise.catch(() => this.run(key, load, deadlineMs, started));
      return this.join(key, current, load, deadlineMs, started);
    }
    return this.start(key, load, deadlineMs, started);
  }

  /** Loads in flight, stale ones included until they are swept or replaced. */
  get size(): number {
    return this.loads.size;
  }

  private start(key: K, load: () => Promise<V>, deadlineMs: number, started?: () => void): Promise<V> {
    if (this.loads.size >= this.sweepAbove) this.sweep();
    started?.();
    const entry: Load<V> = {
      deadline: this.now() + deadlineMs,
      owner: this.scope?.(),
      promise: undefined,
      outcome: undefined,
    };
    this.loads.set(key, entry);
    const promise = (async () => load())();
    entry.promise = promise;
    const settle = (outcome: Outcome<V>) => {
      entry.outcome = outcome;
      if (this.loads.get(key) === entry) this.loads.delete(key);
    };
    promise.then(
      (value) => settle({ fulfilled: true, value }),
      () => settle({ fulfilled: false }),
    );
    return promise;
  }

  /**
   * Waits for `current` by looking at its outcome on this caller's own timers, never by reacting to
   * the owner's promise: in workerd a reaction runs in the request that settled the promise, and
   * I/O started from there would belong to that request, which may be gone.
   */
  private async join(
    key: K,
    current: Load<V>,
    load: () => Promise<V>,
    deadlineMs: number,
    started?: () => void,
  ): Promise<V> {
    for (let waited = 0; ; ) {
      const pollMs = Math.min(LONGEST_POLL_MS, Math.max(1, waited / 4));
      await sleep(pollMs);
      waited += pollMs;
      if (current.outcome?.fulfilled) return current.outcome.value;
      if (current.outcome || current.deadline <= this.now()) break;
    }
    // The owner's load failed or outlived its deadline: this request reads for itself, taking the
    // entry over so later arrivals join a live load, unless another joiner already has (then join that one).
    const latest = this.loads.get(key);
    if (latest === undefined || latest === current) return this.start(key, load, deadlineMs, started);
    return this.run(key, load, deadlineMs, started);
  }

  private sweep(): void {
    const now = this.now();
    this.loads.forEach((entry, key) => {
      if (entry.deadline <= now) this.loads.delete(key);
    });
    this.sweepAbove = Math.max(SWEEP_ABOVE, 2 * this.loads.size);
  }
}
