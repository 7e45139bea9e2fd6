// @module The page worker: encodes the batches of raw pages a PagePool posts to it, groups links by caller and counts the flows of the grouped links, builds the keys' indexes, and signals each reply.
import { setPriority } from "node:os";
import { type MessagePort, workerData } from "node:worker_threads";
import { flowTotals, walkGraphs } from "../../src/format/flow-points.ts";
import { indexKeys } from "../../src/format/key-indexes.ts";
import { encodePages } from "../../src/format/page-codec.ts";
import { groupCallees } from "./build-model.ts";
import { type CalleeTask, type KeyTask, type PageBatch, pack, unpack, type WorkerReply } from "./page-pool.ts";

const { port, signal } = workerData as { port: MessagePort; signal: Int32Array };

/**
 * The niceness of a worker (Linux: a thread's own): above the compiling thread's, so that it takes
 * the cores the compiling thread leaves. A pool starts a worker per core beside the compiling thread,
 * which every section waits on: on 2 cores at 1M objects, at the same niceness the compiling thread
 * waited 10 to 12 s for a core; a niceness of 10 brought that to 3 to 4 s and the compile from 61 s
 * to 56 s on average (5 of 6 runs, alternating). On a machine busy with other work the workers also
 * get less of it. Elsewhere a niceness is the whole process's, which would slow the compiling thread too.
 */
const NICENESS = 10;
if (process.platform === "linux") setPriority(NICENESS);

/** Posts `reply` (its buffers moved), then signals it: the pool, woken, finds it on its port. */
function send(reply: WorkerReply, transfer: ArrayBuffer[] = []): void {
  port.postMessage(reply, transfer);
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
}

/** Each reply owed for `message`: one, and a callee task's flows besides. */
const replyIds = (message: PageBatch | KeyTask | CalleeTask) =>
  message.kind === "callees" ? [message.id, message.flowsId] : [message.id];

port.on("message", (message: PageBatch | KeyTask | CalleeTask) => {
  let owed = replyIds(message);
  try {
    if (message.kind === "pages") {
      const reply = { id: message.id, ...pack(encodePages(unpack(message), message.codec)) } satisfies WorkerReply;
      send(reply, [reply.bytes.buffer]);
    } else if (message.kind === "callees") {
      const callees = groupCallees(message.links, message.rankOfSlot);
      // The walk graphs are made before the grouped links leave with their reply.
      const graphs = walkGraphs(callees.links, message.roles);
      const { offsets, targets, types, flags } = callees.links;
      send(
        { id: message.id, callees },
        [offsets, targets, types, flags].map((array) => array.buffer as ArrayBuffer),
      );
      owed = [message.flowsId];
      const flows = flowTotals(graphs, message.roles);
      const { starts, startTotals, ends, endTotals } = flows;
      send(
        { id: message.flowsId, flows },
        [starts, startTotals, ends, endTotals].map((array) => array.buffer as ArrayBuffer),
      );
    } else {
      const { trigrams, reversed } = indexKeys(message.keys);
      send({ id: message.id, trigrams, reversed }, [
        ...trigrams.map((block) => block.buffer as ArrayBuffer),
        reversed.buffer as ArrayBuffer,
      ]);
    }
  } catch (error) {
    for (const id of owed) send({ id, error: String((error as Error)?.stack ?? error) });
  }
});
