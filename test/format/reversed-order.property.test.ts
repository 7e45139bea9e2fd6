// @module Property test of reversedOrder, the compile's radix sort of keys by their reversed text, against sorting the reversed keys, on arrays large enough to take its radix passes.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { reversedOrder } from "../../src/format/reversed-order.ts";

/** The reference: the indices sorted stably by their keys reversed, code unit by code unit. */
function referenceOrder(keys: readonly string[]): number[] {
  const reversed = keys.map((key) => [...Array(key.length).keys()].map((i) => key[key.length - 1 - i]).join(""));
  return [...keys.keys()].sort((a, b) => (reversed[a] < reversed[b] ? -1 : reversed[a] > reversed[b] ? 1 : 0));
}

// Few code units, so that keys end alike for long, repeat, and are suffixes of each other; a lone
// surrogate and code units past Basic Latin among them.
const unit = fc.constantFrom("a", "b", "c", ".", "A", "é", "\uD83D", "\uFFFF");
const key = fc.oneof(
  fc.array(unit, { maxLength: 6 }).map((units) => units.join("")),
  fc
    .tuple(fc.constantFrom("", "com.acme.", "x"), fc.array(unit, { maxLength: 3 }), fc.constantFrom("", ".getThing()"))
    .map(([head, units, tail]) => head + units.join("") + tail),
);

describe("reversedOrder", () => {
  it("orders indices as a stable sort of the reversed keys does, duplicates and suffixes of each other included", () => {
    fc.assert(
      fc.property(fc.array(key, { maxLength: 400, size: "max" }), (keys) => {
        expect([...reversedOrder(keys)]).toEqual(referenceOrder(keys));
      }),
      { numRuns: 400 },
    );
  });

  it("puts a key before the keys it ends, by the code units of their ends", () => {
    const keys = ["b", "ab", "", "ba", "a", "abc", "cab", "b"];
    // Reversed: "b", "ba", "", "ab", "a", "cba", "bac", "b".
    expect([...reversedOrder(keys)].map((i) => keys[i])).toEqual(["", "a", "ba", "b", "b", "ab", "cab", "abc"]);
    expect([...reversedOrder(keys)].filter((i) => keys[i] === "b")).toEqual([0, 7]);
  });
});
