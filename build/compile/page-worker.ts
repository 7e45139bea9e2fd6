// @module The page worker: encodes the batches of raw pages a PagePool posts to it, groups links by caller and counts the flows of the grouped links, builds the keys' indexes, and signals each reply.
import { getPriority, setPriority } from "node:os";
import { type MessagePort, workerData } from "node:worker_threads";
import { flowTotals, walkGraphs } from "../../src/format/flow-points.ts";
import { indexKeys } from "../../src/format/key-indexes.ts";
import { encodePages } from "../../src/format/page-codec.ts";
import { groupCallees } from "./build-model.ts";
import { type CalleeTask, type KeyTask, type PageBatch, pack, unpack, type WorkerReply } from "./page-pool.ts";

const { port, signal } = workerData as { port: MessagePort; signal: Int32Array };

/**
 * How far a worker's niceness is above the compiling thread's (Linux: a niceness is a thread's own,
 * and a thread starts at its creator's), so that a worker takes the cores the compiling thread leaves.
 * A pool starts a worker per core beside the compiling thread, which every section waits on: at 1M
 * objects on 2 cores, with the workers at its niceness it waited some 11 s for a core, 10 above it
 * some 4 s. On a machine busy with other work the workers get less of it too. Elsewhere a niceness
 * is the whole process's: raised, the compiling thread's would be too.
 */
const NICER_BY = 10;
if (process.platform === "linux") {
  try {
    // Relative, up to the highest niceness: lowering one (a compile run with `nice -n 15`) needs a privilege.
    setPriority(Math.min(19, getPriority() + NICER_BY));
  } catch {
    // A priority helps the compile; it is never a reason to fail it.
  }
}

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
