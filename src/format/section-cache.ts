// @module SectionCache: an isolate-wide S3-FIFO cache of decoded snapshot sections and pages under a byte budget, shared by every Snapshot.
//
// Entries are keyed by (snapshot content address, section tag): snapshots are immutable, so an entry
// never goes stale, and a snapshot reopened later finds its sections again.
//
// Eviction is S3-FIFO (Yang et al., "FIFO queues are all you need for cache eviction", SOSP 2023),
// counted in bytes. A new entry joins the small queue (a tenth of the budget). Used again before it
// reaches the small queue's end, it moves to the main queue; unused, it leaves and its key stays
// behind as a ghost, and a ghost's key loaded again goes straight to main. Main evicts its oldest
// entry, unless that entry was used since it was queued: then it is queued again, one use forgotten
// (at most three are remembered). A use counts only when made by another request than the one that
// used or loaded the entry last (their storage meters tell them apart): an answer reading one page
// twice has not shown that the page serves more than one answer.
//
// What a request loads before it has read FIRST_READS_BYTES, if smaller than that, skips probation
// for a queue of its own, the first-reads queue (an eighth of the budget), which evicts as main
// does: the pages about the object an answer was asked for (its link page, its row), which later
// answers about that object come back to. What it loads after goes on probation, as does anything
// larger: a walk's frontier, the pages of a large answer's members, whole sections, a broad
// filter's matches. In the mixed workload at 1M objects, answers came back to an object's link page
// hundreds of answers later, when the small queue had turned over many times under multi-filters and
// walks: on probation, the page had left unused, and was read again. In main, where such pages went
// first, a heavier mix's reused key pages and trigram lists (some 87 MB a pass entering a main of 57)
// pushed them out just the same; in a queue of their own, they stay for passes.
//
// Why not LRU (measured: docs/benchmarks.md#section-cache-policy). Heavy answers read many entries
// once: a level-5 node's children are hundreds of row pages, up to 28 MB at 300k objects. Under LRU
// each such answer pushed out the sections every find needs, read and decoded again at the next
// find. Over storage answering in 20 ms, at 300k objects, S3-FIFO cut the bytes re-read from 429
// to 242 MB at a 64 MiB budget (finds' p99 from 115-316 to 28-81 ms), and at 20 MiB (what 64 MiB
// is to a 1M-object snapshot) from 1334 to 483 MB, wall time by 28-44 %. Answers bound by row and
// link pages stayed as they were: their working set outgrows the budget under any policy tried.
// GDSF (size-aware) kept more small pages but dropped mid-sized sections (multi-filter p50 0.5 →
// 24 ms); admitting an entry larger than the small queue only when seen again re-read large sections.
//
// Sizes. An entry weighs its structure's `byteSize`, or the section's stored length when the
// structure has none, plus ENTRY_BYTES: what keeping any entry costs besides (its record, key, map
// slot, and the objects a page's bytes come in), which at tens of thousands of pages is megabytes.
// Some structures grow after they are handed out: StringList.all() keeps decoded strings, the
// taxonomy builds child lists. So sizes are re-measured, not trusted from insertion: every entry at each insertion (the
// moment eviction decides; a getter per entry is small next to reading and decoding a section) and
// for stats, and the entry used on a hit. Pages never grow: they are measured once, so thousands
// of them cost nothing at each insertion. Growth is thus counted at the next insertion or use;
// until then the count may lag by what one query materialized.
//
// Dependencies. A section decoded with the help of another holds it: LGRA holds TAXO, a whole
// trigram index its search index. Such a section weighs only itself, and
// stays honest as follows: using it uses what it depends on (so a dependency is spared whenever a
// dependent would be), evicting a dependency evicts its dependents with it (so no cached entry pins
// memory the budget no longer counts), and a section whose dependency was evicted while it loaded
// is returned but not kept.
//
// The budget holds (as measured) after every insertion and hit, except for the entry just handed out
// and its dependencies: those are kept even when they alone exceed the budget (a query never fails
// for lack of cache), and give way at the next insertion or hit of another key.
import { SharedLoads } from "../shared-loads.ts";
import { currentStorageMeter, requestNumber, type StorageMeter } from "./storage-meter.ts";

/** What a cached value may report about its own memory. */
export interface Sized {
  readonly byteSize?: number;
}

export interface SectionCacheStats {
  budgetBytes: number;
  /** Sum of the entries' sizes, as last measured. */
  bytes: number;
  entries: number;
  /** `get`s answered from the cache, or by joining a load already under way (a joiner that outwaits it counts a miss too). */
  hits: number;
  /** Loads started. */
  misses: number;
  /** Entries dropped to respect the budget, dependents evicted with their dependency included. */
  evictions: number;
}

interface Entry {
  readonly snapshotKey: string;
  readonly tag: string;
  readonly value: unknown;
  /** Stored length of the section: the size when the value has no byteSize. */
  readonly storedLength: number;
  /** The entries this one holds (see Dependencies), and those holding this one. */
  readonly dependsOn: readonly Entry[];
  /** Made when the first dependent comes: most entries (pages) never have one, and an empty Set weighs some 180 bytes. */
  dependents: Set<Entry> | null;
  size: number;
  /** A value whose size never changes (a decoded page): not re-measured. */
  readonly fixed: boolean;
  /** Uses since it was queued or last spared, up to MAX_FREQUENCY: by requests other than the last that used it. */
  frequency: number;
  /** The number of the request (its storage meter) that last used or loaded it; 0 outside any. */
  lastUser: number;
  /** The queue holding it, and its neighbours there. */
  queue: Queue;
  older: Entry | null;
  newer: Entry | null;
}

/** A FIFO of entries and the bytes they weigh (a linked list: moving an entry is an unlink and a link). */
class Queue {
  oldest: Entry | null = null;
  newest: Entry | null = null;
  bytes = 0;

  push(entry: Entry): void {
    entry.queue = this;
    entry.older = this.newest;
    entry.newer = null;
    if (this.newest) this.newest.newer = entry;
    else this.oldest = entry;
    this.newest = entry;
    this.bytes += entry.size;
  }

  remove(entry: Entry): void {
    if (entry.older) entry.older.newer = entry.newer;
    else this.oldest = entry.newer;
    if (entry.newer) entry.newer.older = entry.older;
    else this.newest = entry.older;
    entry.older = entry.newer = null;
    this.bytes -= entry.size;
  }

  /** The oldest entry not in `kept`. */
  oldestBut(kept: ReadonlySet<Entry>): Entry | null {
    let entry = this.oldest;
    while (entry && kept.has(entry)) entry = entry.newer;
    return entry;
  }
}

/** The small queue's share of the budget: S3-FIFO's tenth. */
const SMALL_SHARE = 0.1;
/**
 * The first-reads queue's share of the budget. An independent mixed workload at 1M objects loaded
 * 3.3 MB of link and row pages a pass as first reads; a quarter of the budget kept what an eighth did.
 */
const FIRST_READS_SHARE = 1 / 8;
/** Uses an entry remembers: how many times main may spare it unused. */
const MAX_FREQUENCY = 3;
/**
 * A request that has read fewer bytes than this, the read under way included, loads entries smaller
 * than this into the first-reads queue: a link page and a row page or two. Measured from 8 to 64 KiB at 1M
 * objects with 20 ms reads (docs/benchmarks.md): the smaller, the more callees and 3-hop walks
 * answered within one round; below a link page (4 KiB and its varints), an object's own links would
 * go on probation.
 */
export const FIRST_READS_BYTES = 8 * 1024;
/** Ghosts kept at most, beyond the bytes bound (see haunt): a key is about 80 characters, so under a megabyte. */
const MAX_GHOSTS = 8192;

export interface SectionCacheOptions {
  /** What each entry weighs beyond its value's byteSize (default ENTRY_BYTES; tests of exact sizes give 0). */
  entryBytes?: number;
  /** Below how many bytes read a request loads entries below that size into the first-reads queue (default FIRST_READS_BYTES; 0: none). */
  firstReadsBytes?: number;
  /** How long other requests wait for a load of `storedLength` bytes before reading for themselves. */
  loadDeadlineMs?: (storedLength: number) => number;
  /** The clock deadlines are measured on. */
  now?: () => number;
}

/**
 * A second plus a second per 16 MiB: a live load of a large section (a 20 ms first byte, then the
 * transfer and the decoding) is joined, not repeated; a dead one costs its joiners one wait.
 */
function defaultLoadDeadlineMs(storedLength: number): number {
  return 1000 + storedLength / 16384;
}

/** The dependencies of an entry that has none, shared. */
const NO_ENTRIES: readonly Entry[] = [];
const NO_KEPT: ReadonlySet<Entry> = new Set();

/** Separates a snapshot's number from a tag in keys (keyOf); a number never contains it. */
const SEPARATOR = "\u0000";

/**
 * What keeping an entry costs beyond what its value counts, measured on Node 24's V8 (in process,
 * heap and buffers after collection, 20,000 stored row pages): a page kept took 435 bytes of heap
 * besides its bytes, of which its byteSize counts 64. The rest is the cache's record of it, its key
 * and map slot, and the view and ArrayBuffer objects its bytes come in. At 1M objects the mixed
 * workload keeps some 10,000 entries, most of them pages: left uncounted, they were 3.5 MiB an
 * isolate held beyond its budget.
 */
export const ENTRY_BYTES = 384;

function measure(value: unknown, storedLength: number, entryBytes: number): number {
  const size = (value as Sized | null | undefined)?.byteSize;
  return entryBytes + (typeof size === "number" && Number.isFinite(size) && size >= 0 ? size : storedLength);
}

export class SectionCache {
  readonly budgetBytes: number;
  /** Entries by snapshot, then tag: a lookup hashes the tag alone, not a 70-character composite key. */
  private readonly bySnapshot = new Map<string, Map<string, Entry>>();
  private count = 0;
  /** New entries, on probation; entries used while on probation, or recalled from the ghosts; entries a request loaded among its first reads. */
  private readonly small = new Queue();
  private readonly main = new Queue();
  private readonly firstReads = new Queue();
  private readonly smallBudget: number;
  private readonly firstReadsBudget: number;
  /** Keys (keyOf) of entries that left `small` unused, oldest first, with their sizes: a key loaded again goes to `main`. */
  private readonly ghosts = new Map<string, number>();
  /** A number for each snapshot key an entry was ever asked for under (a few bytes a snapshot), for keyOf. */
  private readonly snapshotNumbers = new Map<string, number>();
  private ghostBytes = 0;
  /** Loads in flight, shared between requests only until their deadline (see SharedLoads). */
  private readonly loads: SharedLoads<string, unknown>;
  private readonly loadDeadlineMs: (storedLength: number) => number;
  private readonly entryBytes: number;
  private readonly firstReadsBytes: number;
  /** The entries that may grow, re-measured at each request's first insertion: thousands of cached pages need not be. */
  private readonly growable = new Set<Entry>();
  /**
   * The request (its number) that re-measured the growable entries last. Once a request is enough:
   * re-measured at every insertion, some 20 sections took 1.5 µs a pass, nine passes an answer
   * through the mix at 1M objects, most of them on pages a request inserts one after the other.
   * What an entry grows by while a request uses it is counted at its next use, or at the next
   * request's first insertion.
   */
  private remeasuredFor = -1;
  /** Bytes of the budget lent to work beside the cache (lend): the cache keeps to the rest. */
  private lent = 0;
  private hits = 0;
  private misses = 0;
  private evictions = 0;

  constructor(budgetBytes: number, options: SectionCacheOptions = {}) {
    if (!(budgetBytes >= 0))
      throw new RangeError(`a section cache budget is a number of bytes ≥ 0, not ${budgetBytes}`);
    this.budgetBytes = budgetBytes;
    this.smallBudget = budgetBytes * SMALL_SHARE;
    this.firstReadsBudget = budgetBytes * FIRST_READS_SHARE;
    // The request a load is shared within without polling: the one whose storage meter is running,
    // or whose prefetch is (its I/O is the request's too).
    this.loads = new SharedLoads(options.now, () => currentStorageMeter()?.request);
    this.loadDeadlineMs = options.loadDeadlineMs ?? defaultLoadDeadlineMs;
    this.entryBytes = options.entryBytes ?? ENTRY_BYTES;
    if (!(this.entryBytes >= 0 && Number.isFinite(this.entryBytes)))
      throw new RangeError(`an entry's own cost is a number of bytes ≥ 0, not ${this.entryBytes}`);
    this.firstReadsBytes = options.firstReadsBytes ?? FIRST_READS_BYTES;
    if (!(this.firstReadsBytes >= 0))
      throw new RangeError(`a request's first reads are a number of bytes ≥ 0, not ${this.firstReadsBytes}`);
  }

  /**
   * The decoded section `tag` of snapshot `snapshotKey` (its content address), loaded by `load` on a
   * miss. Concurrent calls for one key share one load until its deadline; a failed load is not remembered. `load` names
   * the sections the value holds through `dependsOn`; `storedLength` sizes a value without byteSize;
   * `fixedSize` says the value never grows (pages), so it is measured once.
   */
  get<T>(
    snapshotKey: string,
    tag: string,
    load: (dependsOn: (tag: string) => void) => Promise<T & Sized>,
    storedLength = 0,
    fixedSize = false,
  ): Promise<T & Sized> {
    const entry = this.find(snapshotKey, tag);
    if (entry) {
      this.hit(entry);
      return Promise.resolve(entry.value as T & Sized);
    }
    let started = false;
    const loading = this.loads.run(
      this.keyOf(snapshotKey, tag),
      async () => {
        const dependsOn: string[] = [];
        const value = await load((t) => dependsOn.push(t));
        this.insert(snapshotKey, tag, value, dependsOn, storedLength, fixedSize);
        return value;
      },
      this.loadDeadlineMs(storedLength),
      () => {
        started = true;
        this.misses++;
      },
    );
    if (!started) this.hits++;
    return loading as Promise<T & Sized>;
  }

  /**
   * The value kept under (snapshotKey, tag), used as by a hit, or undefined: lets a caller that
   * needs many small entries (pages) take the cached ones without a promise each.
   */
  peek<T>(snapshotKey: string, tag: string): (T & Sized) | undefined {
    const entry = this.find(snapshotKey, tag);
    if (!entry) return undefined;
    this.hit(entry);
    return entry.value as T & Sized;
  }

  /** Whether `tag` of `snapshotKey` is held now: neither counted as a hit nor moved up. */
  holds(snapshotKey: string, tag: string): boolean {
    return this.find(snapshotKey, tag) !== undefined;
  }

  /** Bytes held for one snapshot. */
  bytesOf(snapshotKey: string): number {
    this.remeasureAll();
    let total = 0;
    for (const entry of this.bySnapshot.get(snapshotKey)?.values() ?? []) total += entry.size;
    return total;
  }

  /** What the cache holds now, entry by entry, oldest first in each queue (instrumentation: scripts/cache-trace.ts). */
  holdings(): { snapshotKey: string; tag: string; bytes: number; queue: "small" | "main" | "first reads" }[] {
    this.remeasureAll();
    const out: { snapshotKey: string; tag: string; bytes: number; queue: "small" | "main" | "first reads" }[] = [];
    for (const [queue, name] of [
      [this.small, "small"],
      [this.main, "main"],
      [this.firstReads, "first reads"],
    ] as const)
      for (let e = queue.oldest; e; e = e.newer)
        out.push({ snapshotKey: e.snapshotKey, tag: e.tag, bytes: e.size, queue: name });
    return out;
  }

  /**
   * Runs `work` with `bytes` of the budget (at most all of it) lent to it: entries are evicted until
   * the rest holds, and the cache keeps to the rest until `work` settles. Work that decodes beside
   * the cache, such as verifying a snapshot being published (77 MiB live at 1M objects), then fits
   * in the isolate beside what the cache holds.
   */
  async lend<T>(bytes: number, work: () => Promise<T>): Promise<T> {
    const lent = Math.min(Math.max(0, bytes), this.budgetBytes);
    this.lent += lent;
    try {
      this.remeasureAll();
      this.evictBeyondBudget(NO_KEPT);
      return await work();
    } finally {
      this.lent -= lent;
    }
  }

  stats(): SectionCacheStats {
    this.remeasureAll();
    return {
      budgetBytes: this.budgetBytes,
      bytes: this.bytes,
      entries: this.count,
      hits: this.hits,
      misses: this.misses,
      evictions: this.evictions,
    };
  }

  private get bytes(): number {
    return this.small.bytes + this.main.bytes + this.firstReads.bytes;
  }

  /** The budget less what is lent: what the cache keeps to. */
  private get room(): number {
    return Math.max(0, this.budgetBytes - this.lent);
  }

  private find(snapshotKey: string, tag: string): Entry | undefined {
    return this.bySnapshot.get(snapshotKey)?.get(tag);
  }

  /** Counts a use of `entry` and of what it depends on, then evicts others until the budget holds. */
  private hit(entry: Entry): void {
    this.hits++;
    if (!entry.fixed) this.remeasure(entry);
    if (entry.dependsOn.length === 0) {
      // Most entries (pages, most sections) hold nothing else: no walk, and a set only to evict.
      this.use(entry, requestNumber());
      if (this.bytes > this.room) this.evictBeyondBudget(new Set([entry]));
      return;
    }
    const kept = new Set<Entry>();
    this.keep(entry, kept, true, requestNumber());
    this.evictBeyondBudget(kept);
  }

  /**
   * Counts a use of `entry` by request `user` (its storage meter's number), unless the same request
   * used or loaded it last. Counted twice, the pages one multi-filter read to check candidates and
   * again to list them left probation for the main queue and pushed out link and point pages other
   * answers come back to.
   */
  private use(entry: Entry, user: number): void {
    if (user !== 0 && entry.lastUser === user) return;
    entry.lastUser = user;
    if (entry.frequency < MAX_FREQUENCY) entry.frequency++;
  }

  /**
   * Keeps `value` under (snapshotKey, tag) unless something is kept there already: a value that took
   * much work to make (a deep walk's outcome, some hundred KB for millions of links followed). It
   * goes straight to the main queue, as an entry used by two requests would: on probation it would
   * compete with the pages read beside it (a cold deep walk reads tens of MB), each far cheaper to
   * get again than it.
   */
  keepWorked(snapshotKey: string, tag: string, value: Sized): void {
    if (this.find(snapshotKey, tag)) return;
    this.insert(snapshotKey, tag, value, [], 0, true, true);
  }

  private insert(
    snapshotKey: string,
    tag: string,
    value: unknown,
    dependsOnTags: readonly string[],
    storedLength: number,
    fixed: boolean,
    worked = false,
  ): void {
    const dependsOn = dependsOnTags.map((d) => this.find(snapshotKey, d));
    // A dependency evicted while this section loaded: the value holds memory no entry would count.
    if (dependsOn.some((d) => d === undefined)) return;
    const size = measure(value, storedLength, this.entryBytes);
    const meter = currentStorageMeter();
    const key = this.keyOf(snapshotKey, tag);
    const ghost = this.ghosts.get(key);
    this.remeasureOncePerRequest();
    const old = this.find(snapshotKey, tag);
    if (old) this.evict(old);
    if (ghost !== undefined) {
      this.ghosts.delete(key);
      this.ghostBytes -= ghost;
    }
    const entry: Entry = {
      snapshotKey,
      tag,
      value,
      storedLength,
      dependsOn: dependsOn.length === 0 ? NO_ENTRIES : (dependsOn as Entry[]),
      dependents: null,
      size,
      fixed,
      frequency: 0,
      lastUser: meter?.number ?? 0,
      queue: this.small,
      older: null,
      newer: null,
    };
    for (const d of entry.dependsOn) (d.dependents ??= new Set()).add(entry);
    if (!fixed) this.growable.add(entry);
    let tags = this.bySnapshot.get(snapshotKey);
    if (!tags) this.bySnapshot.set(snapshotKey, (tags = new Map()));
    tags.set(tag, entry);
    this.count++;
    const queue = this.loadedFirst(meter, size) ? this.firstReads : ghost !== undefined ? this.main : this.small;
    (worked ? this.main : queue).push(entry);
    const kept = new Set<Entry>();
    this.keep(entry, kept, false, entry.lastUser);
    this.evictBeyondBudget(kept);
  }

  /**
   * Whether an entry of `size` bytes loaded now by the request of `meter` goes to the first-reads queue:
   * smaller than firstReadsBytes (a page, not a section or a large filter's matches), loaded by a
   * request that has read less than that so far. Outside any request, no.
   */
  private loadedFirst(meter: StorageMeter | undefined, size: number): boolean {
    return meter !== undefined && meter.bytes < this.firstReadsBytes && size < this.firstReadsBytes;
  }

  /**
   * Adds `entry` and its dependencies to `kept`, counting a use of each dependency, and of `entry`
   * if `used`: a new entry is not used yet, but its decoder used its dependencies.
   */
  private keep(entry: Entry, kept: Set<Entry>, used: boolean, user: number): void {
    if (kept.has(entry)) return;
    kept.add(entry);
    if (used) this.use(entry, user);
    for (const dependency of entry.dependsOn) this.keep(dependency, kept, true, user);
  }

  /**
   * Evicts entries but `kept` until the budget holds: from `small` while it is over its share, else
   * from the first-reads queue while it is over its own, else from `main`; from the others when the
   * one chosen has nothing left to evict.
   */
  private evictBeyondBudget(kept: ReadonlySet<Entry>): void {
    while (this.bytes > this.room) {
      const small = () => this.evictFromSmall(kept);
      const main = () => this.evictFromFifo(this.main, kept);
      const firstReads = () => this.evictFromFifo(this.firstReads, kept);
      const evicted =
        this.small.bytes > this.smallBudget
          ? small() || main() || firstReads()
          : this.firstReads.bytes > this.firstReadsBudget
            ? firstReads() || main() || small()
            : main() || small() || firstReads();
      if (!evicted) return;
    }
  }

  /** Evicts the oldest unused entry of `small` (its key becomes a ghost), moving used ones to `main`; false if none is left. */
  private evictFromSmall(kept: ReadonlySet<Entry>): boolean {
    for (let entry = this.small.oldestBut(kept); entry; entry = this.small.oldestBut(kept)) {
      if (entry.frequency > 0) {
        this.small.remove(entry);
        entry.frequency = 0;
        this.main.push(entry);
        continue;
      }
      this.haunt(this.keyOf(entry.snapshotKey, entry.tag), entry.size);
      this.evictions += this.evict(entry);
      return true;
    }
    return false;
  }

  /** Evicts the oldest unused entry of `queue` (main, first reads), sparing used ones (requeued, one use forgotten); false if none is left. */
  private evictFromFifo(queue: Queue, kept: ReadonlySet<Entry>): boolean {
    for (let entry = queue.oldestBut(kept); entry; entry = queue.oldestBut(kept)) {
      if (entry.frequency > 0) {
        entry.frequency--;
        queue.remove(entry);
        queue.push(entry);
        continue;
      }
      this.evictions += this.evict(entry);
      return true;
    }
    return false;
  }

  /**
   * The one key of (snapshotKey, tag), for the maps of all snapshots together (ghosts, loads under
   * way): the snapshot's number and the tag, not its content address. Each page a walk misses is
   * loaded under it and looked up among the ghosts, and most become one: hashing a 70-character
   * key made for each took a sixth of the cache's time over a stream of page misses.
   */
  private keyOf(snapshotKey: string, tag: string): string {
    let number = this.snapshotNumbers.get(snapshotKey);
    if (number === undefined) this.snapshotNumbers.set(snapshotKey, (number = this.snapshotNumbers.size));
    return number + SEPARATOR + tag;
  }

  /**
   * Remembers `key`, of an entry of `size` bytes that left `small` unused, as a ghost. As in
   * S3-FIFO, ghosts stand for at most what main holds (here its share of the budget), the oldest
   * forgotten first.
   */
  private haunt(key: string, size: number): void {
    this.ghosts.set(key, size);
    this.ghostBytes += size;
    const bound = this.budgetBytes - this.smallBudget;
    for (const [oldest, oldestSize] of this.ghosts) {
      if (this.ghostBytes <= bound && this.ghosts.size <= MAX_GHOSTS) break;
      this.ghosts.delete(oldest);
      this.ghostBytes -= oldestSize;
    }
  }

  /**
   * Drops `entry` and, with it, every entry that depends on it; returns how many went. No cached
   * entry may hold an uncounted one.
   */
  private evict(entry: Entry): number {
    const tags = this.bySnapshot.get(entry.snapshotKey);
    if (tags?.get(entry.tag) !== entry) return 0;
    tags.delete(entry.tag);
    if (tags.size === 0) this.bySnapshot.delete(entry.snapshotKey);
    this.count--;
    entry.queue.remove(entry);
    this.growable.delete(entry);
    for (const d of entry.dependsOn) d.dependents?.delete(entry);
    let dropped = 1;
    if (entry.dependents) for (const dependent of [...entry.dependents]) dropped += this.evict(dependent);
    return dropped;
  }

  private remeasure(entry: Entry): void {
    const size = measure(entry.value, entry.storedLength, this.entryBytes);
    entry.queue.bytes += size - entry.size;
    entry.size = size;
  }

  private remeasureAll(): void {
    for (const entry of this.growable) this.remeasure(entry);
  }

  /** remeasureAll, unless the request running now did already; always outside any request. */
  private remeasureOncePerRequest(): void {
    const request = requestNumber();
    if (request !== 0 && request === this.remeasuredFor) return;
    this.remeasuredFor = request;
    this.remeasureAll();
  }
}
