// @module Property test of the orders the compiler computes (grouped keys, ranks by id) against plain references: sorting strings, a map of lists, BigInt ids; ids as u64; pairs of nodes.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { u64Ids } from "../../src/format/id-pages.ts";
import type { ObjectRecord } from "../../src/format/model.ts";
import { ranksById } from "../../src/format/object-core.ts";
import { groupUnique } from "../../src/format/search-index.ts";
import { NodePairs } from "../../src/format/taxonomy.ts";
import { smallText } from "../support/arbitrary-analysis.ts";

/** Keys sorted by UTF-16 code units, each with its ranks ascending, from a map of lists. */
function referenceGroups(values: readonly string[]): { keys: string[]; postings: number[][] } {
  const lists = new Map<string, number[]>();
  values.forEach((v, rank) => {
    const key = v.toLowerCase();
    lists.set(key, [...(lists.get(key) ?? []), rank]);
  });
  const keys = [...lists.keys()].sort();
  return { keys, postings: keys.map((k) => lists.get(k)!) };
}

describe("groupUnique", () => {
  it("groups ranks by lower-cased value as a map of lists does, whether the values come sorted or not", () => {
    fc.assert(
      fc.property(fc.array(smallText, { maxLength: 40 }), fc.boolean(), (drawn, sorted) => {
        const values = sorted ? [...drawn].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)) : drawn;
        const { keys, offsets, postings } = groupUnique(values.length, (r) => values[r]);
        const expected = referenceGroups(values);
        expect(keys).toEqual(expected.keys);
        expect(keys.map((_, k) => [...postings.subarray(offsets[k], offsets[k + 1])])).toEqual(expected.postings);
      }),
      { numRuns: 500 },
    );
  });
});

const id = fc.oneof(
  fc.bigInt({ min: 0n, max: 10n ** 15n - 1n }),
  fc.bigInt({ min: 0n, max: 10n ** 19n - 1n }),
  fc.bigInt({ min: 0n, max: 99n }),
  fc.constantFrom(2n ** 32n - 1n, 2n ** 32n, 10n ** 15n - 1n, 10n ** 15n, 2n ** 53n + 1n, 10n ** 19n - 1n),
);

describe("u64Ids", () => {
  it("gives each decimal id's value, as BigInt does", () => {
    fc.assert(
      fc.property(fc.array(id, { maxLength: 20 }), (ids) => {
        expect(u64Ids(ids.length, (i) => String(ids[i]))).toEqual(BigUint64Array.from(ids));
      }),
      { numRuns: 500 },
    );
  });
});

describe("ranksById", () => {
  it("orders ranks by numeric id, for short ids and ids of up to 19 digits alike", () => {
    fc.assert(
      fc.property(fc.uniqueArray(id, { maxLength: 40 }), (ids) => {
        const objects = ids.map((i) => ({ id: String(i) }) as ObjectRecord);
        const expected = [...ids.keys()].sort((a, b) => (ids[a] < ids[b] ? -1 : 1));
        expect([...ranksById(objects)]).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it("keeps the order of ranks whose ids are equal", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(id, fc.constantFrom(7n, 2n ** 40n)), { maxLength: 40 }), (ids) => {
        const objects = ids.map((i) => ({ id: String(i) }) as ObjectRecord);
        const expected = [...ids.keys()].sort((a, b) => (ids[a] < ids[b] ? -1 : ids[a] > ids[b] ? 1 : 0));
        expect([...ranksById(objects)]).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });
});

describe("NodePairs", () => {
  it("holds the distinct pairs added, as a set of a · width + b does, in its bitmap and in its set", () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 40 })
          .chain((width) =>
            fc.tuple(fc.constant(width), fc.array(fc.tuple(fc.nat(width - 1), fc.nat(width - 1)), { maxLength: 60 })),
          ),
        ([width, added]) => {
          const expected = [...new Set(added.map(([a, b]) => a * width + b))].sort((x, y) => x - y);
          for (const bitmapBits of [width * width, width * width - 1]) {
            const pairs = new NodePairs(width, bitmapBits);
            for (const [a, b] of added) pairs.add(a, b);
            expect([...pairs.all()].sort((x, y) => x - y)).toEqual(expected);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
