// @module Property test of the link thread: an .ndjson analysis read with its link lines scanned on a worker is read exactly as on the compiling thread alone, and as a plain reading of every line, refused or not, lines of every shape among them.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AnalysisCollector } from "../../build/analysis/collector.ts";
import { AnalysisRefused } from "../../build/analysis/faults.ts";
import { readAnalysis } from "../../build/analysis/read.ts";
import { RECORD_KINDS, type RecordKind } from "../../build/analysis/schema.ts";
import { type Analysis, arbitraryAnalysis } from "../support/arbitrary-analysis.ts";

/** What reading gave: the analysis, or the faults it was refused with. */
async function outcome(path: string, linkThread: boolean): Promise<unknown> {
  try {
    return { read: await readAnalysis(path, undefined, { linkThread }) };
  } catch (error) {
    if (!(error instanceof AnalysisRefused)) throw error;
    return { refused: error.faults };
  }
}

/**
 * The reference: every line split off the decoded text and parsed whole, as the format reads
 * (header first, then records by kind), with no fast path for any record.
 */
async function referenceOutcome(path: string): Promise<unknown> {
  const collector = new AnalysisCollector((_kind, line) => `line ${line}`);
  const lines = (await readFile(path, "utf8")).split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  let sawHeader = false;
  for (const [i, raw] of lines.entries()) {
    const text = (raw.endsWith("\r") ? raw.slice(0, -1) : raw).replace(/^\ufeff/, "");
    if (text.trim() === "") continue;
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch (error) {
      collector.fault(`line ${i + 1}`, null, `is not valid JSON: ${(error as Error).message}`);
      continue;
    }
    if (!sawHeader) {
      if (record && typeof record === "object" && "kind" in record) {
        collector.fault(
          `line ${i + 1}`,
          "kind",
          "comes before the header: the first line must be the header (format, application, analyzedAt)",
        );
        continue;
      }
      sawHeader = true;
      if (!collector.acceptHeader(record, i + 1)) break;
      continue;
    }
    const kind = (record as { kind: string }).kind;
    if (!(kind in RECORD_KINDS)) throw new Error(`the test wrote a line of kind ${kind}`);
    collector.record(kind as RecordKind, record, i + 1);
  }
  try {
    return { read: collector.finish() };
  } catch (error) {
    if (!(error instanceof AnalysisRefused)) throw error;
    return { refused: error.faults };
  }
}

/** Ways a line is written besides the plain one: each must be read the same whichever thread scans links. */
const SHAPES = ["plain", "crlf", "bom", "spaced", "extra field", "blank before", "broken"] as const;
type Shape = (typeof SHAPES)[number];

function written(line: string, shape: Shape): string {
  switch (shape) {
    case "plain":
      return line;
    case "crlf":
      return `${line}\r`;
    case "bom":
      return `\ufeff${line}`;
    case "spaced":
      return line.replaceAll('":"', '": "');
    case "extra field":
      return line.replace(/}$/, ',"note":1}');
    case "blank before":
      return `\n${line}`;
    case "broken":
      return line.slice(0, -1);
  }
}

/** The analysis as NDJSON: header, then files, taxonomy, objects, links and post-its, some lines in other shapes, links grouped by caller or not. */
function ndjson(a: Analysis, shapes: Shape[], linksBeforeHeader: number, shuffled: boolean): string {
  const header = JSON.stringify({ format: a.format, application: a.application, analyzedAt: a.analyzedAt });
  const links = a.links.map((l) => JSON.stringify({ kind: "link", ...l }));
  if (!shuffled) links.sort();
  const records = [
    ...a.files.map((r) => JSON.stringify({ kind: "file", ...r })),
    ...(a.taxonomy ?? []).map((r) => JSON.stringify({ kind: "taxonomy", ...r })),
    ...a.objects.map((r) => JSON.stringify({ kind: "object", ...r })),
    ...links,
    ...a.postIts.map((r) => JSON.stringify({ kind: "postIt", ...r })),
  ];
  const lines = records.map((line, i) => written(line, shapes[i % shapes.length] ?? "plain"));
  return `${[...links.slice(0, linksBeforeHeader), header, ...lines].join("\n")}\n`;
}

describe("the link thread", () => {
  let dir: string;
  beforeAll(async () => void (dir = await mkdtemp(join(tmpdir(), "link-thread-"))));
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("reads every analysis as the compiling thread alone does, and as a plain reading of every line does: the same records, links, slots and faults", async () => {
    await fc.assert(
      fc.asyncProperty(
        arbitraryAnalysis({ maxObjects: 8 }),
        fc.array(fc.constantFrom(...SHAPES, "plain", "plain", "plain"), { maxLength: 12 }),
        fc.integer({ min: 0, max: 2 }).map((n) => (n === 2 ? 0 : n)),
        fc.boolean(),
        async (analysis, shapes, linksBeforeHeader, shuffled) => {
          const path = join(dir, "analysis.ndjson");
          await writeFile(path, ndjson(analysis, shapes, linksBeforeHeader, shuffled));
          const reference = await referenceOutcome(path);
          expect(await outcome(path, false)).toEqual(reference);
          expect(await outcome(path, true)).toEqual(reference);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("reads links across many chunks and batches the same way: 12 MB of them, ids of every length, shapes among them", async () => {
    const objects = 5000;
    const ids = Array.from({ length: objects }, (_, i) =>
      i % 97 === 0 ? `${10n ** 18n + BigInt(i)}` : i % 13 === 0 ? `${2 ** 40 + i}` : `${i + 1}`,
    );
    const lines = [
      JSON.stringify({ format: "appstruct.analysis/1", application: "A", analyzedAt: "2026-01-01T00:00:00Z" }),
      ...ids.map((id, i) =>
        JSON.stringify({ kind: "object", id, name: `n${i % 300}`, fullName: `f.n${i}`, type: "T", typeId: "t" }),
      ),
    ];
    const types = ["CALL", "USE", "ACCESS", "INHERIT"];
    for (let i = 0, from = 0; lines.length < 200_000; i++) {
      if (i % 7 === 0) from = (from * 31 + 17) % objects;
      const link = {
        kind: "link",
        from: ids[from],
        to: ids[(i * 7919) % objects],
        type: types[i % types.length],
        ...(i % 5 === 0 ? { escalated: i % 10 === 0 } : {}),
      };
      lines.push(written(JSON.stringify(link), i % 9973 === 0 ? "spaced" : i % 5003 === 0 ? "crlf" : "plain"));
    }
    const path = join(dir, "large.ndjson");
    await writeFile(path, `${lines.join("\n")}\n`);
    const reference = (await referenceOutcome(path)) as { read: { links: { from: Uint32Array } } };
    expect(reference.read.links.from.length).toBe(200_000 - 1 - objects);
    expect(await outcome(path, false)).toEqual(reference);
    expect(await outcome(path, true)).toEqual(reference);
  });
});
