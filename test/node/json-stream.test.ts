// @module Answers written as they are read: the JSON text of answers holding StreamedLists equals JSON.stringify's, errors before the first bytes reach onError, later ones cut the body short.
import fc from "fast-check";
import { Hono } from "hono";
import { afterEach, describe, expect, it, vi } from "vitest";
import { StorageUnavailableError } from "../../src/contract/errors.ts";
import type { AppEnv } from "../../src/http/context.ts";
import { jsonChunks, streamJson } from "../../src/http/json-stream.ts";
import { collect, StreamedList } from "../../src/query/streamed-list.ts";

/** How a list gives its batches' JSON text, as a stored one does: not at all, as strings, in UTF-8, or either by turns. */
type TextForm = "none" | "strings" | "utf8" | "both";

/** `items` cut into batches of the given sizes (empty batches included), the rest in one. */
function listOf<T>(items: readonly T[], sizes: readonly number[] = [], form: TextForm = "none"): StreamedList<T> {
  const batches = async function* () {
    let at = 0;
    for (const size of sizes) {
      yield items.slice(at, at + size);
      at += size;
    }
    yield items.slice(at);
  };
  if (form === "none") return new StreamedList(batches);
  return new StreamedList(batches, async function* () {
    let k = 0;
    for await (const batch of batches()) {
      const text = JSON.stringify(batch);
      yield form === "strings" || (form === "both" && k++ % 2 === 0) ? text : new TextEncoder().encode(text);
    }
  });
}

/** The answer's chunks as text: a chunk in UTF-8 ends where a batch does, never inside a character. */
async function chunksOf(value: unknown): Promise<string[]> {
  const chunks: string[] = [];
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  for await (const chunk of jsonChunks(value)) chunks.push(typeof chunk === "string" ? chunk : decoder.decode(chunk));
  return chunks;
}
const text = async (value: unknown) => (await chunksOf(value)).join("");

async function chunksOfRaw(value: unknown): Promise<unknown[]> {
  const chunks: unknown[] = [];
  for await (const chunk of jsonChunks(value)) chunks.push(chunk);
  return chunks;
}

const items = (n: number) => Array.from({ length: n }, (_, i) => ({ id: String(i), fullName: `a.b.c.Class${i}` }));

/** Arrays of plain items, anywhere in a JSON value, made StreamedLists cut into random batches. */
const answers = fc
  .tuple(
    fc.jsonValue({ maxDepth: 4 }),
    fc.array(fc.nat(4)),
    fc.array(fc.boolean(), { minLength: 1 }),
    fc.array(fc.constantFrom<TextForm>("none", "strings", "utf8", "both"), { minLength: 1 }),
  )
  .map(([value, sizes, picks, forms]) => {
    let pick = 0;
    const streamed = (v: unknown): unknown => {
      if (Array.isArray(v))
        return picks[pick++ % picks.length] ? listOf(v, sizes, forms[pick % forms.length]) : v.map(streamed);
      if (v !== null && typeof v === "object")
        return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, streamed(item)]));
      return v;
    };
    return { value, answer: streamed(value) };
  });

describe("jsonChunks", () => {
  it("writes what JSON.stringify writes of the collected answer (property)", async () => {
    await fc.assert(
      fc.asyncProperty(answers, async ({ value, answer }) => {
        expect(await collect(answer)).toEqual(value);
        expect(await text(answer)).toBe(JSON.stringify(value));
      }),
      { numRuns: 300 },
    );
  });

  it("leaves out what JSON.stringify leaves out of objects, and writes it as null in arrays", async () => {
    const answer = { a: undefined, b: listOf([1, 2]), c: [undefined, listOf([])], d: () => 1, e: null };
    expect(await text(answer)).toBe('{"b":[1,2],"c":[null,[]],"e":null}');
  });

  it("writes text stored in UTF-8 as it is, in bytes, and other text as strings", async () => {
    const stored = await chunksOfRaw({ a: listOf([1, "é"], [1], "utf8"), b: listOf([2], [], "strings") });
    expect(stored.length).toBe(1);
    expect(stored[0]).toBeInstanceOf(Uint8Array);
    expect(new TextDecoder().decode(stored[0] as Uint8Array)).toBe('{"a":[1,"é"],"b":[2]}');
    const strings = await chunksOfRaw({ b: listOf([2], [], "strings") });
    expect(strings).toEqual(['{"b":[2]}']);
  });

  it("hands stored text of half a chunk or more on as it is, after what was gathered before it", async () => {
    const small = items(3);
    const large = items(1_000);
    const stored = [small, large, small].map((batch) => new TextEncoder().encode(JSON.stringify(batch)));
    expect(stored[1].length).toBeGreaterThanOrEqual(32 * 1024);
    const list = new StreamedList(
      async function* () {},
      async function* () {
        yield* stored;
      },
    );
    const chunks = await chunksOfRaw({ objects: list });
    // Not copied: a view of the batch's own bytes, without its brackets.
    const passed = chunks.filter((chunk) => chunk instanceof Uint8Array && chunk.buffer === stored[1].buffer);
    expect(passed).toHaveLength(1);
    expect((passed[0] as Uint8Array).length).toBe(stored[1].length - 2);
    const decoder = new TextDecoder();
    const whole = chunks.map((chunk) => (typeof chunk === "string" ? chunk : decoder.decode(chunk as Uint8Array)));
    expect(whole.join("")).toBe(JSON.stringify({ objects: [...small, ...large, ...small] }));
  });

  it("cuts a long answer into chunks of about 64 KiB, one batch at a time", async () => {
    const objects = Array.from({ length: 20_000 }, (_, i) => ({ id: String(i), name: `object ${i}` }));
    const chunks = await chunksOf({ total: objects.length, items: listOf(objects, Array(39).fill(500)) });
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.slice(0, -1).every((c) => c.length >= 64 * 1024 && c.length < 256 * 1024)).toBe(true);
    expect(JSON.parse(chunks.join(""))).toEqual({ total: objects.length, items: objects });
  });
});

describe("streamJson", () => {
  afterEach(() => vi.restoreAllMocks());

  /** An app answering /answer with `answer` through streamJson, errors as `onError` makes them. */
  function appAnswering(answer: () => unknown) {
    const app = new Hono<AppEnv>();
    app.get("/answer", (c) => streamJson(c, answer()));
    app.onError((error) => new Response(`onError: ${error.message}`, { status: 503 }));
    return app;
  }

  it("sends a short answer whole, as c.json does", async () => {
    const app = new Hono<AppEnv>();
    const value = { totalObjects: 3, objects: items(3) };
    app.get("/streamed", (c) => streamJson(c, { totalObjects: 3, objects: listOf(value.objects, [1]) }));
    app.get("/json", (c) => c.json(value));
    const [streamed, json] = await Promise.all([app.request("/streamed"), app.request("/json")]);
    expect(streamed.headers.get("Content-Type")).toBe(json.headers.get("Content-Type"));
    expect(await streamed.text()).toBe(await json.text());
  });

  it("sends an answer stored in UTF-8 and kept (a level's graph) as it is, and leaves the kept bytes as they were", async () => {
    const kept = new TextEncoder().encode(JSON.stringify(items(200)));
    const copy = kept.slice();
    const stored = () =>
      new StreamedList(
        async function* () {},
        async function* () {
          yield kept;
        },
      );
    for (let asked = 0; asked < 2; asked++) {
      const response = await appAnswering(stored).request("/answer");
      expect(await response.text()).toBe(JSON.stringify(items(200)));
      expect(kept.byteLength, "not detached").toBe(copy.byteLength);
      expect(kept).toEqual(copy);
    }
  });

  it("streams a long one, the same bytes, pulled chunk by chunk", async () => {
    const all = items(30_000);
    let batchesMade = 0;
    const list = new StreamedList(async function* () {
      for (let at = 0; at < all.length; at += 500) {
        batchesMade++;
        yield all.slice(at, at + 500);
      }
    });
    const response = await appAnswering(() => ({ objects: list })).request("/answer");
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const first = await reader.read();
    // Two chunks were made before answering, and a read takes one: nothing is made ahead of the client.
    expect(batchesMade).toBeLessThan(10);
    const rest: Uint8Array[] = [first.value!];
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest.push(r.value);
    expect(Buffer.concat(rest).toString("utf8")).toBe(JSON.stringify({ objects: all }));
    expect(batchesMade).toBe(60);
  });

  it("a failure before the first bytes goes to onError", async () => {
    const failing = new StreamedList(async function* () {
      yield items(10);
      throw new StorageUnavailableError("R2 is down");
    });
    const response = await appAnswering(() => ({ objects: failing })).request("/answer");
    expect(response.status).toBe(503);
    expect(await response.text()).toBe("onError: R2 is down");
  });

  it("a failure to read the second page of stored text goes to onError too: the short text before a page is no chunk of its own", async () => {
    const page = new TextEncoder().encode(JSON.stringify(items(1_000)));
    const failing = new StreamedList(
      async function* () {},
      async function* () {
        yield page;
        throw new StorageUnavailableError("R2 is down");
      },
    );
    const response = await appAnswering(() => ({ objects: failing })).request("/answer");
    expect(response.status).toBe(503);
    expect(await response.text()).toBe("onError: R2 is down");
  });

  it("a failure after them errors the stream and is logged: the client gets a body cut short", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const failing = new StreamedList(async function* () {
      for (let i = 0; i < 20; i++) yield items(1000);
      throw new StorageUnavailableError("R2 went away");
    });
    const response = await appAnswering(() => ({ objects: failing })).request("/answer");
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow("R2 went away");
    expect(logged).toHaveBeenCalledWith(
      "answer cut short: it failed after its first bytes were sent",
      "GET",
      "/answer",
      expect.any(StorageUnavailableError),
    );
  });

  it("a cancelled body stops making the answer", async () => {
    let finished = false;
    let made = 0;
    const endless = new StreamedList(async function* () {
      try {
        for (;;) {
          made++;
          yield items(1000);
        }
      } finally {
        finished = true;
      }
    });
    const response = await appAnswering(() => ({ objects: endless })).request("/answer");
    await response.body!.cancel();
    expect(finished).toBe(true);
    expect(made).toBeLessThan(5);
  });
});
