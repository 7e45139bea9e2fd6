// @module HeavyGate: at most a few heavy answers (deep walks) at work at once in an isolate; the others wait their turn in the order they came, and light answers never wait.
//
// Why. A 32-hop walk at 1M objects follows millions of links over most of the link pages (32 MB).
// Fifty clients in workerd with reads of 20 ms, a fifth of their requests such walks: the walks
// piled up by the dozen, each holding its own pages and reading again what the others had pushed
// out of the cache. Let in two at a time, walks end in the order they came, and those waiting hold
// no pages. Thirty cold ones asked at once in workerd (docs/benchmarks.md, "Deep walks at the
// edge"): with the gate, the median answer came after 15.6 and 15.9 s; without it, 19.2 and 22.1 s;
// the last one after 24 to 28 s either way.
//
// Why leases and polls. In workerd, a cancelled request's pending I/O never settles, so a walk
// holding a permit may never run its `finally`. A permit is held while its holder renews it (at
// each turn of its work) and lapses LEASE_MS after the last renewal; a holder that renews after
// that holds it again. A waiter whose request was cancelled stops asking: waiters look again on
// their own timers, and one not seen for STALE_WAITER_MS is passed over. So no request ever waits
// on a promise another request must settle (as in SharedLoads). Where the request's signal tells
// that its client went away (Node's adapter, workerd with `enable_request_signal`), its permit goes
// back then, and its wait ends.

/** Heavy answers at work at once: one computing while another waits on storage. */
const HEAVY_AT_ONCE = 2;

/** A permit not renewed for this long is taken as its holder's request gone. */
export const LEASE_MS = 5_000;

/** A waiter that has not looked again for this long is taken as gone (it looks every few ms). */
export const STALE_WAITER_MS = 1_000;

/** A waiter looks again after a quarter of the time it has waited, at least 1 ms and at most this. */
const LONGEST_POLL_MS = 20;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The right to go on with heavy work, until released or lapsed. */
export interface Permit {
  /** Says the holder is still at work; a lapsed permit is held again, a released one not. */
  renew(): void;
  release(): void;
}

export class HeavyGate {
  readonly atOnce: number;
  /** Permits held, by ticket, with when each was last renewed. */
  private readonly holders = new Map<number, number>();
  /** Tickets waiting, in the order they came (a Map keeps insertion order), with when each last looked. */
  private readonly waiters = new Map<number, number>();
  private tickets = 0;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  /** `now`: the clock leases are measured on; `sleep`: how a waiter waits to look again (tests pass their own). */
  constructor(
    atOnce = HEAVY_AT_ONCE,
    { now = Date.now, sleep = pause }: { now?: () => number; sleep?: (ms: number) => Promise<void> } = {},
  ) {
    this.atOnce = atOnce;
    this.now = now;
    this.sleep = sleep;
  }

  /**
   * Resolves with a permit once fewer than `atOnce` live permits are held and every live waiter that
   * came before has one. `signal`: the request's, aborted when its client goes away: a waiter then
   * stops waiting (rejecting with the signal's reason), and a holder's permit goes back at once.
   */
  async admit(signal?: AbortSignal): Promise<Permit> {
    const ticket = ++this.tickets;
    this.waiters.set(ticket, this.now());
    try {
      for (let waited = 0; !this.mayEnter(ticket); ) {
        signal?.throwIfAborted();
        const ms = Math.min(LONGEST_POLL_MS, Math.max(1, waited / 4));
        await this.sleep(ms);
        waited += ms;
        // Passed over while away (its timer late in a busy isolate): it queues again, last.
        this.waiters.set(ticket, this.now());
      }
      signal?.throwIfAborted();
    } finally {
      this.waiters.delete(ticket);
    }
    this.holders.set(ticket, this.now());
    let released = false;
    const release = () => {
      released = true;
      this.holders.delete(ticket);
      signal?.removeEventListener("abort", release);
    };
    signal?.addEventListener("abort", release);
    return {
      renew: () => {
        if (!released) this.holders.set(ticket, this.now());
      },
      release,
    };
  }

  /** Permits held now, lapsed ones not counted. */
  get held(): number {
    this.dropLapsed();
    return this.holders.size;
  }

  /** Waiters now, stale ones included until passed over. */
  get waiting(): number {
    return this.waiters.size;
  }

  private mayEnter(ticket: number): boolean {
    this.dropLapsed();
    let free = this.atOnce - this.holders.size;
    const now = this.now();
    for (const [waiter, seen] of this.waiters) {
      if (free <= 0) return false;
      if (waiter === ticket) return true;
      if (now - seen > STALE_WAITER_MS) this.waiters.delete(waiter);
      else free--;
    }
    return false;
  }

  private dropLapsed(): void {
    const now = this.now();
    for (const [ticket, renewed] of this.holders) if (now - renewed > LEASE_MS) this.holders.delete(ticket);
  }
}

/** The isolate's gate, which every heavy answer passes. */
export const heavyAnswers = new HeavyGate();
