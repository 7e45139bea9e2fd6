// @module Answers written as they are read, inside workerd: stored text of a chunk's size (a level-5 node's member pages) goes out in a streamed Response as it is, the same bytes JSON.stringify writes.
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../../src/http/context.ts";
import { streamJson } from "../../src/http/json-stream.ts";
import { StreamedList } from "../../src/query/streamed-list.ts";

/** `n` members as a level-5 node lists them. */
const members = (n: number, from: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: String(from + i),
    name: `member${from + i}`,
    fullName: `com.acme.billing.Member${from + i}`,
    type: "Java Method",
    typeId: "JV_METHOD",
  }));

describe("streamJson in workerd", () => {
  it("streams pages of stored text, each as it is, in a Response the client reads whole", async () => {
    // Pages of some 64 KiB (member pages' size), fresh bytes each, as inflating makes them.
    const pages = Array.from({ length: 12 }, (_, k) => members(k === 11 ? 7 : 640, k * 640));
    const stored = pages.map((page) => new TextEncoder().encode(JSON.stringify(page)));
    expect(stored[0].length).toBeGreaterThan(64 * 1024);
    const app = new Hono<AppEnv>();
    app.get("/members", (c) =>
      streamJson(c, {
        children: new StreamedList(
          async function* () {},
          async function* () {
            yield* stored;
          },
        ),
      }),
    );
    const response = await app.request("/members");
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(JSON.stringify({ children: pages.flat() }));
  });
});
