// @module Walks for start and end points: the point pages, read whole while they fit their share of the section budget, come in with the walk's first links, not in a round of reads after the walk.
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
async function walk(id: string, budget: number, key: string): Promise<{ reads: LoggedRead[]; answer: unknown }> {
  const { snapshot, record } = await loggedSnapshot(bytes, budget, key);
  const reads = await record();
  return { reads, answer: await collect(await startEndPoints(snapshot, id, 3)) };
}

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
});
