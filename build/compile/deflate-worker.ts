// @module The deflate worker: deflates the batches of raw pages a DeflatePool posts to it, and signals each reply.
import { type MessagePort, workerData } from "node:worker_threads";
import { deflatePage } from "../../src/format/inflate.ts";
import { type DeflateBatch, type DeflatedBatch, pack, unpack } from "./deflate-pool.ts";

const { port, signal } = workerData as { port: MessagePort; signal: Int32Array };

port.on("message", (batch: DeflateBatch) => {
  try {
    const reply = { id: batch.id, ...pack(unpack(batch).map(deflatePage)) } satisfies DeflatedBatch;
    port.postMessage(reply, [reply.bytes.buffer]);
  } catch (error) {
    port.postMessage({ id: batch.id, error: String((error as Error)?.stack ?? error) } satisfies DeflatedBatch);
  }
  // After the post: the pool, woken, finds the reply on its port.
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
});
