// @module SectionCache: an isolate-wide LRU of decoded snapshot sections under a byte budget, shared by every Snapshot.
import { SharedLoads } from "../shared-loads.ts";
//
// Entries are keyed by (snapshot content address, section tag): snapshots are immutable, so an entry
// never goes stale, and a snapshot reopened later finds its sections again.
//
// Sizes. An entry weighs its structure's `byteSize`, or the section's stored length when the
// structure has none. Some structures grow after they are handed out: StringList.all() keeps decoded
// strings, a column-keyed SearchIndex materializes its keys for `contains`, the taxonomy builds child
// lists. So sizes are re-measured, not trusted from insertion: every entry at each insertion (the
// moment eviction decides; a getter per entry is small next to reading and decoding a section) and
// for stats, and the entry touched on a hit. Pages never grow: they are measured once, so thousands
// of them cost nothing at each insertion. Growth is thus counted at the next insertion or touch;
// until then the count may lag by what one query materialized.
//
// Dependencies. A section decoded with the help of another holds it: LGRA holds TAXO, the
// column-keyed indexes XNAM/XFUL/XMNG hold NAME/FULL/MANG. Such a section weighs only itself, and
// stays honest as follows: touching it touches what it depends on right after it (so a dependency is
// never less recent than its dependents), evicting a dependency evicts its dependents with it (so
// no cached entry pins memory the budget no longer counts), and a section whose dependency was
// evicted while it loaded is returned but not kept.
//
// The budget holds (as measured) after every insertion and hit, except for the entry just handed out
// and its dependencies: those are kept even when they alone exceed the budget (a query never fails
// for lack of cache), and give way at the next insertion or hit of another key.

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
  readonly dependents: Set<Entry>;
  size: number;
  /** A value whose size never changes (a decoded page): not re-measured. */
  readonly fixed: boolean;
  /** Neighbours in recency order (a linked list: a touch is two unlinks and a link, not a Map re-insertion). */
  older: Entry | null;
  newer: Entry | null;
}

export interface SectionCacheOptions {
  /** How long other requests wait for a load of `storedLength` bytes before reading for themselves. */
  loadDeadlineMs?: (storedLength: number) => number;
  /** The clock deadlines are measured on. */
  now?: () => number;
}

/**
 * A second plus a second per 16 MiB: a live load of a large section (a 20 ms first byte, then the
 * transfer and the decoding) is joined, not repeated; a dead one costs its joiners one wait.
 */
export function defaultLoadDeadlineMs(storedLength: number): number {
  return 1000 + storedLength / 16384;
}

/** Separates a content address from a tag in entry keys; neither contains it. */
const SEPARATOR = "\u0000";

function measure(value: unknown, storedLength: number): number {
  const size = (value as Sized | null | undefined)?.byteSize;
  return typeof size === "number" && Number.isFinite(size) && size >= 0 ? size : storedLength;
}

export class SectionCache {
  readonly budgetBytes: number;
  /** Entries by snapshot, then tag: a lookup hashes the tag alone, not a 70-character composite key. */
  private readonly bySnapshot = new Map<string, Map<string, Entry>>();
  private count = 0;
  /** Ends of the recency list: `oldest` is evicted first. */
  private oldest: Entry | null = null;
  private newest: Entry | null = null;
  /** Loads in flight, shared between requests only until their deadline (see SharedLoads). */
  private readonly loads: SharedLoads<string, unknown>;
  private readonly loadDeadlineMs: (storedLength: number) => number;
  /** The entries that may grow, re-measured at each insertion: thousands of cached pages need not be. */
  private readonly growable = new Set<Entry>();
  private bytes = 0;
  private hits = 0;
  private misses = 0;
  private evictions = 0;

  constructor(budgetBytes: number, options: SectionCacheOptions = {}) {
    if (!(budgetBytes >= 0))
      throw new RangeError(`a section cache budget is a number of bytes ≥ 0, not ${budgetBytes}`);
    this.budgetBytes = budgetBytes;
    this.loads = new SharedLoads(options.now);
    this.loadDeadlineMs = options.loadDeadlineMs ?? defaultLoadDeadlineMs;
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
      this.hits++;
      if (!entry.fixed) this.remeasure(entry);
      this.touch(entry);
      return Promise.resolve(entry.value as T & Sized);
    }
    let started = false;
    const loading = this.loads.run(
      snapshotKey + SEPARATOR + tag,
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
   * The value kept under (snapshotKey, tag), touched as by a hit, or undefined: lets a caller that
   * needs many small entries (pages) take the cached ones without a promise each.
   */
  peek<T>(snapshotKey: string, tag: string): (T & Sized) | undefined {
    const entry = this.find(snapshotKey, tag);
    if (!entry) return undefined;
    this.hits++;
    if (!entry.fixed) this.remeasure(entry);
    this.touch(entry);
    return entry.value as T & Sized;
  }

  /** Bytes held for one snapshot. */
  bytesOf(snapshotKey: string): number {
    this.remeasureAll();
    let total = 0;
    for (const entry of this.bySnapshot.get(snapshotKey)?.values() ?? []) total += entry.size;
    return total;
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

  private find(snapshotKey: string, tag: string): Entry | undefined {
    return this.bySnapshot.get(snapshotKey)?.get(tag);
  }

  private insert(
    snapshotKey: string,
    tag: string,
    value: unknown,
    dependsOnTags: readonly string[],
    storedLength: number,
    fixed: boolean,
  ): void {
    const dependsOn = dependsOnTags.map((d) => this.find(snapshotKey, d));
    // A dependency evicted while this section loaded: the value holds memory no entry would count.
    if (dependsOn.some((d) => d === undefined)) return;
    this.remeasureAll();
    const old = this.find(snapshotKey, tag);
    if (old) this.evict(old);
    const entry: Entry = {
      snapshotKey,
      tag,
      value,
      storedLength,
      dependsOn: dependsOn as Entry[],
      dependents: new Set(),
      size: measure(value, storedLength),
      fixed,
      older: null,
      newer: null,
    };
    for (const d of entry.dependsOn) d.dependents.add(entry);
    if (!fixed) this.growable.add(entry);
    let tags = this.bySnapshot.get(snapshotKey);
    if (!tags) this.bySnapshot.set(snapshotKey, (tags = new Map()));
    tags.set(tag, entry);
    this.count++;
    this.link(entry);
    this.bytes += entry.size;
    this.touch(entry);
  }

  /** Appends `entry` to the recency list as the newest. */
  private link(entry: Entry): void {
    entry.older = this.newest;
    entry.newer = null;
    if (this.newest) this.newest.newer = entry;
    else this.oldest = entry;
    this.newest = entry;
  }

  private unlink(entry: Entry): void {
    if (entry.older) entry.older.newer = entry.newer;
    else this.oldest = entry.newer;
    if (entry.newer) entry.newer.older = entry.older;
    else this.newest = entry.older;
    entry.older = entry.newer = null;
  }

  /** Makes `entry` the newest. */
  private renew(entry: Entry): void {
    if (this.newest === entry) return;
    this.unlink(entry);
    this.link(entry);
  }

  /** Marks `entry` and its dependencies most recently used, then evicts others until the budget holds. */
  private touch(entry: Entry): void {
    if (entry.dependsOn.length === 0) {
      // Most entries (pages, most sections) hold nothing else: no walk, and a set only to evict.
      this.renew(entry);
      if (this.bytes > this.budgetBytes) this.evictBeyondBudget(new Set([entry]));
      return;
    }
    const kept = new Set<Entry>();
    this.refresh(entry, kept);
    this.evictBeyondBudget(kept);
  }

  /** Evicts least recently used entries but `kept` until the budget holds. */
  private evictBeyondBudget(kept: ReadonlySet<Entry>): void {
    let other = this.oldest;
    while (other && this.bytes > this.budgetBytes) {
      // Skip the kept entries (a few: the one handed out and its dependencies); evicting may unlink dependents further on.
      while (other && kept.has(other)) other = other.newer;
      if (!other) break;
      this.evictions += this.evict(other);
      other = this.oldest;
    }
  }

  /** Re-inserts `entry`, then its dependencies after it (so none is less recent than a dependent). */
  private refresh(entry: Entry, kept: Set<Entry>): void {
    if (kept.has(entry)) return;
    kept.add(entry);
    this.renew(entry);
    for (const dependency of entry.dependsOn) this.refresh(dependency, kept);
  }

  /**
   * Drops `entry` and, with it, every entry that depends on it; returns how many went. Dependencies
   * are never less recent than their dependents, so LRU order already drops dependents first: this
   * only guards the rule that no cached entry holds an uncounted one.
   */
  private evict(entry: Entry): number {
    const tags = this.bySnapshot.get(entry.snapshotKey);
    if (tags?.get(entry.tag) !== entry) return 0;
    tags.delete(entry.tag);
    if (tags.size === 0) this.bySnapshot.delete(entry.snapshotKey);
    this.count--;
    this.unlink(entry);
    this.growable.delete(entry);
    this.bytes -= entry.size;
    for (const d of entry.dependsOn) d.dependents.delete(entry);
    let dropped = 1;
    for (const dependent of [...entry.dependents]) dropped += this.evict(dependent);
    return dropped;
  }

  private remeasure(entry: Entry): void {
    const size = measure(entry.value, entry.storedLength);
    this.bytes += size - entry.size;
    entry.size = size;
  }

  private remeasureAll(): void {
    for (const entry of this.growable) this.remeasure(entry);
  }
}
