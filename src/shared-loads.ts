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

/** A load in flight: what joiners wait on, and when it stops being worth waiting for. */
interface Load<V> {
  readonly promise: Promise<V>;
  readonly deadline: number;
}

/** Past this many entries, loads past their deadline (their owners gone) are swept at the next start. */
const SWEEP_ABOVE = 256;

type Outcome<V> = { settled: true; value: V } | { settled: false };

/** `promise`'s value if it fulfils within `ms`; otherwise (rejected, or still pending) not settled. */
function fulfilledWithin<V>(promise: Promise<V>, ms: number): Promise<Outcome<V>> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ settled: false }), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve({ settled: true, value });
      },
      () => {
        clearTimeout(timer);
        resolve({ settled: false });
      },
    );
  });
}

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
    const left = current ? current.deadline - this.now() : 0;
    if (current && left > 0) return this.join(key, current, left, load, deadlineMs, started);
    return this.start(key, load, deadlineMs, started);
  }

  /** Loads in flight, stale ones included until they are swept or replaced. */
  get size(): number {
    return this.loads.size;
  }

  private start(key: K, load: () => Promise<V>, deadlineMs: number, started?: () => void): Promise<V> {
    if (this.loads.size >= SWEEP_ABOVE) this.sweep();
    started?.();
    const promise = (async () => load())();
    const entry: Load<V> = { promise, deadline: this.now() + deadlineMs };
    this.loads.set(key, entry);
    const forget = () => {
      if (this.loads.get(key) === entry) this.loads.delete(key);
    };
    promise.then(forget, forget);
    return promise;
  }

  private async join(
    key: K,
    current: Load<V>,
    waitMs: number,
    load: () => Promise<V>,
    deadlineMs: number,
    started?: () => void,
  ): Promise<V> {
    const outcome = await fulfilledWithin(current.promise, waitMs);
    if (outcome.settled) return outcome.value;
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
