// @module The page worker: encodes the batches of raw pages a PagePool posts to it, groups links by caller, counts what flow points reach, builds the keys' indexes, and signals each reply.
import { type MessagePort, workerData } from "node:worker_threads";
import { reachCounts } from "../../src/format/flow-points.ts";
import { indexKeys } from "../../src/format/key-indexes.ts";
import { encodePages } from "../../src/format/page-codec.ts";
import { groupCallees } from "./build-model.ts";
import {
  type CalleeTask,
  type KeyTask,
  type PageBatch,
  pack,
  type ReachTask,
  unpack,
  type WorkerReply,
} from "./page-pool.ts";

const { port, signal } = workerData as { port: MessagePort; signal: Int32Array };

port.on("message", (message: PageBatch | ReachTask | KeyTask | CalleeTask) => {
  try {
    if (message.kind === "pages") {
      const reply = { id: message.id, ...pack(encodePages(unpack(message), message.codec)) } satisfies WorkerReply;
      port.postMessage(reply, [reply.bytes.buffer]);
    } else if (message.kind === "callees") {
      const callees = groupCallees(message.links, message.rankOfSlot);
      const { offsets, targets, types, flags } = callees.links;
      port.postMessage({ id: message.id, callees } satisfies WorkerReply, [
        ...[offsets, targets, types, flags].map((array) => array.buffer as ArrayBuffer),
      ]);
    } else if (message.kind === "keys") {
      const { trigrams, reversed } = indexKeys(message.keys);
      const reply = { id: message.id, trigrams, reversed } satisfies WorkerReply;
      port.postMessage(reply, [
        ...trigrams.map((block) => block.buffer as ArrayBuffer),
        reversed.buffer as ArrayBuffer,
      ]);
    } else {
      const counts = reachCounts(message.graph, message.sources, message.spend) as Uint32Array<ArrayBuffer>;
      port.postMessage({ id: message.id, counts } satisfies WorkerReply, [counts.buffer]);
    }
  } catch (error) {
    port.postMessage({ id: message.id, error: String((error as Error)?.stack ?? error) } satisfies WorkerReply);
  }
  // After the post: the pool, woken, finds the reply on its port.
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
});
