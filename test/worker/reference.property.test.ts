// @module Property tests inside workerd: random valid analyses, published to R2 and queried through the worker, must answer as the reference does.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import cornerV2 from "../fixtures/corner/corner-v2.json";
import cornerRequests from "../fixtures/corner/requests.json";
import petstoreV2 from "../fixtures/examples/petstore-v2.json";
import petstoreRequests from "../fixtures/examples/requests.json";
import { type Analysis, arbitraryAnalysis, smallText } from "../support/arbitrary-analysis.ts";
import {
  type Operator,
  type RefAnalysis,
  referenceAnswer,
  type SearchType,
  TEXT_FILTERS,
  type TextFilter,
} from "../support/reference/reference.ts";
import type { RequestCase } from "../support/request-cases.ts";
import { appPath, call, publishHistory } from "./harness.ts";

/** Runs per property; shrinking a failure stops after 30 s so vitest still reports it (each run publishes a snapshot). */
const RUNS = 60;

describe("the reference itself reproduces the worked examples", () => {
  // A check on the oracle: every covered 200 case of the hand-worked answers (newest analysis only).
  const sets: [string, RefAnalysis, RequestCase[]][] = [
    ["petstore", petstoreV2 as RefAnalysis, petstoreRequests as RequestCase[]],
    ["corner", cornerV2 as unknown as RefAnalysis, cornerRequests as RequestCase[]],
  ];
  for (const [label, analysis, cases] of sets) {
    it(label, () => {
      let covered = 0;
      for (const c of cases) {
        if (c.status !== 200 || c.method !== undefined || !c.request.startsWith("GET ")) continue;
        const answer = referenceAnswer(analysis, c.request.slice(4));
        if (answer === undefined) continue;
        expect(answer, c.request).toStrictEqual(c.body);
        covered++;
      }
      expect(covered).toBeGreaterThan(label === "petstore" ? 10 : 60);
    });
  }
});

// ---- random queries --------------------------------------------------------------------------------

let counter = 0;
/** Published state persists for the whole file: every run gets an application of its own. */
const fresh = (analysis: Analysis): Analysis => ({ ...analysis, application: `Prop & Test/App ${++counter} ü` });

/** Texts of the analysis a filter might look for: names, fullNames, types, paths, manglings, annotations, tags, post-it titles. */
function textsOf(a: Analysis): string[] {
  const texts = new Set<string>();
  for (const o of a.objects) {
    for (const key of ["name", "fullName", "type", "filePath", "mangling"])
      if (typeof o[key] === "string") texts.add(o[key] as string);
    for (const key of ["annotations", "tags"])
      if (Array.isArray(o[key])) for (const t of o[key] as string[]) texts.add(t);
  }
  for (const p of a.postIts) texts.add(p.title);
  return [...texts];
}

/** A substring (by code points, so no lone surrogate) of one of `texts`, in its own, lower or upper case; or unrelated text. */
function filterValue(texts: string[]): fc.Arbitrary<string> {
  const unrelated = fc.oneof(smallText, fc.constant(""));
  if (texts.length === 0) return unrelated;
  const substring = fc
    .record({
      text: fc.constantFrom(...texts),
      from: fc.nat(),
      length: fc.nat({ max: 8 }),
      casing: fc.constantFrom("same", "lower", "upper"),
    })
    .map(({ text, from, length, casing }) => {
      const points = Array.from(text);
      const start = points.length ? from % (points.length + 1) : 0;
      const value = points.slice(start, start + length).join("");
      return casing === "lower" ? value.toLowerCase() : casing === "upper" ? value.toUpperCase() : value;
    });
  return fc.oneof({ arbitrary: substring, weight: 4 }, { arbitrary: unrelated, weight: 1 });
}

/** An enumeration value as a client might write it: case does not matter. */
const anyCase = (value: string) => fc.constantFrom(value, value.toUpperCase(), value[0].toUpperCase() + value.slice(1));

interface FindSpec {
  filters: [TextFilter, string[]][];
  operator?: Operator;
  operatorText?: string;
  searchtype?: SearchType;
  searchtypeText?: string;
  skip?: number;
  limit: number;
  locations: boolean;
}

function findSpec(a: Analysis): fc.Arbitrary<FindSpec> {
  const n = a.objects.length;
  const value = filterValue(textsOf(a));
  return fc
    .record({
      filters: fc.uniqueArray(
        fc
          .constantFrom(...TEXT_FILTERS)
          .chain((f) =>
            fc
              .array(value, { minLength: 1, maxLength: f === "filepath" ? 1 : 3 })
              .map((vs) => [f, vs] as [TextFilter, string[]]),
          ),
        { selector: ([f]) => f, maxLength: 3 },
      ),
      operator: fc.option(fc.constantFrom<Operator>("contains", "equals", "startswith", "endswith"), {
        nil: undefined,
      }),
      searchtype: fc.option(fc.constantFrom<SearchType>("all", "internal", "external"), { nil: undefined }),
      skip: fc.option(fc.nat({ max: n + 2 }), { nil: undefined }),
      limit: fc.nat({ max: n + 2 }),
      locations: fc.boolean(),
      caseSeed: fc.nat(),
    })
    .map(({ caseSeed, ...spec }) => {
      const recase = (v: string | undefined, k: number) =>
        v && [v, v.toUpperCase(), v[0].toUpperCase() + v.slice(1)][(caseSeed >> k) % 3];
      return { ...spec, operatorText: recase(spec.operator, 0), searchtypeText: recase(spec.searchtype, 2) };
    });
}

function findUrl(application: string, s: FindSpec): string {
  const params = new URLSearchParams();
  params.append("limit", String(s.limit));
  if (s.skip !== undefined) params.append("skip", String(s.skip));
  for (const [f, values] of s.filters) for (const v of values) params.append(f, v);
  if (s.operatorText) params.append("operator", s.operatorText);
  if (s.searchtypeText) params.append("searchtype", s.searchtypeText);
  if (s.locations) params.append("select", "source-locations");
  return `${appPath(application)}/objects?${params}`;
}

interface CalleeSpec {
  id: string;
  includeEscalated?: string;
  select: string[];
}

function calleeSpec(a: Analysis): fc.Arbitrary<CalleeSpec> {
  return fc.record({
    id: fc.constantFrom(...a.objects.map((o) => o.id as string)),
    includeEscalated: fc.option(fc.oneof(anyCase("true"), anyCase("false")), { nil: undefined }),
    select: fc
      .subarray(["parent", "source-locations"])
      .chain((s) => fc.shuffledSubarray(s, { minLength: s.length, maxLength: s.length })),
  });
}

const calleeUrl = (application: string, s: CalleeSpec) => {
  const params = new URLSearchParams();
  for (const v of s.select) params.append("select", v);
  if (s.includeEscalated !== undefined) params.append("includeEscalated", s.includeEscalated);
  const query = params.toString();
  return `${appPath(application)}/objects/${s.id}/callees${query ? `?${query}` : ""}`;
};

interface PointSpec {
  id: string;
  hops?: number;
}

const pointSpec = (a: Analysis): fc.Arbitrary<PointSpec> =>
  fc.record({
    id: fc.constantFrom(...a.objects.map((o) => o.id as string)),
    hops: fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }),
  });

const pointUrl = (application: string, s: PointSpec) =>
  `${appPath(application)}/objects/${s.id}/start-end-points${s.hops === undefined ? "" : `?hops=${s.hops}`}`;

const callerUrl = (application: string, s: CalleeSpec) => calleeUrl(application, s).replace("/callees", "/callers");

/** A link type of the analysis, or one it does not have. */
const linkTypeOf = (a: Analysis) => fc.constantFrom(...new Set([...a.links.map((l) => l.type), "NONE"]));

function hierarchyUrl(a: Analysis): fc.Arbitrary<(application: string) => string> {
  return fc
    .record({
      id: fc.constantFrom(...a.objects.map((o) => o.id as string)),
      direction: fc.constantFrom("callees", "callers", "both").chain(anyCase),
      hops: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
      linkTypes: fc.uniqueArray(linkTypeOf(a), { maxLength: 2 }),
      limit: fc.option(fc.integer({ min: 1, max: 12 }), { nil: undefined }),
    })
    .map((s) => (application) => {
      const params = new URLSearchParams({ direction: s.direction });
      if (s.hops !== undefined) params.append("hops", String(s.hops));
      for (const t of s.linkTypes) params.append("linkType", t);
      if (s.limit !== undefined) params.append("limit", String(s.limit));
      return `${appPath(application)}/objects/${s.id}/call-hierarchy?${params}`;
    });
}

function pathsUrl(a: Analysis): fc.Arbitrary<(application: string) => string> {
  const ids = a.objects.map((o) => o.id as string);
  return fc
    .record({
      id: fc.constantFrom(...ids),
      to: fc.constantFrom(...ids),
      hops: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }),
      limit: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
    })
    .map((s) => (application) => {
      const params = new URLSearchParams({ to: s.to });
      if (s.hops !== undefined) params.append("hops", String(s.hops));
      if (s.limit !== undefined) params.append("limit", String(s.limit));
      return `${appPath(application)}/objects/${s.id}/paths?${params}`;
    });
}

/** A list of transactions or data graphs, or the graph of one of their points (ids that are no point answer 404, which the reference does not model). */
function flowUrl(a: Analysis): fc.Arbitrary<(application: string) => string> {
  const points = (role: string) => a.objects.filter((o) => o.role === role).map((o) => o.id as string);
  const kinds = [
    ["transactions", points("start")],
    ["data-graphs", points("end")],
  ] as const;
  const list = fc
    .record({
      kind: fc.constantFrom("transactions", "data-graphs"),
      name: fc.option(filterValue(a.objects.map((o) => o.name as string)), { nil: undefined }),
      skip: fc.option(fc.nat({ max: 3 }), { nil: undefined }),
      limit: fc.nat({ max: 4 }),
    })
    .map((s) => (application: string) => {
      const params = new URLSearchParams({ limit: String(s.limit) });
      if (s.name !== undefined) params.append("name", s.name);
      if (s.skip !== undefined) params.append("skip", String(s.skip));
      return `${appPath(application)}/${s.kind}?${params}`;
    });
  const graphs = kinds
    .filter(([, ids]) => ids.length > 0)
    .map(([kind, ids]) =>
      fc
        .record({ id: fc.constantFrom(...ids), limit: fc.option(fc.integer({ min: 1, max: 12 }), { nil: undefined }) })
        .map(
          (s) => (application: string) =>
            `${appPath(application)}/${kind}/${s.id}/graph${s.limit === undefined ? "" : `?limit=${s.limit}`}`,
        ),
    );
  return fc.oneof(list, ...graphs);
}

/** Publishes `analysis` under a fresh name, then checks every URL's answer against the reference. */
async function check(analysis: Analysis, urls: (application: string) => string[]): Promise<number> {
  const doc = fresh(analysis);
  const { bytes } = await publishHistory([doc]);
  for (const url of urls(doc.application)) {
    const { status, body, text } = await call(url);
    expect(status, `${url}: ${text}`).toBe(200);
    expect(body, url).toStrictEqual(referenceAnswer(doc as RefAnalysis, url));
  }
  return bytes[0].length;
}

describe("worker answers equal the reference", () => {
  it("find objects: filters, operator, searchtype, order, skip, limit, total, source locations", async () => {
    const analysisAndQueries = arbitraryAnalysis({ maxObjects: 12 }).chain((a) =>
      fc.tuple(fc.constant(a), fc.array(findSpec(a), { minLength: 1, maxLength: 8 })),
    );
    await fc.assert(
      fc.asyncProperty(
        analysisAndQueries,
        async ([analysis, specs]) => void (await check(analysis, (app) => specs.map((s) => findUrl(app, s)))),
      ),
      { numRuns: RUNS, interruptAfterTimeLimit: 30_000 },
    );
  });

  it("callees: (callee, linkType) elements, escalation rules, parent, source locations, order", async () => {
    const analysisAndQueries = arbitraryAnalysis({ maxObjects: 10 })
      .filter((a) => a.objects.length > 0)
      .chain((a) => fc.tuple(fc.constant(a), fc.array(calleeSpec(a), { minLength: 1, maxLength: 8 })));
    await fc.assert(
      fc.asyncProperty(
        analysisAndQueries,
        async ([analysis, specs]) => void (await check(analysis, (app) => specs.map((s) => calleeUrl(app, s)))),
      ),
      { numRuns: RUNS, interruptAfterTimeLimit: 30_000 },
    );
  });

  it("start and end points within 0 to 4 hops", async () => {
    const analysisAndQueries = arbitraryAnalysis({ maxObjects: 10 })
      .filter((a) => a.objects.length > 0)
      .chain((a) => fc.tuple(fc.constant(a), fc.array(pointSpec(a), { minLength: 1, maxLength: 8 })));
    await fc.assert(
      fc.asyncProperty(
        analysisAndQueries,
        async ([analysis, specs]) => void (await check(analysis, (app) => specs.map((s) => pointUrl(app, s)))),
      ),
      { numRuns: RUNS, interruptAfterTimeLimit: 30_000 },
    );
  });

  it("callers: the mirror of callees, (caller, linkType) elements, escalation rules, parent, source locations", async () => {
    const analysisAndQueries = arbitraryAnalysis({ maxObjects: 10 })
      .filter((a) => a.objects.length > 0)
      .chain((a) => fc.tuple(fc.constant(a), fc.array(calleeSpec(a), { minLength: 1, maxLength: 8 })));
    await fc.assert(
      fc.asyncProperty(
        analysisAndQueries,
        async ([analysis, specs]) => void (await check(analysis, (app) => specs.map((s) => callerUrl(app, s)))),
      ),
      { numRuns: RUNS, interruptAfterTimeLimit: 30_000 },
    );
  });

  it("call hierarchy, paths, transactions and data graphs: nodes, depths, links, order, cut", async () => {
    const analysisAndQueries = arbitraryAnalysis({ maxObjects: 12 })
      .filter((a) => a.objects.length > 0)
      .chain((a) =>
        fc.tuple(
          fc.constant(a),
          fc.array(fc.oneof(hierarchyUrl(a), pathsUrl(a), flowUrl(a)), { minLength: 1, maxLength: 10 }),
        ),
      );
    await fc.assert(
      fc.asyncProperty(
        analysisAndQueries,
        async ([analysis, urls]) => void (await check(analysis, (app) => urls.map((url) => url(app)))),
      ),
      { numRuns: RUNS, interruptAfterTimeLimit: 30_000 },
    );
  });

  it("larger analyses (up to ~100 objects, snapshots past the first 16 KiB read): every query kind", async () => {
    // Arbitraries take their size when built: build this one at the medium base size.
    const global = fc.readConfigureGlobal();
    fc.configureGlobal({ ...global, baseSize: "medium" });
    const analyses = arbitraryAnalysis({ maxObjects: 150 });
    fc.configureGlobal(global);
    const analysisAndQueries = analyses
      .filter((a) => a.objects.length > 0)
      .chain((a) =>
        fc.tuple(
          fc.constant(a),
          fc.array(findSpec(a), { minLength: 3, maxLength: 6 }),
          fc.array(calleeSpec(a), { minLength: 3, maxLength: 6 }),
          fc.array(pointSpec(a), { minLength: 3, maxLength: 6 }),
          fc.array(fc.oneof(hierarchyUrl(a), pathsUrl(a), flowUrl(a)), { minLength: 3, maxLength: 6 }),
        ),
      );
    let large = 0;
    await fc.assert(
      fc.asyncProperty(analysisAndQueries, async ([analysis, finds, calls, points, graphs]) => {
        const size = await check(analysis, (app) => [
          ...finds.map((s) => findUrl(app, s)),
          ...calls.map((s) => calleeUrl(app, s)),
          ...calls.map((s) => callerUrl(app, s)),
          ...points.map((s) => pointUrl(app, s)),
          ...graphs.map((url) => url(app)),
        ]);
        if (size > 16 * 1024) large++;
      }),
      { numRuns: 40, interruptAfterTimeLimit: 30_000 },
    );
    expect(large).toBeGreaterThan(0);
  });
});
