// @module The link worker: scans an analysis file's plain link lines (LinkBatcher) while the compiling thread reads the rest, posting a batch for each chunk of the file.
import { type MessagePort, workerData } from "node:worker_threads";
import { readLines } from "./lines.ts";
import { batchBuffers, LinkBatcher } from "./link-batches.ts";
import { BATCHES_AHEAD, type LinkWorkerData } from "./link-thread.ts";

const { path, port, consumed } = workerData as LinkWorkerData & { port: MessagePort };
const batcher = new LinkBatcher();
let posted = 0;

await readLines(path, () => undefined, {
  // Every line is taken, so that none is decoded: the compiling thread reads those it needs.
  take: (bytes, start, end, lineNumber) => (batcher.scan(bytes, start, end, lineNumber), 1),
  afterLines: (end) => {
    // Not too far ahead of the compiling thread: each batch waiting holds its links.
    // A bounded wait: a worker ended while it waits (the compiling thread stopped reading) must see it.
    for (let seen = Atomics.load(consumed, 0); posted - seen >= BATCHES_AHEAD; seen = Atomics.load(consumed, 0))
      Atomics.wait(consumed, 0, seen, 100);
    const batch = batcher.take(end);
    port.postMessage(batch, batchBuffers(batch));
    posted++;
  },
});
port.close();
