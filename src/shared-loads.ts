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

/** A load in flight: its outcome once settled, and when it stops being worth waiting for. */
interface Load<V> {
  readonly deadline: number;
  outcome: Outcome<V> | undefined;
}

type Outcome<V> = { fulfilled: true; value: V } | { fulfilled: false };

/** Past this many entries, loads past their deadline (their owners gone) are swept at the next start. */
const SWEEP_ABOVE = 256;
/** A joiner looks at the load again after 1 ms, then twice as long each time, up to this. */
const LONGEST_POLL_MS = 16;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class SharedLoads<K, V> {
  private readonly loads = new Map<K, Load<V>>();
  private readonly now: () => number;

  /** `now` is the clock deadlines are measured on (tests pass their own). */
  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  /**
   * `load()`'s value for `key`, or the value of a load of `key` another caller started less than
   * `deadlineMs` ago. `started` hears whether this call started a load of its own.
   */
  run(key: K, load: () => Promise<V>, deadlineMs: number, started?: () => void): Promise<V> {
    const current = this.loads.get(key);
    if (current && current.deadline > this.now()) return this.join(key, current, load, deadlineMs, started);
    return this.start(key, load, deadlineMs, started);
  }

  /** Loads in flight, stale ones included until they are swept or replaced. */
  get size(): number {
    return this.loads.size;
  }

  private start(key: K, load: () => Promise<V>, deadlineMs: number, started?: () => void): Promise<V> {
    if (this.loads.size >= SWEEP_ABOVE) this.sweep();
    started?.();
    const entry: Load<V> = { deadline: this.now() + deadlineMs, outcome: undefined };
    this.loads.set(key, entry);
    const promise = (async () => load())();
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
    for (let pollMs = 1; ; pollMs = Math.min(2 * pollMs, LONGEST_POLL_MS)) {
      await sleep(pollMs);
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
    for (const [key, entry] of this.loads) if (entry.deadline <= now) this.loads.delete(key);
  }
}
