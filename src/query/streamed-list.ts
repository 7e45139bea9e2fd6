// @module StreamedList: a list of an answer produced a batch at a time while it is written out, so an answer never exists whole in memory; collect() makes an answer plain.
//
// A level-5 node's children at 300k objects are 40 MB of JSON: built as one array of objects, then
// one string, then one buffer, they would take 173 MB of heap where a Worker isolate has 128 MB. A query
// returns its small parts as they are and each long list as a StreamedList; the HTTP layer writes
// the answer as JSON batch by batch as the client reads it (src/http/json-stream.ts).

/**
 * JSON text as a string, or in UTF-8 as stored: text that comes as bytes (a page's) goes out as
 * bytes, never decoded to a string and encoded back.
 */
export type JsonText = string | Uint8Array;

/** Its items are plain JSON values (no StreamedList inside), written as JSON.stringify writes them. */
export class StreamedList<T> {
  readonly #batches: () => AsyncIterable<readonly T[]>;
  readonly #texts: (() => AsyncIterable<JsonText>) | undefined;

  /**
   * `batches` starts a new pass over the items each time it is called; `texts`, if given, a pass
   * over the same batches as the JSON text of arrays JSON.stringify would write of them, where the
   * snapshot stores that text (an answer then writes it out with no items made and stringified).
   */
  constructor(batches: () => AsyncIterable<readonly T[]>, texts?: () => AsyncIterable<JsonText>) {
    this.#batches = batches;
    this.#texts = texts;
  }

  /** A pass over the items, batch by batch. */
  batches(): AsyncIterable<readonly T[]> {
    return this.#batches();
  }

  /** A pass over the batches as the JSON text of arrays, where the list has it stored; else null. */
  texts(): AsyncIterable<JsonText> | null {
    return this.#texts?.() ?? null;
  }

  /** Each batch turned by `f`, which is told where the batch starts in the list. */
  mapBatches<U>(f: (batch: readonly T[], from: number) => readonly U[] | Promise<readonly U[]>): StreamedList<U> {
    const batches = this.#batches;
    return new StreamedList(async function* () {
      let from = 0;
      for await (const batch of batches()) {
        yield await f(batch, from);
        from += batch.length;
      }
    });
  }
}

/** An answer with its StreamedLists made arrays. */
export type Collected<T> =
  T extends StreamedList<infer U>
    ? Collected<U>[]
    : T extends readonly (infer E)[]
      ? Collected<E>[]
      : T extends object
        ? { [K in keyof T]: Collected<T[K]> }
        : T;

/** `answer` with every StreamedList in it read into an array: the whole answer in memory, for tests and tools that want it so. */
export async function collect<T>(answer: T): Promise<Collected<T>> {
  if (answer instanceof StreamedList) {
    const items: unknown[] = [];
    for await (const batch of answer.batches()) for (const item of batch) items.push(item);
    return items as Collected<T>;
  }
  if (Array.isArray(answer)) return (await Promise.all(answer.map((item) => collect(item)))) as Collected<T>;
  if (answer !== null && typeof answer === "object" && Object.getPrototypeOf(answer) === Object.prototype) {
    const entries = await Promise.all(Object.entries(answer).map(async ([key, value]) => [key, await collect(value)]));
    return Object.fromEntries(entries) as Collected<T>;
  }
  return answer as Collected<T>;
}
