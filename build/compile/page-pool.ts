// @module PagePool: a PageEncoder that encodes batches of pages (deflated, or rows against their dictionary) on worker threads while the compile goes on encoding, and groups the links (then counts the flow points' graphs) and builds the keys' indexes there too.
//
// Section encoders are synchronous, so the pool is too: a batch is posted at once, and its pages are
// collected (waiting on a shared counter the workers bump, then reading their ports with
// receiveMessageOnPort) only when its section is finished. Each page is encoded by the same
// encodePages whichever worker takes it, and pages are put back in the order they were given:
// the snapshot's bytes do not depend on the threads' timing.
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from "node:worker_threads";
import type { Block } from "../../src/format/blocks.ts";
import type { FlowTotals } from "../../src/format/flow-points.ts";
import type { KeyIndexer } from "../../src/format/key-indexes.ts";
import type { PlanThreads } from "../../src/format/layout-plan.ts";
import type { CalleeLinks, SnapshotModel } from "../../src/format/model.ts";
import type { PageCodec, PageEncoder } from "../../src/format/page-codec.ts";
import type { ValidatedAnalysis } from "../analysis/collector.ts";
import type { CalleeGrouper, GroupedCallees } from "./build-model.ts";

/** Raw pages to encode, back to back (pack), with their codec. */
export interface PageBatch {
  kind: "pages";
  id: number;
  bytes: Uint8Array<ArrayBuffer>;
  lengths: Uint32Array;
  codec: PageCodec;
}

/**
 * An analysis's links and the rank of each object slot, to group by caller as groupCallees does
 * (the reply `id`), then the roles of the ranks, to count the flows of those links as countFlows
 * does (the reply `flowsId`).
 */
export interface CalleeTask {
  kind: "callees";
  id: number;
  flowsId: number;
  links: ValidatedAnalysis["links"];
  rankOfSlot: Uint32Array;
  roles: Uint8Array;
}

/** A nearly unique field's sorted keys, to build their trigram index and reversed order as indexKeys does. */
export interface KeyTask {
  kind: "keys";
  id: number;
  keys: readonly string[];
}

/** A batch's pages as stored, back to back; a callee task's flow totals; a key task's indexes; or why the worker failed. */
export type WorkerReply =
  | { id: number; bytes: Uint8Array<ArrayBuffer>; lengths: Uint32Array }
  | { id: number; flows: FlowTotals }
  | { id: number; trigrams: Block[]; reversed: Uint32Array }
  | { id: number; callees: GroupedCallees }
  | { id: number; error: string };

/**
 * Batches posted and not yet collected, per worker: a bound on the raw pages waiting in memory when
 * the compile runs ahead of the workers (rows are laid out faster than they are coded), 4 MiB each;
 * while other sections are encoded, about a second of the workers' encoding.
 */
const IN_FLIGHT_PER_WORKER = 16;

/** How long the compile waits for any worker's reply before it gives up on the pool. */
const WORKER_SILENCE_MS = 120_000;

export class PagePool implements PageEncoder {
  private readonly ports: MessagePort[] = [];
  private readonly workers: Worker[] = [];
  /** Bumped by a worker after each reply it posts. */
  private readonly signal = new Int32Array(new SharedArrayBuffer(4));
  private readonly replies = new Map<number, WorkerReply>();
  private posted = 0;
  private received = 0;
  /**
   * The worker key tasks go to: started for them, and ended once none is outstanding, so that its
   * heap (the keys copied there, some 200 MB at 1M objects) is given back then rather than held by
   * a page worker to the end of the compile.
   */
  private keyThread: { worker: Worker; port: MessagePort } | undefined;
  private keyTasksOutstanding = 0;
  private readonly ended: Promise<unknown>[] = [];

  constructor(threads = availableParallelism()) {
    for (let t = 0; t < Math.max(1, threads); t++) {
      const { worker, port } = this.startWorker();
      this.workers.push(worker);
      this.ports.push(port);
    }
  }

  private startWorker(): { worker: Worker; port: MessagePort } {
    const { port1, port2 } = new MessageChannel();
    const worker = new Worker(fileURLToPath(new URL("./page-worker.ts", import.meta.url).href), {
      workerData: { port: port2, signal: this.signal },
      transferList: [port2],
    });
    worker.unref();
    return { worker, port: port1 };
  }

  hasRoom(): boolean {
    this.poll();
    return this.posted - this.received < IN_FLIGHT_PER_WORKER * this.ports.length;
  }

  encode(raws: Uint8Array[], codec: PageCodec): () => Uint8Array[] {
    while (!this.hasRoom()) this.receive();
    const id = this.posted++;
    const batch: PageBatch = { kind: "pages", id, ...pack(raws), codec };
    return this.post(this.ports[id % this.ports.length], batch, [batch.bytes.buffer], "encoding pages", (reply) =>
      "lengths" in reply ? unpack(reply) : undefined,
    );
  }

  /**
   * Posts `task` to `port` (the buffers of `transfer` moved with it); what it returns gives the part
   * of the reply `answer` picks, waiting for the reply if need be.
   */
  private post<R>(
    port: MessagePort,
    task: PageBatch | KeyTask | CalleeTask,
    transfer: ArrayBuffer[],
    doing: string,
    answer: (reply: WorkerReply) => R | undefined,
  ): () => R {
    port.postMessage(task, transfer);
    return this.reply(task.id, doing, answer);
  }

  /** What gives the part of reply `id` that `answer` picks, waiting for the reply if need be. */
  private reply<R>(id: number, doing: string, answer: (reply: WorkerReply) => R | undefined): () => R {
    return () => {
      const result = answer(this.take(id, doing));
      if (result === undefined) throw new Error(`${doing}: a worker answered reply ${id} with something else`);
      return result;
    };
  }

  /**
   * A CalleeGrouper on the workers: the links are copied to one of them (some 65 MB at 1M objects
   * and 5M links), grouped there while the compiling thread makes the model's records. That worker
   * then counts the flows of the grouped links (some 5 s of one thread at 1M objects) while the
   * model is finished, when the other threads have little to do: countedFlows gives them.
   */
  readonly groupCallees: CalleeGrouper = (links, rankOfSlot, roles) => {
    const id = this.posted++;
    const flowsId = this.posted++;
    const task: CalleeTask = { kind: "callees", id, flowsId, links, rankOfSlot, roles };
    const port = this.ports[id % this.ports.length];
    const callees = this.post(port, task, [], "grouping links", (reply) =>
      "callees" in reply ? reply.callees : undefined,
    );
    const flows = this.reply(flowsId, "counting flow points", (reply) => ("flows" in reply ? reply.flows : undefined));
    return () => {
      const grouped = callees();
      this.flowsOfLinks = { links: grouped.links, flows };
      return grouped;
    };
  };

  /** The links last grouped on a worker, and the flow totals it counts on them. */
  private flowsOfLinks: { links: CalleeLinks; flows: () => FlowTotals } | undefined;

  /** The flow totals of `model`, when its links were grouped here (PlanThreads.countedFlows). */
  readonly countedFlows = (model: SnapshotModel): (() => FlowTotals) | undefined =>
    model.callees === this.flowsOfLinks?.links ? this.flowsOfLinks.flows : undefined;

  /**
   * A KeyIndexer on a worker of its own: the keys are copied there, and it builds what would take the
   * compiling thread some 8 s at 1M objects.
   */
  readonly indexKeys: KeyIndexer = (keys) => {
    const task: KeyTask = { kind: "keys", id: this.posted++, keys };
    this.keyThread ??= this.startWorker();
    const indexes = this.post(this.keyThread.port, task, [], "indexing keys", (reply) =>
      "trigrams" in reply ? { trigrams: reply.trigrams, reversed: reply.reversed } : undefined,
    );
    this.keyTasksOutstanding++;
    return () => {
      try {
        return indexes();
      } finally {
        if (--this.keyTasksOutstanding === 0) this.endKeyThread();
      }
    };
  };

  private endKeyThread(): void {
    if (!this.keyThread) return;
    this.keyThread.port.close();
    this.ended.push(this.keyThread.worker.terminate());
    this.keyThread = undefined;
  }

  /** What a LayoutPlan hands to the workers: all of it. */
  readonly threads: PlanThreads = { pages: this, countedFlows: this.countedFlows, indexKeys: this.indexKeys };

  /** The reply to message `id`, waiting for it if need be; a worker's failure thrown as what it was `doing`. */
  private take(id: number, doing: string): WorkerReply {
    while (!this.replies.has(id)) this.receive();
    const reply = this.replies.get(id) as WorkerReply;
    this.replies.delete(id);
    if ("error" in reply) throw new Error(`${doing} failed on a worker: ${reply.error}`);
    return reply;
  }

  /**
   * Collects the replies the workers have posted, waiting until there is at least one. A worker
   * that died cannot say so (its exit event needs the event loop this thread blocks), so a silence
   * far longer than any batch takes fails the compile rather than hanging it.
   */
  private receive(): void {
    const deadline = performance.now() + WORKER_SILENCE_MS;
    for (;;) {
      const seen = Atomics.load(this.signal, 0);
      if (this.poll()) return;
      const left = deadline - performance.now();
      if (left <= 0)
        throw new Error(
          `no page worker answered in ${WORKER_SILENCE_MS / 1000} s (a batch takes milliseconds): a worker died or hangs; nothing was written`,
        );
      Atomics.wait(this.signal, 0, seen, left);
    }
  }

  /** Collects the replies the workers have posted; whether there were any. */
  private poll(): boolean {
    let got = false;
    for (const port of this.keyThread ? [...this.ports, this.keyThread.port] : this.ports) {
      for (let m = receiveMessageOnPort(port); m; m = receiveMessageOnPort(port)) {
        const reply = m.message as WorkerReply;
        this.replies.set(reply.id, reply);
        this.received++;
        got = true;
      }
    }
    return got;
  }

  async close(): Promise<void> {
    this.endKeyThread();
    for (const port of this.ports) port.close();
    await Promise.all([...this.workers.map((worker) => worker.terminate()), ...this.ended]);
  }
}

/** `pages` back to back in one buffer, and the length of each: one transfer for a whole batch. */
export function pack(pages: readonly Uint8Array[]): { bytes: Uint8Array<ArrayBuffer>; lengths: Uint32Array } {
  const lengths = Uint32Array.from(pages, (page) => page.length);
  const bytes = new Uint8Array(lengths.reduce((sum, length) => sum + length, 0));
  let at = 0;
  for (const page of pages) {
    bytes.set(page, at);
    at += page.length;
  }
  return { bytes, lengths };
}

/** The pages `pack` laid back to back (views of its buffer). */
export function unpack({ bytes, lengths }: { bytes: Uint8Array; lengths: Uint32Array }): Uint8Array[] {
  const pages: Uint8Array[] = [];
  for (let i = 0, at = 0; i < lengths.length; at += lengths[i++]) pages.push(bytes.subarray(at, at + lengths[i]));
  return pages;
}
