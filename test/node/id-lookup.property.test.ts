// @module Looking objects up by id: the id pages read whole (a budget they fit in a quarter of) and page by page (one they do not) give every id the rank and parent the compiled model gives it, and no rank to ids it lacks (property); id pages with a damaged page are read whole once, not at every lookup.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileDocument } from "../../build/compile/compile-document.ts";
import { CorruptSnapshotError } from "../../src/format/errors.ts";
import { IDS_PER_PAGE, IdPage, WholeIdPages } from "../../src/format/id-pages.ts";
import { NONE } from "../../src/format/model.ts";
import { SectionCache } from "../../src/format/section-cache.ts";
import { memorySource, Snapshot } from "../../src/format/snapshot.ts";
import { locateId, lookUp } from "../../src/query/lookup.ts";
import { rawSection } from "../format/snapshot-bytes.ts";

/**
 * 1,100–1,700 objects (three or four id pages) with distinct ids, some with a parent: spread far
 * apart (a page spanning 2^32 ids and more), or near one another from anywhere up to 10^15 (each
 * page then held as distances from its first id).
 */
const analyses = fc
  .oneof(
    fc.uniqueArray(fc.bigInt({ min: 1n, max: 10n ** 15n }), { minLength: 2 * IDS_PER_PAGE + 76, maxLength: 1700 }),
    fc
      .tuple(
        fc.bigInt({ min: 0n, max: 10n ** 15n }),
        fc.uniqueArray(fc.bigInt({ min: 1n, max: 2n ** 33n }), { minLength: 2 * IDS_PER_PAGE + 76, maxLength: 1700 }),
      )
      .map(([base, offsets]) => offsets.map((o) => base + o)),
  )
  .map((ids) => ({
    format: "appstruct.analysis/1",
    application: "Ids",
    analyzedAt: "2026-05-05T10:00:00Z",
    files: [],
    objects: ids.map((id, i) => ({
      id: String(id),
      name: `o${(i * 7919) % ids.length}`,
      fullName: `p.o${i}`,
      type: "Java Method",
      typeId: "JV_METHOD",
      ...(i % 3 === 1 ? { parent: String(ids[i - 1]) } : {}),
    })),
    links: [],
  }));

/** The snapshot of `bytes` with a section cache of `budgetBytes`. */
const open = (bytes: Uint8Array, budgetBytes: number) =>
  Snapshot.open(memorySource(bytes, "ids"), { sections: new SectionCache(budgetBytes) });

describe("id lookups", () => {
  it("find every id's rank and parent, and no rank for ids not there, whole or page by page, ids near or far apart", async () => {
    await fc.assert(
      fc.asyncProperty(
        analyses,
        fc.array(fc.bigInt({ min: 0n, max: 10n ** 15n + 2n ** 34n }), { maxLength: 20 }),
        async (analysis, probes) => {
          const { bytes, model } = compileDocument(analysis);
          const idBytes = model.objects.length * 16;
          // Whole: the id pages take under a quarter of the budget. Paged: more than a quarter.
          const [whole, paged] = await Promise.all([open(bytes, 64 * idBytes), open(bytes, 2 * idBytes)]);
          const present = new Set(model.objects.map((o) => o.id));
          for (const snapshot of [whole, paged]) {
            for (let rank = 0; rank < model.objects.length; rank++) {
              const { id, parent } = model.objects[rank];
              expect(await locateId(snapshot, id)).toEqual({ rank, parent });
            }
            // Ids beside those there too: inside a page's span, where only the search can tell.
            const beside = model.objects.slice(0, 40).flatMap((o) => [BigInt(o.id) + 1n, BigInt(o.id) - 1n]);
            for (const probe of [...probes, ...beside].map(String).filter((id) => !present.has(id)))
              expect(await lookUp(snapshot, probe)).toBe(-1);
          }
          // Each took the way it was meant to: one entry for every id page (read behind the first
          // lookup, which reads its own page), or a page an entry.
          await new Promise((resolve) => setTimeout(resolve, 0));
          expect(whole.recall("IDXP#whole")).toBeInstanceOf(WholeIdPages);
          expect(paged.recall("IDXP#whole")).toBeUndefined();
          // Which pages the small budget still holds depends on its eviction; some page is held alone.
          const pages = Math.ceil(model.objects.length / IDS_PER_PAGE);
          const held = Array.from({ length: pages }, (_, p) => paged.recall(`IDXP#${p}`)).filter(Boolean);
          expect(held.length).toBeGreaterThan(0);
          for (const page of held) expect(page).toBeInstanceOf(IdPage);
          expect(model.objects.some((o) => o.parent !== NONE)).toBe(true);
        },
      ),
      // A failure is reported as found: shrinking compiles a thousand-object analysis per step.
      { numRuns: 8, endOnFailure: true },
    );
  });
});

describe("id pages with a damaged page", () => {
  it("are read whole once: ids on sound pages are found page by page, those on the damaged page refused", async () => {
    // Ten pages: more than a snapshot reads whole at the first part asked of it (64 KiB).
    const ids = Array.from({ length: 10 * IDS_PER_PAGE }, (_, i) => String(1000 + 3 * i));
    const { bytes, model } = compileDocument({
      format: "appstruct.analysis/1",
      application: "Ids",
      analyzedAt: "2026-05-05T10:00:00Z",
      files: [],
      objects: ids.map((id, i) => ({
        id,
        name: `o${i}`,
        fullName: `p.o${i}`,
        type: "Java Method",
        typeId: "JV_METHOD",
      })),
      links: [],
    });
    // A byte of the last page's ids flipped: its checksum fails, as a read whole checks every page.
    const damaged = bytes.slice();
    const idxp = rawSection(damaged, "IDXP");
    damaged[idxp.offset + idxp.length - 16] ^= 0x40;
    const source = memorySource(damaged, "damaged ids");
    let wholeReads = 0;
    const counted = {
      ...source,
      read: (offset: number, length: number) => {
        if (offset >= idxp.offset && offset < idxp.offset + idxp.length && length > idxp.length / 2) wholeReads++;
        return source.read(offset, length);
      },
    };
    const snapshot = await Snapshot.open(counted, { sections: new SectionCache(64 << 20) });
    for (let round = 0; round < 4; round++) {
      // Ids ascend across the pages: the first page's and the second's are sound.
      for (const id of [ids[0], ids[1], ids[IDS_PER_PAGE + 5]])
        expect(await lookUp(snapshot, id)).toBe(model.objects.findIndex((o) => o.id === id));
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    expect(wholeReads, "the whole read is not made again at every lookup").toBe(1);
    await expect(lookUp(snapshot, ids[ids.length - 1])).rejects.toBeInstanceOf(CorruptSnapshotError);
  });
});
