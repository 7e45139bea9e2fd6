// @module `node --expose-gc scripts/bench/mix-buffers.ts --reuse <bench folder>`: the ArrayBuffer bytes each answer of the mixed workload allocates in process, by allocation site, and what the section cache's entries really retain.
//
// The worker's isolate holds, between two collections, every buffer the answers since the last one
// allocated: what they allocate is what its readings climb by. In process the same sequence runs
// through the app (Node mode, a SectionCache of --section-cache-mb): typed-array constructors,
// slices, TextEncoder, Buffer allocations and inflation are wrapped, and each allocation is charged
// to its answer and to its nearest frames in src/. After the mix, the buffers each cache entry
// reaches are compared with the size the cache counts for it (a small view pinning a large read
// would make the budget lie).
import { mkdtemp, rm, symlink } from "node:fs/promises";
import { syncBuiltinESMExports } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import zlib from "node:zlib";
import { loadFolderCatalog } from "../../build/folder-catalog.ts";
import { createApp } from "../../src/app.ts";
import { SectionCache } from "../../src/format/section-cache.ts";
import { SnapshotSourceLocator } from "../../src/query/source-locator.ts";
import { mixedSequence, pickPools } from "./mixed-workload.ts";

const MiB = 1024 * 1024;

/** Bytes allocated since the counter was last reset, in total and by site. */
const counted = { bytes: 0, count: 0, bySite: new Map<string, number>() };
let tracing = false;

/** The nearest frames in src/ (or build/) of the allocation: where it is charged. */
function site(depth: number): string {
  const frames = (new Error().stack ?? "").split("\n").slice(3);
  const ours = frames
    .map((f) => /\/(src|build)\/([^:)]+):(\d+)/.exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .slice(0, depth)
    .map((m) => `${m[2]}:${m[3]}`);
  return ours.join(" < ") || "(outside src)";
}

function charge(bytes: number, depth: number): void {
  if (!tracing || bytes === 0) return;
  counted.bytes += bytes;
  counted.count++;
  const at = site(depth);
  counted.bySite.set(at, (counted.bySite.get(at) ?? 0) + bytes);
}

/** Wraps every allocation site of backing stores the app reaches. */
function hookAllocations(depth: number): void {
  const g = globalThis as Record<string, unknown>;
  for (const name of [
    "Uint8Array",
    "Int8Array",
    "Uint16Array",
    "Int16Array",
    "Uint32Array",
    "Int32Array",
    "Float32Array",
    "Float64Array",
    "BigInt64Array",
    "BigUint64Array",
    "Uint8ClampedArray",
  ]) {
    const Ctor = g[name] as new (...args: unknown[]) => ArrayBufferView;
    g[name] = new Proxy(Ctor, {
      construct(target, args, newTarget) {
        const made = Reflect.construct(target, args, newTarget) as ArrayBufferView;
        // A view over a buffer allocates nothing; a length, an array or an iterable does.
        if (!(args[0] instanceof ArrayBuffer) && !(args[0] instanceof SharedArrayBuffer))
          charge(made.buffer.byteLength, depth);
        return made;
      },
    });
  }
  const typedArray = Object.getPrototypeOf(Uint8Array.prototype) as { slice(...a: unknown[]): ArrayBufferView };
  const slice = typedArray.slice;
  typedArray.slice = function (this: ArrayBufferView, ...args: unknown[]) {
    const made = slice.apply(this, args);
    charge(made.byteLength, depth);
    return made;
  };
  const encode = TextEncoder.prototype.encode;
  TextEncoder.prototype.encode = function (this: TextEncoder, text?: string) {
    const made = encode.call(this, text);
    charge(made.buffer.byteLength, depth);
    return made;
  };
  for (const name of ["alloc", "allocUnsafe", "allocUnsafeSlow", "from", "concat"] as const) {
    const original = Buffer[name] as (...a: unknown[]) => Buffer;
    (Buffer as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
      const made = original.apply(Buffer, args);
      if (name === "from" && (args[0] instanceof ArrayBuffer || args[0] instanceof SharedArrayBuffer)) return made;
      // Pooled buffers share 8 KiB slabs: charged by their own length.
      charge(made.buffer.byteLength > 8192 ? made.buffer.byteLength : made.byteLength, depth);
      return made;
    };
  }
  const inflate = zlib.inflateRawSync;
  (zlib as unknown as Record<string, unknown>).inflateRawSync = (...args: Parameters<typeof inflate>) => {
    const wasTracing = tracing;
    tracing = false; // its own Buffer calls are charged once, here, as the buffer it returns
    try {
      const made = inflate(...args);
      tracing = wasTracing;
      // Node hands out small outputs in slices of a shared pool: those are charged their own length.
      charge(made.buffer.byteLength > 2 * made.byteLength + 64 ? made.byteLength : made.buffer.byteLength, depth);
      return made;
    } finally {
      tracing = wasTracing;
    }
  };
  syncBuiltinESMExports();
}

/** Unique ArrayBuffers reachable from `value` (through objects, arrays, maps, sets), with the bytes their views show. */
function reachableBuffers(
  value: unknown,
  seen: Set<object>,
  buffers: Map<ArrayBufferLike, number>,
  others: ReadonlySet<object> = new Set(),
): void {
  if (value === null || typeof value !== "object" || seen.has(value)) return;
  // Another entry's value (a link window names its directory) is counted as that entry.
  if (seen.size > 0 && others.has(value)) return;
  seen.add(value);
  // A value may name its snapshot, which reaches the whole cache: not the entry's own.
  const kind = (value as object).constructor?.name;
  if (kind === "Snapshot" || kind === "SectionCache") return;
  if (ArrayBuffer.isView(value)) {
    buffers.set(value.buffer, (buffers.get(value.buffer) ?? 0) + value.byteLength);
    return;
  }
  if (value instanceof ArrayBuffer) {
    buffers.set(value, (buffers.get(value) ?? 0) + value.byteLength);
    return;
  }
  if (value instanceof Map) {
    for (const [k, v] of value) reachableBuffers(k, seen, buffers, others), reachableBuffers(v, seen, buffers, others);
    return;
  }
  if (value instanceof Set) {
    for (const v of value) reachableBuffers(v, seen, buffers, others);
    return;
  }
  for (const key of Object.getOwnPropertyNames(value)) {
    const v = (value as Record<string, unknown>)[key];
    if (typeof v === "object") reachableBuffers(v, seen, buffers, others);
  }
}

async function main(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("run with node --expose-gc");
  const { values } = parseArgs({
    options: {
      reuse: { type: "string" },
      requests: { type: "string", default: "700" },
      "section-cache-mb": { type: "string", default: "64" },
      depth: { type: "string", default: "3" },
      top: { type: "string", default: "40" },
      answers: { type: "string", default: "25" },
      // No tracing and no forced GC: heap used and array buffers as they are every 25 answers, as
      // isolate-memory.ts reads the worker's isolate (Node's V8, not workerd's, collects them).
      readings: { type: "boolean", default: false },
    },
  });
  if (!values.reuse) throw new Error("--reuse <bench folder> is required");
  const dir = resolve(values.reuse);
  const sequence = mixedSequence(pickPools(join(dir, "baseline.sqlite"), 1, 400), 1, Number(values.requests));
  const folder = await mkdtemp(join(tmpdir(), "appstruct-mix-buffers-"));
  try {
    await symlink(join(dir, "analysis.snap"), join(folder, "bench.snap"));
    const sections = new SectionCache(Number(values["section-cache-mb"]) * MiB);
    const catalog = await loadFolderCatalog(folder, () => {}, { sections });
    const app = createApp(() => ({ catalog, sources: new SnapshotSourceLocator(catalog), access: null }));
    if (values.readings) {
      let most = { heap: 0, buffers: 0, sum: 0 };
      const line: string[] = [];
      for (const [i, entry] of sequence.entries()) {
        const response = await app.fetch(new Request(`http://appstruct.bench${entry.path}`));
        if (response.body) for await (const _ of response.body);
        if ((i + 1) % 25 !== 0) continue;
        const { heapUsed, arrayBuffers } = process.memoryUsage();
        most = {
          heap: Math.max(most.heap, heapUsed),
          buffers: Math.max(most.buffers, arrayBuffers),
          sum: Math.max(most.sum, heapUsed + arrayBuffers),
        };
        line.push(`${((heapUsed + arrayBuffers) / MiB).toFixed(0)}`);
      }
      console.log(`sums: ${line.join(" ")}`);
      console.log(
        `max heap used ${(most.heap / MiB).toFixed(1)} MiB, array buffers ${(most.buffers / MiB).toFixed(1)} MiB, sum ${(most.sum / MiB).toFixed(1)} MiB`,
      );
      return;
    }
    // What enters the cache and what leaves it, by section (pages by their section): what leaves
    // is garbage that lived long enough to wait for a full collection.
    const turnover = new Map<string, { inserted: number; evicted: number }>();
    const kindOf = (tag: string) => tag.replace(/#.*/, "#page");
    const account = (tag: string, key: "inserted" | "evicted", bytes: number) => {
      const t = turnover.get(kindOf(tag)) ?? { inserted: 0, evicted: 0 };
      t[key] += bytes;
      turnover.set(kindOf(tag), t);
    };
    const proto = SectionCache.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
    const [insert, evict] = [proto.insert, proto.evict];
    proto.insert = function (this: SectionCache, ...args: unknown[]) {
      const before = (this as unknown as { count: number }).count;
      const result = insert.apply(this, args);
      const entry = (this as unknown as { bySnapshot: Map<string, Map<string, { size: number }>> }).bySnapshot
        .get(args[0] as string)
        ?.get(args[1] as string);
      if (entry && (this as unknown as { count: number }).count >= before)
        account(args[1] as string, "inserted", entry.size);
      return result;
    };
    proto.evict = function (this: SectionCache, ...args: unknown[]) {
      const entry = args[0] as { tag: string; size: number };
      account(entry.tag, "evicted", entry.size);
      return evict.apply(this, args);
    };
    hookAllocations(Number(values.depth));
    const bySite = new Map<string, number>();
    const byClass = new Map<string, { answers: number; bytes: number; max: number }>();
    const answers: { i: number; cls: string; path: string; bytes: number; count: number; live: number }[] = [];
    let total = 0;
    for (const [i, entry] of sequence.entries()) {
      gc();
      counted.bytes = counted.count = 0;
      counted.bySite.clear();
      tracing = true;
      const response = await app.fetch(new Request(`http://appstruct.bench${entry.path}`));
      if (response.body) for await (const _ of response.body);
      tracing = false;
      if (response.status !== 200) throw new Error(`${entry.path}: status ${response.status}`);
      gc();
      await new Promise((done) => setTimeout(done, 0));
      gc();
      const live = process.memoryUsage().arrayBuffers;
      answers.push({ i, cls: entry.cls, path: entry.path, bytes: counted.bytes, count: counted.count, live });
      total += counted.bytes;
      for (const [s, b] of counted.bySite) bySite.set(s, (bySite.get(s) ?? 0) + b);
      const c = byClass.get(entry.cls) ?? { answers: 0, bytes: 0, max: 0 };
      c.answers++;
      c.bytes += counted.bytes;
      c.max = Math.max(c.max, counted.bytes);
      byClass.set(entry.cls, c);
    }
    const fmt = (b: number) => (b / MiB).toFixed(2).padStart(9);
    console.log(`answers ${answers.length}: ${fmt(total)} MiB of ArrayBuffers allocated`);
    console.log("\nby class (answers, MiB total, MiB mean, MiB max):");
    for (const [cls, c] of [...byClass].sort((a, b) => b[1].bytes - a[1].bytes))
      console.log(
        `  ${cls.padEnd(16)} ${String(c.answers).padStart(4)} ${fmt(c.bytes)} ${fmt(c.bytes / c.answers)} ${fmt(c.max)}`,
      );
    console.log(`\nby site (MiB; top ${values.top}):`);
    for (const [s, b] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top)))
      console.log(`  ${fmt(b)}  ${s}`);
    console.log(`\nlargest answers (MiB allocated, allocations, MiB live after):`);
    for (const a of [...answers].sort((x, y) => y.bytes - x.bytes).slice(0, Number(values.answers)))
      console.log(
        `  #${String(a.i).padStart(3)} ${a.cls.padEnd(16)} ${fmt(a.bytes)} ${String(a.count).padStart(7)} ${fmt(a.live)}  ${a.path}`,
      );
    const sums = [100, 200, 300, 400, 500, 600, 700].map((n) => answers.slice(0, n).reduce((s, a) => s + a.bytes, 0));
    console.log(`\ncumulative MiB after 100..700: ${sums.map((s) => (s / MiB).toFixed(0)).join(" ")}`);

    console.log("\ncache turnover by section (MiB inserted, evicted):");
    for (const [kind, t] of [...turnover].sort((a, b) => b[1].evicted - a[1].evicted))
      console.log(`  ${kind.padEnd(14)} ${fmt(t.inserted)} ${fmt(t.evicted)}`);
    // What the cache counts against what its entries' values reach.
    const cache = sections as unknown as { bySnapshot: Map<string, Map<string, { value: unknown; size: number }>> };
    let countedBytes = 0;
    let retained = 0;
    let shown = 0;
    const over: { tag: string; size: number; retained: number }[] = [];
    const all = new Map<ArrayBufferLike, number>();
    const entryValues = new Set<object>();
    for (const tags of cache.bySnapshot.values())
      for (const entry of tags.values())
        if (typeof entry.value === "object" && entry.value) entryValues.add(entry.value);
    for (const tags of cache.bySnapshot.values())
      for (const [tag, entry] of tags) {
        const buffers = new Map<ArrayBufferLike, number>();
        reachableBuffers(entry.value, new Set(), buffers, entryValues);
        let r = 0;
        for (const [buffer, seen] of buffers) {
          r += buffer.byteLength;
          all.set(buffer, Math.max(all.get(buffer) ?? 0, seen));
        }
        countedBytes += entry.size;
        if (r > entry.size * 1.25 + 4096) over.push({ tag, size: entry.size, retained: r });
      }
    for (const [buffer, seen] of all) (retained += buffer.byteLength), (shown += seen);
    console.log(
      `\ncache: counts ${fmt(countedBytes)} MiB; its entries reach ${all.size} buffers of ${fmt(retained)} MiB (${fmt(shown)} MiB of them in views)`,
    );
    console.log(`live array buffers after the mix: ${fmt(process.memoryUsage().arrayBuffers)} MiB`);
    console.log(`entries reaching more than they are counted for: ${over.length}`);
    for (const o of over.sort((a, b) => b.retained - b.size - (a.retained - a.size)).slice(0, 20))
      console.log(`  ${o.tag.padEnd(24)} counted ${fmt(o.size)} reaches ${fmt(o.retained)}`);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

await main();
