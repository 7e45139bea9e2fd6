// @module Concurrent mixed traffic answers what each request answers alone: 50 clients, some hanging up, over a section budget far below the working set and slow reads.
//
// Requests of every class share loads, pages and kept matches while they run, and evict each
// other's pages mid-answer. None of that may change an answer by one byte, nor leave anything
// behind that changes a later one.
import { createWriteStream } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileAnalysisToFile } from "../../build/compile/compile.ts";
import { Rng } from "../../build/generate/random.ts";
import { generateAnalysis } from "../../build/generate.ts";
import { nodeFetch } from "../../build/serve.ts";
import { wordsOf } from "../../scripts/bench/mix.ts";

const OBJECTS = 12_000;
const CLIENTS = 50;
/** A sixty-fourth of the snapshot: every class's pages evict the others'. */
const BUDGET_SHARE = 1 / 64;
const READ_LATENCY_MS = 2;

const APPLICATION = "Concurrent Mix";
const BASE = `http://local/rest/applications/${encodeURIComponent(APPLICATION)}`;

type Fetch = (request: Request) => Response | Promise<Response>;

interface Answer {
  status: number;
  etag: string | null;
  body: string;
}

async function answer(fetch: Fetch, url: string, signal?: AbortSignal): Promise<Answer> {
  const response = await fetch(new Request(url, { signal }));
  return { status: response.status, etag: response.headers.get("ETag"), body: await response.text() };
}

async function json<T>(fetch: Fetch, path: string): Promise<T> {
  const got = await answer(fetch, BASE + path);
  if (got.status !== 200) throw new Error(`${path}: ${got.status} ${got.body}`);
  return JSON.parse(got.body) as T;
}

interface Listed {
  id: string;
  name: string;
  fullName: string;
  type: string;
}

/** Requests of every kind the bench's mix asks, the impact routes and the flow graphs, drawn from what `reference` answers. */
async function mixOf(reference: Fetch, count: number, seed: number): Promise<string[]> {
  const random = new Rng(seed);
  const { objects } = await json<{ objects: Listed[] }>(reference, `/objects?limit=400&skip=${OBJECTS / 4}`);
  const types = [...new Set(objects.map((o) => o.type))];
  const { nodes } = await json<{ nodes: { _id: number }[] }>(reference, "/levels/5/graph");
  const { transactions } = await json<{ transactions: { id: string }[] }>(reference, "/transactions?limit=20");
  const { dataGraphs } = await json<{ dataGraphs: { id: string }[] }>(reference, "/data-graphs?limit=20");
  const object = () => random.pick(objects);
  const word = () => random.pick(wordsOf(object().name));
  const find = (filters: Record<string, string | number>) =>
    `/objects?${new URLSearchParams({ ...filters, limit: "50" } as Record<string, string>)}`;
  const classes: (() => string)[] = [
    () => find({ name: word() }),
    () => find({ name: word().slice(0, 2), skip: random.int(200) }),
    () => find({ skip: random.int(OBJECTS) }),
    () => find({ name: word(), type: random.pick(types) }),
    () => {
      const full = object().fullName;
      const from = random.int(Math.max(1, full.length - 8));
      return find({ name: word(), fullname: full.slice(from, from + random.range(4, 12)) });
    },
    () => find({ name: object().name, operator: "equals" }),
    () => find({ name: object().name.slice(0, random.range(3, 8)), operator: "startswith" }),
    () => find({ name: object().name.slice(-4), operator: "endswith" }),
    () => `/objects/${object().id}${random.chance(0.5) ? "?select=source-locations" : ""}`,
    () =>
      `/objects/${object().id}/callees?includeEscalated=${random.chance(0.5)}${random.chance(0.5) ? "&select=parent" : ""}`,
    () => `/objects/${object().id}/start-end-points?hops=${random.pick([1, 3, 32])}`,
    () =>
      `/objects/${object().id}/callers?includeEscalated=${random.chance(0.5)}${random.chance(0.5) ? "&select=parent" : ""}`,
    () => `/objects/${object().id}/call-hierarchy?direction=${random.pick(["callers", "callees"])}&hops=3`,
    () => `/objects/${object().id}/paths?to=${object().id}&hops=6`,
    () => `/levels/${random.range(1, 5)}/graph`,
    () => `/levels/5/nodes?_id=${random.pick(nodes)._id}&select=children`,
    () => (transactions.length ? `/transactions/${random.pick(transactions).id}/graph` : "/transactions?limit=5"),
    () => (dataGraphs.length ? `/data-graphs/${random.pick(dataGraphs).id}/graph` : "/data-graphs?limit=5"),
  ];
  return Array.from({ length: count }, () => BASE + random.pick(classes)());
}

let folder: string;
let snapshotBytes: number;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "appstruct-concurrent-mix-"));
  const analysis = join(folder, "analysis.ndjson");
  const out = createWriteStream(analysis);
  await generateAnalysis(out, { objects: OBJECTS, seed: 5, application: APPLICATION });
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  await mkdir(join(folder, "data"));
  ({ size: snapshotBytes } = await compileAnalysisToFile(analysis, join(folder, "data", "mix.snap"), null));
}, 120_000);
afterAll(() => rm(folder, { recursive: true, force: true }));

describe("concurrent mixed traffic", () => {
  it("answers every request as it is answered alone, with 50 clients at once, some hanging up, over a small budget and slow reads", async () => {
    const data = join(folder, "data");
    const alone = (await nodeFetch({ data, sectionBudgetBytes: 1 << 30, readLatencyMs: 0 })).fetch;
    const urls = await mixOf(alone, 600, 11);
    const expected = new Map<string, Answer>();
    for (const url of new Set(urls)) expected.set(url, await answer(alone, url));

    // Every class answered: an error compared with the same error would prove nothing.
    expect([...expected].filter(([, got]) => got.status !== 200).map(([url, got]) => `${url}: ${got.body}`)).toEqual(
      [],
    );

    const budget = Math.floor(snapshotBytes * BUDGET_SHARE);
    const loaded = (await nodeFetch({ data, sectionBudgetBytes: budget, readLatencyMs: READ_LATENCY_MS })).fetch;
    const random = new Rng(23);
    // Each URL twice, the second often while the first is still being answered; one in eight hung up early.
    const asked = [...urls, ...urls].map((url) => ({
      url,
      hangUpAfterMs: random.chance(1 / 8) ? random.int(12) : null,
    }));
    for (let i = asked.length - 1; i > 0; i--) {
      const j = random.int(i + 1);
      [asked[i], asked[j]] = [asked[j], asked[i]];
    }
    const differing: string[] = [];
    let next = 0;
    let hungUp = 0;
    const client = async () => {
      while (next < asked.length) {
        const { url, hangUpAfterMs } = asked[next++];
        const controller = new AbortController();
        const timer = hangUpAfterMs === null ? undefined : setTimeout(() => controller.abort(), hangUpAfterMs);
        try {
          const got = await answer(loaded, url, controller.signal);
          if (controller.signal.aborted) hungUp++;
          else if (!sameAnswer(got, expected.get(url)!))
            differing.push(`${url}: ${describeDifference(got, expected.get(url)!)}`);
        } catch (error) {
          if (!controller.signal.aborted) throw error;
          hungUp++;
        } finally {
          clearTimeout(timer);
        }
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, client));
    expect(differing).toEqual([]);
    expect(hungUp).toBeGreaterThan(0);

    // Nothing the hung-up requests or the evictions left behind changes a later answer.
    for (const url of new Set(urls)) {
      const got = await answer(loaded, url);
      if (!sameAnswer(got, expected.get(url)!))
        differing.push(`${url} (after): ${describeDifference(got, expected.get(url)!)}`);
    }
    expect(differing).toEqual([]);
  }, 240_000);
});

function sameAnswer(a: Answer, b: Answer): boolean {
  return a.status === b.status && a.etag === b.etag && a.body === b.body;
}

function describeDifference(got: Answer, expected: Answer): string {
  if (got.status !== expected.status)
    return `status ${got.status}, alone ${expected.status}: ${got.body.slice(0, 200)}`;
  if (got.etag !== expected.etag) return `ETag ${got.etag}, alone ${expected.etag}`;
  let at = 0;
  while (at < got.body.length && got.body[at] === expected.body[at]) at++;
  return `bodies of ${got.body.length} and ${expected.body.length} characters differ at ${at}: ${JSON.stringify(got.body.slice(at, at + 80))} against ${JSON.stringify(expected.body.slice(at, at + 80))}`;
}
