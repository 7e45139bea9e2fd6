// @module The page worker: encodes the batches of raw pages a PagePool posts to it, groups links by caller, counts what flow points reach, lays out the fields' keys, and signals each reply.
import { type MessagePort, workerData } from "node:worker_threads";
import { KeyLayout } from "../../src/format/field-keys.ts";
import { reachCounts } from "../../src/format/flow-points.ts";
import { encodePages } from "../../src/format/page-codec.ts";
import { groupCallees } from "./build-model.ts";
import {
  type CalleeTask,
  type KeyTask,
  type PageBatch,
  pack,
  type RanksTask,
  type ReachTask,
  unpack,
  type WorkerReply,
} from "./page-pool.ts";

const { port, signal } = workerData as { port: MessagePort; signal: Int32Array };

/** The key tasks laid out as far as they go without ranks, by id, until their ranks come; or why they could not be. */
const keyLayouts = new Map<number, KeyLayout>();
const keyFailures = new Map<number, unknown>();

port.on("message", (message: PageBatch | ReachTask | KeyTask | RanksTask | CalleeTask) => {
  if (message.kind === "keys") {
    layKeys(message);
    return;
  }
  if (message.kind === "ranks") {
    for (const id of message.tasks) answer(id, () => finishKeys(id, message.rankOfValue));
    return;
  }
  answer(message.id, () => {
    if (message.kind === "pages") {
      const reply = { id: message.id, ...pack(encodePages(unpack(message), message.codec)) } satisfies WorkerReply;
      port.postMessage(reply, [reply.bytes.buffer]);
    } else if (message.kind === "callees") {
      const callees = groupCallees(message.links, message.rankOfSlot);
      const { offsets, targets, types, flags } = callees.links;
      port.postMessage({ id: message.id, callees } satisfies WorkerReply, [
        ...[offsets, targets, types, flags].map((array) => array.buffer as ArrayBuffer),
      ]);
    } else {
      const counts = reachCounts(message.graph, message.sources, message.spend) as Uint32Array<ArrayBuffer>;
      port.postMessage({ id: message.id, counts } satisfies WorkerReply, [counts.buffer]);
    }
  });
});

/** Runs `work` (which posts task `id`'s reply), posting its failure in its place; then signals the pool. */
function answer(id: number, work: () => void): void {
  try {
    work();
  } catch (error) {
    port.postMessage({ id, error: String((error as Error)?.stack ?? error) } satisfies WorkerReply);
  }
  // After the post: the pool, woken, finds the reply on its port.
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
}

/** Lays a key task out as far as it goes without ranks; a failure is kept and answered when its ranks come. */
function layKeys(task: KeyTask): void {
  try {
    keyLayouts.set(task.id, new KeyLayout(task.field, task.values));
  } catch (error) {
    keyFailures.set(task.id, error);
  }
}

function finishKeys(id: number, rankOfValue: Uint32Array): void {
  const layout = keyLayouts.get(id);
  keyLayouts.delete(id);
  if (!layout) {
    const failure = keyFailures.get(id) ?? new Error(`keys task ${id}: never laid out`);
    keyFailures.delete(id);
    throw failure;
  }
  const fieldKeys = layout.ranked(rankOfValue);
  const { offsets, postings, pages, trigrams, reversed, reversedSamples } = fieldKeys;
  const arrays = [offsets, postings, reversed, ...trigrams, ...reversedSamples, ...Object.values(pages)];
  // Each buffer once: some arrays may be views of one buffer.
  const buffers = new Set(arrays.flatMap((array) => (ArrayBuffer.isView(array) ? [array.buffer as ArrayBuffer] : [])));
  port.postMessage({ id, fieldKeys } satisfies WorkerReply, [...buffers]);
}
