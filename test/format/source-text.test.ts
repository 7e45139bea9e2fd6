// @module Source text pages (SRCP, SRCD): whole lines cut at 16 Ki code units, a range read from the pages that hold it alone, damaged pages refused.
import { describe, expect, it } from "vitest";
import { compileDocument } from "../../build/compile/compile-document.ts";
import { CorruptSnapshotError } from "../../src/format/errors.ts";
import { countingSource, memorySource, Snapshot } from "../../src/format/snapshot.ts";
import { splitLines, TEXT_PAGE_UNITS } from "../../src/format/source-text.ts";
import { fileText } from "../../src/query/source-file.ts";
import { rawSections } from "./snapshot-bytes.ts";

/** 5,000 numbered lines of 40 code units with their line feeds (200,000 in all: 13 pages), then a line of 50,000, then three short ones without a final line feed. */
const LINES = [
  ...Array.from({ length: 5000 }, (_, i) => `${String(i + 1).padStart(6, "0")} ${"x".repeat(32)}\n`),
  `${"y".repeat(50_000)}\r\n`,
  "a\n",
  "b\n",
  "c",
];
const TEXT = LINES.join("");

const analysis = {
  format: "appstruct.analysis/1",
  application: "Pages",
  analyzedAt: "2026-01-01T00:00:00Z",
  files: [
    { id: "-1", path: "none.ts" },
    { id: "2", path: "empty.ts", text: "" },
    { id: "3", path: "big.ts", text: TEXT },
  ],
  objects: [{ id: "1", name: "x", fullName: "x", type: "T", typeId: "T" }],
};
const { bytes } = compileDocument(analysis);

describe("source text pages", () => {
  it("split a text into lines that join back to it", () => {
    expect(splitLines(TEXT)).toEqual(LINES);
    expect(splitLines("")).toEqual([]);
    expect(splitLines("\n\n")).toEqual(["\n", "\n"]);
  });

  it("hold whole lines, cut once a page reaches 16 Ki code units; a long line ends its page", async () => {
    const directory = await (await Snapshot.open(memorySource(bytes))).section("SRCD");
    // Files in id order: "2" (empty), "3" (big), "-1" (no text).
    expect(Array.from(directory.lineCounts)).toEqual([0, LINES.length, 0xffffffff]);
    const [from, to] = [directory.filePages[1], directory.filePages[2]];
    expect(directory.filePages[0]).toBe(from);
    const firsts = Array.from(directory.firstLines.subarray(from, to));
    // Lines of 40 units: 410 of them reach 16,400, past 16,384, so every page of short lines but the last holds 410.
    const perPage = Math.ceil(TEXT_PAGE_UNITS / 40);
    expect(firsts.slice(0, 3)).toEqual([1, 1 + perPage, 1 + 2 * perPage]);
    // The long line (5001) starts a page's last line; the three short ones after it share the last page.
    expect(firsts.at(-1)).toBe(5002);
  });

  it("read a range from the pages holding it alone, and the file whole from them all", async () => {
    const source = countingSource(memorySource(bytes, "counted"));
    const snapshot = await Snapshot.open(source);
    const before = source.bytesRead;
    const range = await fileText(snapshot, "3", { startLine: 1000, endLine: 1039 });
    expect(range).toEqual({
      fileId: "3",
      path: "big.ts",
      startLine: 1000,
      endLine: 1039,
      totalLines: LINES.length,
      text: LINES.slice(999, 1039).join(""),
    });
    // SFID, SFLD and one page of SFLP, SRCD, SRCP's block table and one or two pages: a small part of the 250 KB of text.
    expect(source.bytesRead - before).toBeLessThan(20_000);
    expect((await fileText(snapshot, "3", {}))!.text).toBe(TEXT);
    expect(await fileText(snapshot, "3", { startLine: 5001 })).toMatchObject({
      endLine: 5004,
      text: LINES.slice(5000).join(""),
    });
    expect(await fileText(snapshot, "2", {})).toEqual({
      fileId: "2",
      path: "empty.ts",
      startLine: 1,
      endLine: 0,
      totalLines: 0,
      text: "",
    });
    expect(await fileText(snapshot, "-1", {})).toBeNull();
    expect(await fileText(snapshot, "4", {})).toBeNull();
  });

  it("refuse a page whose bytes changed, under its directory's checksum or not", async () => {
    const srcp = rawSections(bytes).find((s) => s.tag === "SRCP")!;
    const damaged = bytes.slice();
    damaged[srcp.offset + srcp.length - 9] ^= 0xff;
    const snapshot = await Snapshot.open(memorySource(damaged, "damaged"));
    await expect(fileText(snapshot, "3", { startLine: 5002 })).rejects.toThrow(CorruptSnapshotError);
  });
});
