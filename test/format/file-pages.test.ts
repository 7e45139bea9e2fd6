// @module File pages (SFID in id order, SFLP + SFLD): every file found by its id with its path and language as compiled, a file's path costs one page read by range beside its text, damaged pages refused.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileDocument } from "../../build/compile/compile-document.ts";
import { Blocks, encodeBlocks } from "../../src/format/blocks.ts";
import { crc32 } from "../../src/format/crc32.ts";
import type { SourceFile } from "../../src/format/model.ts";
import { compareIds } from "../../src/format/name-order.ts";
import { encodeRankPageDirectory } from "../../src/format/page-directory.ts";
import { memorySource, Snapshot } from "../../src/format/snapshot.ts";
import {
  encodeFileIds,
  encodeFilePages,
  FILE_PAGE_BYTES,
  FileDirectory,
  FileIds,
} from "../../src/format/source-files.ts";
import { fileText } from "../../src/query/source-file.ts";
import { loggedSnapshot } from "../support/read-log.ts";

/** The directory of `pages` as a reader decodes it, for `files` files. */
const directoryOf = (pages: ReturnType<typeof encodeFilePages>, files: number) =>
  new FileDirectory(new Blocks(encodeBlocks(encodeRankPageDirectory(pages)), "SFLD", 3), files);

const idsOf = (files: readonly SourceFile[]) =>
  new FileIds(new Blocks(encodeBlocks(encodeFileIds(files)), "SFID", 2), files.length);

/** Integer ids, negative ones and ones of many digits among them, each once. */
const arbitraryFiles = fc
  .uniqueArray(fc.oneof(fc.integer({ min: -50, max: 5000 }), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n })), {
    maxLength: 60,
    selector: (id) => String(id),
  })
  .chain((ids) =>
    fc.tuple(
      fc.constant(ids.map(String)),
      fc.array(fc.tuple(fc.string({ unit: "binary", maxLength: 30 }), fc.option(fc.string({ maxLength: 8 }))), {
        minLength: ids.length,
        maxLength: ids.length,
      }),
    ),
  );

describe("file pages", () => {
  it("find every file by its id, with its path, language and text as compiled, and no file for another id (property)", async () => {
    await fc.assert(
      fc.asyncProperty(arbitraryFiles, async ([ids, details]) => {
        const files = ids.map((id, i) => ({
          id,
          path: details[i][0],
          ...(details[i][1] === null ? {} : { language: details[i][1] }),
          text: `line of ${id}\n`,
        }));
        const { bytes, model } = compileDocument({
          format: "appstruct.analysis/1",
          application: "Files",
          analyzedAt: "2026-01-01T00:00:00Z",
          files,
          objects: [{ id: "1", name: "x", fullName: "x", type: "T", typeId: "T" }],
        });
        // The table is in id order, whatever the analysis's order.
        expect(model.files.map((f) => f.id)).toEqual([...ids].sort(compareIds));
        const snapshot = await Snapshot.open(memorySource(bytes));
        for (const file of files)
          expect(await fileText(snapshot, file.id, {})).toEqual({
            fileId: file.id,
            path: file.path,
            startLine: 1,
            endLine: 1,
            totalLines: 1,
            text: file.text,
          });
        const sfid = await snapshot.section("SFID");
        model.files.forEach((file, f) => expect(sfid.indexOf(file.id)).toBe(f));
        for (const absent of ["", "7x", "-0", "00", "99999999999999999999999"])
          if (!ids.includes(absent)) expect(await fileText(snapshot, absent, {})).toBeNull();
      }),
      { numRuns: 60 },
    );
  });

  it("cut pages of a few KiB across many files, each page starting at a file; languages null or not", () => {
    const files: SourceFile[] = Array.from({ length: 3000 }, (_, f) => ({
      id: String(f),
      path: `src/module${f % 37}/Ünïcode🐈File${f}.java`,
      language: f % 3 === 0 ? null : f % 3 === 1 ? "" : "Java",
    }));
    const pages = encodeFilePages(files);
    const directory = directoryOf(pages, files.length);
    expect(directory.pageCount).toBeGreaterThan(10);
    for (let p = 0; p < directory.pageCount; p++) {
      expect(directory.storedBytes(p)).toBeLessThan(FILE_PAGE_BYTES + 64);
      const page = directory.decodePage(p, pages.pages.subarray(pages.offsets[p], pages.offsets[p + 1]));
      for (let f = page.firstFile; f < directory.endOf(p); f++) {
        expect(page.path(f)).toBe(files[f].path);
        expect(page.language(f)).toBe(files[f].language);
      }
    }
  });

  it("refuse a page holding bytes past its files, a path running past its end, text that is not UTF-8, and ids out of order", () => {
    const one = [{ id: "1", path: "a.ts", language: null }];
    const forge = (bytes: Uint8Array) => ({
      pages: bytes,
      firstRanks: Uint32Array.of(0),
      offsets: Uint32Array.from([0, bytes.length]),
      crcs: Uint32Array.of(crc32(bytes)),
    });
    const { pages } = encodeFilePages(one);
    const longer = Uint8Array.from([...pages, 0]);
    expect(() => directoryOf(forge(longer), 1).decodePage(0, longer)).toThrow(
      "file page 0: bytes left after its 1 files",
    );
    const cut = Uint8Array.of(9, 0x61, 0x62);
    expect(() => directoryOf(forge(cut), 1).decodePage(0, cut)).toThrow("file page 0: 9 bytes run past the end");
    const notUtf8 = Uint8Array.of(2, 0xc3, 0x28, 0);
    expect(() => directoryOf(forge(notUtf8), 1).decodePage(0, notUtf8)).toThrow("not valid UTF-8");
    expect(() =>
      directoryOf(forge(pages), 1).decodePage(
        0,
        Uint8Array.from(pages, (b, i) => (i ? b : b ^ 1)),
      ),
    ).toThrow("checksum mismatch");
    expect(() => encodeFileIds([one[0], { ...one[0], id: "0" }])).toThrow(
      "the file table is not in id order at file 1",
    );
    expect(idsOf([one[0], { ...one[0], id: "2" }]).inOrder()).toBe(true);
  });

  it("give a file's path from one page read by range, in the round of its text, never every file's path", async () => {
    const files = Array.from({ length: 3000 }, (_, f) => ({
      id: String(f * 7 - 500),
      path: `src/package${f % 50}/deeper/still/File${f}.java`,
      language: "Java",
      // Lines unlike each other: the text pages, deflated, outgrow what is read whole on opening.
      text: [1, 2, 3]
        .map((line) => `class File${f} { long x = ${(f * 2_654_435_761 + line * 40_503) % 1e9}L; }\n`)
        .join(""),
    }));
    const { bytes } = compileDocument({
      format: "appstruct.analysis/1",
      application: "Files",
      analyzedAt: "2026-01-01T00:00:00Z",
      files,
      objects: [{ id: "1", name: "x", fullName: "x", type: "T", typeId: "T" }],
    });
    const { snapshot, record } = await loggedSnapshot(bytes, 64 << 20, "one file's path");
    const directory = await snapshot.section("SFLD");
    expect(directory.pageCount).toBeGreaterThan(20);
    const reads = await record(true);
    expect(await fileText(snapshot, "10000", { startLine: 2, endLine: 2 })).toEqual({
      fileId: "10000",
      path: "src/package0/deeper/still/File1500.java",
      startLine: 2,
      endLine: 2,
      totalLines: 3,
      text: `${files[1500].text.split("\n")[1]}\n`,
    });
    const paths = reads.filter((r) => r.tag === "SFLP");
    expect(paths).toHaveLength(1);
    expect(paths[0].length).toBeLessThan(FILE_PAGE_BYTES + 64);
    const text = reads.find((r) => r.tag === "SRCP")!;
    expect(paths[0].settledBefore, "the path's page and the text's go out together").toEqual(text.settledBefore);
  });
});
