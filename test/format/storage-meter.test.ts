// @module StorageMeter: a request is charged the reads it makes and the time it waits, a wait on another's load without its bytes, hits and misses, a prefetch's reads apart, with and without a SectionCache; the latency models let six reads of an invocation wait at once.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { compileDocument } from "../../build/compile/compile-document.ts";
import { SectionCache } from "../../src/format/section-cache.ts";
import { inClosing, type SectionTag } from "../../src/format/sections.ts";
import { type ByteSource, countingSource, delayedSource, memorySource, Snapshot } from "../../src/format/snapshot.ts";
import { currentStorageMeter, meteredRead, prefetch, StorageMeter } from "../../src/format/storage-meter.ts";
import { objectRows } from "../../src/query/object-rows.ts";
import { DelayedStore } from "../../src/storage/delayed-store.ts";
import petstoreV1 from "../fixtures/examples/petstore-v1.json";
import { generatedSnapshot } from "../support/generated-snapshot.ts";
import { MemoryStore } from "../support/memory-store.ts";
import { rawSections } from "./snapshot-bytes.ts";

const bytes = compileDocument(petstoreV1, null).bytes;
const LATENCY_MS = 20;

/** `run` under `meter`, the fake clock moved on until it settles. */
async function metered<T>(meter: StorageMeter, run: () => Promise<T>): Promise<T> {
  const pending = meter.measure(run);
  await vi.advanceTimersByTimeAsync(10 * LATENCY_MS);
  return pending;
}

describe.each([
  ["with a SectionCache", () => new SectionCache(1 << 20)],
  ["without a SectionCache", () => undefined],
])("StorageMeter, %s", (_, sections) => {
  let source: ReturnType<typeof countingSource>;
  let snapshot: Snapshot;
  const length = (tag: string) => snapshot.toc.get(tag)!.length;

  beforeEach(async () => {
    // The clock the meter reads is faked with the timers: every wait below lasts exactly what the timers say.
    vi.useFakeTimers({ toFake: ["setTimeout", "performance"] });
    source = countingSource(delayedSource(memorySource(bytes, "petstore"), LATENCY_MS));
    const opening = Snapshot.open(source, { sections: sections() });
    await vi.advanceTimersByTimeAsync(3 * LATENCY_MS);
    snapshot = await opening;
  });
  afterEach(() => vi.useRealTimers());

  it("charges a request its reads and bytes, and the time they took, reads in parallel once", async () => {
    const meter = new StorageMeter();
    await metered(meter, () => Promise.all([snapshot.section("TYPE"), snapshot.section("TYID")]));
    expect(meter).toMatchObject({ reads: 2, bytes: length("TYPE") + length("TYID"), hits: 0, misses: 2 });
    expect(meter.storageMs).toBe(LATENCY_MS);
  });

  it("charges a request waiting on another's load its wait, not the other's reads; a warm answer reads nothing", async () => {
    const readsBefore = source.reads;
    const [first, second, warm] = [new StorageMeter(), new StorageMeter(), new StorageMeter()];
    const loads = [first.measure(() => snapshot.section("LANG")), second.measure(() => snapshot.section("LANG"))];
    await vi.advanceTimersByTimeAsync(10 * LATENCY_MS);
    const [a, b] = await Promise.all(loads);
    expect(b).toBe(a);
    expect(source.reads - readsBefore).toBe(1);
    expect(first).toMatchObject({ reads: 1, bytes: length("LANG"), misses: 1 });
    expect(first.storageMs).toBe(LATENCY_MS);
    expect(second).toMatchObject({ reads: 0, bytes: 0, misses: 1 });
    expect(second.storageMs).toBeGreaterThanOrEqual(LATENCY_MS);

    expect(await metered(warm, () => snapshot.section("LANG"))).toBe(a);
    expect(warm).toMatchObject({ reads: 0, bytes: 0, hits: 1, misses: 0 });
    expect(warm.storageMs).toBe(0);
  });

  it("counts remembered values and recalled pages as hits once loaded", async () => {
    const meter = new StorageMeter();
    const load = () => snapshot.readPart("ROWP", 0, 16).then((head) => ({ head, byteSize: 16 }));
    const value = await metered(meter, () => snapshot.remember("ROWP#head", load));
    // A section this small is read whole at its first part (kept too: a second miss).
    expect(meter).toMatchObject({ reads: 1, bytes: length("ROWP"), hits: 0, misses: 2 });
    await metered(meter, async () => {
      expect(await snapshot.remember("ROWP#head", load)).toBe(value);
      expect(snapshot.recall("ROWP#head")).toBe(value);
      expect(snapshot.recall("ROWP#nothing")).toBeUndefined();
    });
    expect(meter).toMatchObject({ reads: 1, bytes: length("ROWP"), hits: 2, misses: 2 });
    await metered(meter, () => snapshot.readPart("ROWP", 8, 8));
    expect(meter).toMatchObject({ reads: 1, bytes: length("ROWP"), hits: 3, misses: 2 });
  });

  it("counts rounds: reads that go out together share one, a read after another has settled goes one deeper", async () => {
    const meter = new StorageMeter();
    await metered(meter, async () => {
      await Promise.all([snapshot.section("TYID"), snapshot.section("LANG")]);
      await snapshot.section("TYPE");
    });
    expect(meter).toMatchObject({ reads: 3, rounds: 2 });
    expect(meter.storageMs).toBe(2 * LATENCY_MS);
  });

  it("reads what a section's decoder consults along with it: LGRA and the taxonomy TAXO in one round", async () => {
    const meter = new StorageMeter();
    await metered(meter, () => snapshot.section("LGRA"));
    expect(meter).toMatchObject({ reads: 2, bytes: length("LGRA") + length("TAXO"), rounds: 1 });
    expect(meter.storageMs).toBe(LATENCY_MS);
  });

  it("reports a request made inside another to both meters", async () => {
    const outer = new StorageMeter();
    const inner = await metered(outer, async () => {
      const meter = new StorageMeter(currentStorageMeter());
      await meter.measure(() => snapshot.section("TYPE"));
      return meter;
    });
    expect(inner).toMatchObject({ reads: 1, bytes: length("TYPE"), misses: 1 });
    expect(outer).toMatchObject({ reads: 1, bytes: length("TYPE"), misses: 1 });
    expect(outer.storageMs).toBe(LATENCY_MS);
    expect([inner.rounds, outer.rounds]).toEqual([1, 1]);
  });

  it("counts a prefetch's reads apart: in no round and no wait of the request that started it, and to its parent too", async () => {
    const outer = new StorageMeter();
    const [inner, waitedFor] = await metered(outer, async () => {
      const meter = new StorageMeter(currentStorageMeter());
      let prefetching: boolean | undefined;
      await meter.measure(async () => {
        await snapshot.section("TYPE");
        prefetch(async () => {
          prefetching = currentStorageMeter()?.prefetching;
          await snapshot.section("TYID");
          await snapshot.section("LANG");
        });
      });
      expect(prefetching).toBe(true);
      return [meter, meter.storageMs];
    });
    // The prefetch ran on past the answer (two rounds more), which had waited one.
    expect(waitedFor).toBe(LATENCY_MS);
    for (const meter of [inner, outer]) {
      expect(meter).toMatchObject({
        reads: 1,
        bytes: length("TYPE"),
        rounds: 1,
        prefetches: 2,
        prefetchedBytes: length("TYID") + length("LANG"),
        misses: 1,
      });
      expect(meter.storageMs).toBe(LATENCY_MS);
      expect(meter.prefetching).toBe(false);
    }
    // What it loaded is kept as any load is: the next request finds it.
    const next = new StorageMeter();
    await metered(next, () => snapshot.section("LANG"));
    expect(next).toMatchObject({ reads: 0, hits: 1 });
  });
});

describe("a snapshot opened to serve (readAhead)", () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ["setTimeout", "performance"] }));
  afterEach(() => vi.useRealTimers());

  /** Opening `bytes` and reading object 0's row, metered: the rounds and reads it took. */
  async function firstRow(readAhead: boolean): Promise<StorageMeter> {
    const source = delayedSource(memorySource(bytes, `petstore ${readAhead}`), LATENCY_MS);
    const meter = new StorageMeter();
    await metered(meter, async () => {
      const snapshot = await Snapshot.open(source, { sections: new SectionCache(1 << 20), readAhead });
      const [row] = await objectRows(snapshot, [0]);
      expect(row.name).toBe(petstoreV1.objects.find((o) => o.id === row.id)!.name);
    });
    return meter;
  }

  it("reads the page directories and block tables with the first reads after the table of contents, not one round each", async () => {
    const [ahead, asked] = [await firstRow(true), await firstRow(false)];
    // The header; then ROWD and ROWP, whole for its block table as a section this small is: its pages with it.
    expect(ahead.rounds).toBe(2);
    // The header; then ROWD; then ROWP whole for its block table, the page with it.
    expect(asked.rounds).toBe(3);
    expect(ahead.reads).toBeGreaterThan(asked.reads);
  });
});

describe("prefetch", () => {
  it("drops a prefetch that fails, at once or later: the request that started it goes on", async () => {
    const meter = new StorageMeter();
    const answer = await meter.measure(async () => {
      prefetch(() => {
        throw new Error("failed at once");
      });
      prefetch(async () => {
        throw new Error("failed later");
      });
      return "answered";
    });
    // A rejection left unhandled would fail the run here.
    await new Promise((settled) => setTimeout(settled, 10));
    expect(answer).toBe("answered");
    expect(meter).toMatchObject({ reads: 0, prefetches: 0 });
  });
});

describe("a Worker's six connections (delayedSource, DelayedStore)", () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ["setTimeout", "performance"] }));
  afterEach(() => vi.useRealTimers());

  /** Reads of `count` bytes each at distinct offsets; resolves to when each of them arrived. */
  function readAll(source: ByteSource, count: number): Promise<number[]> {
    return Promise.all(
      Array.from({ length: count }, async (_, i) => {
        await source.read(i * 8, 8);
        return performance.now();
      }),
    );
  }

  const late = () => delayedSource(memorySource(bytes, "petstore"), LATENCY_MS);

  it("lets six reads of a request wait at once: thirteen take three delays, in arrival order", async () => {
    const source = late();
    const meter = new StorageMeter();
    const arrivals = meter.measure(() => readAll(source, 13));
    await vi.advanceTimersByTimeAsync(10 * LATENCY_MS);
    const start = (await arrivals)[0] - LATENCY_MS;
    expect((await arrivals).map((t) => (t - start) / LATENCY_MS)).toEqual([1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3]);
  });

  it("keeps the rounds what the reads depend on: thirteen reads gone out together are one round, waited three delays", async () => {
    const source = late();
    const meter = new StorageMeter();
    await metered(meter, () =>
      Promise.all(Array.from({ length: 13 }, (_, i) => meteredRead(source.read(i * 8, 8), 8))),
    );
    expect(meter).toMatchObject({ reads: 13, bytes: 13 * 8, rounds: 1 });
    expect(meter.storageMs).toBe(3 * LATENCY_MS);
  });

  it("gives each request six of its own, and its prefetches and the requests made inside it share them", async () => {
    const source = late();
    const [first, second] = [new StorageMeter(), new StorageMeter()];
    const together = performance.now();
    const both = Promise.all([first.measure(() => readAll(source, 6)), second.measure(() => readAll(source, 6))]);
    await vi.advanceTimersByTimeAsync(10 * LATENCY_MS);
    expect(new Set((await both).flat())).toEqual(new Set([together + LATENCY_MS]));

    const outer = new StorageMeter();
    const started = performance.now();
    let prefetched: Promise<number[]> | undefined;
    const own = outer.measure(() => {
      prefetched = new Promise((resolve) => prefetch(() => readAll(source, 3).then(resolve)));
      const inner = new StorageMeter(currentStorageMeter());
      return Promise.all([readAll(source, 3), inner.measure(() => readAll(source, 3))]);
    });
    await vi.advanceTimersByTimeAsync(10 * LATENCY_MS);
    const waves = [...(await own).flat(), ...(await prefetched!)].map((t) => (t - started) / LATENCY_MS);
    expect(waves.sort()).toEqual([1, 1, 1, 1, 1, 1, 2, 2, 2]);
  });

  it("holds no connection outside a request", async () => {
    const arrivals = readAll(late(), 13);
    await vi.advanceTimersByTimeAsync(LATENCY_MS);
    expect(new Set(await arrivals).size).toBe(1);
  });

  it("queues a DelayedStore's calls the same way", async () => {
    const store = new DelayedStore(new MemoryStore(), LATENCY_MS);
    const meter = new StorageMeter();
    const started = performance.now();
    const arrivals = meter.measure(() =>
      Promise.all(Array.from({ length: 7 }, () => store.head("absent").then(() => performance.now()))),
    );
    await vi.advanceTimersByTimeAsync(10 * LATENCY_MS);
    expect((await arrivals).map((t) => (t - started) / LATENCY_MS)).toEqual([1, 1, 1, 1, 1, 1, 2]);
  });
});

describe("the closing: directories read on opening, side by side at the end of the file", () => {
  let generated: Uint8Array;
  beforeAll(async () => {
    generated = await generatedSnapshot(20_000, 11);
  }, 120_000);

  it("is written last, and a reader opening the file to serve reads it in one read, each section checked alone", async () => {
    const sections = rawSections(generated).sort((a, b) => a.offset - b.offset);
    const closing = sections.filter((s) => inClosing(s.tag));
    expect(closing.map((s) => s.tag)).toEqual(sections.slice(-closing.length).map((s) => s.tag));
    expect(closing.length).toBe(18);
    const from = closing[0].offset;
    const to = closing.at(-1)!.offset + closing.at(-1)!.length;
    expect(to - from).toBeLessThan(1 << 20);

    const reads: [number, number][] = [];
    const source = memorySource(generated, "closing");
    const logged: ByteSource = {
      ...source,
      read: (offset, length) => (reads.push([offset, length]), source.read(offset, length)),
    };
    const meter = new StorageMeter();
    const decoded = await meter.measure(async () => {
      const snapshot = await Snapshot.open(logged, { sections: new SectionCache(64 << 20), readAhead: true });
      return Promise.all(closing.map((s) => snapshot.section(s.tag as SectionTag)));
    });
    expect(decoded.every((d) => d !== undefined)).toBe(true);
    // Every read that touches the closing: one, of it all.
    expect(reads.filter(([offset, length]) => offset < to && offset + length > from)).toEqual([[from, to - from]]);
  });

  it("falls back to reading each section alone when the read of them together fails", async () => {
    const closing = rawSections(generated).filter((s) => inClosing(s.tag));
    const source = memorySource(generated, "closing fails together");
    const reads: [number, number][] = [];
    const failing: ByteSource = {
      ...source,
      read: (offset, length) => {
        reads.push([offset, length]);
        // Fails any read longer than one section: the read of the closing together.
        return closing.some((s) => s.offset === offset && s.length === length)
          ? source.read(offset, length)
          : offset >= closing[0].offset
            ? Promise.reject(new Error("R2 read failed"))
            : source.read(offset, length);
      },
    };
    const meter = new StorageMeter();
    const snapshot = await meter.measure(() =>
      Snapshot.open(failing, { sections: new SectionCache(64 << 20), readAhead: true }),
    );
    await new Promise((settled) => setTimeout(settled, 50));
    // What opening read ahead is in, though no query asked again.
    expect(closing.filter((s) => !snapshot.holds(s.tag))).toEqual([]);
    // The one read of them all, then each alone.
    const after = reads.filter(([offset]) => offset >= closing[0].offset);
    expect(after).toHaveLength(1 + closing.length);
    for (const s of closing) expect(after).toContainEqual([s.offset, s.length]);
  });

  it("gives its bytes to the invocation that read it only: another reads on its own (in workerd the read's I/O is the opener's)", async () => {
    const entry = (tag: string) => rawSections(generated).find((s) => s.tag === tag)!;
    const [memd, lnkd] = [entry("MEMD"), entry("LNKD")];
    const reads: [number, number][] = [];
    const source = memorySource(generated, "closing, two invocations");
    const logged: ByteSource = {
      ...source,
      read: (offset, length) => (reads.push([offset, length]), source.read(offset, length)),
    };
    const [opener, other] = [new StorageMeter(), new StorageMeter()];
    const snapshot = await opener.measure(() =>
      Snapshot.open(logged, { sections: new SectionCache(64 << 20), readAhead: true }),
    );
    reads.length = 0;
    // Both while the closing's read is under way: each a part of a directory, cut from its whole body.
    await Promise.all([
      other.measure(() => snapshot.readPart("MEMD", 0, 8)),
      opener.measure(() => snapshot.readPart("LNKD", 0, 8)),
    ]);
    expect(reads).toEqual([[memd.offset, memd.length]]);
    // Both small enough to be read whole for a part (WHOLE_READ_BYTES).
    expect(Math.max(memd.length, lnkd.length)).toBeLessThan(64 * 1024);
  });
});
