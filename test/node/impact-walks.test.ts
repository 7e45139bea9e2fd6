// @module The impact walks in process: past the traversal budget they answer what they found, truncated.
import { beforeAll, describe, expect, it } from "vitest";
import { compileDocument } from "../../build/compile/compile-document.ts";
import { SectionCache } from "../../src/format/section-cache.ts";
import { memorySource, Snapshot } from "../../src/format/snapshot.ts";
import { callHierarchy } from "../../src/query/call-hierarchy.ts";
import { DATA_GRAPH, flowGraph, TRANSACTION } from "../../src/query/flows.ts";
import type { GraphAnswer } from "../../src/query/graph-answer.ts";
import corner from "../fixtures/corner/corner-v2.json";

let snapshot: Snapshot;
beforeAll(async () => {
  snapshot = await Snapshot.open(memorySource(compileDocument(corner).bytes), { sections: new SectionCache(1 << 24) });
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
