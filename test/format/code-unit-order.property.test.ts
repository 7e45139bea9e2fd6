// @module Property tests of the compile's radix sorts against comparison sorts: codeUnitOrder from either end, and nameOrder against compareNames and compareIds.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codeUnitOrder, reversedOrder } from "../../src/format/code-unit-order.ts";
import { compareIds, compareNames, nameOrder } from "../../src/format/name-order.ts";

/** The reference: a stable sort of the indices comparing code units one by one from the chosen end, a key that runs out first sorting first. */
function referenceOrder(keys: readonly string[], fromEnd: boolean): number[] {
  const unit = (key: string, d: number) => key.charCodeAt(fromEnd ? key.length - 1 - d : d);
  return [...keys.keys()].sort((a, b) => {
    const x = keys[a];
    const y = keys[b];
    for (let d = 0; d < Math.min(x.length, y.length); d++)
      if (unit(x, d) !== unit(y, d)) return unit(x, d) - unit(y, d);
    return x.length - y.length;
  });
}

// Mostly few code units, so that keys agree for long at either end, repeat, and are prefixes and
// suffixes of each other; a lone surrogate and code units past Basic Latin among them.
const unit = fc.constantFrom("a", "b", "c", ".", "A", "é", "\uD83D", "\uFFFF");
const key = fc.oneof(
  fc.array(unit, { maxLength: 6 }).map((units) => units.join("")),
  // Any code units: more symbols than keys.
  fc.string({ unit: "binary", maxLength: 4 }),
  fc
    .tuple(fc.constantFrom("", "com.acme.", "x"), fc.array(unit, { maxLength: 3 }), fc.constantFrom("", ".getThing()"))
    .map(([head, units, tail]) => head + units.join("") + tail),
);

describe("codeUnitOrder", () => {
  it("orders indices as a stable comparator sort of code units does, from the start and from the end", () => {
    fc.assert(
      fc.property(fc.array(key, { maxLength: 400, size: "max" }), fc.boolean(), (keys, fromEnd) => {
        expect([...codeUnitOrder(keys, fromEnd)]).toEqual(referenceOrder(keys, fromEnd));
      }),
      { numRuns: 400 },
    );
  });

  it("gives the order of < on strings from the start, and of the reversed strings from the end", () => {
    const keys = ["b", "ab", "", "ba", "a", "abc", "cab", "b"];
    expect([...codeUnitOrder(keys, false)].map((i) => keys[i])).toEqual(["", "a", "ab", "abc", "b", "b", "ba", "cab"]);
    // Reversed: "b", "ba", "", "ab", "a", "cba", "bac", "b".
    expect([...reversedOrder(keys)].map((i) => keys[i])).toEqual(["", "a", "ba", "b", "b", "ab", "cab", "abc"]);
    expect([...reversedOrder(keys)].filter((i) => keys[i] === "b")).toEqual([0, 7]);
  });
});

describe("nameOrder", () => {
  it("orders objects as compareNames, then compareIds, do", () => {
    const object = fc.record({ name: key, id: fc.bigInt({ min: 0n, max: 10n ** 12n }).map(String) });
    fc.assert(
      fc.property(fc.uniqueArray(object, { maxLength: 300, size: "max", selector: (o) => o.id }), (objects) => {
        const lower = objects.map((o) => o.name.toLowerCase());
        const expected = [...objects.keys()].sort(
          (a, b) =>
            compareNames(lower[a], objects[a].name, lower[b], objects[b].name) ||
            compareIds(objects[a].id, objects[b].id),
        );
        expect([
          ...nameOrder(
            lower,
            (i) => objects[i].name,
            (i) => objects[i].id,
          ),
        ]).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
