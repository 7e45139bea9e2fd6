// @module Walks for start and end points: the point pages, read whole while they fit their share of the section budget, come in with the walk's first links, not in a round of reads after the walk; no object's links are waited on unless the walk expands it (an unexpanded origin's are prefetched); and the last step reads none.
import { beforeAll, describe, expect, it } from "vitest";
import { decodeSnapshotModel } from "../../src/format/decode.ts";
import type { SnapshotModel } from "../../src/format/model.ts";
import { memorySource, Snapshot } from "../../src/format/snapshot.ts";
import { startEndPoints } from "../../src/query/points.ts";
import { collect } from "../../src/query/streamed-list.ts";
import { generatedSnapshot } from "../support/generated-snapshot.ts";
import { type LoggedRead, loggedSnapshot } from "../support/read-log.ts";
import { rawSections } from "./snapshot-bytes.ts";

// Enough objects that the point pages outgrow a small section's whole read (64 KiB): 103 KB here.
let bytes: Uint8Array;
let model: SnapshotModel;

beforeAll(async () => {
  bytes = await generatedSnapshot(60_000, 13);
  model = await decodeSnapshotModel(await Snapshot.open(memorySource(bytes)));
}, 120_000);

/** The reads of a 3-hop walk from `id`, on a snapshot opened as the worker opens one under `budget`, each read 5 ms late; and its answer. */
async function walk(
  id: string,
  budget: number,
  key: string,
  hops = 3,
): Promise<{ reads: LoggedRead[]; answer: unknown }> {
  const { snapshot, record } = await loggedSnapshot(bytes, budget, key);
  const reads = await record();
  const answer = await collect(await startEndPoints(snapshot, id, hops));
  // What the walk prefetched for later answers is in the log once its read has started.
  await new Promise((started) => setTimeout(started, 10));
  return { reads, answer };
}

/** The sections of the reads an answer waited for (a prefetch's it did not). */
const waitedFor = (reads: LoggedRead[]) => reads.filter((r) => !r.prefetch).map((r) => r.tag);
const prefetched = (reads: LoggedRead[]) => reads.filter((r) => r.prefetch).map((r) => r.tag);

describe("a walk for start and end points", () => {
  const pointPages = () => rawSections(bytes).find((s) => s.tag === "PNTP")!;
  /** Objects whose 3-hop walk lists points, and the answer a snapshot holding everything gives. */
  const walks = async () => {
    const reference = await Snapshot.open(memorySource(bytes));
    const found: { id: string; answer: unknown }[] = [];
    for (let rank = 0; rank < model.objects.length && found.length < 3; rank += 997) {
      const { id } = model.objects[rank];
      const answer = await collect(await startEndPoints(reference, id, 3));
      if (answer.startPoints.length + answer.endPoints.length > 0) found.push({ id, answer });
    }
    expect(found.length).toBeGreaterThan(0);
    return found;
  };

  it("reads the point pages whole, with its first links, where they fit their share of the budget", async () => {
    expect(pointPages().length).toBeGreaterThan(64 * 1024);
    for (const { id, answer } of await walks()) {
      const { reads, answer: got } = await walk(id, 64 << 20, `whole ${id}`);
      expect(got).toEqual(answer);
      const points = reads.filter((r) => r.tag === "PNTP");
      expect(
        points.map((r) => r.length),
        "one read, of the whole section",
      ).toEqual([pointPages().length]);
      expect(points[0].settledBefore, "asked for before any link page came in").not.toContain("LNKP");
    }
  });

  it("reads them page by page, once the walk knows its points, where they do not", async () => {
    // A 1 MiB budget leaves the point pages 64 KiB: less than they take.
    for (const { id, answer } of await walks()) {
      const { reads, answer: got } = await walk(id, 1 << 20, `paged ${id}`);
      expect(got).toEqual(answer);
      const points = reads.filter((r) => r.tag === "PNTP");
      expect(points.length).toBeGreaterThan(0);
      for (const read of points) {
        expect(read.length).toBeLessThan(pointPages().length);
        expect(read.settledBefore).toContain("LNKP");
      }
    }
  });

  it("waits on no link page of an object it does not expand: its role comes from FLOW, read with HOPS; it prefetches the origin's", async () => {
    const reference = await Snapshot.open(memorySource(bytes));
    const { offsets } = model.callees;
    const called = new Uint8Array(model.objects.length);
    for (let i = 0; i < offsets[model.objects.length]; i++) called[model.callees.targets[i]] = 1;
    // An object that calls nothing and that nothing calls leads to no point and from none, however far.
    const alone = model.objects.findIndex((_, r) => offsets[r] === offsets[r + 1] && !called[r]);
    expect(alone).toBeGreaterThanOrEqual(0);
    // And a start or end point asked for 0 hops: itself, from FLOW.
    const point = model.objects.findIndex((o) => o.role !== null);
    for (const [rank, hops] of [
      [alone, 3],
      [point, 0],
    ]) {
      const { id } = model.objects[rank];
      const { reads, answer } = await walk(id, 64 << 20, `unexpanded ${id} ${hops}`, hops);
      expect(answer).toEqual(await collect(await startEndPoints(reference, id, hops)));
      expect(waitedFor(reads)).not.toContain("LNKP");
      expect(waitedFor(reads)).toContain("HOPS");
      // For the callees or callers likely asked next.
      expect(prefetched(reads)).toEqual(["LNKP"]);
    }
  });

  it("takes its last step from HOPS's lists: a 1-hop walk waits on no link page, and every walk answers as one without HOPS", async () => {
    // The 512 KiB budget leaves HOPS out (below): those walks read every link.
    let listed = 0;
    for (let rank = 0; rank < model.objects.length; rank += 9973) {
      const { id } = model.objects[rank];
      for (const hops of [1, 2, 3]) {
        const held = await walk(id, 64 << 20, `lists ${id} ${hops}`, hops);
        const without = await walk(id, 512 << 10, `no lists ${id} ${hops}`, hops);
        expect(held.answer).toEqual(without.answer);
        if (hops === 1) {
          expect(waitedFor(held.reads)).not.toContain("LNKP");
          expect(prefetched(held.reads), "the origin's links, for what is asked next").toEqual(["LNKP"]);
        }
        // A walk that reads the origin's links itself prefetches nothing: all do, without HOPS.
        expect(prefetched(without.reads)).toEqual([]);
        const { startPoints, endPoints } = held.answer as { startPoints: unknown[]; endPoints: unknown[] };
        listed += startPoints.length + endPoints.length;
      }
    }
    expect(listed, "walks that find points").toBeGreaterThan(0);
  });

  it("walks without HOPS, and answers the same, where HOPS would take more than its share of the budget", async () => {
    const hops = rawSections(bytes).find((s) => s.tag === "HOPS")!;
    // 512 KiB leaves HOPS an eighth, 64 KiB: less than its bytes (a byte an object and its lists).
    expect(hops.length).toBeGreaterThan((512 << 10) / 8);
    for (const { id, answer } of await walks()) {
      const { reads, answer: got } = await walk(id, 512 << 10, `no hops ${id}`);
      expect(got).toEqual(answer);
      expect(reads.map((r) => r.tag)).not.toContain("HOPS");
    }
  });
});
