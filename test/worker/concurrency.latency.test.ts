// @module 50 concurrent clients inside workerd, some cancelling mid-way: no 5xx, every answer the one the URL gets alone afterwards, and every URL still answers.
//
// A request joining a load whose owner was cancelled (the owner's I/O never settles in workerd) must
// not wait on it forever, nor may any later request for the same page.
import { beforeAll, describe, expect, it } from "vitest";
import { meshAnalysis } from "../support/mesh-analysis.ts";
import { appPath, BASE, fetchWorker, publishHistory } from "./harness.ts";

const application = "Concurrency & Co";
const OBJECTS = 4000;

const base = appPath(application);
const ids = Array.from({ length: 12 }, (_, k) => 1000 + ((k * 331) % OBJECTS));
const urls = [
  ...ids.flatMap((id) => [
    `${base}/objects/${id}/start-end-points?hops=32`,
    `${base}/objects/${id}/start-end-points?hops=3`,
    `${base}/objects/${id}?select=source-locations`,
    `${base}/objects/${id}/callees?select=source-locations`,
    `${base}/objects/${id}/callees`,
  ]),
  // Finds whose matches are kept with the sections (verified keys, an endswith): shared between
  // requests as they are worked out, as sections are.
  `${base}/objects?limit=5&name=tep1`,
  `${base}/objects?limit=5&skip=5&name=tep1`,
  `${base}/objects?limit=5&name=97&operator=endswith`,
  `${base}/objects?limit=5&fullname=ule1.St`,
  // A two-letter contains: its keys' pages read ahead of their postings.
  `${base}/objects?limit=5&name=p3`,
];

interface Answer {
  status: number;
  body: string;
}

/** The status and body of `url`, or "aborted" when this client gave up on it after `abortAfterMs`. */
async function get(url: string, abortAfterMs?: number): Promise<Answer | "aborted"> {
  const controller = new AbortController();
  const timer = abortAfterMs === undefined ? undefined : setTimeout(() => controller.abort(), abortAfterMs);
  try {
    const response = await fetchWorker(new Request(BASE + url, { signal: controller.signal }));
    const body = await response.text();
    return controller.signal.aborted ? "aborted" : { status: response.status, body };
  } catch (error) {
    if (controller.signal.aborted) return "aborted";
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** `promise`, or a failure naming `what` after `ms`: a request stuck on a dead load must fail the test, not hang it. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

beforeAll(async () => {
  await publishHistory([meshAnalysis(OBJECTS, application)]);
});

describe("50 concurrent clients over a cold snapshot, a third of their requests cancelled mid-way", () => {
  it("answer no 5xx, each answer the one its URL gets alone afterwards, and afterwards every URL answers 200 with no load", async () => {
    const statuses = new Map<number | "aborted", number>();
    const answered: { url: string; answer: Answer }[] = [];
    let turn = 0;
    const client = async (c: number) => {
      for (let round = 0; round < 6; round++) {
        const url = urls[(c * 7 + round * 11) % urls.length];
        // Cancel every third request after 0–4 ms: while its reads are in flight, others join them.
        const abortAfterMs = turn++ % 3 === 0 ? turn % 5 : undefined;
        const answer = await get(url, abortAfterMs);
        const status = answer === "aborted" ? answer : answer.status;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (answer !== "aborted") answered.push({ url, answer });
      }
    };
    await within(Promise.all(Array.from({ length: 50 }, (_, c) => client(c))), 45_000, "the burst of 50 clients");
    const failures = [...statuses].filter(([status]) => typeof status === "number" && status >= 500);
    expect(failures).toEqual([]);
    expect(statuses.get(200)).toBeGreaterThan(0);

    const alone = new Map<string, Answer | "aborted">();
    for (const url of urls) {
      const answer = await within(get(url), 10_000, url);
      expect(answer === "aborted" ? answer : answer.status, url).toBe(200);
      alone.set(url, answer);
    }
    // Loads shared between requests, some of them cancelled, never change an answer.
    const differing = answered.filter(({ url, answer }) => {
      const expected = alone.get(url) as Answer;
      return answer.status !== expected.status || answer.body !== expected.body;
    });
    expect(differing.map(({ url, answer }) => `${url}: ${answer.status} ${answer.body.slice(0, 200)}`)).toEqual([]);
    expect(answered.length).toBeGreaterThan(urls.length);
  });
});
