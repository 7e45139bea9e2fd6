// @module What the explorer draws of a level graph (web/src/level-graph.ts) and how it names nodes (web/src/level-names.ts): hand-worked cases, and properties against the graph for random graphs and options.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ApiLevelGraph } from "../../src/contract/api-schemas.ts";
import { drawableGraph, level2ChildrenByName } from "../../web/src/level-graph.ts";
import { contextName, distinctNames } from "../../web/src/level-names.ts";

type Node = ApiLevelGraph["nodes"][number];
const node = (_id: number, name: string, nbObjects: number, fullName = name): Node => ({
  _id,
  name,
  fullName,
  nbObjects,
});
const graphOf = (nodes: Node[], links: [number, number][]): ApiLevelGraph => {
  const ref = (id: number) => {
    const n = nodes.find((x) => x._id === id)!;
    return { _id: n._id, name: n.name, fullName: n.fullName };
  };
  return { nodes, links: links.map(([o, t]) => ({ origin: ref(o), target: ref(t) })) };
};

// Alpha 10, Beta 30, Gamma 5, Delta 30; links Alpha→Beta, Beta→Gamma, Gamma→Alpha, Delta→Beta, Alpha→Delta.
const GRAPH = graphOf(
  [node(0, "Alpha", 10), node(1, "Beta", 30), node(2, "Gamma", 5), node(3, "Delta", 30)],
  [
    [0, 1],
    [1, 2],
    [2, 0],
    [3, 1],
    [0, 3],
  ],
);

describe("drawableGraph", () => {
  it("the top N by objects (ties by name) and only the links among them; counts of the whole level", () => {
    const drawn = drawableGraph(GRAPH, { scope: null, nameFilter: "", topN: 2 });
    expect(drawn.nodes.map((n) => [n.name, n.linksOut, n.linksIn])).toEqual([
      ["Beta", 1, 2],
      ["Delta", 1, 1],
    ]);
    expect(drawn.links).toEqual([{ origin: 3, target: 1 }]);
    expect([drawn.matchingNodes, drawn.linksInScope]).toEqual([4, 5]);
  });

  it("a scope (a drilled node's children) keeps its nodes and the links inside it", () => {
    const drawn = drawableGraph(GRAPH, { scope: new Set([0, 1, 2]), nameFilter: "", topN: Infinity });
    expect(drawn.nodes.map((n) => n.name)).toEqual(["Beta", "Alpha", "Gamma"]);
    expect(drawn.links).toEqual([
      { origin: 0, target: 1 },
      { origin: 1, target: 2 },
      { origin: 2, target: 0 },
    ]);
    expect([drawn.matchingNodes, drawn.linksInScope]).toEqual([3, 3]);
  });

  it("a bound on links keeps those among the largest nodes, in the graph's order", () => {
    // Ranks: Beta 0, Delta 1, Alpha 2, Gamma 3. Links by their weaker end: Delta→Beta 1, Alpha→Beta 2, Alpha→Delta 2, Beta→Gamma 3, Gamma→Alpha 3.
    const drawn = drawableGraph(GRAPH, { scope: null, nameFilter: "", topN: 4, maxLinks: 3 });
    expect(drawn.links).toEqual([
      { origin: 0, target: 1 },
      { origin: 3, target: 1 },
      { origin: 0, target: 3 },
    ]);
    expect(drawn.linksAmongDrawn).toBe(5);
  });

  it("neighbours outside the scope: the largest linked to a drawn node, with their links either way", () => {
    // Scope {Alpha, Gamma}: Beta (30) is linked (Alpha→Beta, Beta→Gamma), Delta (30) too (Alpha→Delta).
    const drawn = drawableGraph(GRAPH, { scope: new Set([0, 2]), nameFilter: "", topN: 10, maxOutside: 1 });
    expect(drawn.outsideNeighbours).toBe(2);
    expect(drawn.outside.map((n) => n.name)).toEqual(["Beta"]);
    expect(drawn.outsideLinks).toEqual([
      { origin: 0, target: 1 },
      { origin: 1, target: 2 },
    ]);
    const none = drawableGraph(GRAPH, { scope: new Set([0, 2]), nameFilter: "", topN: 10 });
    expect([none.outside, none.outsideLinks, none.outsideNeighbours]).toEqual([[], [], 2]);
  });

  it("the name filter is a case-insensitive substring", () => {
    const drawn = drawableGraph(GRAPH, { scope: null, nameFilter: "TA", topN: 50 });
    expect(drawn.nodes.map((n) => n.name)).toEqual(["Beta", "Delta"]);
    expect(drawn.links).toEqual([{ origin: 3, target: 1 }]);
  });

  const randomGraph = fc
    .array(fc.record({ name: fc.constantFrom("a", "b", "ab", "Ba", "c"), nbObjects: fc.nat(20) }), {
      minLength: 1,
      maxLength: 12,
    })
    .chain((raw) => {
      const nodes = raw.map((r, i) => node(i, r.name, r.nbObjects));
      const pair = fc.tuple(fc.nat(nodes.length - 1), fc.nat(nodes.length - 1));
      // A level graph has no self-links (docs/api.md "Level graph").
      const links = fc
        .uniqueArray(pair, { selector: ([o, t]) => `${o}>${t}`, maxLength: 40 })
        .map((list) => list.filter(([o, t]) => o !== t));
      return fc.record({
        graph: links.map((list) => graphOf(nodes, list)),
        scope: fc.option(fc.uniqueArray(fc.nat(nodes.length - 1)).map((ids) => new Set(ids))),
      });
    });

  it("draws min(N, matching) nodes, none smaller than one left out, and exactly the links among them", () => {
    fc.assert(
      fc.property(
        randomGraph,
        fc.constantFrom("", "a", "B"),
        fc.nat(8),
        fc.nat(50),
        ({ graph, scope }, nameFilter, topN, maxLinks) => {
          const drawn = drawableGraph(graph, { scope, nameFilter, topN, maxLinks, maxOutside: 3 });
          const matching = graph.nodes.filter(
            (n) => (scope === null || scope.has(n._id)) && n.name.toLowerCase().includes(nameFilter.toLowerCase()),
          );
          expect(drawn.matchingNodes).toBe(matching.length);
          expect(drawn.nodes.length).toBe(Math.min(topN, matching.length));
          const ids = new Set(drawn.nodes.map((n) => n._id));
          const smallestDrawn = Math.min(...drawn.nodes.map((n) => n.nbObjects));
          for (const n of matching) if (!ids.has(n._id)) expect(n.nbObjects).toBeLessThanOrEqual(smallestDrawn);
          const among = graph.links
            .filter((l) => ids.has(l.origin._id) && ids.has(l.target._id))
            .map((l) => ({ origin: l.origin._id, target: l.target._id }));
          expect(drawn.linksAmongDrawn).toBe(among.length);
          expect(drawn.links.length).toBe(Math.min(maxLinks, among.length));
          // A subsequence of the links among drawn nodes, none with a weaker end than one left out.
          const rank = new Map(drawn.nodes.map((n, i) => [n._id, i]));
          const weaker = (l: { origin: number; target: number }) => Math.max(rank.get(l.origin)!, rank.get(l.target)!);
          const kept = new Set(drawn.links.map((l) => `${l.origin}>${l.target}`));
          expect(among.filter((l) => kept.has(`${l.origin}>${l.target}`))).toEqual(drawn.links);
          const weakestKept = Math.max(-1, ...drawn.links.map(weaker));
          for (const l of among)
            if (!kept.has(`${l.origin}>${l.target}`)) expect(weaker(l)).toBeGreaterThanOrEqual(weakestKept);
          // Neighbours: outside the scope, linked to a drawn node; the largest kept; only their links to drawn nodes.
          const neighbours = graph.nodes.filter(
            (n) =>
              scope !== null &&
              !scope.has(n._id) &&
              graph.links.some(
                (l) =>
                  (l.origin._id === n._id && ids.has(l.target._id)) ||
                  (l.target._id === n._id && ids.has(l.origin._id)),
              ),
          );
          expect(drawn.outsideNeighbours).toBe(neighbours.length);
          expect(drawn.outside.length).toBe(Math.min(3, neighbours.length));
          const outsideIds = new Set(drawn.outside.map((n) => n._id));
          const smallestOutside = Math.min(...drawn.outside.map((n) => n.nbObjects));
          for (const n of neighbours)
            if (!outsideIds.has(n._id)) expect(n.nbObjects).toBeLessThanOrEqual(smallestOutside);
          for (const l of drawn.outsideLinks)
            expect(
              (ids.has(l.origin) && outsideIds.has(l.target)) || (outsideIds.has(l.origin) && ids.has(l.target)),
            ).toBe(true);
          for (const n of drawn.nodes)
            expect([n.linksOut, n.linksIn]).toEqual([
              graph.links.filter((l) => l.origin._id === n._id).length,
              graph.links.filter((l) => l.target._id === n._id).length,
            ]);
        },
      ),
    );
  });
});

describe("level2ChildrenByName", () => {
  const level2 = graphOf(
    [
      node(0, "Logic", 1, "Services##Logic"),
      node(1, "a##b", 1, "Services##a##b"),
      node(2, "X", 1, "Services2##X"),
      node(3, "Libraries", 1, "External##Libraries"),
    ],
    [],
  );
  it("the level-2 nodes whose fullName is the parent's fullName, ##, their name", () => {
    expect(level2ChildrenByName(level2, "Services")).toEqual(new Set([0, 1]));
    expect(level2ChildrenByName(level2, "External")).toEqual(new Set([3]));
  });
  it("null when no node is named that way (a taxonomy with other fullNames)", () => {
    expect(level2ChildrenByName(level2, "Serv")).toBeNull();
    expect(level2ChildrenByName(graphOf([node(0, "Logic", 1, "Logic")], []), "Services")).toBeNull();
  });
});

describe("contextName", () => {
  const java = (fullName: string) => node(0, "Java Method", 1, fullName);
  it("a name unique in its level stands alone", () => {
    expect(contextName(java("S##Logic##Domain Model##Java##Java Method"), 1)).toBe("Java Method");
  });
  it("a repeated name takes the nearest ancestor not already in it", () => {
    expect(contextName(java("S##Logic##Domain Model##Java##Java Method"), 2)).toBe("Domain Model › Java Method");
    expect(contextName(java("S##Logic##Web##TypeScript##Java Method"), 2)).toBe("TypeScript › Java Method");
  });
  it("without such an ancestor, the name alone", () => {
    expect(contextName(java("Java##Java Method"), 2)).toBe("Java Method");
    expect(contextName(node(1, "", 1, "A##"), 1)).toBe("(empty name)");
  });
});

describe("distinctNames", () => {
  it("one entry per name with the objects of all its nodes, by name", () => {
    const graph = graphOf([node(0, "b", 2), node(1, "A", 3), node(2, "b", 5, "x##b")], []);
    expect(distinctNames(graph)).toEqual([
      { name: "A", nbObjects: 3 },
      { name: "b", nbObjects: 7 },
    ]);
  });
});
