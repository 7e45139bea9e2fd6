// @module PagePool: a PageEncoder that encodes batches of pages (deflated, or rows against their dictionary) on worker threads while the compile goes on encoding, and groups the links, counts the flow points' graphs and builds the keys' indexes there too.
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
import type { ReachCounter, WalkGraph } from "../../src/format/flow-points.ts";
import type { KeyIndexer } from "../../src/format/key-indexes.ts";
import type { PlanThreads } from "../../src/format/layout-plan.ts";
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

/** What some flow points reach in a graph, to count as reachCounts does. */
export interface ReachTask {
  kind: "reach";
  id: number;
  graph: WalkGraph;
  sources: Uint32Array;
  spend: number;
}

/** An analysis's links and the rank of each object slot, to group by caller as groupCallees does. */
export interface CalleeTask {
  kind: "callees";
  id: number;
  links: ValidatedAnalysis["links"];
  rankOfSlot: Uint32Array;
}

/** A nearly unique field's sorted keys, to build their trigram index and reversed order as indexKeys does. */
export interface KeyTask {
  kind: "keys";
  id: number;
  keys: readonly string[];
}

/** A batch's pages as stored, back to back; a reach task's counts; a key task's indexes; or why the worker failed. */
export type WorkerReply =
  | { id: number; bytes: Uint8Array<ArrayBuffer>; lengths: Uint32Array }
  | { id: number; counts: Uint32Array<ArrayBuffer> }
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

  /** A ReachCounter on the workers: the graph is copied to one of them (some 20 MB at 1M objects). */
  readonly countReach: ReachCounter = (graph, sources, spend) => {
    const id = this.posted++;
    const task: ReachTask = { kind: "reach", id, graph, sources, spend };
    return this.post(this.ports[id % this.ports.length], task, [], "counting flow points", (reply) =>
      "counts" in reply ? reply.counts : undefined,
    );
  };

  /**
   * Posts `task` to `port` (the buffers of `transfer` moved with it); what it returns gives the part
   * of the reply `answer` picks, waiting for the reply if need be.
   */
  private post<R>(
    port: MessagePort,
    task: PageBatch | ReachTask | KeyTask | CalleeTask,
    transfer: ArrayBuffer[],
    doing: string,
    answer: (reply: WorkerReply) => R | undefined,
  ): () => R {
    port.postMessage(task, transfer);
    return () => {
      const result = answer(this.take(task.id, doing));
      if (result === undefined) throw new Error(`${task.kind} task ${task.id}: a worker answered something else`);
      return result;
    };
  }

  /**
   * A CalleeGrouper on the workers: the links are copied to one of them (some 65 MB at 1M objects
   * and 5M links), grouped there while the compiling thread makes the model's records.
   */
  readonly groupCallees: CalleeGrouper = (links, rankOfSlot) => {
    const id = this.posted++;
    const task: CalleeTask = { kind: "callees", id, links, rankOfSlot };
    return this.post(this.ports[id % this.ports.length], task, [], "grouping links", (reply) =>
      "callees" in reply ? reply.callees : undefined,
    );
  };

  /**
   * A KeyIndexer on a worker of its own: the keys are copied there, and it builds what took the
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
  readonly threads: PlanThreads = { pages: this, countReach: this.countReach, indexKeys: this.indexKeys };

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
