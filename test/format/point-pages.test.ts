// @module Point pages (PNTP + PNTD): every start and end point's JSON text in FLOW's order, what start/end point answers write as it is; damaged pages are refused.
import { beforeAll, describe, expect, it } from "vitest";
import { decodeSnapshotModel } from "../../src/format/decode.ts";
import { CorruptSnapshotError } from "../../src/format/errors.ts";
import { objectStarts } from "../../src/format/json-objects.ts";
import type { SnapshotModel } from "../../src/format/model.ts";
import { PointPage, parsePoints, pointRanks, pointsJson } from "../../src/format/point-pages.ts";
import { SectionCache } from "../../src/format/section-cache.ts";
import { type ByteSource, memorySource, Snapshot } from "../../src/format/snapshot.ts";
import { jsonChunks } from "../../src/http/json-stream.ts";
import { startEndPoints } from "../../src/query/points.ts";
import { collect } from "../../src/query/streamed-list.ts";
import { generatedSnapshot } from "../support/generated-snapshot.ts";
import { block, getU32, patchSection, rawSections, setU32 } from "./snapshot-bytes.ts";

let bytes: Uint8Array;
let model: SnapshotModel;

beforeAll(async () => {
  bytes = await generatedSnapshot(20_000, 13);
  model = await decodeSnapshotModel(await Snapshot.open(memorySource(bytes)));
}, 120_000);

const summary = (rank: number) => {
  const { id, name, fullName, type } = model.objects[rank];
  return { id, name, fullName, type };
};

describe("point pages", () => {
  it("hold every start point, then every end point, ascending, each as JSON.stringify writes its summary, read once or again", async () => {
    const snapshot = await Snapshot.open(memorySource(bytes));
    const [directory, flows] = await Promise.all([snapshot.section("PNTD"), snapshot.section("FLOW")]);
    const ranks = pointRanks(model);
    expect(ranks).toEqual([...flows.starts, ...flows.ends]);
    expect(flows.starts.length, "the fixture has start points").toBeGreaterThan(10);
    expect(flows.ends.length, "the fixture has end points").toBeGreaterThan(10);
    expect(directory.pointCount).toBe(ranks.length);
    expect(directory.pageCount, "the points take several pages").toBeGreaterThan(3);
    const block0 = rawSections(bytes).find((s) => s.tag === "PNTP")!;
    for (let p = 0; p < directory.pageCount; p++) {
      const stored = bytes.subarray(
        block0.offset + 16 + directory.offsets[p],
        block0.offset + 16 + directory.offsets[p + 1],
      );
      // Read twice: checked the first time, its points found again without the check the second.
      for (const page of [directory.decodePage(p, stored), directory.decodePage(p, stored)]) {
        expect(page.count).toBe(directory.firstPoints[p + 1] - directory.firstPoints[p]);
        for (let point = page.firstPoint; point < page.firstPoint + page.count; point++)
          expect(new TextDecoder().decode(page.pointText(point))).toBe(JSON.stringify(summary(ranks[point])));
      }
    }
  });

  it("make a batch's JSON array of points from pages in UTF-8, as JSON.stringify writes the list, none, one or several", () => {
    const points = [
      { id: "7", name: "é", fullName: "a.é", type: "t" },
      { id: "8", name: "😀", fullName: 'q"},{"id":', type: "t" },
      { id: "9", name: "z", fullName: "z", type: "\\" },
    ];
    const json = new TextEncoder().encode(JSON.stringify(points));
    // Points 10, 11 and 12 on one page.
    const page = new PointPage(10, json, Uint32Array.from(objectStarts(json, "id")));
    const text = (list: number[]) => new TextDecoder().decode(pointsJson(list, () => page));
    expect(text([])).toBe("[]");
    expect(text([11])).toBe(JSON.stringify([points[1]]));
    expect(text([10, 11, 12])).toBe(JSON.stringify(points));
    expect(parsePoints(pointsJson([12, 10], () => page))).toEqual([points[2], points[0]]);
  });

  it("give start and end point answers, as text and as objects, equal to the reference walk's points", async () => {
    const snapshot = await Snapshot.open(memorySource(bytes));
    const flows = await snapshot.section("FLOW");
    const isStart = new Set(flows.starts);
    const isEnd = new Set(flows.ends);
    let checked = 0;
    for (let rank = 0; rank < model.objects.length && checked < 40; rank += 397) {
      const answer = await startEndPoints(snapshot, model.objects[rank].id, 3);
      let text = "";
      for await (const chunk of jsonChunks(answer))
        text += typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk);
      const objects = await collect(answer);
      expect(JSON.parse(text)).toEqual(objects);
      // Each listed point is one of its role, listed as the model has it, in rank (name) order.
      for (const [list, role] of [
        [objects.startPoints, isStart],
        [objects.endPoints, isEnd],
      ] as const) {
        const ranks = list.map((p) => model.objects.findIndex((o) => o.id === p.id));
        expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
        for (const [i, r] of ranks.entries()) {
          expect(role.has(r)).toBe(true);
          expect(list[i]).toEqual(summary(r));
        }
      }
      if (objects.startPoints.length + objects.endPoints.length > 0) checked++;
    }
    expect(checked, "walks that list points").toBeGreaterThan(10);
  });

  it("are what a warm walk reads: no row page", async () => {
    const memory = memorySource(bytes, "walks read no rows");
    const rowp = rawSections(bytes).find((s) => s.tag === "ROWP")!;
    let rowReads = 0;
    const counted: ByteSource = {
      ...memory,
      read: (offset, length) => {
        if (offset >= rowp.offset && offset < rowp.offset + rowp.length) rowReads++;
        return memory.read(offset, length);
      },
    };
    const snapshot = await Snapshot.open(counted, { sections: new SectionCache(64 << 20) });
    let listed = 0;
    for (let rank = 5; rank < model.objects.length; rank += 1013) {
      const answer = await collect(await startEndPoints(snapshot, model.objects[rank].id, 3));
      listed += answer.startPoints.length + answer.endPoints.length;
    }
    expect(listed).toBeGreaterThan(0);
    expect(rowReads).toBe(0);
  });

  it("refuse a page whose bytes do not match its checksum", async () => {
    const broken = patchSection(bytes, "PNTP", (body) => (body[block(body, 0).offset + 5] ^= 0xff));
    const snapshot = await Snapshot.open(memorySource(broken));
    const flows = await snapshot.section("FLOW");
    const point = model.objects[flows.starts[0]];
    // A walk from the first start point lists it first, from page 0.
    const error = await startEndPoints(snapshot, point.id, 1)
      .then((answer) => collect(answer))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorruptSnapshotError);
    expect((error as Error).message).toBe("point pages: page 0 checksum mismatch");
  });

  it("refuse a directory whose pages do not hold the points its first points say", async () => {
    // A point moved from page 0 to page 1: page 0's text then holds one point more than said.
    const broken = patchSection(bytes, "PNTD", (body) => setU32(body, 0, 1, getU32(body, 0, 1) - 1));
    const snapshot = await Snapshot.open(memorySource(broken));
    const directory = await snapshot.section("PNTD");
    const block0 = rawSections(broken).find((s) => s.tag === "PNTP")!;
    const stored = broken.subarray(block0.offset + 16, block0.offset + 16 + directory.offsets[1]);
    expect(() => directory.decodePage(0, stored)).toThrow(/^point page 0 holds \d+ points, expected \d+$/);
  });
});
