// @module streamJson: an answer holding StreamedLists written as JSON while the client reads it, pulled chunk by chunk, the bytes c.json would send.
import type { Context } from "hono";
import { type JsonText, StreamedList } from "../query/streamed-list.ts";
import type { AppEnv } from "./context.ts";

/** JSON text gathered before a chunk is encoded and handed to the client: big enough that chunks cost little each. */
const CHUNK_CHARS = 64 * 1024;

const encoder = new TextEncoder();

/** A chunk of an answer: text, or UTF-8 that nothing changes (in a buffer of its own, or stored text as read). */
type Chunk = string | Uint8Array<ArrayBuffer>;

/** Whether `bytes` lie in an ArrayBuffer (not a SharedArrayBuffer), as a response body's must. */
const inArrayBuffer = (bytes: Uint8Array): bytes is Uint8Array<ArrayBuffer> => bytes.buffer instanceof ArrayBuffer;

/** JSON text gathered until it makes a chunk: a string while every part was one, else UTF-8. */
class ChunkBuffer {
  /** Strings added since the last bytes. */
  #text: string[] = [];
  /** Bytes added, each run of strings before them encoded: empty while only strings were added. */
  #bytes: Uint8Array[] = [];
  /** Characters and bytes gathered. */
  #length = 0;

  add(part: JsonText): void {
    if (typeof part === "string") this.#text.push(part);
    else {
      this.#encodeText();
      this.#bytes.push(part);
    }
    this.#length += part.length;
  }

  /** The text gathered, once it is a chunk's worth (or `always`); null before. */
  take(always = false): Chunk | null {
    if (this.#length === 0 || (!always && this.#length < CHUNK_CHARS)) return null;
    this.#length = 0;
    if (this.#bytes.length === 0) {
      const chunk = this.#text.join("");
      this.#text = [];
      return chunk;
    }
    this.#encodeText();
    const chunk = concatBytes(this.#bytes);
    this.#bytes = [];
    return chunk;
  }

  #encodeText(): void {
    if (this.#text.length === 0) return;
    this.#bytes.push(encoder.encode(this.#text.join("")));
    this.#text = [];
  }
}

/** `parts` one after the other in one buffer. */
function concatBytes(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** `chunks` as one body: a lone chunk as it is (a level's graph, 785 KB at level 5, is not copied again), else a string while all are, else UTF-8. */
function joinChunks(chunks: readonly Chunk[]): Chunk {
  if (chunks.length === 1) return chunks[0];
  if (chunks.every((chunk) => typeof chunk === "string")) return chunks.join("");
  return concatBytes(chunks.map((chunk) => (typeof chunk === "string" ? encoder.encode(chunk) : chunk)));
}

/** The bytes a stream of the answer hands on: strings encoded, bytes as they are. */
const utf8 = (chunk: Chunk): Uint8Array => (typeof chunk === "string" ? encoder.encode(chunk) : chunk);

/**
 * Writes the JSON text of `value`, as JSON.stringify writes it, into `buffer`, yielding each chunk
 * it fills: each batch of a StreamedList is stringified on its own (its items are plain) or written as stored, the
 * objects and arrays holding one are walked here, anything else is stringified whole. One
 * generator for the whole answer, nested ones only for values holding a list: each step through
 * an async generator costs a few turns of the microtask queue, more than a short answer's text.
 */
async function* writeJson(value: unknown, buffer: ChunkBuffer): AsyncGenerator<Chunk> {
  if (!holdsStreamedList(value)) buffer.add(JSON.stringify(value));
  else if (value instanceof StreamedList) {
    let first = true;
    buffer.add("[");
    for await (const batch of value.texts() ?? value.batches()) {
      const items: JsonText = typeof batch === "string" || batch instanceof Uint8Array ? batch : JSON.stringify(batch);
      // "[]": an empty batch.
      if (items.length === 2) continue;
      if (!first) buffer.add(",");
      first = false;
      // The array's items without its brackets (one byte each in UTF-8).
      const inner = typeof items === "string" ? items.slice(1, -1) : items.subarray(1, -1);
      if (typeof inner !== "string" && inner.length >= CHUNK_CHARS / 2 && inArrayBuffer(inner)) {
        // Stored text half a chunk long or more (a level-5 node's member page, 64 KiB) goes out as
        // it is, after what was gathered before it: copied into a chunk, each of a large node's
        // pages would be copied once more on its way, and its answer would allocate twice its length.
        const gathered = buffer.take(true);
        if (gathered !== null) yield gathered;
        yield inner;
        continue;
      }
      buffer.add(inner);
      const chunk = buffer.take();
      if (chunk !== null) yield chunk;
    }
    buffer.add("]");
  } else if (Array.isArray(value)) {
    buffer.add("[");
    for (let i = 0; i < value.length; i++) {
      if (i > 0) buffer.add(",");
      // As JSON.stringify: an item it cannot write is null.
      if (!writable(value[i])) buffer.add("null");
      else if (!holdsStreamedList(value[i])) buffer.add(JSON.stringify(value[i]));
      else yield* writeJson(value[i], buffer);
    }
    buffer.add("]");
  } else {
    let first = true;
    buffer.add("{");
    for (const [key, item] of Object.entries(value)) {
      if (!writable(item)) continue;
      buffer.add(`${first ? "" : ","}${JSON.stringify(key)}:`);
      first = false;
      if (!holdsStreamedList(item)) buffer.add(JSON.stringify(item));
      else yield* writeJson(item, buffer);
    }
    buffer.add("}");
  }
}

function holdsStreamedList(value: unknown): value is StreamedList<unknown> | unknown[] | Record<string, unknown> {
  if (value instanceof StreamedList) return true;
  if (Array.isArray(value)) return value.some(holdsStreamedList);
  return (
    value !== null &&
    typeof value === "object" &&
    Object.getPrototypeOf(value) === Object.prototype &&
    Object.values(value).some(holdsStreamedList)
  );
}

/** What JSON.stringify writes in an object (it leaves the others out). */
const writable = (value: unknown) => value !== undefined && typeof value !== "function" && typeof value !== "symbol";

/** The JSON text of `value` in chunks of about CHUNK_CHARS (a batch longer than that is one chunk, stored text of half that or more one as it is). */
export async function* jsonChunks(value: unknown): AsyncGenerator<Chunk> {
  const buffer = new ChunkBuffer();
  yield* writeJson(value, buffer);
  const rest = buffer.take(true);
  if (rest !== null) yield rest;
}

/**
 * A 200 whose body is `answer` as JSON. The first two chunks are made before answering, so a
 * failure to read them (storage, a corrupt page) still becomes an error response through onError;
 * an answer of at most two chunks goes out whole, as c.json would send it. Only chunks of half a
 * chunk's length or more count: the short text gathered before stored text that jsonChunks passes
 * on as it is does not. A longer answer is a stream the client pulls: the next chunk is made when
 * the last one is taken, so the heap holds one chunk and the batch behind it, however long the
 * answer. A failure further on cannot change the status any more: it is logged and errors the
 * stream, and the client sees a body cut short (invalid JSON).
 */
export async function streamJson(c: Context<AppEnv>, answer: unknown): Promise<Response> {
  const headers = { "Content-Type": "application/json" };
  const chunks = jsonChunks(answer);
  const ready: Chunk[] = [];
  for (let counted = 0; counted < 2; ) {
    const next = await chunks.next();
    if (next.done) return c.body(joinChunks(ready), 200, headers);
    ready.push(next.value);
    if (next.value.length >= CHUNK_CHARS / 2) counted++;
  }
  const path = new URL(c.req.url).pathname;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = ready.length ? { done: false as const, value: ready.shift()! } : await chunks.next();
          if (next.done) controller.close();
          else controller.enqueue(utf8(next.value));
        } catch (error) {
          console.error("answer cut short: it failed after its first bytes were sent", c.req.method, path, error);
          controller.error(error);
        }
      },
      // The client went away, or the answer is not sent (HEAD, 304): stop reading the snapshot.
      async cancel() {
        await chunks.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
  return c.body(body, 200, headers);
}
