// @module Property test of the reader's fast paths: a record they take is one the schema accepts and returns unchanged; readLines gives a file's lines as a plain split does, and offers them as bytes to take.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPlainLink, isPlainObjectRecord, slotKey, withoutKind } from "../../build/analysis/collector.ts";
import { readLines } from "../../build/analysis/lines.ts";
import { scannedLink, scanPlainLink } from "../../build/analysis/plain-links.ts";
import { type AnalysisLink, LinkSchema, ObjectSchema } from "../../build/analysis/schema.ts";
import { arbitraryAnalysis, smallText } from "../support/arbitrary-analysis.ts";

/** Values a field may be set to: right and wrong types, lone surrogates, bad ids, bad lines. */
const fieldValue = fc.oneof(
  fc.constantFrom(null, true, false, 0, 1, -1, 1.5, 2 ** 32, "", "0", "01", "12", "x", "\ud800", "start", "Added"),
  fc.constantFrom("Modified", "end", "12345678901234567890", [], ["a"], ["\udc00"], [1], {}, { a: 1 }),
  fc.constantFrom(
    [{ fileId: "1", startLine: 1, endLine: 2 }],
    [{ fileId: "1", startLine: 3, endLine: 2 }],
    [{ fileId: "1", startLine: 0, endLine: 2 }],
    [{ fileId: 1, startLine: 1, endLine: 2 }],
    [{ fileId: "1", startLine: 1, endLine: 2, extra: 1 }],
    [{ fileId: "1", startLine: 1 }],
    [null],
  ),
  smallText,
);
const FIELDS = [...Object.keys(ObjectSchema.shape), "kind", "unknown", "__proto__"];

/** A valid object record, then some of its fields set to arbitrary values or removed. */
const objectRecord = fc
  .tuple(
    arbitraryAnalysis({ maxObjects: 3 }).filter((a) => a.objects.length > 0),
    fc.array(fc.tuple(fc.constantFrom(...FIELDS), fc.option(fieldValue)), { maxLength: 3 }),
  )
  .map(([analysis, changes]) => {
    const record: Record<string, unknown> = { kind: "object", ...analysis.objects[0] };
    for (const [field, value] of changes)
      if (value === null) delete record[field];
      else Object.defineProperty(record, field, { value, enumerable: true, writable: true, configurable: true });
    // What the reader sees: the record as JSON.parse gives it back.
    return JSON.parse(JSON.stringify(record)) as Record<string, unknown>;
  });

describe("isPlainObjectRecord", () => {
  it("takes only records ObjectSchema accepts, each (its NDJSON `kind` left out) as the schema returns it", () => {
    fc.assert(
      fc.property(objectRecord, (record) => {
        if (!isPlainObjectRecord(record)) return;
        const parsed = ObjectSchema.safeParse(record);
        expect(parsed.success).toBe(true);
        expect(withoutKind(record)).toEqual(parsed.data);
      }),
      { numRuns: 3000 },
    );
  });

  it("takes every valid object record of an analysis written without unknown fields", () => {
    fc.assert(
      fc.property(arbitraryAnalysis({ maxObjects: 6 }), (analysis) => {
        for (const o of analysis.objects) expect(isPlainObjectRecord(JSON.parse(JSON.stringify(o)))).toBe(true);
      }),
    );
  });
});

/** The link scanPlainLink reads from a line's UTF-8 bytes, its ids as text, as JSON.parse reads them; null for a line it leaves. */
function plainLinkLine(text: string): AnalysisLink | null {
  // Amid other bytes, as a line lies in the reader's buffer.
  const bytes = new TextEncoder().encode(`x\n${text}\n{`);
  if (!scanPlainLink(bytes, 2, bytes.length - 2)) return null;
  const { from, to, type, escalated } = scannedLink;
  const link = { from: String(from), to: String(to), type };
  return escalated === undefined ? link : { ...link, escalated };
}

describe("scanPlainLink", () => {
  const linkLine = fc
    .record({
      from: fc.oneof(fc.constantFrom("0", "01", "7", "18446744073709551615", "x"), fc.nat().map(String)),
      to: fc.oneof(fc.constantFrom("0", "00", "9999999999999999999", "12345678901234567890"), fc.nat().map(String)),
      type: fc.constantFrom("CALL", "call_2", "Z9", "", "a-b", "é", "x".repeat(64), "x".repeat(65)),
      escalated: fc.option(fc.constantFrom(true, false, "true", 1), { nil: undefined }),
      spaced: fc.boolean(),
    })
    .map(({ spaced, ...link }) => JSON.stringify({ kind: "link", ...link }, null, spaced ? 1 : undefined));

  it("reads a line as JSON.parse does, only when the link plainly passes LinkSchema", () => {
    fc.assert(
      fc.property(linkLine, (line) => {
        const link = plainLinkLine(line);
        const parsed = withoutKind(JSON.parse(line));
        if (link === null) {
          // Spaced lines, or links the schema refuses or reads otherwise, go the general way.
          if (!line.includes("\n")) expect(isPlainLink(parsed)).toBe(false);
          return;
        }
        expect(link).toEqual(parsed);
        expect(LinkSchema.safeParse(parsed)).toEqual({ success: true, data: parsed });
        // What lets the collector take the line without checking it again, keyed as it keys ids.
        expect(isPlainLink(link)).toBe(true);
        expect([scannedLink.from, scannedLink.to]).toEqual([slotKey(link.from), slotKey(link.to)]);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("scanPlainLink's bounds", () => {
  it("reads no byte past the line's end: no strict prefix of a plain link line is one", () => {
    fc.assert(
      fc.property(
        fc.record({ from: fc.nat(), to: fc.nat(), escalated: fc.option(fc.boolean(), { nil: undefined }) }),
        ({ from, to, escalated }) => {
          const line = JSON.stringify({ kind: "link", from: `${from}`, to: `${to}`, type: "CALL", escalated });
          const bytes = new TextEncoder().encode(`${line}${line}`);
          expect(scanPlainLink(bytes, 0, line.length)).toBe(true);
          for (let end = 0; end < line.length; end++) expect(scanPlainLink(bytes, 0, end)).toBe(false);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("scanPlainLink's link types", () => {
  it("gives each line its own type, however many types an analysis has and whichever collide", () => {
    const types = Array.from({ length: 300 }, (_, i) => `T${i.toString(36)}_${"x".repeat(i % 7)}`);
    for (let round = 0; round < 3; round++)
      types.forEach((type, i) => {
        const line = JSON.stringify({ kind: "link", from: `${i}`, to: "123456789012345678", type });
        expect(plainLinkLine(line)).toEqual({ from: `${i}`, to: "123456789012345678", type });
        expect(scannedLink.from).toBe(i);
      });
  });
});

describe("readLines", () => {
  let dir: string;
  beforeAll(async () => void (dir = await mkdtemp(join(tmpdir(), "read-lines-"))));
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("gives each line, without its \\r or one byte order mark, as splitting the decoded text does", async () => {
    const line = fc.string({ unit: fc.constantFrom("a", "é", "😀", "\r", "\ufeff", " ", "{"), maxLength: 8 });
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 12 }), fc.boolean(), async (lines, finalNewline) => {
        const text = lines.join("\n") + (finalNewline ? "\n" : "");
        const path = join(dir, "lines.ndjson");
        await writeFile(path, text);
        const read: string[] = [];
        await readLines(path, (t) => void read.push(t));
        const pieces = text.split("\n");
        if (pieces[pieces.length - 1] === "") pieces.pop();
        expect(read).toEqual(
          pieces.map((l) => {
            const noCr = l.endsWith("\r") ? l.slice(0, -1) : l;
            return noCr.startsWith("\ufeff") ? noCr.slice(1) : noCr;
          }),
        );
      }),
      { numRuns: 300 },
    );
  });

  it("offers each line's bytes to take, numbered, and hands over the lines in order, those not taken (or given back) to onLine", async () => {
    const line = fc.string({ unit: fc.constantFrom("a", "é", "😀", "\r", "\ufeff", "{"), maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { maxLength: 14 }),
        fc.boolean(),
        fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1 }),
        async (lines, finalNewline, runs) => {
          const text = lines.join("\n") + (finalNewline ? "\n" : "");
          const path = join(dir, "taken.ndjson");
          await writeFile(path, text);
          const pieces = text.split("\n");
          if (pieces[pieces.length - 1] === "") pieces.pop();
          const offered: [number, string][] = [];
          const handed: [number, string][] = [];
          let r = 0;
          await readLines(path, (t, n) => void handed.push([n, t]), {
            // Lines starting with "{" are taken, with as many after them as the runs say.
            take: (bytes, start, end, n) => {
              offered.push([
                n,
                new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }).decode(bytes.subarray(start, end)),
              ]);
              return bytes[start] === 0x7b ? runs[r++ % runs.length] : 0;
            },
            // Every third line taken is given back.
            onTaken: (n, count) => {
              handed.push([n, `taken ${count}`]);
              return n % 3 === 0 ? false : undefined;
            },
          });
          // The model: each line in turn, a taken one passing over the lines its run takes.
          const expectOffered: [number, string][] = [];
          const expectHanded: [number, string][] = [];
          let r2 = 0;
          for (let i = 0; i < pieces.length; ) {
            const raw = pieces[i].endsWith("\r") ? pieces[i].slice(0, -1) : pieces[i];
            expectOffered.push([i + 1, raw]);
            if (raw.startsWith("{")) {
              const count = runs[r2++ % runs.length];
              expectHanded.push([i + 1, `taken ${count}`]);
              if ((i + 1) % 3 !== 0) {
                i += count;
                continue;
              }
            }
            expectHanded.push([i + 1, raw.startsWith("\ufeff") ? raw.slice(1) : raw]);
            i++;
          }
          expect(offered).toEqual(expectOffered);
          expect(handed).toEqual(expectHanded);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("gives lines that cross the reader's 4 MiB chunks, and one longer than two of them, whole", async () => {
    // Lines of up to 200,000 characters, 2-, 3- and 4-byte ones among them so that a chunk may end
    // inside a character, around a line of 9 MiB: 14 MB, three chunks and a half.
    const lines: string[] = [];
    for (let i = 0, length = 7; lines.length < 40; i++, length = (length * 7919 + 13) % 200_000)
      lines.push(`${i}:${(i % 3 === 0 ? "é😀€" : "ab").repeat(length / 4)}`);
    lines.splice(20, 0, "x".repeat(9 << 20));
    const path = join(dir, "chunks.ndjson");
    await writeFile(path, `${lines.join("\r\n")}\n`);
    const read: string[] = [];
    await readLines(path, (t) => void read.push(t));
    expect(read.length).toBe(lines.length);
    expect(read).toEqual(lines);
  });
});
