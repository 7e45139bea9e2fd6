// @module The page worker: encodes the batches of raw pages a PagePool posts to it, and signals each reply.
import { type MessagePort, workerData } from "node:worker_threads";
import { encodePages } from "../../src/format/page-codec.ts";
import { type EncodedBatch, type PageBatch, pack, unpack } from "./page-pool.ts";

const { port, signal } = workerData as { port: MessagePort; signal: Int32Array };

port.on("message", (batch: PageBatch) => {
  try {
    const reply = { id: batch.id, ...pack(encodePages(unpack(batch), batch.codec)) } satisfies EncodedBatch;
    port.postMessage(reply, [reply.bytes.buffer]);
  } catch (error) {
    port.postMessage({ id: batch.id, error: String((error as Error)?.stack ?? error) } satisfies EncodedBatch);
  }
  // After the post: the pool, woken, finds the reply on its port.
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
});
