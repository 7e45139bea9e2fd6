// @module firstDifference (the cross-check's answer comparison) on hand-worked pairs: equal answers, and where unequal ones first differ.
import { expect, test } from "vitest";
import { firstDifference } from "../../scripts/crosscheck/compare.ts";

test("deep-equal answers have no difference, whatever their key order", () => {
  expect(firstDifference({ a: [1, { b: null }], c: "x" }, { c: "x", a: [1, { b: null }] })).toBeUndefined();
});

test("the first difference is named by its path", () => {
  expect(
    firstDifference(
      { totalObjects: 3, objects: [{ id: "1" }, { id: "2" }] },
      { totalObjects: 3, objects: [{ id: "1" }, { id: "7" }] },
    ),
  ).toBe('$.objects[1].id: "2" in ours, "7" in SQLite\'s');
  expect(firstDifference([1, 2], [1, 2, 3])).toBe("$: 2 elements in ours, 3 in SQLite's");
  expect(firstDifference({ parent: null }, {})).toBe("$.parent: null in ours, absent in SQLite's");
  expect(firstDifference({ external: false }, { external: 0 })).toBe("$.external: false in ours, 0 in SQLite's");
});
