// @module The impact walks in process: past the traversal budget they answer what they found, truncated.
import { beforeAll, describe, expect, it } from "vitest";
import { compileDocument } from "../../build/compile/compile-document.ts";
import { SectionCache } from "../../src/format/section-cache.ts";
import { memorySource, Snapshot } from "../../src/format/snapshot.ts";
import { callHierarchy } from "../../src/query/call-hierarchy.ts";
import { DATA_GRAPH, flowGraph, TRANSACTION } from "../../src/query/flows.ts";
import { type GraphAnswer, graphAnswer, summariesOf } from "../../src/query/graph-answer.ts";
import { linkRows } from "../../src/query/link-rows.ts";
import { walk } from "../../src/query/link-walk.ts";
import { rankOfId } from "../../src/query/lookup.ts";
import corner from "../fixtures/corner/corner-v2.json";
import { getU32, patchSection, setU32 } from "../format/snapshot-bytes.ts";
import { generatedSnapshot } from "../support/generated-snapshot.ts";

let snapshot: Snapshot;
beforeAll(async () => {
  snapshot = await Snapshot.open(memorySource(compileDocument(corner).bytes), { sections: new SectionCache(1 << 24) });
});

/**
 * `part` holds only nodes of `whole` at their depths and links of `whole`, and says it was cut.
 * `counted`: the graph's size was counted at compile time, so `totalNodes` is the whole's still.
 */
function expectPart(part: GraphAnswer, whole: GraphAnswer, counted: boolean) {
  expect(whole.truncated).toBe(false);
  expect(part.truncated).toBe(true);
  expect(part.nodes.length).toBeLessThan(whole.totalNodes);
  expect(part.nodes.length).toBeGreaterThan(0);
  expect(part.totalNodes).toBe(counted ? whole.totalNodes : part.nodes.length);
  for (const node of part.nodes) expect(whole.nodes).toContainEqual(node);
  for (const link of part.links) expect(whole.links).toContainEqual(link);
}

describe("a walk past its budget answers what it found, truncated", () => {
  it("transaction graph from index.html (15 objects in all)", async () => {
    const whole = await flowGraph(snapshot, TRANSACTION, "100", 1000);
    expect(whole.totalNodes).toBe(15);
    expectPart(await flowGraph(snapshot, TRANSACTION, "100", 1000, { budget: 4 }), whole, true);
  });

  it("data graph of orders_archive", async () => {
    const whole = await flowGraph(snapshot, DATA_GRAPH, "401", 1000);
    expectPart(await flowGraph(snapshot, DATA_GRAPH, "401", 1000, { budget: 3 }), whole, true);
  });

  it("call hierarchy both ways from run: the budget is shared by the two walks", async () => {
    const query = { direction: "both", hops: 3, linkTypes: [], limit: 1000 } as const;
    const whole = await callHierarchy(snapshot, "200", query);
    expectPart(await callHierarchy(snapshot, "200", query, { traversalBudget: 5 }), whole, false);
  });

  it("call hierarchy both ways, walked together: the answer of walking forward, then backward on what is left, at every budget", async () => {
    const query = { direction: "both", hops: 3, linkTypes: [], limit: 1000 } as const;
    /** The definition: forward within the budget, then backward within what forward left, if any. */
    const oneAfterTheOther = async (id: string, budget: number) => {
      const origin = await rankOfId(snapshot, id);
      const options = { hops: 3, types: null, stopAtFlowEnds: false, recordLinksUpTo: 0 };
      const walks = [await walk(snapshot, origin, { ...options, direction: "forward", budget })];
      const left = budget - walks[0].examined;
      if (left >= 0) walks.push(await walk(snapshot, origin, { ...options, direction: "backward", budget: left }));
      return graphAnswer(snapshot, walks, 1000, (await linkRows(snapshot, [origin])).linkTypes, false);
    };
    let cut = 0;
    for (const id of ["200", "201", "300", "100"]) {
      const whole = await callHierarchy(snapshot, id, query);
      expect(whole).toEqual(await oneAfterTheOther(id, Number.MAX_SAFE_INTEGER));
      for (let budget = 0; budget <= 24; budget++) {
        const answer = await callHierarchy(snapshot, id, query, { traversalBudget: budget });
        expect(answer, `${id} within ${budget}`).toEqual(await oneAfterTheOther(id, budget));
        if (answer.truncated) cut++;
      }
    }
    // Budgets cut both walks, the backward one alone, and neither.
    expect(cut).toBeGreaterThan(10);
  });
});

describe("transaction and data graphs: sizes counted at compile time", () => {
  it("a walk as deep as the first `limit` nodes answers as the whole walk of an uncounted point", async () => {
    const bytes = await generatedSnapshot(3000, 5);
    const open = (b: Uint8Array) => Snapshot.open(memorySource(b), { sections: new SectionCache(1 << 26) });
    const counted = await open(bytes);
    const flows = await counted.section("FLOW");
    expect(flows.starts.length).toBeGreaterThan(10);
    expect(flows.ends.length).toBeGreaterThan(10);
    // Every count NONE: an uncounted point is walked whole.
    const uncounted = await open(
      patchSection(bytes, "FLOW", (body) => {
        for (const [ranks, totals] of [
          [0, 1],
          [2, 3],
        ])
          for (let i = 0; i < (ranks === 0 ? flows.starts : flows.ends).length; i++) {
            expect(getU32(body, totals, i)).toBeGreaterThan(0);
            setU32(body, totals, i, 0xffffffff);
          }
      }),
    );
    for (const [flow, ranks] of [
      [TRANSACTION, flows.starts],
      [DATA_GRAPH, flows.ends],
    ] as const)
      for (const [rank, { id }] of await summariesOf(counted, ranks.slice(0, 12)))
        for (const limit of [1, 7, 50, 1000]) {
          const fast = await flowGraph(counted, flow, id, limit);
          expect(fast).toEqual(await flowGraph(uncounted, flow, id, limit));
          expect(fast.totalNodes).toBe(flow.size(flows, rank));
        }
  }, 60_000);
});
