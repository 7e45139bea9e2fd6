// @module The impact walks in process: past the traversal budget they answer what they found, truncated; a file without its optional link and id pages answers as a paged one.
import { beforeAll, describe, expect, it } from "vitest";
import { compileDocument } from "../../build/compile/compile-document.ts";
import { SectionCache } from "../../src/format/section-cache.ts";
import { memorySource, Snapshot } from "../../src/format/snapshot.ts";
import { callHierarchy } from "../../src/query/call-hierarchy.ts";
import { objectCallers } from "../../src/query/callers.ts";
import { DATA_GRAPH, flowGraph, TRANSACTION } from "../../src/query/flows.ts";
import type { GraphAnswer } from "../../src/query/graph-answer.ts";
import { objectPaths } from "../../src/query/paths.ts";
import { collect } from "../../src/query/streamed-list.ts";
import corner from "../fixtures/corner/corner-v2.json";
import { assemble, sectionSpecs } from "../format/snapshot-bytes.ts";

let snapshot: Snapshot;
/** The same analysis without its optional link and id pages: links read from CALE, CALR and OBJC. */
let withoutPages: Snapshot;
beforeAll(async () => {
  const bytes = compileDocument(corner).bytes;
  snapshot = await Snapshot.open(memorySource(bytes), { sections: new SectionCache(1 << 24) });
  const older = assemble(sectionSpecs(bytes).filter((s) => !["LNKP", "LNKD", "IDXP", "IDXD"].includes(s.tag)));
  withoutPages = await Snapshot.open(memorySource(older), { sections: new SectionCache(1 << 24) });
  expect(withoutPages.has("LNKP")).toBe(false);
});

/** `part` holds only nodes of `whole` at their depths and links of `whole`, and says it was cut. */
function expectPart(part: GraphAnswer, whole: GraphAnswer) {
  expect(whole.truncated).toBe(false);
  expect(part.truncated).toBe(true);
  expect(part.totalNodes).toBe(part.nodes.length);
  expect(part.totalNodes).toBeLessThan(whole.totalNodes);
  expect(part.totalNodes).toBeGreaterThan(0);
  for (const node of part.nodes) expect(whole.nodes).toContainEqual(node);
  for (const link of part.links) expect(whole.links).toContainEqual(link);
}

describe("a walk past its budget answers what it found, truncated", () => {
  it("transaction graph from index.html (15 objects in all)", async () => {
    const whole = await flowGraph(snapshot, TRANSACTION, "100", 1000);
    expect(whole.totalNodes).toBe(15);
    expectPart(await flowGraph(snapshot, TRANSACTION, "100", 1000, 4), whole);
  });

  it("data graph of orders_archive", async () => {
    const whole = await flowGraph(snapshot, DATA_GRAPH, "401", 1000);
    expectPart(await flowGraph(snapshot, DATA_GRAPH, "401", 1000, 3), whole);
  });

  it("call hierarchy both ways from run: the budget is shared by the two walks", async () => {
    const query = { direction: "both", hops: 3, linkTypes: [], limit: 1000 } as const;
    const whole = await callHierarchy(snapshot, "200", query);
    expectPart(await callHierarchy(snapshot, "200", query, 5), whole);
  });
});

describe("files without link pages answer as paged ones", () => {
  const ids = corner.objects.map((o) => o.id);
  it("callers, call hierarchies and paths of every object", async () => {
    for (const s of [snapshot, withoutPages]) expect(s.meta.counts.objects).toBe(ids.length);
    const answers = (s: Snapshot) =>
      Promise.all(
        ids.map(async (id) => [
          await collect((await objectCallers(s, id, { includeEscalated: true, withParent: true })).callers),
          await callHierarchy(s, id, { direction: "both", hops: 4, linkTypes: [], limit: 1000 }),
          await objectPaths(s, "100", id, { hops: 8, limit: 100 }),
        ]),
      );
    expect(await answers(withoutPages)).toEqual(await answers(snapshot));
  });

  it("transaction and data graphs", async () => {
    const graphs = (s: Snapshot) =>
      Promise.all([
        ...["100", "101"].map((id) => flowGraph(s, TRANSACTION, id, 1000)),
        ...["400", "401", "500"].map((id) => flowGraph(s, DATA_GRAPH, id, 1000)),
      ]);
    expect(await graphs(withoutPages)).toEqual(await graphs(snapshot));
  });
});
