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
//
// Rounds are what latency multiplies: a read started after another has settled may depend on its
// result, so it goes one round deeper than the deepest read settled when it starts; reads that go out
// together share a round. Which reads truly depend on which the meter cannot know, so it counts what
// the client pays for: independent reads made one after another count as one round each.
//
// A prefetch (reads for the answers likely to come next, not for this one) is metered apart: its
// client waits for none of it, so its reads join no round and no wait of the request that started
// it, which counts them as prefetches. Its own meter is fresh, so the section cache admits what it
// loads as the first reads of a request (SectionCache, FIRST_READS_BYTES): an object's link page,
// prefetched, is kept as the page a later answer about the object will read.
//
// A Worker may have six storage calls of one invocation waiting for their answer at once (its
// simultaneous open connections: R2, the Cache API and fetch alike, each held until its response's
// headers arrive); the others wait their turn. A round of twenty reads is then four waits in a row.
// The latency models of R2 (`appstruct serve --read-latency-ms`, the worker's STORAGE_LATENCY_MS)
// hold their delay on such a connection (onConnection), shared by the requests and prefetches of one
// invocation, so that what they measure is what the edge would take.
import { AsyncLocalStorage } from "node:async_hooks";
import { waitUntil } from "../wait-until.ts";

const current = new AsyncLocalStorage<StorageMeter>();

/** Meters made so far in this isolate: each one's number. */
let made = 0;

export class StorageMeter {
  /** The request's number, from 1: what the section cache keeps of the request that last used an entry, rather than the meter. */
  readonly number = ++made;
  /** Reads this request started, and their bytes. */
  reads = 0;
  bytes = 0;
  /** Sections and pages found decoded in the cache; those loaded, or waited for while another request loaded them. */
  hits = 0;
  misses = 0;
  /** Sequential rounds of its reads: the longest chain of reads, each started after the one before it had settled. */
  rounds = 0;
  /** Reads this request started for later answers (prefetch), and their bytes: in no round and no wait. */
  prefetches = 0;
  prefetchedBytes = 0;
  /** The meter of the request this one was made inside (an MCP tool call answered by the REST routes): it hears of everything too. */
  private readonly parent: StorageMeter | undefined;
  /** Whether this meter is a prefetch's: its reads wait for no answer. */
  readonly prefetching: boolean;
  /** For the meter of a prefetch: the request that started it, if metered, which counts its reads as prefetches. */
  private readonly prefetchFor: StorageMeter | undefined;
  /** Waits under way, since when there has been one, and the time there was one before. */
  private waits = 0;
  private waitingSince = 0;
  private waitedMs = 0;
  /** The deepest round of the reads settled so far: a read starting now goes one deeper. */
  private settledRound = 0;
  /** The invocation's storage connections, on its outermost meter (made on first use). */
  private connectionQueue: ConnectionQueue | undefined;

  /** `prefetch`: this meter is a prefetch's, started by request `for` (see the function prefetch). */
  constructor(parent?: StorageMeter, prefetch?: { for: StorageMeter | undefined }) {
    this.parent = parent;
    this.prefetching = prefetch !== undefined;
    this.prefetchFor = prefetch?.for;
  }

  /** The request whose I/O this meter's reads are: its own, or for a prefetch, the request that started it. */
  get request(): StorageMeter {
    return this.prefetchFor?.request ?? this;
  }

  /** The meter of the invocation this one is part of: the outermost request, through requests made inside others and prefetches. */
  get invocation(): StorageMeter {
    return (this.prefetchFor ?? this.parent)?.invocation ?? this;
  }

  /** The invocation's queue of WORKER_CONNECTIONS storage connections. */
  get connections(): ConnectionQueue {
    const root = this.invocation;
    root.connectionQueue ??= new ConnectionQueue(WORKER_CONNECTIONS);
    return root.connectionQueue;
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

  /** `pending`, the time until it settles counted as waiting on storage (a load of another's under way, say). */
  waitFor<T>(pending: Promise<T>): Promise<T> {
    return pending.finally(this.begin(true));
  }

  /** `pending`, a read of `bytes` bytes this request started now: counted, in its round, and waited for. */
  reading<T>(bytes: number, pending: Promise<T>): Promise<T> {
    return pending.finally(this.startRead(bytes));
  }

  /** Bytes of a read already counted, known once it arrived. */
  readBytes(bytes: number): void {
    this.bytes += bytes;
    this.parent?.readBytes(bytes);
    this.prefetchFor?.prefetched(0, bytes);
  }

  /** Counts `reads` reads of `bytes` bytes that a prefetch this request started made. */
  private prefetched(reads: number, bytes: number): void {
    this.prefetches += reads;
    this.prefetchedBytes += bytes;
    this.parent?.prefetched(reads, bytes);
  }

  /** Notes a read starting now, a round deeper than any settled; returns what notes its end. */
  private startRead(bytes: number): () => void {
    this.reads++;
    this.bytes += bytes;
    const round = this.settledRound + 1;
    this.rounds = Math.max(this.rounds, round);
    const waited = this.begin(false);
    const parentEnd = this.parent?.startRead(bytes);
    this.prefetchFor?.prefetched(1, bytes);
    return () => {
      waited();
      this.settledRound = Math.max(this.settledRound, round);
      parentEnd?.();
    };
  }

  hit(): void {
    this.hits++;
    this.parent?.hit();
  }

  miss(): void {
    this.misses++;
    this.parent?.miss();
  }

  /** Notes a wait starting now, the parent's too when `withParent` (a read notes the parent's on its own); returns what notes its end. */
  private begin(withParent: boolean): () => void {
    if (this.waits++ === 0) this.waitingSince = performance.now();
    const parentEnd = withParent ? this.parent?.begin(true) : undefined;
    return () => {
      if (--this.waits === 0) this.waitedMs += performance.now() - this.waitingSince;
      parentEnd?.();
    };
  }
}

/**
 * `read`, a read of `bytes` bytes of storage started now, charged to the request running now: every
 * read of a snapshot, a manifest or an object's size goes through here. `bytes` may be known only
 * once it has arrived (a manifest).
 */
export function meteredRead<T>(read: Promise<T>, bytes: number | ((value: T) => number)): Promise<T> {
  const meter = currentStorageMeter();
  if (!meter) return read;
  if (typeof bytes === "number") return meter.reading(bytes, read);
  return meter.reading(0, read).then((value) => {
    meter.readBytes(bytes(value));
    return value;
  });
}

/**
 * Starts `work`, reads for the answers likely to come next, and leaves it running past the answer
 * of the request running now (waitUntil), which waits for none of it: its reads count as that
 * request's prefetches (see StorageMeter). A failed prefetch is dropped; whoever needs the data reads
 * it then.
 */
export function prefetch(work: () => Promise<unknown>): void {
  const meter = new StorageMeter(undefined, { for: currentStorageMeter() });
  // Called from an async function, work that throws at once rejects, and is dropped as any failure.
  waitUntil(meter.measure(async () => work()));
}

/** How many storage calls of one Worker invocation may wait for their answer at once (the runtime's simultaneous open connections). */
export const WORKER_CONNECTIONS = 6;

/** Connections of one invocation: at most `limit` held at once, the next caller in line given the first one let go. */
export class ConnectionQueue {
  private readonly limit: number;
  private held = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(limit: number) {
    this.limit = limit;
  }

  /** Resolves once the caller holds a connection, which it must let go of (release) exactly once. */
  acquire(): Promise<void> | undefined {
    if (this.held < this.limit) {
      this.held++;
      return undefined;
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    // The connection goes straight to the next in line: held stays as it is.
    if (next) next();
    else this.held--;
  }
}

/**
 * `wait` (a storage call's time to its answer) run on one of the WORKER_CONNECTIONS of the
 * invocation running now; outside a request, at once.
 */
export async function onConnection<T>(wait: () => Promise<T>): Promise<T> {
  const meter = currentStorageMeter();
  if (!meter) return wait();
  const { connections } = meter;
  await connections.acquire();
  try {
    return await wait();
  } finally {
    connections.release();
  }
}

/** The meter of the request running now, if it is metered. */
export function currentStorageMeter(): StorageMeter | undefined {
  return current.getStore();
}

/** The number of the request running now (its meter's), 0 outside any: what caches tell uses by different requests apart by. */
export const requestNumber = (): number => currentStorageMeter()?.number ?? 0;
