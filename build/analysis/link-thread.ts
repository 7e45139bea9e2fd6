// @module LinkThread: the plain link lines of an analysis file, scanned on a worker thread while the compiling thread reads the other lines, handed over in line order.
import { fileURLToPath } from "node:url";
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from "node:worker_threads";
import type { LinkBatch } from "./link-batches.ts";

/** Batches the worker may post before the compiling thread has taken them: at 4 MiB of file each, a bound on the links held between the two. */
export const BATCHES_AHEAD = 32;

export interface LinkWorkerData {
  path: string;
  /** How many batches the compiling thread has taken, bumped as it takes each. */
  consumed: Int32Array;
}

/**
 * Link lines are most of a large analysis, and scanning them most of its reading past the objects'
 * JSON; the compiling thread reads alone, so the machine's other cores are free. A worker reads the
 * same file and scans every line as a plain link line or not; the compiling thread, reading each
 * line in turn, takes the ones the worker scanned from its batches rather than from the text it
 * would otherwise decode: the same links, met in the same order, so the analysis read is the same.
 */
export class LinkThread {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly consumed = new Int32Array(new SharedArrayBuffer(4));
  private readonly batches: LinkBatch[] = [];
  private through = 0;
  private failure: Error | undefined;
  private closing = false;
  private exited = false;
  private wake: (() => void) | undefined;
  private batch: LinkBatch | undefined;
  /** The batch's run at hand, and the index of its first link. */
  private run = 0;
  private runFirst = 0;
  /** The index of the link of the line linesFrom was last asked for. */
  private first = 0;
  private readonly ids: (string | number)[] = [];
  private readonly types: string[] = [];

  /** The link linkAt found: ids as the worker numbered them (`idKey` gives each one's key). */
  readonly link = { from: 0, to: 0, type: "", escalated: false };

  constructor(path: string) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = new Worker(fileURLToPath(new URL("./link-worker.ts", import.meta.url).href), {
      workerData: { path, consumed: this.consumed, port: port2 } satisfies LinkWorkerData & { port: MessagePort },
      transferList: [port2],
    });
    this.port.on("message", (batch: LinkBatch) => this.receive(batch));
    this.worker.on("error", (error) => this.fail(error));
    this.worker.on("exit", (code) => {
      this.exited = true;
      if (code !== 0 && !this.closing) this.fail(new Error(`it exited with code ${code}`));
      this.wake?.();
    });
  }

  private receive(batch: LinkBatch): void {
    this.batches.push(batch);
    this.through = batch.through;
    this.wake?.();
  }

  private fail(error: Error): void {
    this.failure ??= new Error(`scanning the link lines on a worker thread failed: ${error.message}`);
    this.wake?.();
  }

  /** Resolves once every line that ends at or before byte `end` of the file has been scanned. */
  async ready(end: number): Promise<void> {
    while (this.through < end) {
      if (this.failure) throw this.failure;
      if (this.exited) {
        // Its last batches may not have been delivered yet: taken from the port at once.
        for (let m = receiveMessageOnPort(this.port); m; m = receiveMessageOnPort(this.port))
          this.receive(m.message as LinkBatch);
        if (this.through < end)
          throw new Error(
            `the link lines' worker thread ended having scanned ${this.through} bytes of the file, not ${end}`,
          );
        return;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }

  /**
   * How many lines from `lineNumber` on, in a row, the worker scanned as plain link lines (0 when
   * that line is not one): `linkAt(0)`, `linkAt(1)` ... then give their links. Lines must be asked
   * in order, each once it is `ready`.
   */
  linesFrom(lineNumber: number): number {
    for (;;) {
      const batch = this.batch;
      if (batch !== undefined && this.run < batch.runStarts.length) {
        const start = batch.runStarts[this.run];
        const length = batch.runLengths[this.run];
        if (lineNumber < start) return 0;
        if (lineNumber < start + length) {
          this.first = this.runFirst + (lineNumber - start);
          return length - (lineNumber - start);
        }
        this.runFirst += length;
        this.run++;
      } else if (this.batches.length > 0) this.takeBatch();
      else return 0;
    }
  }

  /** Leaves in `link` the link of the line `i` lines after the one `linesFrom` was last asked for. */
  linkAt(i: number): void {
    const batch = this.batch as LinkBatch;
    const at = this.first + i;
    this.link.from = batch.from[at];
    this.link.to = batch.to[at];
    this.link.type = this.types[batch.type[at]];
    this.link.escalated = batch.escalated[at] === 1;
  }

  /** The key (as slotKey keys ids) of the id the worker numbered `n`. */
  idKey(n: number): string | number {
    return this.ids[n];
  }

  /** How many ids the worker has numbered so far. */
  get idCount(): number {
    return this.ids.length;
  }

  private takeBatch(): LinkBatch {
    const batch = this.batches.shift() as LinkBatch;
    for (const id of batch.newIds) this.ids.push(id);
    for (const type of batch.newTypes) this.types.push(type);
    this.batch = batch;
    this.run = 0;
    this.runFirst = 0;
    Atomics.add(this.consumed, 0, 1);
    Atomics.notify(this.consumed, 0);
    return batch;
  }

  async close(): Promise<void> {
    this.closing = true;
    this.port.close();
    await this.worker.terminate();
  }
}
