// @module The worker isolate's memory through the mixed workload, in workerd under `wrangler dev`: its V8 heap and array buffers read over the inspector (Runtime.getHeapUsage), and workerd's peak RSS.
//
// npx node scripts/isolate-memory.ts --reuse <bench folder> [--requests 2800] [--every 50] [--concurrency 1] [--latency-ms 0] [--section-cache-mb 64] [--edge-cache on|off] [--out memory.json]
//
// The bench folder is one `npm run bench --reuse` made (analysis.snap, baseline.sqlite). Its snapshot
// is published into a temporary wrangler persistence folder of its own, and the mixed workload of `npm run
// bench` (seed 1) runs through `wrangler dev` at `--concurrency` clients (1 by default), default section budget. Every
// `--every` answers the isolate's heap is read over the DevTools protocol, as it is: garbage not yet
// collected included (workerd does not answer HeapProfiler.collectGarbage), which is what the
// isolate occupies then. V8 counts the backing stores of ArrayBuffers (the bytes read, typed
// columns) apart from the heap (backingStorageSize): both are given, and their sum is the reading.
// workerd's RSS is the whole process: the runtime, and miniflare's own services beside the worker.
//
// After the last answer a heap snapshot is taken (V8 collects garbage first): what the isolate holds
// live, heap and array buffers apart, against the readings' peaks, which add the garbage V8 has not
// collected yet. The default run is as long as the bench's two passes: at 1M objects the section
// cache is still filling after 700 answers, and a shorter run measures an isolate short of its budget.
import { writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { mixedSequence, pickPools } from "./bench/mixed-workload.ts";
import { workerdPeaks } from "./bench/process-memory.ts";
import { startDevServer } from "./dev-server.ts";

/** How long a DevTools call may take before it counts as unanswered. */
const CALL_TIMEOUT_MS = 5000;
/** How long a heap snapshot (a collection, then some 30 MB of JSON at 1M objects) may take. */
const SNAPSHOT_TIMEOUT_MS = 120_000;

interface HeapUsage {
  usedSize: number;
  totalSize: number;
  backingStorageSize: number;
}

/** A DevTools protocol session over the inspector's WebSocket. */
interface Inspector {
  call<T>(method: string, timeoutMs?: number): Promise<T | null>;
  /** The heap snapshot's text, streamed in chunks while HeapProfiler.takeHeapSnapshot runs. */
  heapSnapshot(): Promise<string>;
  close(): void;
}

/** What a heap snapshot holds: its nodes' own sizes, the array buffers' backing stores apart. */
function liveInSnapshot(text: string): { heapBytes: number; arrayBufferBytes: number } {
  const snapshot = JSON.parse(text) as {
    snapshot: { meta: { node_fields: string[] } };
    nodes: number[];
    strings: string[];
  };
  const fields = snapshot.snapshot.meta.node_fields;
  const [width, name, size] = [fields.length, fields.indexOf("name"), fields.indexOf("self_size")];
  let heapBytes = 0;
  let arrayBufferBytes = 0;
  for (let i = 0; i < snapshot.nodes.length; i += width) {
    const bytes = snapshot.nodes[i + size];
    if (snapshot.strings[snapshot.nodes[i + name]] === "system / JSArrayBufferData") arrayBufferBytes += bytes;
    else heapBytes += bytes;
  }
  return { heapBytes, arrayBufferBytes };
}

async function inspector(port: number): Promise<Inspector> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as {
    webSocketDebuggerUrl: string;
  }[];
  if (!targets.length) throw new Error(`the inspector on port ${port} lists no target`);
  // wrangler's inspector proxy accepts only the origins of a DevTools front end or of the host itself.
  const socket = new WebSocket(targets[0].webSocketDebuggerUrl, {
    headers: { Origin: "http://127.0.0.1" },
  } as unknown as string[]);
  await new Promise((opened, failed) => {
    socket.addEventListener("open", opened, { once: true });
    socket.addEventListener("error", failed, { once: true });
  });
  const pending = new Map<number, (result: unknown) => void>();
  const chunks: string[] = [];
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as {
      id?: number;
      result?: unknown;
      method?: string;
      params?: { chunk: string };
    };
    if (message.method === "HeapProfiler.addHeapSnapshotChunk") chunks.push(message.params!.chunk);
    if (message.id !== undefined) pending.get(message.id)?.(message.result), pending.delete(message.id);
  });
  let next = 0;
  // A method the runtime does not answer (workerd may not answer HeapProfiler.collectGarbage) gives null.
  const call = <T>(method: string, timeoutMs = CALL_TIMEOUT_MS) =>
    new Promise<T | null>((answered) => {
      const id = ++next;
      const timer = setTimeout(() => pending.delete(id) && answered(null), timeoutMs);
      pending.set(id, (result) => {
        clearTimeout(timer);
        answered(result as T);
      });
      socket.send(JSON.stringify({ id, method }));
    });
  return {
    call,
    heapSnapshot: async () => {
      chunks.length = 0;
      if ((await call("HeapProfiler.takeHeapSnapshot", SNAPSHOT_TIMEOUT_MS)) === null)
        throw new Error("the inspector did not answer HeapProfiler.takeHeapSnapshot");
      return chunks.join("");
    },
    close: () => socket.close(),
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      reuse: { type: "string" },
      requests: { type: "string", default: "2800" },
      every: { type: "string", default: "50" },
      concurrency: { type: "string", default: "1" },
      "latency-ms": { type: "string", default: "0" },
      "section-cache-mb": { type: "string", default: "64" },
      // "off": ranges are not kept in the data centre's cache (EDGE_CACHE), only read from R2.
      "edge-cache": { type: "string", default: "on" },
      out: { type: "string" },
    },
  });
  if (!values.reuse)
    throw new Error("--reuse <bench folder> is required (one holding analysis.snap and baseline.sqlite)");
  const dir = resolve(values.reuse);
  const [requests, every, concurrency] = [Number(values.requests), Number(values.every), Number(values.concurrency)];
  if (![requests, every, concurrency].every((n) => Number.isInteger(n) && n > 0))
    throw new Error("--requests, --every and --concurrency are positive integers");
  const log = (line: string) => process.stderr.write(`[isolate-memory] ${line}\n`);
  const sequence = mixedSequence(pickPools(join(dir, "baseline.sqlite"), 1, 400), 1, requests);
  // A fresh temporary persistence folder, not one inside the bench folder: the folder stays
  // read-only, and two runs over the same folder do not remove each other's state.
  const server = await startDevServer({
    files: [join(dir, "analysis.snap")],
    vars: {
      STORAGE_LATENCY_MS: values["latency-ms"]!,
      SECTION_CACHE_MB: values["section-cache-mb"]!,
      EDGE_CACHE: values["edge-cache"]!,
    },
    log,
  });
  const MiB = 1024 * 1024;
  const samples: { after: number; path: string; heap: HeapUsage }[] = [];
  try {
    // The isolate exists once it has served a request.
    await (await fetch(`${server.url}/rest/ready`)).arrayBuffer();
    const devtools = await inspector(server.inspectorPort);
    const usage = async () => {
      const usage = await devtools.call<HeapUsage>("Runtime.getHeapUsage");
      if (!usage) throw new Error("the inspector did not answer Runtime.getHeapUsage");
      return usage;
    };
    const read = async (after: number, path: string) => samples.push({ after, path, heap: await usage() });
    await read(0, "/rest/ready");
    // Each client takes the next request once its last answer is in; a reading every `every` answers
    // is taken while the other clients' requests are in flight.
    let next = 0;
    let answered = 0;
    const client = async () => {
      while (next < sequence.length) {
        const entry = sequence[next++];
        const response = await fetch(server.url + entry.path);
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`${entry.path}: status ${response.status}`);
        answered++;
        if (answered % every === 0 || answered === sequence.length) {
          await read(answered, entry.path);
          const last = samples.at(-1)!;
          log(
            `${answered} answers: heap ${(last.heap.usedSize / MiB).toFixed(1)} MiB used, array buffers ${(last.heap.backingStorageSize / MiB).toFixed(1)} MiB`,
          );
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, client));
    const live = liveInSnapshot(await devtools.heapSnapshot());
    log(
      `live after a collection: heap ${(live.heapBytes / MiB).toFixed(1)} MiB, array buffers ${(live.arrayBufferBytes / MiB).toFixed(1)} MiB`,
    );
    devtools.close();
    const peaks = workerdPeaks(server.pid);
    const most = (f: (s: (typeof samples)[number]) => number) => Math.max(...samples.map(f));
    const summary = {
      requests,
      concurrency,
      latencyMs: Number(values["latency-ms"]),
      sectionCacheMb: Number(values["section-cache-mb"]),
      edgeCache: values["edge-cache"],
      heapUsedMaxMiB: most((s) => s.heap.usedSize) / MiB,
      heapTotalMaxMiB: most((s) => s.heap.totalSize) / MiB,
      arrayBuffersMaxMiB: most((s) => s.heap.backingStorageSize) / MiB,
      heapUsedPlusArrayBuffersMaxMiB: most((s) => s.heap.usedSize + s.heap.backingStorageSize) / MiB,
      liveHeapMiB: live.heapBytes / MiB,
      liveArrayBuffersMiB: live.arrayBufferBytes / MiB,
      liveMiB: (live.heapBytes + live.arrayBufferBytes) / MiB,
      workerdPeakRssMiB: peaks.map((p) => (p.peakRssBytes === null ? null : Math.round(p.peakRssBytes / MiB))),
    };
    console.log(JSON.stringify(summary, null, 2));
    if (values.out) await writeFile(resolve(values.out), `${JSON.stringify({ summary, samples }, null, 2)}\n`);
  } finally {
    await server.stop();
  }
}

await main();
