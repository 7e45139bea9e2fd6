// @module Location pages (SLCP + SLCD): each object's source locations as compiled, an object's locations cost one page read by range, damaged pages refused.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { compileDocument } from "../../build/compile/compile-document.ts";
import { loadFolderCatalog } from "../../build/folder-catalog.ts";
import { createApp } from "../../src/app.ts";
import { Blocks, encodeBlocks } from "../../src/format/blocks.ts";
import { crc32 } from "../../src/format/crc32.ts";
import { decodeSnapshotModel } from "../../src/format/decode.ts";
import { encodeLocationPages, LOCATION_PAGE_BYTES, LocationDirectory } from "../../src/format/location-pages.ts";
import type { ObjectRecord } from "../../src/format/model.ts";
import { encodeRankPageDirectory } from "../../src/format/page-directory.ts";
import { SectionCache } from "../../src/format/section-cache.ts";
import { delayedSource, memorySource, Snapshot } from "../../src/format/snapshot.ts";
import { readServerTiming } from "../../src/http/server-timing.ts";
import { objectLocations, SnapshotSourceLocator } from "../../src/query/source-locator.ts";
import { arbitraryAnalysis } from "../support/arbitrary-analysis.ts";
import { generatedSnapshot } from "../support/generated-snapshot.ts";
import { loggedSnapshot } from "../support/read-log.ts";

let generated: Uint8Array;

beforeAll(async () => {
  generated = await generatedSnapshot(20_000, 3);
}, 120_000);

/** Objects holding only what location pages encode. */
const withLocations = (locations: ObjectRecord["sourceLocations"][]) =>
  locations.map((sourceLocations) => ({ sourceLocations }) as ObjectRecord);

/** The directory of `pages` as a reader decodes it, for `files` files. */
const directoryOf = (pages: ReturnType<typeof encodeLocationPages>, rows: number, files: number) =>
  new LocationDirectory(new Blocks(encodeBlocks(encodeRankPageDirectory(pages)), "SLCD", 3), rows, files);

describe("location pages", () => {
  it("give every object's locations as compiled, by file id, null for an object without any (property)", async () => {
    await fc.assert(
      fc.asyncProperty(arbitraryAnalysis({ maxObjects: 40 }), async (analysis) => {
        const { bytes, model } = compileDocument(analysis);
        const snapshot = await Snapshot.open(memorySource(bytes));
        const ranks = model.objects.map((_, r) => r);
        const expected = model.objects.map((o) =>
          o.sourceLocations.length === 0
            ? null
            : o.sourceLocations.map((l) => ({
                fileId: model.files[l.file].id,
                startLine: l.startLine,
                endLine: l.endLine,
              })),
        );
        expect(await objectLocations(snapshot, ranks)).toEqual(expected);
        // Ranks out of range, or not whole numbers, have none.
        expect(await objectLocations(snapshot, [-1, ranks.length, 0.5])).toEqual([null, null, null]);
      }),
      { numRuns: 40 },
    );
  });

  it("cut pages of a few KiB across many objects, each page starting at an object", () => {
    const objects = withLocations(
      Array.from({ length: 3000 }, (_, r) =>
        Array.from({ length: r % 3 }, (_, i) => ({ file: (r + i) % 7, startLine: r, endLine: r + i })),
      ),
    );
    const pages = encodeLocationPages(objects);
    const directory = directoryOf(pages, objects.length, 7);
    expect(directory.pageCount).toBeGreaterThan(1);
    for (let p = 0; p < directory.pageCount; p++) {
      expect(directory.storedBytes(p)).toBeLessThan(LOCATION_PAGE_BYTES + 64);
      const page = directory.decodePage(p, pages.pages.subarray(pages.offsets[p], pages.offsets[p + 1]));
      for (let rank = page.firstRank; rank < directory.endOf(p); rank++)
        expect(page.locations(rank)).toEqual(objects[rank].sourceLocations);
    }
  });

  it("refuse a page naming a file past the file table, or holding bytes past its objects", () => {
    const pages = encodeLocationPages(withLocations([[{ file: 5, startLine: 1, endLine: 2 }], []]));
    expect(() => directoryOf(pages, 2, 5).decodePage(0, pages.pages)).toThrow(
      "location page 0: object 0 names file 5 of 5",
    );
    const longer = Uint8Array.from([...pages.pages, 0]);
    const forged = { ...pages, offsets: Uint32Array.from([0, longer.length]), crcs: Uint32Array.of(crc32(longer)) };
    expect(() => directoryOf(forged, 2, 6).decodePage(0, longer)).toThrow(
      "location page 0: bytes left after its 2 objects",
    );
  });

  it("read one page by range for an object's locations, never the locations of every object", async () => {
    const { snapshot, record } = await loggedSnapshot(generated, 64 << 20, "locations of one object");
    const reads = await record(true);
    const [located] = await objectLocations(snapshot, [12_345]);
    expect(located).not.toBeNull();
    const pages = reads.filter((r) => r.tag === "SLCP");
    expect(pages).toHaveLength(1);
    expect(pages[0].length).toBeLessThan(LOCATION_PAGE_BYTES + 64);
    expect(reads.map((r) => r.tag).sort()).toEqual(["SFID", "SLCP"]);
    expect(pages[0].settledBefore, "the page is asked for beside the file ids, not after them").not.toContain("SFID");
  });

  it("come with an object's characteristics in the round of its rows, not a round after them", async () => {
    const folder = await mkdtemp(join(tmpdir(), "appstruct-locations-"));
    try {
      await writeFile(join(folder, "generated.snap"), generated);
      const catalog = await loadFolderCatalog(folder, () => {}, {
        sections: new SectionCache(64 << 20),
        readThrough: (source) => delayedSource(source, 5),
      });
      const app = createApp(() => ({ catalog, sources: new SnapshotSourceLocator(catalog), access: null }));
      const { meta, objects } = await decodeSnapshotModel(await Snapshot.open(memorySource(generated)));
      const ask = async (rank: number) => {
        const path = `/rest/applications/${encodeURIComponent(meta.application)}/objects/${objects[rank].id}?select=source-locations`;
        const response = await app.fetch(new Request(`http://local${path}`));
        expect(response.status, path).toBe(200);
        return {
          body: (await response.json()) as { sourceLocations?: unknown[] },
          timing: readServerTiming(response.headers.get("Server-Timing"))!,
        };
      };
      // The first answer reads what every later one consults: the id pages, the file ids, the directories.
      await ask(0);
      const far = objects.findIndex((o, rank) => rank > 15_000 && o.sourceLocations.length > 0);
      const { body, timing } = await ask(far);
      expect(body.sourceLocations).toHaveLength(objects[far].sourceLocations.length);
      expect(timing.reads, "its row page and its location page, at least").toBeGreaterThanOrEqual(2);
      expect(timing.rounds).toBe(1);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
