// @module The benchmark's query paths read back (what the baseline server parses), and the answer comparison's diagnostics.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { firstDifference } from "../../scripts/bench/correctness.ts";
import { type BenchQuery, pathOf, queryOfPath, UnsupportedPath } from "../../scripts/bench/queries.ts";

const id = fc.stringMatching(/^[1-9]\d{0,18}$/);
const query: fc.Arbitrary<BenchQuery> = fc.oneof(
  fc.record({
    route: fc.constant("find" as const),
    filters: fc.record({ name: fc.string(), fullname: fc.string(), type: fc.string() }, { requiredKeys: [] }),
    operator: fc.constantFrom("contains", "equals", "startswith", "endswith"),
    skip: fc.nat(),
    limit: fc.nat(10000),
  }),
  fc.record({ route: fc.constant("characteristics" as const), id, withLocations: fc.boolean() }),
  fc.record({ route: fc.constant("callees" as const), id, includeEscalated: fc.boolean(), withParent: fc.boolean() }),
  fc.record({ route: fc.constant("callers" as const), id, includeEscalated: fc.boolean(), withParent: fc.boolean() }),
  fc.record({
    route: fc.constant("call-hierarchy" as const),
    id,
    direction: fc.constantFrom("callees", "callers", "both"),
    hops: fc.integer({ min: 1, max: 32 }),
  }),
  fc.record({ route: fc.constant("points" as const), id, hops: fc.nat(32) }),
  fc.record({ route: fc.constant("level-graph" as const), level: fc.integer({ min: 1, max: 5 }) }),
  fc.record(
    {
      route: fc.constant("level-nodes" as const),
      level: fc.integer({ min: 2, max: 5 }),
      name: fc.string(),
      nodeId: fc.nat(500),
    },
    { requiredKeys: ["route", "level"] },
  ),
);

describe("queryOfPath", () => {
  test("reads back every query pathOf writes", () => {
    fc.assert(
      fc.property(query, (q) => {
        const back = queryOfPath(pathOf(q)) as Record<string, unknown>;
        for (const k of Object.keys(back)) if (back[k] === undefined) delete back[k];
        expect(back).toEqual(q);
      }),
    );
  });

  test("refuses what the baseline does not implement", () => {
    const base = "/rest/applications/Synthetic%20Enterprise";
    expect(() => queryOfPath(`${base}/objects?limit=5&name=a&name=b`)).toThrow(UnsupportedPath);
    expect(() => queryOfPath(`${base}/objects?limit=5&tag=x`)).toThrow(/tag is not supported/);
    expect(() => queryOfPath(`${base}/objects?limit=5&operator=like`)).toThrow(/operator must be one of/);
    expect(() => queryOfPath(`/rest/applications/Other/objects?limit=5`)).toThrow(UnsupportedPath);
    expect(() => queryOfPath(`${base}/objects/7/call-hierarchy?direction=up`)).toThrow(/direction must be one of/);
    expect(() => queryOfPath(`${base}/objects/7/callers?select=source-locations`)).toThrow(/select must be parent/);
    expect(queryOfPath(`${base}/objects?name=Foo&limit=5&operator=EQUALS`)).toEqual({
      route: "find",
      filters: { name: "Foo" },
      operator: "equals",
      skip: 0,
      limit: 5,
    });
  });
});

describe("firstDifference", () => {
  test("names the first differing place", () => {
    expect(firstDifference({ a: [1, { b: "x" }] }, { a: [1, { b: "x" }] })).toBeNull();
    expect(
      firstDifference(
        { totalObjects: 3, objects: [{ id: "1" }, { id: "2" }] },
        { totalObjects: 3, objects: [{ id: "1" }, { id: "7" }] },
      ),
    ).toBe('$.objects[1].id: ours "2" ≠ baseline "7"');
    expect(firstDifference([1, 2], [1, 2, 3])).toBe("$: 2 elements ≠ 3");
    expect(firstDifference({ a: null }, { a: {} })).toBe("$.a: ours null ≠ baseline {}");
    expect(firstDifference({ a: 1 }, {})).toBe("$.a: ours 1 ≠ baseline undefined");
  });
});
