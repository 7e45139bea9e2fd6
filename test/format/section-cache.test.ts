// @module SectionCache: S3-FIFO order and scan resistance, uses counted once a request, the byte budget, shared and failed loads, dependencies, growth, and query answers under a tiny budget.
import { describe, expect, it } from "vitest";
import { compileDocument } from "../../build/compile/compile-document.ts";
import { type FilterName, OPERATORS, type Operator, type SearchType } from "../../src/contract/params.ts";
import { sha256Hex } from "../../src/digests.ts";
import { ENTRY_BYTES, SectionCache } from "../../src/format/section-cache.ts";
import { SECTIONS, type SectionTag } from "../../src/format/sections.ts";
import { memorySource, Snapshot } from "../../src/format/snapshot.ts";
import { meteredRead, prefetch, StorageMeter } from "../../src/format/storage-meter.ts";
import { decodedStringsBytes } from "../../src/format/string-list.ts";
import { objectCallees } from "../../src/query/callees.ts";
import { objectCharacteristics } from "../../src/query/characteristics.ts";
import { findObjects } from "../../src/query/find-objects.ts";
import { levelGraph, levelGraphJson, levelNodes } from "../../src/query/levels.ts";
import { startEndPoints } from "../../src/query/points.ts";
import { collect } from "../../src/query/streamed-list.ts";
import petstoreV1 from "../fixtures/examples/petstore-v1.json";
import petstoreV2 from "../fixtures/examples/petstore-v2.json";

/** A value of a given size, whose size can change later (like StringList after all()). */
class Sized {
  readonly name: string;
  byteSize: number;
  constructor(name: string, byteSize: number) {
    this.name = name;
    this.byteSize = byteSize;
  }
}

/** Sizes as the values give them: these tests weigh entries exactly, without each entry's own cost. */
const EXACT = { entryBytes: 0 };

/**
 * A cache plus a loader that counts its calls per key. Its loads read nothing: in S3-FIFO's own
 * order (no request's first reads skip probation), as the tests of that order want.
 */
function harness(budget: number) {
  const cache = new SectionCache(budget, { ...EXACT, firstReadsBytes: 0 });
  const loads = new Map<string, number>();
  const get = (tag: string, size: number, snapshot = "s") =>
    cache.get(snapshot, tag, async () => {
      loads.set(`${snapshot}/${tag}`, (loads.get(`${snapshot}/${tag}`) ?? 0) + 1);
      return new Sized(tag, size);
    });
  return { cache, loads, get };
}

/** What loads into `cache` entry `tag` (100 bytes) by a read of `bytes` bytes, metered as the request's. */
const readingLoader = (cache: SectionCache) => (tag: string, bytes: number) =>
  cache.get("s", tag, async () => {
    await meteredRead(Promise.resolve(), bytes);
    return new Sized(tag, 100);
  });

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe("SectionCache", () => {
  it("lends part of its budget to work beside it: it keeps to the rest while the work runs, all of it after", async () => {
    const { cache, get } = harness(1000);
    for (let i = 0; i < 10; i++) await get(`E${i}`, 100);
    expect(cache.stats().bytes).toBe(1000);
    const during: number[] = [];
    const answer = await cache.lend(600, async () => {
      during.push(cache.stats().bytes);
      // Entries loaded meanwhile keep to the rest too, and so does a second lend beside the first.
      for (let i = 10; i < 14; i++) await get(`E${i}`, 100);
      during.push(cache.stats().bytes);
      await cache.lend(300, async () => during.push(cache.stats().bytes));
      during.push(cache.stats().bytes);
      return "done";
    });
    expect(answer).toBe("done");
    expect(during).toEqual([400, 400, 100, 100]);
    for (let i = 20; i < 26; i++) await get(`E${i}`, 100);
    expect(cache.stats().bytes).toBe(700);
    // Lent more than it has, it keeps nothing but what an answer holds; a failing work gives it back too.
    await expect(
      cache.lend(5000, async () => {
        expect(cache.stats().bytes).toBe(0);
        await get("X", 100);
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    for (let i = 30; i < 40; i++) await get(`E${i}`, 100);
    expect(cache.stats().bytes).toBe(1000);
  });

  it("moves an entry used again while in the small queue to main; an unused one leaves first, and comes back into main", async () => {
    // A budget of 1000: the small queue's share is 100, one entry of 100.
    const { cache, loads, get } = harness(1000);
    const hot = ["H0", "H1", "H2", "H3", "H4"];
    const cold = ["C5", "C6", "C7", "C8", "C9"];
    for (const tag of [...hot, ...cold]) await get(tag, 100); // 1000: all in the small queue
    for (const tag of hot) await get(tag, 100); // used again
    await get("N", 100); // over budget: H0–H4 move to main; C5, the oldest unused, leaves (a ghost)
    expect(cache.stats()).toMatchObject({ bytes: 1000, entries: 10, hits: 5, misses: 11, evictions: 1 });
    await get("C5", 100); // loaded again, from its ghost into main; C6 leaves the small queue
    expect(loads.get("s/C5")).toBe(2);
    for (const tag of hot) await get(tag, 100);
    for (const tag of hot) expect(loads.get(`s/${tag}`), tag).toBe(1);
    await get("C6", 100);
    expect(loads.get("s/C6")).toBe(2);
    expect(cache.stats()).toMatchObject({ bytes: 1000, entries: 10, evictions: 3 });
  });

  it("keeps a worked-out value (keepWorked) in main, where a stream of entries used once does not push it out, and never over an entry kept", async () => {
    // A budget of 1000: the small queue's share is 100, one entry of 100.
    const { cache, get } = harness(1000);
    cache.keepWorked("s", "walk", new Sized("walk", 100));
    await get("loaded", 100);
    for (let i = 0; i < 30; i++) await get(`once ${i}`, 100);
    expect(cache.holds("s", "walk")).toBe(true);
    expect(cache.holds("s", "loaded")).toBe(false);
    expect(cache.peek<Sized>("s", "walk")?.name).toBe("walk");
    // Kept already: a second value under the same name does not replace it.
    cache.keepWorked("s", "walk", new Sized("another walk", 100));
    expect(cache.peek<Sized>("s", "walk")?.name).toBe("walk");
  });

  it("counts the uses of one request as one: an entry it loaded and read again leaves the small queue unused", async () => {
    // A budget of 1000: the small queue's share is 100, one entry of 100.
    const { cache, loads, get } = harness(1000);
    const tags = ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J"];
    // One request loads A and reads it twice more (a candidate checked on its row, then the row listed).
    await new StorageMeter().measure(async () => {
      for (let i = 0; i < 3; i++) await get("A", 100);
    });
    // Another request reads B after loading it, and a third reads B: B has served two requests.
    await new StorageMeter().measure(() => get("B", 100));
    await new StorageMeter().measure(() => get("B", 100));
    for (const tag of tags.slice(2)) await new StorageMeter().measure(() => get(tag, 100)); // 1000
    await new StorageMeter().measure(() => get("K", 100)); // over budget: B moves to main, A leaves
    expect(cache.holds("s", "A")).toBe(false);
    expect(cache.holds("s", "B")).toBe(true);
    expect(loads.get("s/A")).toBe(1);
    // Outside any request every use counts.
    const outside = harness(1000);
    for (let i = 0; i < 2; i++) await outside.get("A", 100);
    for (const tag of [...tags.slice(1), "K"]) await outside.get(tag, 100);
    expect(outside.cache.holds("s", "A")).toBe(true);
  });

  it("loads what a request reads among its first FIRST_READS_BYTES into the first-reads queue; what it loads after, and larger entries, on probation", async () => {
    // A budget of 1000: the small queue's share is 100, one entry of 100. Below 250 bytes read, a request loads into the first-reads queue.
    const cache = new SectionCache(1000, { ...EXACT, firstReadsBytes: 250 });
    const load = readingLoader(cache);
    const queueOf = (tag: string) => cache.holdings().find((h) => h.tag === tag)?.queue;
    // One request reads A and B (100 bytes each: 200 read), then C (300): C is past its first reads.
    await new StorageMeter().measure(async () => {
      for (const tag of ["A", "B", "C"]) await load(tag, 100);
    });
    expect(["A", "B", "C"].map(queueOf)).toEqual(["first reads", "first reads", "small"]);
    // What a request past its first reads prefetches is metered as a request of its own: its first small load is a first read.
    await new StorageMeter().measure(async () => {
      await meteredRead(Promise.resolve(), 300);
      prefetch(() => load("P", 100));
    });
    await new Promise((settled) => setTimeout(settled, 10));
    expect(queueOf("P")).toBe("first reads");
    // A request of one large read: what it loads goes on probation, as does all that loads outside a request.
    await new StorageMeter().measure(() => load("D", 400));
    await load("E", 10);
    expect(["D", "E"].map(queueOf)).toEqual(["small", "small"]);
    // Made of pages already held, a value loads within the first reads (none): a filter's matches;
    // unless it is as large as the first reads themselves (a broad filter's matches, a section).
    await new StorageMeter().measure(async () => {
      await cache.get("s", "F", async () => new Sized("F", 100));
      await cache.get("s", "G", async () => new Sized("G", 250));
    });
    expect(["F", "G"].map(queueOf)).toEqual(["first reads", "small"]);
    // A scan of entries used once then flushes the small queue, and leaves the first reads alone.
    for (let i = 0; i < 10; i++) await new StorageMeter().measure(() => load(`S${i}`, 1000));
    expect(["A", "B", "F", "P"].every((tag) => cache.holds("s", tag))).toBe(true);
    expect(["C", "D", "E", "G"].some((tag) => cache.holds("s", tag))).toBe(false);
  });

  it("keeps a request's first reads in a queue of their own, which entries moving to main do not push out", async () => {
    // A budget of 1000: the first-reads queue's share is 125, one entry of 100; main takes what is left.
    const cache = new SectionCache(1000, { ...EXACT, firstReadsBytes: 250 });
    const load = readingLoader(cache);
    await new StorageMeter().measure(() => load("L", 100));
    expect(cache.holdings().find((h) => h.tag === "L")?.queue).toBe("first reads");
    // Twenty entries loaded past a request's first reads, each used again by another request: all move
    // to main, twice what the budget holds, and main evicts its own.
    for (let i = 0; i < 20; i++) {
      await new StorageMeter().measure(async () => {
        await meteredRead(Promise.resolve(), 300);
        await load(`M${i}`, 100);
      });
      await new StorageMeter().measure(() => load(`M${i}`, 100));
    }
    expect(cache.holds("s", "L")).toBe(true);
    const queues = cache.holdings().map((h) => h.queue);
    expect(queues.filter((q) => q === "main").length).toBeGreaterThanOrEqual(7);
    expect(cache.holds("s", "M0")).toBe(false);
  });

  it("main evicts its oldest entry unless used since it was queued: that one is queued again, one use forgotten", async () => {
    const { cache, loads, get } = harness(1000);
    const tags = ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J"];
    for (const tag of tags) await get(tag, 100);
    for (const tag of tags) await get(tag, 100);
    await get("A", 100); // uses in the small queue only decide the move to main: there they are forgotten
    await get("A", 100);
    await get("K", 100); // A–J move to main, unused there; K alone fits the small queue's share: A goes
    expect(loads.get("s/A")).toBe(1);
    expect(cache.peek("s", "A")).toBeUndefined();
    await get("C", 100); // used in main
    await get("D", 100);
    await get("L", 100); // K leaves the small queue for the ghosts
    await get("M", 100); // L too
    await get("K", 100); // back, into main: main's oldest, B, unused, goes
    expect(cache.peek("s", "B")).toBeUndefined();
    await get("L", 100); // into main: C and D are spared (queued again), E goes
    expect(cache.peek("s", "E")).toBeUndefined();
    await get("C", 100);
    await get("D", 100);
    expect([loads.get("s/C"), loads.get("s/D"), loads.get("s/K"), loads.get("s/L")]).toEqual([1, 1, 2, 2]);
    expect(cache.stats()).toMatchObject({ bytes: 1000, entries: 10, evictions: 5 });
  });

  it("a scan of many entries used once does not evict a small hot set in use, where LRU would", async () => {
    const budget = 10_000;
    const { cache, loads, get } = harness(budget);
    const hot = Array.from({ length: 20 }, (_, i) => `hot${i}`);
    for (const tag of hot) await get(tag, 100);
    for (const tag of hot) await get(tag, 100);
    // 4000 entries used once, 40 times the budget; each hot entry is used again every 200 of them
    // (20 000 bytes: twice the budget, so an LRU would have evicted it by then).
    const sequence: string[] = [];
    for (let i = 0; i < 4000; i++) {
      sequence.push(`scan${i}`);
      if (i % 10 === 9) sequence.push(hot[((i / 10) % hot.length) | 0]);
    }
    for (const tag of sequence) await get(tag, 100);
    for (const tag of hot) expect(loads.get(`s/${tag}`), tag).toBe(1);
    expect(cache.stats().bytes).toBeLessThanOrEqual(budget);
    expect(cache.stats().evictions).toBeGreaterThan(3900);

    // The same sequence through a plain LRU of the same budget loads every hot entry again.
    const lru = new Map<string, number>();
    const lruLoads = new Map<string, number>();
    for (const tag of [...hot, ...hot, ...sequence]) {
      if (lru.delete(tag)) {
        lru.set(tag, 100);
        continue;
      }
      lruLoads.set(tag, (lruLoads.get(tag) ?? 0) + 1);
      lru.set(tag, 100);
      for (const oldest of lru.keys()) {
        if (lru.size * 100 <= budget) break;
        lru.delete(oldest);
      }
    }
    for (const tag of hot) expect(lruLoads.get(tag), tag).toBeGreaterThan(10);
  });

  it("tells whether it holds an entry without counting a hit or moving it up", async () => {
    const { cache, get } = harness(300);
    expect(cache.holds("s", "A")).toBe(false);
    await get("A", 100);
    await get("B", 100);
    const { hits } = cache.stats();
    expect([cache.holds("s", "A"), cache.holds("s", "B"), cache.holds("t", "A")]).toEqual([true, true, false]);
    expect(cache.stats().hits).toBe(hits);
    // A, not used since it came in, is still the first to leave: asking whether it is held did not move it.
    await get("C", 200);
    expect([cache.holds("s", "A"), cache.holds("s", "B")]).toEqual([false, true]);
  });

  it("keys entries by snapshot and tag", async () => {
    const { cache, loads, get } = harness(1000);
    const a = await get("TYPE", 10, "sha-a");
    const b = await get("TYPE", 10, "sha-b");
    expect(a).not.toBe(b);
    expect(await get("TYPE", 10, "sha-a")).toBe(a);
    expect([loads.get("sha-a/TYPE"), loads.get("sha-b/TYPE")]).toEqual([1, 1]);
    expect(cache.bytesOf("sha-a")).toBe(10);
    expect(cache.stats()).toMatchObject({ bytes: 20, entries: 2 });
  });

  it("holds the sum of sizes within the budget after every insertion, except for a single oversized section", async () => {
    const budget = 1000;
    const { cache, get } = harness(budget);
    let seed = 7;
    const random = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    let oversized = 0;
    for (let i = 0; i < 2000; i++) {
      const tag = `T${Math.floor(random() * 40)}`;
      // Sizes depend on the tag only, as a section's would; a few exceed the budget by themselves.
      const size = tag === "T7" || tag === "T31" ? 1500 : (Number(tag.slice(1)) * 37) % 400;
      const value = await get(tag, size);
      expect(value.byteSize).toBe(size);
      const s = cache.stats();
      if (size > budget) {
        oversized++;
        expect(s).toMatchObject({ entries: 1, bytes: size });
      } else expect(s.bytes).toBeLessThanOrEqual(budget);
    }
    const s = cache.stats();
    expect(oversized).toBeGreaterThan(50);
    expect(s.evictions).toBeGreaterThan(100);
    expect(s.hits + s.misses).toBe(2000);
    expect(s.hits).toBeGreaterThan(0);
  });

  it("returns a section larger than the budget and keeps it only until the next operation on another key", async () => {
    const { cache, loads, get } = harness(100);
    await get("small", 40);
    const big = await get("big", 500);
    expect(big.byteSize).toBe(500);
    expect(cache.stats()).toMatchObject({ bytes: 500, entries: 1, evictions: 1 });
    expect(await get("big", 500)).toBe(big); // still there for the same key
    await get("other", 10);
    expect(cache.stats()).toMatchObject({ bytes: 10, entries: 1, evictions: 2 });
    await get("big", 500);
    expect(loads.get("s/big")).toBe(2);
  });

  it("a budget of 0 keeps only the section just handed out", async () => {
    const { cache, get } = harness(0);
    await get("A", 10);
    await get("B", 20);
    expect(cache.stats()).toMatchObject({ bytes: 20, entries: 1, misses: 2, evictions: 1 });
  });

  it("sizes a value without byteSize by the section's stored length", async () => {
    const cache = new SectionCache(100, EXACT);
    await cache.get("s", "A", async () => ({ plain: true }), 60);
    await cache.get("s", "B", async () => ({ plain: true }), 30);
    expect(cache.stats()).toMatchObject({ bytes: 90, entries: 2 });
    await cache.get("s", "C", async () => ({ plain: true }), 30);
    expect(cache.stats()).toMatchObject({ bytes: 60, entries: 2, evictions: 1 });
  });

  it("shares one load between concurrent gets of the same key", async () => {
    const cache = new SectionCache(1000, EXACT);
    const gate = deferred<Sized>();
    let calls = 0;
    const load = () => (calls++, gate.promise);
    const first = cache.get("s", "X", load);
    const second = cache.get("s", "X", load);
    const other = cache.get("s", "Y", async () => new Sized("Y", 5));
    gate.resolve(new Sized("X", 50));
    const [a, b] = await Promise.all([first, second, other]);
    expect(a).toBe(b);
    expect(calls).toBe(1);
    expect(await cache.get("s", "X", load)).toBe(a);
    expect(calls).toBe(1);
    expect(cache.stats()).toMatchObject({ bytes: 55, entries: 2, hits: 2, misses: 2 });
  });

  it("does not cache a failed load, nor hand the failure on: a joiner loads for itself, the next get loads again", async () => {
    const cache = new SectionCache(1000, EXACT);
    const gate = deferred<Sized>();
    let calls = 0;
    const first = cache.get("s", "X", () => (calls++, gate.promise));
    const second = cache.get("s", "X", async () => (calls++, new Sized("X", 5)));
    gate.reject(new Error("storage hiccup"));
    await expect(first).rejects.toThrow("storage hiccup");
    expect((await second).byteSize).toBe(5);
    expect(calls).toBe(2);
    expect(cache.stats()).toMatchObject({ bytes: 5, entries: 1, misses: 2 });
    const failed = cache.get("s", "Y", () => Promise.reject(new Error("gone")));
    await expect(failed).rejects.toThrow("gone");
    expect((await cache.get("s", "Y", async () => new Sized("Y", 7))).byteSize).toBe(7);
  });

  it("shares a load in flight until its deadline, then loads for itself: a dead load holds no one past it", async () => {
    const cache = new SectionCache(1000, { ...EXACT, loadDeadlineMs: () => 50 });
    // A load that never settles: what a cancelled request's read becomes in workerd.
    void cache.get("s", "X", () => new Promise<Sized>(() => {}));
    let joinerLoads = 0;
    // Young: the second caller joins and waits (the 50 ms of the deadline), then reads for itself.
    const started = Date.now();
    const joiner = cache.get("s", "X", async () => (joinerLoads++, new Sized("X", 3)));
    expect((await joiner).byteSize).toBe(3);
    expect(joinerLoads).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);

    // Past the deadline on the cache's clock, a newcomer does not wait at all.
    let clock = 0;
    const clocked = new SectionCache(1000, { ...EXACT, now: () => clock, loadDeadlineMs: () => 50 });
    void clocked.get("s", "Z", () => new Promise<Sized>(() => {}));
    clock = 2000;
    let newcomerLoads = 0;
    expect((await clocked.get("s", "Z", async () => (newcomerLoads++, new Sized("Z", 4)))).byteSize).toBe(4);
    expect(newcomerLoads).toBe(1);
  });

  it("joiners of a live load share its value: one load for many callers", async () => {
    const cache = new SectionCache(1000, EXACT);
    const gate = deferred<Sized>();
    let calls = 0;
    const all = Array.from({ length: 20 }, () => cache.get("s", "X", () => (calls++, gate.promise)));
    gate.resolve(new Sized("X", 9));
    for (const value of await Promise.all(all)) expect(value.byteSize).toBe(9);
    expect(calls).toBe(1);
    expect(cache.stats()).toMatchObject({ hits: 19, misses: 1, entries: 1 });
  });

  it("re-measures an entry that grew after it was handed out, before the next eviction decision", async () => {
    const { cache, get } = harness(300);
    const a = await get("A", 100);
    await get("B", 100);
    a.byteSize = 250; // as StringList.all() does to a text column
    expect(cache.stats()).toMatchObject({ bytes: 350, entries: 2 });
    await get("B", 100); // a hit: A, the oldest entry not used since, goes
    expect(cache.stats()).toMatchObject({ bytes: 100, entries: 1, evictions: 1 });
  });

  it("re-measures what grew at a request's first insertion, not at each of its insertions", async () => {
    const { cache, get } = harness(300);
    const a = await new StorageMeter().measure(() => get("A", 100));
    await new StorageMeter().measure(async () => {
      await get("B", 50);
      a.byteSize = 250;
      // Counted at 100 still: B and C fit beside it.
      await get("C", 50);
      expect([cache.holds("s", "A"), cache.holds("s", "B"), cache.holds("s", "C")]).toEqual([true, true, true]);
    });
    // The next request's first insertion counts A's 250 bytes: A, the oldest, goes.
    await new StorageMeter().measure(() => get("D", 50));
    expect(cache.holds("s", "A")).toBe(false);
    expect(cache.stats()).toMatchObject({ bytes: 150, entries: 3 });
  });

  it("peek answers a kept entry synchronously as a hit that counts as a use, and nothing for others", async () => {
    const { cache, get } = harness(250);
    await get("A", 100);
    await get("B", 100);
    expect(cache.peek("s", "C")).toBeUndefined();
    expect(cache.peek<Sized>("s", "A")?.name).toBe("A"); // a use: A moves to main when the small queue overflows
    await get("C", 100); // over budget: B, the oldest unused entry, goes
    expect(cache.peek("s", "B")).toBeUndefined();
    expect(cache.stats()).toMatchObject({ entries: 2, hits: 1, evictions: 1 });
  });

  it("measures a fixed-size entry (a page) once, and still counts it against the budget", async () => {
    const cache = new SectionCache(250, EXACT);
    let measured = 0;
    const page = (size: number) => ({
      get byteSize() {
        measured++;
        return size;
      },
    });
    for (let p = 0; p < 3; p++) await cache.get("s", `P#${p}`, async () => page(100), 0, true);
    expect(measured).toBe(3); // once each, not again at every later insertion
    expect(cache.stats()).toMatchObject({ bytes: 200, entries: 2, evictions: 1 });
    await cache.get("s", "P#2", async () => page(100), 0, true); // a hit: not re-measured
    expect(measured).toBe(3);
  });

  it("uses a section's dependencies whenever it is used, and evicts dependents with their dependency", async () => {
    const cache = new SectionCache(1000, EXACT);
    const loads: string[] = [];
    const get = (tag: string, size: number, deps: string[] = []): Promise<Sized> =>
      cache.get("s", tag, async (dependsOn) => {
        loads.push(tag);
        for (const d of deps) dependsOn(d), await get(d, 100);
        return new Sized(tag, size);
      });
    await get("LGRA", 50, ["TAXO"]); // TAXO 100, then LGRA 50, in the small queue: TAXO used by LGRA's decoder
    await get("LGRA", 50, ["TAXO"]); // a use of LGRA is a use of TAXO too
    for (let p = 0; p < 9; p++) await get(`P${p}`, 100);
    // Over budget: TAXO and LGRA, used, move to main (never asked for, TAXO goes there too); P0 goes.
    expect(cache.stats()).toMatchObject({ bytes: 950, entries: 10, evictions: 1 });
    for (let p = 1; p < 9; p++) await get(`P${p}`, 100);
    // P1–P8, used, move to main behind them; main's oldest, TAXO, goes, and LGRA, which holds it, with it.
    await get("Q", 100);
    expect(cache.stats()).toMatchObject({ bytes: 900, entries: 9, evictions: 3 });
    expect(cache.peek("s", "LGRA")).toBeUndefined();
    await get("LGRA", 50, ["TAXO"]); // both loaded again; Q, unused in the small queue, goes
    expect(loads.filter((t) => t === "TAXO" || t === "LGRA")).toEqual(["LGRA", "TAXO", "LGRA", "TAXO"]);
    expect(cache.peek("s", "Q")).toBeUndefined();
    expect(cache.bytesOf("s")).toBe(950);
  });

  it("returns but does not keep a section whose dependency was evicted while it loaded", async () => {
    const cache = new SectionCache(100, EXACT);
    const gate = deferred<void>();
    const taxonomy = cache.get("s", "TAXO", async () => new Sized("TAXO", 60));
    const graphs = cache.get("s", "LGRA", async (dependsOn) => {
      dependsOn("TAXO");
      const levels = await taxonomy;
      await gate.promise;
      return new Sized(`LGRA over ${levels.name}`, 30);
    });
    await taxonomy;
    await cache.get("s", "OBJC", async () => new Sized("OBJC", 90)); // evicts TAXO
    gate.resolve();
    expect((await graphs).name).toBe("LGRA over TAXO");
    expect(cache.stats()).toMatchObject({ entries: 1, bytes: 90 });
  });

  it("weighs each entry its value's size plus what keeping it costs, ENTRY_BYTES unless told otherwise", async () => {
    const cache = new SectionCache(10 * ENTRY_BYTES);
    await cache.get("s", "ROWP#1", async () => new Sized("page", 1000), 0, true);
    await cache.get("s", "OBJC", async () => ({}), 500);
    expect(cache.stats()).toMatchObject({ entries: 2, bytes: 1000 + 500 + 2 * ENTRY_BYTES });
    expect(cache.holdings().map((h) => h.bytes)).toEqual([1000 + ENTRY_BYTES, 500 + ENTRY_BYTES]);
    // Ten entries of nothing fill the budget: the eleventh pushes the oldest out.
    const tiny = new SectionCache(10 * ENTRY_BYTES);
    for (let i = 0; i < 11; i++) await tiny.get("s", `ROWP#${i}`, async () => new Sized("empty", 0), 0, true);
    expect(tiny.stats()).toMatchObject({ entries: 10, bytes: 10 * ENTRY_BYTES, evictions: 1 });
    expect(tiny.holds("s", "ROWP#0")).toBe(false);
    const told = new SectionCache(1000, { entryBytes: 10 });
    await told.get("s", "OBJC", async () => new Sized("OBJC", 90));
    expect(told.stats().bytes).toBe(100);
  });

  it("refuses a negative or NaN budget, entry cost or first reads", () => {
    expect(() => new SectionCache(-1)).toThrow(RangeError);
    expect(() => new SectionCache(Number.NaN)).toThrow(RangeError);
    expect(() => new SectionCache(100, { entryBytes: -1 })).toThrow(/entry's own cost .* not -1/);
    expect(() => new SectionCache(100, { entryBytes: Number.POSITIVE_INFINITY })).toThrow(RangeError);
    expect(() => new SectionCache(100, { firstReadsBytes: Number.NaN })).toThrow(/first reads .* not NaN/);
  });
});

describe("Snapshot over a SectionCache", () => {
  const v1 = compileDocument(petstoreV1).bytes;
  const v2 = compileDocument(petstoreV2).bytes;
  const tags = Object.keys(SECTIONS) as SectionTag[];

  /** A snapshot opened as the worker does: keyed by its content address, sections in `cache`. */
  const open = async (bytes: Uint8Array, cache?: SectionCache) =>
    Snapshot.open(memorySource(bytes, await sha256Hex(bytes)), { sections: cache });

  it("without a cache, keeps every section decoded, as before", async () => {
    const snapshot = await open(v2);
    for (const tag of tags) expect(await snapshot.section(tag)).toBe(await snapshot.section(tag));
    expect(await snapshot.loadedBytes()).toBeGreaterThan(0);
  });

  it("shares decoded sections between snapshots of the same content address, and counts the strings they decode", async () => {
    const cache = new SectionCache(64 * 1024 * 1024, EXACT);
    const a = await open(v2, cache);
    const b = await open(v2, cache);
    const types = await a.section("TYPE");
    expect(await b.section("TYPE")).toBe(types);
    const stored = types.byteSize;
    expect(cache.stats()).toMatchObject({ entries: 1, bytes: stored });
    const { dictionary } = types;
    const utf8 = new TextEncoder().encode(dictionary.all().join("")).length;
    expect(cache.stats().bytes).toBe(stored + decodedStringsBytes(dictionary.length, utf8));
    expect(await a.loadedBytes()).toBe(cache.stats().bytes);
    // A search index counts its posting arrays and its keys.
    const xtyp = await a.section("XTYP");
    expect(xtyp.byteSize).toBeGreaterThan(
      xtyp.offsets.byteLength + xtyp.postings.byteLength + xtyp.byReversed.byteLength,
    );
    expect(cache.stats()).toMatchObject({ entries: 2, bytes: types.byteSize + xtyp.byteSize });
  });

  it("keeps each level graph's JSON text once made, weighed in UTF-8, and makes it again once evicted", async () => {
    const cache = new SectionCache(64 * 1024 * 1024, EXACT);
    const snapshot = await open(v2, cache);
    const reference = await open(v2);
    const utf8 = async (level: number) => new TextEncoder().encode(JSON.stringify(await levelGraph(reference, level)));
    for (let level = 1; level <= 5; level++) {
      const json = await levelGraphJson(snapshot, level);
      expect(json).toEqual(await utf8(level));
      const kept = cache.holdings().find((h) => h.tag === `level ${level} graph JSON`);
      expect(kept?.bytes).toBe(json.byteLength);
      const misses = cache.stats().misses;
      expect(await levelGraphJson(snapshot, level)).toBe(json);
      expect(cache.stats().misses, "asked again, nothing is loaded or made").toBe(misses);
    }
    // With no room, each answer is made again, and still the same.
    const none = new SectionCache(0, EXACT);
    const squeezed = await open(v2, none);
    for (let round = 0; round < 2; round++) expect(await levelGraphJson(squeezed, 5)).toEqual(await utf8(5));
    expect(none.stats().entries).toBeLessThanOrEqual(3);
  });

  it("keeps the matches of a contains or an endswith, weighed by their ranks, so that the filter asked again computes nothing", async () => {
    const cache = new SectionCache(64 * 1024 * 1024, EXACT);
    const snapshot = await open(v2, cache);
    const reference = await open(v2);
    const find = async (s: Snapshot, name: string, operator: Operator, skip = 0) => {
      const answer = await findObjects(s, { filters: { name: [name] }, operator, searchtype: "all", skip, limit: 2 });
      return { total: answer.totalObjects, objects: await collect(answer.objects) };
    };
    const kept = () => cache.holdings().filter((h) => h.tag.startsWith("XNAM ") || / (contains|endswith) /.test(h.tag));
    for (const [name, operator] of [
      ["owner", "contains"],
      ["er", "contains"],
      ["owners", "endswith"],
    ] as const) {
      const first = await find(snapshot, name, operator);
      expect(first).toEqual(await find(reference, name, operator));
      const entry = kept().find((h) => h.tag.endsWith(`${operator} ${JSON.stringify(name)}`));
      expect(entry, `${operator} ${name} kept`).toBeDefined();
      expect(entry!.bytes).toBe(4 * first.total);
      const misses = cache.stats().misses;
      // Asked again, and for another page: the kept ranks answer both.
      expect(await find(snapshot, name, operator)).toEqual(first);
      expect(await find(snapshot, name, operator, 1)).toEqual(await find(reference, name, operator, 1));
      expect(cache.stats().misses, "nothing loaded or made again").toBe(misses);
    }
    // Values a range of keys answers are not kept.
    const before = kept().length;
    await find(snapshot, "owner", "startswith");
    await find(snapshot, "findOwners", "equals");
    expect(kept().length).toBe(before);
  });

  it("reloads a section and what it depends on correctly after eviction (LGRA over TAXO, TNAM over DNAM)", async () => {
    const cache = new SectionCache(0, EXACT);
    const snapshot = await open(v2, cache);
    const reference = await open(v2);
    for (let round = 0; round < 3; round++)
      for (const tag of tags) {
        const [section, expected] = await Promise.all([snapshot.section(tag), reference.section(tag)]);
        expect(section.constructor).toBe(expected.constructor);
      }
    expect(cache.stats().misses).toBeGreaterThan(3 * tags.length);
    // Graphs and name matches from freshly reloaded sections equal those of the uncached snapshot.
    for (let level = 1; level <= 5; level++)
      expect(await levelGraph(snapshot, level)).toEqual(await levelGraph(reference, level));
    const query = {
      filters: { name: ["owner"] },
      operator: "contains" as const,
      searchtype: "all" as const,
      skip: 0,
      limit: 100,
    };
    expect(await findObjects(snapshot, query).then(collect)).toEqual(await findObjects(reference, query).then(collect));
  });

  describe("query answers with a 1 KB budget equal those without a budget", async () => {
    const budget = 1024;
    const sizes = await (async () => {
      const s = await open(v2);
      return tags.map((t) => s.toc.get(t)!.length);
    })();
    const cache = new SectionCache(budget, EXACT);
    const cached = { v1: await open(v1, cache), v2: await open(v2, cache) };
    const plain = { v1: await open(v1), v2: await open(v2) };

    /** The answer, or the error it failed with. */
    const settle = async (run: () => Promise<unknown>) => {
      try {
        return { answer: await run() };
      } catch (error) {
        return { error: `${(error as Error).name}: ${(error as Error).message}` };
      }
    };
    type Snapshots = typeof plain;
    const queries: [string, (s: Snapshots) => Promise<unknown>][] = [];

    const documents = petstoreV2 as unknown as { objects: Record<string, unknown>[]; postIts: { title: string }[] };
    const ids = [...documents.objects.map((o) => o.id as string), "999", "0302"];
    const fieldOf: Record<FilterName, (o: Record<string, unknown>) => string[]> = {
      name: (o) => [o.name as string],
      fullname: (o) => [o.fullName as string],
      type: (o) => [o.type as string],
      filepath: (o) => (o.filePath ? [o.filePath as string] : []),
      mangling: (o) => (o.mangling ? [o.mangling as string] : []),
      annotation: (o) => (o.annotations as string[] | undefined) ?? [],
      tag: (o) => (o.tags as string[] | undefined) ?? [],
      "post-it": () => documents.postIts.map((p) => p.title),
    };
    for (const [filter, values] of Object.entries(fieldOf) as [
      FilterName,
      (o: Record<string, unknown>) => string[],
    ][]) {
      const all = [...new Set(documents.objects.flatMap(values))];
      const probes = [
        ...new Set([
          ...all.slice(0, 3),
          ...all.slice(0, 3).map((v) => v.slice(0, 3)),
          ...all.slice(0, 3).map((v) => v.slice(-4).toUpperCase()),
          "zzz-none",
        ]),
      ];
      for (const operator of OPERATORS)
        for (const value of probes)
          queries.push([
            `find ${filter} ${operator} ${value}`,
            (s) =>
              findObjects(s.v2, {
                filters: { [filter]: [value] },
                operator,
                searchtype: "all",
                skip: 0,
                limit: 50,
              }).then(collect),
          ]);
    }
    const combos: [Partial<Record<FilterName, string[]>>, Operator, SearchType, number, number][] = [
      [{}, "contains", "all", 0, 100],
      [{}, "contains", "external", 0, 100],
      [{}, "contains", "internal", 2, 3],
      [{ name: ["owner", "pet"], type: ["java"] }, "contains", "all", 0, 100],
      [{ name: ["o"], filepath: ["src/"] }, "startswith", "internal", 0, 100],
      [{ fullname: ["org.pets"], annotation: ["@"] }, "startswith", "all", 1, 2],
      [{ tag: ["search"], name: [".jsp"] }, "endswith", "all", 0, 10],
      [{ "post-it": ["slow"], type: ["Java Method", "SQL Table"] }, "equals", "all", 0, 10],
      [{ mangling: ["("], name: ["find"] }, "contains", "external", 0, 10],
    ];
    for (const [filters, operator, searchtype, skip, limit] of combos)
      queries.push([
        `find ${JSON.stringify(filters)} ${operator} ${searchtype} ${skip}+${limit}`,
        (s) => findObjects(s.v2, { filters, operator, searchtype, skip, limit }).then(collect),
      ]);
    const previousOf = (s: Snapshots) => ({ key: s.v1.source.key, open: async () => s.v1 });
    for (const id of ids) {
      queries.push([`characteristics ${id} against v1`, (s) => objectCharacteristics(s.v2, id, previousOf(s))]);
      queries.push([`characteristics ${id} alone`, (s) => objectCharacteristics(s.v2, id, null)]);
      for (const includeEscalated of [false, true])
        for (const withParent of [false, true])
          queries.push([
            `callees ${id} ${includeEscalated} ${withParent}`,
            (s) => objectCallees(s.v2, id, { includeEscalated, withParent }).then(collect),
          ]);
      for (const hops of [1, 2, 5, 32])
        queries.push([`points ${id} ${hops}`, (s) => startEndPoints(s.v2, id, hops).then(collect)]);
    }
    for (let level = 1; level <= 6; level++) {
      queries.push([`graph ${level}`, (s) => levelGraph(s.v2, level)]);
      for (const filter of [{}, { name: "s" }, { name: "SERV" }, { id: 0 }, { id: 1, name: "e" }, { name: "none" }])
        queries.push([
          `nodes ${level} ${JSON.stringify(filter)}`,
          (s) => levelNodes(s.v2, level, filter).then(collect),
        ]);
    }

    it("the budget is smaller than the sections, so they are evicted constantly", () => {
      expect(sizes.reduce((a, b) => a + b, 0)).toBeGreaterThan(4 * budget);
      expect(queries.length).toBeGreaterThan(300);
    });

    it("every query, twice through (cold, then with whatever the cache kept)", async () => {
      let found = 0;
      let failed = 0;
      for (let round = 0; round < 2; round++)
        for (const [name, run] of queries) {
          const [got, expected] = [await settle(() => run(cached)), await settle(() => run(plain))];
          expect(got, name).toEqual(expected);
          if ("error" in expected) failed++;
          else if (name.startsWith("find") && (expected.answer as { totalObjects: number }).totalObjects > 0) found++;
        }
      // Real answers, mostly: finds that match something; failures only where the query itself is refused (unknown ids, level 6).
      expect(found).toBeGreaterThan(200);
      expect(failed).toBeLessThan(queries.length / 3);
      const s = cache.stats();
      expect(s.evictions).toBeGreaterThan(1000);
      expect(s.hits).toBeGreaterThan(0);
      expect(s.misses).toBeGreaterThan(1000);
    });

    it("answers concurrent queries correctly while their sections evict each other", async () => {
      const got = await Promise.all(queries.map(([, run]) => settle(() => run(cached))));
      const expected = await Promise.all(queries.map(([, run]) => settle(() => run(plain))));
      expect(got).toEqual(expected);
    });
  });
});
