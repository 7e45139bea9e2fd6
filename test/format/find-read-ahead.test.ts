// @module Finds read ahead: what a later step of a find reads (a later filter's column or key of each object, the postings of the keys a search finds) goes out with an earlier step's reads, not in a round of storage reads after them.
import { beforeAll, describe, expect, it } from "vitest";
import { decodeSnapshotModel } from "../../src/format/decode.ts";
import type { SnapshotModel } from "../../src/format/model.ts";
import { SectionCache } from "../../src/format/section-cache.ts";
import { memorySource, Snapshot } from "../../src/format/snapshot.ts";
import { StorageMeter } from "../../src/format/storage-meter.ts";
import { fieldIndex } from "../../src/query/field-index.ts";
import { type FindObjectsQuery, findObjects } from "../../src/query/find-objects.ts";
import { collect } from "../../src/query/streamed-list.ts";
import { estimateMatches } from "../../src/query/text-match.ts";
import { generatedSnapshot } from "../support/generated-snapshot.ts";
import { type LoggedRead, loggedSnapshot } from "../support/read-log.ts";

let bytes: Uint8Array;
let model: SnapshotModel;

beforeAll(async () => {
  bytes = await generatedSnapshot(20_000, 5);
  model = await decodeSnapshotModel(await Snapshot.open(memorySource(bytes)));
}, 120_000);

/** The reads `query` makes on a snapshot opened as the worker opens one (its directories read ahead), each 5 ms late, and their rounds. */
async function readsOf(
  query: Partial<FindObjectsQuery>,
  key: string,
  afterOpening = true,
  budget = 64 << 20,
): Promise<{ reads: LoggedRead[]; total: number; rounds: number }> {
  const { snapshot, record } = await loggedSnapshot(bytes, budget, key);
  const reads = await record(afterOpening);
  const meter = new StorageMeter();
  const total = await meter.measure(async () => {
    const found = await findObjects(snapshot, {
      operator: "contains",
      searchtype: "all",
      skip: 0,
      limit: 50,
      filters: {},
      ...query,
    });
    await collect(found.objects);
    return found.totalObjects;
  });
  return { reads, total, rounds: meter.rounds };
}

describe("a find with several filters", () => {
  // An object whose name is rare, so the name filter goes first and leaves few candidates.
  const sample = () => {
    const counts = new Map<string, number>();
    for (const o of model.objects) counts.set(o.name.toLowerCase(), (counts.get(o.name.toLowerCase()) ?? 0) + 1);
    return model.objects.find((o) => o.name.length >= 8 && counts.get(o.name.toLowerCase()) === 1)!;
  };

  it("reads a coded filter's column (type) while the first filter's key pages are read", async () => {
    const o = sample();
    const { reads, total } = await readsOf({ filters: { name: [o.name], type: [o.type] } }, "type beside name");
    expect(total).toBeGreaterThanOrEqual(1);
    const type = reads.find((r) => r.tag === "TYPE");
    expect(type, "the type filter is checked on its column").toBeDefined();
    expect(
      reads.some((r) => r.tag === "KNAM"),
      "the name filter reads key pages",
    ).toBe(true);
    expect(
      type!.settledBefore.filter((t) => t === "KNAM"),
      "no key page was in when TYPE was asked for",
    ).toEqual([]);
  });

  it("reads a later fullname filter's key of each object (OFUL) while the first filter's key pages are read", async () => {
    const o = sample();
    const piece = o.fullName.slice(0, 6);
    const { reads, total } = await readsOf({ filters: { name: [o.name], fullname: [piece] } }, "fullname beside name");
    expect(total).toBeGreaterThanOrEqual(1);
    const ofRanks = reads.find((r) => r.tag === "OFUL");
    expect(ofRanks, "the fullname filter looks its candidates up in the key of each object").toBeDefined();
    expect(
      ofRanks!.settledBefore.filter((t) => t === "KNAM"),
      "no key page was in when OFUL was asked for",
    ).toEqual([]);
  });
});

describe("a fullname contains beside a name", () => {
  it("reads its trigram lists by range while the name's key pages are read, not after", async () => {
    const counts = new Map<string, number>();
    for (const o of model.objects) counts.set(o.name.toLowerCase(), (counts.get(o.name.toLowerCase()) ?? 0) + 1);
    const o = model.objects.find((x) => x.name.length >= 8 && counts.get(x.name.toLowerCase()) === 1)!;
    const piece = o.fullName.slice(0, 8);
    // A 1 MiB budget: the fullName trigram index outweighs an eighth of it and is read by range.
    const { reads, total } = await readsOf(
      { filters: { name: [o.name], fullname: [piece] } },
      "fullname lists beside name",
      true,
      1 << 20,
    );
    expect(total).toBeGreaterThanOrEqual(1);
    const lists = reads.filter((r) => r.tag === "TFUL");
    expect(lists.length, "the trigram table, then lists").toBeGreaterThanOrEqual(2);
    expect(reads.some((r) => r.tag === "KNAM")).toBe(true);
    for (const read of lists)
      expect(read.settledBefore, "asked for before any name key page came in").not.toContain("KNAM");
  });
});

describe("a fullname contains beside a broad name", () => {
  it("checks the many candidates its trigram lists cannot settle on their keys, reading no row page but those it lists", async () => {
    // The commonest 2-letter piece of names, and a piece of fullNames most objects hold.
    const counts = new Map<string, number>();
    for (const o of model.objects)
      for (let i = 0; i + 2 <= o.name.length; i++) {
        const piece = o.name.toLowerCase().slice(i, i + 2);
        counts.set(piece, (counts.get(piece) ?? 0) + 1);
      }
    const name = [...counts].reduce((a, b) => (b[1] > a[1] ? b : a))[0];
    const fullname = "com.acme.";
    const named = model.objects.filter((o) => o.name.toLowerCase().includes(name));
    const expected = named.filter((o) => o.fullName.toLowerCase().includes(fullname)).length;
    // More than a find checks on their rows (KEY_CHECK_CANDIDATES).
    expect(named.length, "a broad name filter").toBeGreaterThan(2048);
    expect(expected, "most candidates match").toBeGreaterThan(named.length / 2);

    const { snapshot, record } = await loggedSnapshot(bytes, 64 << 20, "fullname keys beside a broad name");
    const reads = await record(true);
    const found = await findObjects(snapshot, {
      filters: { name: [name], fullname: [fullname] },
      operator: "contains",
      searchtype: "all",
      skip: 0,
      limit: 50,
    });
    await collect(found.objects);
    expect(found.totalObjects).toBe(expected);
    expect(
      reads.some((r) => r.tag === "KFUL"),
      "the candidates' keys are read",
    ).toBe(true);
    const rows = await snapshot.section("ROWD");
    const listed = new Set(found.ranks.map((r) => rows.pageOf(r)));
    expect(
      reads.filter((r) => r.tag === "ROWP").length,
      "row pages read: at most those of the listed objects",
    ).toBeLessThanOrEqual(listed.size);
  });
});

describe("an endswith", () => {
  it("reads the reversed key order alongside the key directory, cold: not in a round after it", async () => {
    const o = model.objects[model.objects.length >> 1];
    const suffix = o.name.slice(-4);
    const { reads, total } = await readsOf({ filters: { name: [suffix] }, operator: "endswith" }, "endswith", false);
    expect(total).toBeGreaterThanOrEqual(1);
    const reversed = reads.find((r) => r.tag === "RNAM");
    expect(reversed, "the reversed order is read").toBeDefined();
    expect(reversed!.settledBefore, "asked for before the directory came in").not.toContain("DNAM");
  });
});

describe("filters whose keys are found apart from their postings", () => {
  /** The most common `length`-unit ending (or piece) of names, as a value many keys on many pages hold. */
  const commonest = (piece: (name: string) => string) => {
    const counts = new Map<string, number>();
    for (const o of model.objects) {
      const p = piece(o.name.toLowerCase());
      counts.set(p, (counts.get(p) ?? 0) + 1);
    }
    return [...counts].reduce((a, b) => (b[1] > a[1] ? b : a))[0];
  };

  /** Every key page a cold answer reads was asked for before any came in: one round of them, searched keys and postings together. */
  function expectOneRoundOfKeyPages(reads: LoggedRead[]): void {
    const keyPages = reads.filter((r) => r.tag === "KNAM");
    expect(keyPages.length, "key pages are read").toBeGreaterThan(0);
    for (const read of keyPages)
      expect(read.settledBefore, "asked for before any key page came in").not.toContain("KNAM");
  }

  it("an endswith reads the pages of the keys it finds with those it searches", async () => {
    const suffix = commonest((name) => name.slice(-3));
    const { reads, total } = await readsOf(
      { filters: { name: [suffix] }, operator: "endswith" },
      "endswith pages",
      false,
    );
    expect(total).toBe(model.objects.filter((o) => o.name.toLowerCase().endsWith(suffix)).length);
    expectOneRoundOfKeyPages(reads);
  });

  it("a two-letter contains reads the pages of the keys its trigram lists give with the others it verifies", async () => {
    const pair = commonest((name) => name.slice(1, 3));
    const { reads, total } = await readsOf({ filters: { name: [pair] } }, "bigram pages", false);
    expect(total).toBe(model.objects.filter((o) => o.name.toLowerCase().includes(pair)).length);
    expectOneRoundOfKeyPages(reads);
  });
});

describe("a contains on a trigram index read by range", () => {
  it("reads the index's head with its chunk directory, cold: not in a round after it", async () => {
    const o = model.objects[model.objects.length >> 2];
    const piece = o.fullName.slice(2, 10);
    // A 1 MiB budget: the fullName trigram index outweighs an eighth of it and is read by range.
    const { reads, total } = await readsOf({ filters: { fullname: [piece] } }, "fullname head", false, 1 << 20);
    expect(total).toBe(model.objects.filter((x) => x.fullName.toLowerCase().includes(piece.toLowerCase())).length);
    const head = reads.find((r) => r.tag === "TFUL");
    expect(head, "the trigram index is read by range").toBeDefined();
    // The chunk directory is read as the snapshot opens (a directory read ahead), unlogged here but settled.
    expect(head!.settledBefore, "asked for before the chunk directory came in").not.toContain("CFUL");
  });
});

describe("a name beside a fullname about as selective, whose trigram lists are read by range", () => {
  it("matches the name first, from its lists in memory, and the fullname's candidates in the same rounds: three, not five", async () => {
    // 4 MiB: the name trigram index (320 KB at 20k objects) fits an eighth of the budget, the
    // fullName one (907 KB) is read by range.
    const budget = 4 << 20;
    const probe = await Snapshot.open(memorySource(bytes), { sections: new SectionCache(budget) });
    const n = model.objects.length;
    const [names, fullNames] = await Promise.all([
      fieldIndex(probe, "KNAM", "contains"),
      fieldIndex(probe, "KFUL", "contains"),
    ]);
    expect(names.trigrams!.listsInMemory).toBe(true);
    expect(fullNames.trigrams!.listsInMemory).toBe(false);
    // A name piece and a fullName piece, the fullName estimated more selective but by less than half:
    // ordered by their estimates alone, the fullName would go first.
    const pieces = (texts: string[], length: number) => [
      ...new Set(texts.flatMap((t) => [0, 3, 6].map((i) => t.toLowerCase().slice(i, i + length)))),
    ];
    const nameEstimates = new Map<string, number>();
    for (const piece of pieces(
      model.objects.slice(0, 400).map((o) => o.name),
      5,
    ))
      if (piece.length === 5) nameEstimates.set(piece, await estimateMatches(names, "contains", [piece], n));
    let pair: [string, string] | undefined;
    for (const piece of pieces(
      model.objects.slice(0, 400).map((o) => o.fullName),
      7,
    )) {
      if (piece.length < 7) continue;
      const estimate = await estimateMatches(fullNames, "contains", [piece], n);
      const name = [...nameEstimates].find(([, e]) => e > estimate && e < 2 * estimate && estimate >= 20)?.[0];
      if (name) {
        pair = [name, piece];
        break;
      }
    }
    expect(pair, "a name piece and a fullName piece as described").toBeDefined();
    const [name, fullname] = pair!;

    const { reads, total, rounds } = await readsOf(
      { filters: { name: [name], fullname: [fullname] } },
      "name before a ranged fullname",
      true,
      budget,
    );
    expect(total).toBe(
      model.objects.filter((o) => o.name.toLowerCase().includes(name) && o.fullName.toLowerCase().includes(fullname))
        .length,
    );
    expect(
      reads.filter((r) => r.tag === "KFUL"),
      "the fullName's keys are not verified on their pages",
    ).toEqual([]);
    for (const read of reads.filter((r) => r.tag === "TFUL"))
      expect(read.settledBefore, "the fullName's lists are asked for with the name's key pages").not.toContain("KNAM");
    expect(rounds).toBeLessThanOrEqual(3);
  });
});
