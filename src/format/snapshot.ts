// @module Snapshot: reads a snapshot through a ByteSource, section by section, verifying each before decoding it.

import { waitUntil } from "../wait-until.ts";
import { align8, decodeHeader, decodeToc, SECTION_REQUIRED, type TocEntry, verifySection } from "./container.ts";
import { CorruptSnapshotError, check } from "./errors.ts";
import { decodeMeta } from "./meta.ts";
import type { SnapshotMeta } from "./model.ts";
import { JOIN_GAP_BYTES, JOIN_SPAN_BYTES } from "./page-loads.ts";
import type { SectionCache, Sized } from "./section-cache.ts";
import {
  consultedBy,
  type DecodeContext,
  type Decoded,
  decodeSection,
  keysCountedBy,
  META_TAG,
  readAheadOf,
  SECTIONS,
  type SearchIndexTag,
  type SectionTag,
  wholeShareOf,
} from "./sections.ts";
import {
  currentStorageMeter,
  meteredRead,
  onConnection,
  type StorageMeter,
  WORKER_CONNECTIONS,
} from "./storage-meter.ts";
import type { Taxonomy } from "./taxonomy.ts";

/** Where snapshot bytes come from: a local file, an R2 object, memory. */
export interface ByteSource {
  /** A stable name for messages and cache keys (the content address where there is one). */
  readonly key: string;
  readonly size: number;
  /** Exactly `length` bytes from `offset`, in a buffer of their own (so typed views are aligned). */
  read(offset: number, length: number): Promise<Uint8Array>;
  /**
   * How many reads of one invocation may wait on it at once, where that is limited (R2 behind a
   * Worker: WORKER_CONNECTIONS): a load of more pages than that joins nearby ones into fewer reads
   * (loadPages). Unset: no limit, as a local file or memory, whose reads cost microseconds: loads
   * are then not joined, and nothing is read for the answers likely to come next (prefetchLinks).
   */
  readonly connections?: number;
}

/**
 * First read on open: header, table of contents, metadata and the id directory (written right after
 * them) normally fit, as in PMTiles' first fetch of header and root directory: 31 KiB at 1M objects.
 */
export const FIRST_READ = 64 * 1024;

/**
 * A section this small is read whole at the first part asked of it, and its parts sliced from that:
 * a small paged section, read ahead on open, then brings its pages along, and a cold answer saves
 * the round it would spend on them once the directory is known.
 */
const WHOLE_READ_BYTES = 64 * 1024;

/** Where the one block of a paged section starts: after its block table of 8 + 8 bytes (SNAPSHOT-FORMAT.md §6). */
const PAGES_START = 16;

/** `source.read`, charged to the request running now (see StorageMeter): every read of a snapshot goes through here. */
const sourceRead = (source: ByteSource, offset: number, length: number): Promise<Uint8Array> =>
  meteredRead(source.read(offset, length), length);

export interface SnapshotOptions {
  /**
   * Where decoded sections are kept: an isolate-wide, byte-budgeted LRU shared with other snapshots,
   * keyed by `source.key`, which must then be the snapshot's content address. Without one, every
   * section decoded is kept by this Snapshot for its lifetime.
   */
  sections?: SectionCache;
  /**
   * The file's first bytes, when whoever opens it has them already: a store that learns an object's
   * size and version by reading its start (R2's ranged get) saves a round trip on every cold open.
   */
  first?: Uint8Array;
  /**
   * Start reading, as soon as the table of contents is known, what cold queries consult before
   * anything else (SectionCodec.readAhead: page directories, block tables): they go out with the
   * query's own first reads rather than one round trip each after them. For a snapshot opened to serve.
   */
  readAhead?: boolean;
}

/**
 * What a reader opens a snapshot from, cut from its first bytes: the header, the table of contents
 * and META (the same checks apply to them when opened), and the id directory when `first` holds it.
 * Null when the first three reach past `first`.
 */
export function openingBytes(first: Uint8Array): Uint8Array | null {
  const header = decodeHeader(first);
  const tocEnd = header.tocOffset + header.tocLength;
  if (tocEnd > first.length) return null;
  const toc = decodeToc(header, first.subarray(header.tocOffset, tocEnd));
  const meta = toc.get(META_TAG);
  check(meta, "snapshot has no META section");
  let end = Math.max(tocEnd, meta.offset + meta.length);
  if (end > first.length) return null;
  // The id directory, written right after META, comes along when `first` holds it.
  const ids = toc.get("IDXD");
  if (ids && ids.offset + ids.length <= first.length) end = Math.max(end, ids.offset + ids.length);
  return first.slice(0, end);
}

/** A read of bytes [from, to) of the file that several sections are cut from, made by `owner` (the invocation that started it). */
interface SharedRead {
  from: number;
  to: number;
  owner: StorageMeter | undefined;
  bytes: Promise<Uint8Array>;
}

/** Where a paged section's pages lie in its body: its one block. */
export interface PagesBlock {
  start: number;
  length: number;
}

export class Snapshot implements DecodeContext {
  /** Sections and remembered values loading or loaded, when there is no SectionCache. */
  private readonly decoded = new Map<string, Promise<unknown>>();
  /** Those already loaded, when there is no SectionCache (what recall answers). */
  private readonly remembered = new Map<string, unknown>();
  private readonly cache: SectionCache | undefined;
  /** The file's opening bytes (openingBytes): a section within them (the id directory) is cut from them, not read. */
  private readonly opening: Uint8Array;
  /** Reads of several sections at once, made on opening (readAhead), until their loads settle. */
  private spans: SharedRead[] = [];
  readonly source: ByteSource;
  readonly meta: SnapshotMeta;
  readonly toc: ReadonlyMap<string, TocEntry>;

  private constructor(
    source: ByteSource,
    opening: Uint8Array,
    meta: SnapshotMeta,
    toc: ReadonlyMap<string, TocEntry>,
    cache: SectionCache | undefined,
  ) {
    this.source = source;
    this.opening = opening;
    this.meta = meta;
    this.toc = toc;
    this.cache = cache;
  }

  static async open(source: ByteSource, options: SnapshotOptions = {}): Promise<Snapshot> {
    const first = options.first ?? (await sourceRead(source, 0, Math.min(source.size, FIRST_READ)));
    const header = decodeHeader(first);
    check(
      header.fileLength === source.size,
      `snapshot header says ${header.fileLength} bytes but the file has ${source.size} (truncated?)`,
    );
    const tocEnd = header.tocOffset + header.tocLength;
    const toc = decodeToc(
      header,
      tocEnd <= first.length
        ? first.slice(header.tocOffset, tocEnd)
        : await sourceRead(source, header.tocOffset, header.tocLength),
    );
    for (const entry of toc.values())
      if (entry.flags & SECTION_REQUIRED && entry.tag !== META_TAG && !Object.hasOwn(SECTIONS, entry.tag))
        throw new CorruptSnapshotError(
          `snapshot needs section ${entry.tag}, which this reader does not know; upgrade appstruct`,
        );
    const metaEntry = toc.get(META_TAG);
    check(metaEntry, "snapshot has no META section");
    const metaEnd = metaEntry.offset + metaEntry.length;
    const metaBytes =
      metaEnd <= first.length
        ? first.slice(metaEntry.offset, metaEnd)
        : await sourceRead(source, metaEntry.offset, metaEntry.length);
    verifySection(metaEntry, metaBytes);
    const opening = openingBytes(first) ?? new Uint8Array(0);
    const snapshot = new Snapshot(source, opening, decodeMeta(metaBytes), toc, options.sections);
    if (options.readAhead) snapshot.readAhead();
    return snapshot;
  }

  /**
   * Starts the reads of SnapshotOptions.readAhead without waiting for them: a query asking for one
   * joins its load. Left to run past the answer of whoever opened the file (waitUntil), since the
   * next queries are the ones that need them; one that fails is read again when asked for. The
   * directories lie side by side in the file's closing (inClosing): they are read a span at a time.
   */
  private readAhead(): void {
    const whole: SectionTag[] = [];
    for (const tag of this.toc.keys()) {
      if (!Object.hasOwn(SECTIONS, tag)) continue;
      const what = readAheadOf(tag as SectionTag);
      if (what === "whole") whole.push(tag as SectionTag);
      // A small paged section comes whole at its first part asked for (readPart): here, at once.
      else if (what === "small pages" && this.toc.get(tag)!.length <= WHOLE_READ_BYTES)
        this.readWholeAhead(tag as SectionTag);
    }
    this.spans = this.readTogether(whole.filter((tag) => !this.holds(tag)).map((tag) => this.toc.get(tag)!));
    const loads = whole.map((tag) => this.section(tag));
    for (const load of loads) waitUntil(load);
    // Only the loads just started take their bytes from the spans: then they are let go.
    waitUntil(Promise.allSettled(loads).then(() => (this.spans = [])));
  }

  /**
   * Reads of `entries` (sections of this file) side by side, gaps of at most JOIN_GAP_BYTES between
   * them and JOIN_SPAN_BYTES in all, one read for each such run of two or more, started now by the
   * invocation running now.
   */
  private readTogether(entries: readonly TocEntry[]): SharedRead[] {
    const outside = entries.filter((e) => e.offset + e.length > this.opening.length);
    outside.sort((a, b) => a.offset - b.offset);
    const reads: SharedRead[] = [];
    let run: TocEntry[] = [];
    const end = (e: TocEntry) => e.offset + e.length;
    const take = () => {
      if (run.length > 1) {
        const from = run[0].offset;
        const to = end(run[run.length - 1]);
        reads.push({
          from,
          to,
          owner: currentStorageMeter()?.invocation,
          bytes: sourceRead(this.source, from, to - from),
        });
      }
      run = [];
    };
    for (const e of outside) {
      if (
        run.length > 0 &&
        (e.offset - end(run[run.length - 1]) > JOIN_GAP_BYTES || end(e) - run[0].offset > JOIN_SPAN_BYTES)
      )
        take();
      run.push(e);
    }
    take();
    // A failed read is let go at once: what is asked for after reads alone.
    for (const read of reads) read.bytes.catch(() => (this.spans = this.spans.filter((s) => s !== read)));
    return reads;
  }

  /**
   * Where paged section `tag`'s pages lie in its body, its directory saying they take `length` bytes:
   * its one block, which starts right after the 16-byte block table, the body ending at the block's
   * end rounded up to 8 (SNAPSHOT-FORMAT.md §6). Nothing is read: the first page a cold answer asks
   * for goes out without waiting for the block table.
   */
  pagesBlock(tag: SectionTag, length: number): PagesBlock {
    const entry = this.toc.get(tag);
    check(entry, `snapshot has no ${tag} section`);
    check(
      entry.length === align8(PAGES_START + length),
      `${tag}: its directory's pages end at ${length}, its body is ${entry.length} bytes`,
    );
    return { start: PAGES_START, length };
  }

  /** The decoded section `tag`, read and verified once, then kept (in the SectionCache, while it has room). */
  section<T extends SectionTag>(tag: T): Promise<Decoded<T>> {
    return this.metered(tag, (own) =>
      this.cache
        ? this.cache.get(
            this.source.key,
            tag,
            (dependsOn) => own(() => this.load(tag, dependsOn)),
            this.toc.get(tag)?.length ?? 0,
          )
        : this.keep(tag, () => own(() => this.load(tag, () => {}))),
    );
  }

  /**
   * `length` bytes at `offset` inside section `tag`'s body, read on their own (or sliced from the
   * whole of a small section) and NOT verified: for sections whose parts carry their own checksums
   * (ROWP pages, checked against ROWD).
   */
  async readPart(tag: SectionTag, offset: number, length: number): Promise<Uint8Array> {
    const entry = this.toc.get(tag);
    check(entry, `snapshot has no ${tag} section`);
    check(
      offset >= 0 && length >= 0 && offset + length <= entry.length,
      `${tag}: a part [${offset}, ${offset + length}) lies outside the section (${entry.length} bytes)`,
    );
    if (!this.readsWhole(tag)) return this.read(entry.offset + offset, length);
    return (await this.wholeBody(tag)).slice(offset, offset + length);
  }

  /**
   * Starts reading `tag`'s body whole, when readPart takes its parts from the whole, without
   * waiting: an answer that will want some of its parts has them in the round it reads other things.
   */
  readWholeAhead(tag: SectionTag): void {
    if (this.readsWhole(tag)) waitUntil(this.wholeBody(tag));
  }

  /** Whether readPart slices `tag`'s parts from its whole body: a small section, or one read whole within its share of the budget. */
  private readsWhole(tag: SectionTag): boolean {
    const length = this.toc.get(tag)?.length ?? 0;
    const share = wholeShareOf(tag);
    // Tested apart: without a section cache the budget is infinite, and infinity times no share is NaN.
    return length <= WHOLE_READ_BYTES || (share > 0 && length <= this.budgetBytes * share);
  }

  private async wholeBody(tag: SectionTag): Promise<Uint8Array> {
    const entry = this.toc.get(tag)!;
    const whole = await this.remember(`${tag}#bytes`, async () => {
      const bytes = await this.read(entry.offset, entry.length);
      return { bytes, byteSize: bytes.byteLength };
    });
    return whole.bytes;
  }

  /**
   * A value derived from the file (a page of rows, an answer's text), kept like a section: in the SectionCache
   * under `name`, or for this Snapshot's lifetime without one. Its byteSize must not change, unless
   * `fixedSize` is false (a value that keeps what it decodes, re-measured like a section).
   */
  remember<T extends object>(name: string, load: () => Promise<T>, fixedSize = true): Promise<T> {
    return this.metered(name, (own) =>
      this.cache
        ? this.cache.get(this.source.key, name, () => own(load), 0, fixedSize)
        : this.keep(name, () => own(load)),
    );
  }

  /** Keeps `value`, which took much work to make (a deep walk's outcome), under `name` for `recall` (SectionCache.keepWorked). */
  keepWorked(name: string, value: Sized): void {
    if (this.cache) this.cache.keepWorked(this.source.key, name, value);
    else if (!this.remembered.has(name)) this.remembered.set(name, value);
  }

  /** What `remember(name, …)` keeps, if it is loaded already; else undefined. Synchronous: no promise per page. */
  recall<T extends object>(name: string): T | undefined {
    const kept = this.cache ? this.cache.peek<T>(this.source.key, name) : (this.remembered.get(name) as T | undefined);
    if (kept) currentStorageMeter()?.hit();
    return kept;
  }

  /** Whether `name` (a section's tag, or a name `remember` keeps under) is kept now: nothing is read, and no hit is counted (by the cache or the meter). */
  holds(name: string): boolean {
    return this.cache ? this.cache.holds(this.source.key, name) : this.remembered.has(name);
  }

  /** The byte budget decoded sections are kept under (infinite without a SectionCache: everything is kept). */
  get budgetBytes(): number {
    return this.cache?.budgetBytes ?? Number.POSITIVE_INFINITY;
  }

  /** How many reads of one invocation may wait on the source at once, if that is limited (ByteSource.connections). */
  get connections(): number | undefined {
    return this.source.connections;
  }

  /** Whether the file lists section `tag` (every section of the format is required: a file without one is refused when it is read). */
  has(tag: SectionTag): boolean {
    return this.toc.has(tag);
  }

  taxonomy(): Promise<Taxonomy> {
    return this.section("TAXO");
  }

  /** The number of keys of search index `tag`: its own, or its key directory's when its keys are paged. */
  async keyCount(tag: SearchIndexTag): Promise<number> {
    return (await this.section(keysCountedBy(tag))).keyCount;
  }

  /** Bytes the sections decoded so far occupy (with a SectionCache: those it still holds). */
  async loadedBytes(): Promise<number> {
    if (this.cache) return this.cache.bytesOf(this.source.key);
    let total = 0;
    for (const [tag, pending] of this.decoded) {
      const value = (await pending.catch(() => undefined)) as { byteSize?: number } | undefined;
      total += value?.byteSize ?? this.toc.get(tag)?.length ?? 0;
    }
    return total;
  }

  /**
   * `name` as `get` gives it (from the cache or loaded), noted on the request's meter: a hit when
   * it is kept already; else a miss, whose reads are metered as they are made when `get` has this
   * request load it (`own`), or whose wait is metered when `get` hands it another's load under way.
   */
  private metered<T>(name: string, get: (own: <V>(load: () => Promise<V>) => Promise<V>) => Promise<T>): Promise<T> {
    const meter = currentStorageMeter();
    if (!meter) return get((load) => load());
    // What the cache's own hit would do (count, touch), through recall: so a hit is known here.
    const kept = this.recall<T & object>(name);
    if (kept) return Promise.resolve(kept);
    meter.miss();
    let owned = false;
    const pending = get((load) => {
      owned = true;
      return load();
    });
    return owned ? pending : meter.waitFor(pending);
  }

  /** Without a SectionCache: `name` loaded once and kept for this Snapshot's lifetime. */
  private keep<T>(name: string, load: () => Promise<T>): Promise<T> {
    let pending = this.decoded.get(name) as Promise<T> | undefined;
    if (!pending) {
      pending = load();
      // A failed read (storage hiccup) is retried by the next request rather than remembered.
      pending.then(
        (value) => this.remembered.set(name, value),
        () => this.decoded.delete(name),
      );
      this.decoded.set(name, pending);
    }
    return pending;
  }

  /** `length` bytes at `offset` of the file: cut from its opening bytes when they hold them, else read. */
  private read(offset: number, length: number): Promise<Uint8Array> {
    if (offset + length <= this.opening.length) return Promise.resolve(this.opening.slice(offset, offset + length));
    // Only from a read of this invocation's: in workerd another request's I/O may never settle (SharedLoads).
    const owner = currentStorageMeter()?.invocation;
    const span = this.spans.find((s) => s.owner === owner && offset >= s.from && offset + length <= s.to);
    // Should the shared read fail, each section is read alone: it fails only if its own read does.
    if (span)
      return span.bytes.then(
        (bytes) => bytes.slice(offset - span.from, offset - span.from + length),
        () => sourceRead(this.source, offset, length),
      );
    return sourceRead(this.source, offset, length);
  }

  /** Reads, verifies and decodes `tag`; `dependsOn` hears of every section the decoder consults (and the value may hold). */
  private async load<T extends SectionTag>(tag: T, dependsOn: (tag: SectionTag) => void): Promise<Decoded<T>> {
    const entry = this.toc.get(tag);
    check(entry, `snapshot has no ${tag} section`);
    // What the decoder will ask for is read alongside, not after: one round trip for both.
    for (const other of consultedBy(tag, (t) => this.toc.has(t))) waitUntil(this.section(other));
    const body = await this.read(entry.offset, entry.length);
    verifySection(entry, body);
    const context: DecodeContext = {
      meta: this.meta,
      taxonomy: () => (dependsOn("TAXO"), this.section("TAXO")),
      keyCount: (index) => (dependsOn(keysCountedBy(index)), this.keyCount(index)),
    };
    return decodeSection(tag, body, context);
  }
}

/** A ByteSource over bytes already in memory (tests, `inspect`, freshly compiled snapshots). */
export function memorySource(bytes: Uint8Array, key = "memory"): ByteSource {
  return {
    key,
    size: bytes.length,
    async read(offset, length) {
      check(
        offset + length <= bytes.length,
        `read of ${length} bytes at ${offset} runs past the end (${bytes.length} bytes)`,
      );
      return bytes.slice(offset, offset + length);
    },
  };
}

/**
 * A ByteSource whose every read first waits `delayMs`, as a read of R2 behind a Worker does (tens
 * of ms), holding one of the invocation's WORKER_CONNECTIONS meanwhile: `appstruct serve
 * --read-latency-ms`, the Node counterpart of the worker's STORAGE_LATENCY_MS (DelayedStore).
 */
export function delayedSource(source: ByteSource, delayMs: number): ByteSource {
  // A timer of 0 ms still waits for the next turn of the event loop, about a millisecond in Node.
  if (delayMs <= 0) return source;
  return {
    key: source.key,
    size: source.size,
    connections: WORKER_CONNECTIONS,
    read: async (offset, length) => {
      await onConnection(() => new Promise((resolve) => setTimeout(resolve, delayMs)));
      return source.read(offset, length);
    },
  };
}

/** A ByteSource that counts the bytes and reads going through it: what a query costs in I/O (benchmarks, tests). */
export function countingSource(source: ByteSource): ByteSource & { bytesRead: number; reads: number } {
  const counted = {
    key: source.key,
    size: source.size,
    connections: source.connections,
    bytesRead: 0,
    reads: 0,
    read: (offset: number, length: number) => {
      counted.bytesRead += length;
      counted.reads++;
      return source.read(offset, length);
    },
  };
  return counted;
}
