// @module Property tests inside workerd: changes between two random analyses, and source code by random line ranges, answer as the reference does.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Analysis, arbitraryAnalysis, smallText } from "../support/arbitrary-analysis.ts";
import { referenceChanges, referenceFileText } from "../support/reference/history.ts";
import { appPath, call, publishHistory } from "./harness.ts";

const RUNS = 40;
const FIRST = "2026-05-05T10:00:00Z";
const SECOND = "2026-06-06T08:30:00+02:00";

let counter = 0;
const application = () => `History & Props/${++counter} ü`;

/** Two analyses of one application; ids drawn from a small pool, so objects are often in both, with checksums equal or not. */
const pair = fc
  .tuple(arbitraryAnalysis({ maxObjects: 12 }), arbitraryAnalysis({ maxObjects: 12 }), fc.boolean())
  .map(([a, b, related]): [Analysis, Analysis] => {
    // Half the time the second is the first with some checksums changed and others dropped.
    const second = related
      ? {
          ...a,
          objects: a.objects.map((o, i) =>
            i % 3 === 0 ? { ...o, checksum: `${o.checksum ?? ""}'` } : i % 3 === 1 ? { ...o, checksum: undefined } : o,
          ),
        }
      : b;
    const name = application();
    return [
      { ...a, application: name, analyzedAt: FIRST },
      { ...second, application: name, analyzedAt: SECOND },
    ];
  });

interface ChangesQuery {
  statuses: string[];
  skip?: number;
  limit: number;
  /** Which analyses `from` and `to` select: by default, by date, reversed. */
  dates: "default" | "explicit" | "reversed";
}

const changesQuery: fc.Arbitrary<ChangesQuery> = fc.record({
  statuses: fc.subarray(["added", "deleted", "modified", "Added", "MODIFIED"]),
  skip: fc.option(fc.nat({ max: 14 }), { nil: undefined }),
  limit: fc.nat({ max: 14 }),
  dates: fc.constantFrom("default", "explicit", "reversed"),
});

function changesUrl(name: string, q: ChangesQuery): string {
  const params = new URLSearchParams({ limit: String(q.limit) });
  if (q.skip !== undefined) params.append("skip", String(q.skip));
  for (const s of q.statuses) params.append("status", s);
  if (q.dates !== "default") {
    params.append("from", q.dates === "explicit" ? FIRST : "2026-07-01T00:00:00Z");
    params.append("to", q.dates === "explicit" ? "2026-06-06T06:30:00Z" : "2026-05-06T00:00:00Z");
  }
  return `${appPath(name)}/changes?${params}`;
}

describe("changes between two published analyses", () => {
  it("equal the reference: totals, statuses asked, name order, skip and limit, from and to", async () => {
    await fc.assert(
      fc.asyncProperty(pair, fc.array(changesQuery, { minLength: 1, maxLength: 6 }), async ([a, b], queries) => {
        await publishHistory([a, b]);
        for (const q of queries) {
          const url = changesUrl(a.application, q);
          const [from, to] = q.dates === "reversed" ? [b, a] : [a, b];
          const { status, body, text } = await call(url);
          expect(status, `${url}: ${text}`).toBe(200);
          const statuses = [...new Set(q.statuses.map((s) => s.toLowerCase()))];
          expect(body, url).toStrictEqual(referenceChanges(from, to, { statuses, skip: q.skip, limit: q.limit }));
        }
      }),
      { numRuns: RUNS, interruptAfterTimeLimit: 30_000 },
    );
  });
});

/** Source text of several lines, some long, ending in \n, \r\n or nothing: pages of the format hold whole lines. */
const sourceText = fc
  .array(
    fc.oneof(
      smallText,
      fc.string({ maxLength: 40 }),
      smallText.map((t) => t.repeat(4000)),
    ),
    { maxLength: 40 },
  )
  .chain((lines) =>
    fc
      .tuple(fc.constantFrom("\n", "\r\n"), fc.boolean())
      .map(([end, last]) => lines.map((l) => l.replace(/\n/g, " ")).join(end) + (last ? end : "")),
  );

describe("source code of a published analysis", () => {
  it("equals the reference for any line range, default, cut at the end or past it", async () => {
    const range = fc.record({
      startLine: fc.option(fc.integer({ min: 1, max: 45 }), { nil: undefined }),
      length: fc.option(fc.integer({ min: 0, max: 45 }), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(
        arbitraryAnalysis({ maxObjects: 3 }),
        fc.array(sourceText, { minLength: 1, maxLength: 3 }),
        fc.array(range, { minLength: 1, maxLength: 6 }),
        async (analysis, texts, ranges) => {
          const doc = {
            ...analysis,
            application: application(),
            // Files of their own: the objects' locations, which name the analysis's files, go.
            objects: analysis.objects.map(({ sourceLocations, ...o }) => o),
            files: texts.map((text, i) => ({ id: String(i - 1), path: `src/${i}.ts`, text })),
          };
          await publishHistory([doc]);
          for (const { startLine, length } of ranges) {
            const fileId = String(((startLine ?? 0) % texts.length) - 1);
            const endLine = length === undefined ? undefined : (startLine ?? 1) + length;
            const params = new URLSearchParams();
            if (startLine !== undefined) params.append("startLine", String(startLine));
            if (endLine !== undefined) params.append("endLine", String(endLine));
            const url = `${appPath(doc.application)}/files/${fileId}?${params}`;
            const { status, body, text } = await call(url);
            expect(status, `${url}: ${text.slice(0, 200)}`).toBe(200);
            expect(body, url).toStrictEqual(referenceFileText(doc, fileId, startLine, endLine));
          }
        },
      ),
      { numRuns: RUNS, interruptAfterTimeLimit: 30_000 },
    );
  });
});
