// @module Paged links (LNKP + LNKD) and the paged id index (IDXP + IDXD): the links as compiled, callers their inverse, roles OBJC's and parents the rows', damaged pages refused, one object's links cost a page, its row and its parent's one round; walks over late reads load the next chunks' links while one is walked, and heavy ones wait at the gate.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../src/contract/errors.ts";
import { callersOf } from "../../src/format/adjacency.ts";
import { crc32 } from "../../src/format/crc32.ts";
import { decodeSnapshotModel } from "../../src/format/decode.ts";
import { CorruptSnapshotError } from "../../src/format/errors.ts";
import { IDS_PER_PAGE } from "../../src/format/id-pages.ts";
import { CalleeEntries, LINK_PAGE_BYTES, LINK_PAGES_PER_WINDOW, LinkDirectory } from "../../src/format/link-pages.ts";
import { NONE } from "../../src/format/model.ts";
import { SectionCache } from "../../src/format/section-cache.ts";
import { countingSource, delayedSource, memorySource, Snapshot } from "../../src/format/snapshot.ts";
import { StorageMeter } from "../../src/format/storage-meter.ts";
import { VarintWriter } from "../../src/format/varint.ts";
import { objectCallees } from "../../src/query/callees.ts";
import { objectCharacteristics } from "../../src/query/characteristics.ts";
import { HeavyGate } from "../../src/query/heavy-gate.ts";
import { linkRows } from "../../src/query/link-rows.ts";
import { walk } from "../../src/query/link-walk.ts";
import { locateId, rankOfId } from "../../src/query/lookup.ts";
import { startEndPoints } from "../../src/query/points.ts";
import { collect } from "../../src/query/streamed-list.ts";
import { turnsDuring } from "../support/event-loop-turns.ts";
import { generatedSnapshot } from "../support/generated-snapshot.ts";
import { loggedSnapshot } from "../support/read-log.ts";
import { patchSection, rawSections, setU32 } from "./snapshot-bytes.ts";

const OBJECTS = 20_000;
let bytes: Uint8Array;

beforeAll(async () => {
  bytes = await generatedSnapshot(OBJECTS, 11);
}, 120_000);

const open = (b: Uint8Array, key?: string) => Snapshot.open(memorySource(b, key));

/** Each rank's id and parent's rank as the row store gives them (the round-trip tests compare it with the model compiled). */
async function ranked(snapshot: Snapshot) {
  const { objects } = await decodeSnapshotModel(snapshot);
  return {
    id: (r: number) => objects[r].id,
    parent: (r: number) => objects[r].parent,
    ids: objects.map((o) => BigInt(o.id)),
  };
}
const plain = (row: ReturnType<Awaited<ReturnType<typeof linkRows>>["row"]>) => ({
  flags: row.flags,
  targets: [...row.targets],
  types: [...row.types],
  targetFlags: [...row.targetFlags],
  callers: [...row.callers],
  callerFlags: [...row.callerFlags],
});

/** The first object (every 101st rank) whose 12-hop walk reaches over 200 points: a walk following far more than 64 links. */
async function deepOrigin(snapshot: Snapshot): Promise<string> {
  const byRank = await ranked(snapshot);
  for (let r = 0; r < OBJECTS; r += 101) {
    const { startPoints, endPoints } = await startEndPoints(snapshot, byRank.id(r), 12).then(collect);
    if (startPoints.length + endPoints.length > 200) return byRank.id(r);
  }
  throw new Error("no object's 12-hop walk reaches 200 points");
}

describe("link pages", () => {
  it("give every object's callees in place and as a row: the links compiled, callers their inverse, roles OBJC's", async () => {
    const snapshot = await open(bytes);
    // The callees as decodeSnapshotModel reads them, which the round-trip tests compare with the model compiled.
    const { callees } = await decodeSnapshotModel(snapshot);
    const [callerOffsets, callers] = callersOf(callees, OBJECTS);
    const core = await snapshot.section("OBJC");
    const ranks = Array.from({ length: OBJECTS }, (_, r) => r);
    const links = await linkRows(snapshot, ranks);
    expect(links.linkTypes).toEqual(callees.linkTypes);
    let roles = 0;
    for (const r of ranks) {
      expect(links.flagsOf(r)).toBe(core.flags[r]);
      const entries: number[][] = [];
      const count = links.forEachCallee(r, (target, type, flags) => entries.push([target, type, flags]));
      const [from, to] = [callees.offsets[r], callees.offsets[r + 1]];
      expect(count).toBe(to - from);
      // Decoded into columns, the same entries: type times 8 plus flags.
      const into = new CalleeEntries();
      links.calleesOf([r], into, new Uint32Array(1));
      expect(into.count).toBe(count);
      expect(
        Array.from(into.targets.subarray(0, count), (t, i) => [t, into.packed[i] >>> 3, into.packed[i] & 7]),
      ).toEqual(entries);
      expect(entries).toEqual(
        Array.from({ length: to - from }, (_, i) => {
          const target = callees.targets[from + i];
          return [target, callees.types[from + i], callees.flags[from + i] | (core.flags[target] & 4 ? 4 : 0)];
        }),
      );
      const distinct: number[][] = [];
      expect(links.forEachCaller(r, (caller, flags) => distinct.push([caller, flags]))).toBe(
        callerOffsets[r + 1] - callerOffsets[r],
      );
      expect(distinct).toEqual(
        Array.from(callers.subarray(callerOffsets[r], callerOffsets[r + 1]), (c) => [c, core.flags[c] & 2 ? 1 : 0]),
      );
      const row = plain(links.row(r));
      expect(row).toEqual({
        flags: core.flags[r],
        targets: entries.map((e) => e[0]),
        types: entries.map((e) => e[1]),
        targetFlags: entries.map((e) => e[2]),
        callers: distinct.map((c) => c[0]),
        callerFlags: distinct.map((c) => c[1]),
      });
      roles += row.targetFlags.filter((f) => f & 4).length + row.callerFlags.filter((f) => f & 1).length;
    }
    expect(callees.targets.length).toBeGreaterThan(OBJECTS); // the fixture has links and roles to compare
    expect(roles).toBeGreaterThan(0);
  });

  it("find each object's entries to given targets in one pass over its callees", async () => {
    const snapshot = await open(bytes);
    const ranks = Array.from({ length: OBJECTS }, (_, r) => r);
    const links = await linkRows(snapshot, ranks);
    for (const r of ranks) {
      const entries: number[][] = [];
      links.forEachCallee(r, (target, type, flags) => entries.push([target, type, flags]));
      for (const [target] of entries) {
        const toTarget: number[][] = [];
        links.forEachLinkTo(r, [target], (to, type, flags) => toTarget.push([to, type, flags]));
        expect(toTarget).toEqual(entries.filter((e) => e[0] === target));
      }
      // Several targets at once, ascending, some of them not called: one pass finds the entries of each.
      const some = [...new Set(entries.map((e) => e[0]).filter((_, i) => i % 2 === 0)), OBJECTS - 1].sort(
        (a, b) => a - b,
      );
      const toSome: number[][] = [];
      links.forEachLinkTo(r, some, (to, type, flags) => toSome.push([to, type, flags]));
      expect(toSome).toEqual(entries.filter((e) => some.includes(e[0])));
    }
  });

  it("cut pages once they reach LINK_PAGE_BYTES", async () => {
    const directory = await (await open(bytes)).section("LNKD");
    const { offsets } = directory;
    for (let p = 0; p + 1 < directory.pageCount; p++)
      expect(offsets[p + 1] - offsets[p]).toBeGreaterThanOrEqual(LINK_PAGE_BYTES);
    expect(directory.pageCount).toBeGreaterThan(10);
  });

  it("walk deep frontiers loaded a few objects at a time as loaded whole", async () => {
    const snapshot = await open(bytes);
    const byRank = await ranked(snapshot);
    let reached = 0;
    for (let r = 0; r < OBJECTS; r += 997)
      for (const hops of [2, 4, 12]) {
        const whole = await startEndPoints(snapshot, byRank.id(r), hops).then(collect);
        for (const chunk of [512, 7])
          expect(await startEndPoints(snapshot, byRank.id(r), hops, { frontierChunk: chunk }).then(collect)).toEqual(
            whole,
          );
        reached += whole.startPoints.length + whole.endPoints.length;
      }
    expect(reached).toBeGreaterThan(100);
  });

  it("let the event loop turn every so many links a walk follows, and find what they find without turns", async () => {
    const snapshot = await open(bytes);
    const byRank = await ranked(snapshot);
    // With every page held, a walk awaits only settled promises: no turn of its own.
    let walked = 0;
    for (let r = 0; r < OBJECTS; r += 1999) {
      const id = byRank.id(r);
      await startEndPoints(snapshot, id, 12).then(collect);
      const without = await turnsDuring(() =>
        startEndPoints(snapshot, id, 12, { frontierChunk: 64, linksATurn: Infinity }).then(collect),
      );
      const every = await turnsDuring(() =>
        startEndPoints(snapshot, id, 12, { frontierChunk: 64, linksATurn: 16 }).then(collect),
      );
      expect(every.value).toEqual(without.value);
      expect(without.turns).toBe(0);
      const { startPoints, endPoints } = every.value;
      if (startPoints.length + endPoints.length > 16) {
        expect(every.turns, id).toBeGreaterThan(0);
        walked++;
      }
    }
    expect(walked).toBeGreaterThan(2);
  });

  it("walk deep over late reads (six at once), the next chunks' link pages read while one is walked, each about once", async () => {
    const reference = await open(bytes);
    const byRank = await ranked(reference);
    const linkBytes = reference.toc.get("LNKP")!.length;
    /** A cold walk's answer, rounds and bytes of link pages read, its links loaded `frontierChunk` ranks at a time. */
    const walked = async (id: string, frontierChunk: number) => {
      // Link pages read page by page (more than a quarter of the budget), all of them held.
      const { snapshot, record } = await loggedSnapshot(bytes, 3 * linkBytes, `deep ${id} ${frontierChunk}`, 1);
      const reads = await record();
      const meter = new StorageMeter();
      const answer = await meter.measure(() => startEndPoints(snapshot, id, 12, { frontierChunk }).then(collect));
      const linkBytesRead = reads.filter((read) => read.tag === "LNKP").reduce((sum, read) => sum + read.length, 0);
      return { answer, rounds: meter.rounds, linkBytesRead };
    };
    let deep = 0;
    let byChunks = 0;
    let bySteps = 0;
    for (let r = 0; r < OBJECTS; r += 2503) {
      const id = byRank.id(r);
      const chunked = await walked(id, 16);
      expect(chunked.answer).toEqual(await startEndPoints(reference, id, 12).then(collect));
      // Pages between those wanted are kept, not read again when their turn comes.
      expect(chunked.linkBytesRead).toBeLessThan(1.2 * linkBytes);
      if (chunked.linkBytesRead < linkBytes / 2) continue;
      deep++;
      byChunks += chunked.rounds;
      bySteps += (await walked(id, OBJECTS)).rounds;
    }
    expect(deep).toBeGreaterThan(2);
    // Sixteen ranks at a time, chunk after chunk, would take 4.2 times the rounds of a whole step at a time.
    expect(byChunks).toBeLessThanOrEqual(3 * bySteps);
  });

  it("let a heavy walk wait for the gate between its steps, a light one pass, and give the permit back", async () => {
    const snapshot = await open(bytes);
    const id = await deepOrigin(snapshot);
    const expected = await startEndPoints(snapshot, id, 12).then(collect);
    const gate = new HeavyGate(1);
    const other = await gate.admit();
    const tuning = { gate, heavyLinks: 64 };
    let heavyDone = false;
    const heavy = startEndPoints(snapshot, id, 12, tuning)
      .then(collect)
      .finally(() => (heavyDone = true));
    expect(await startEndPoints(snapshot, id, 1, tuning).then(collect)).toEqual(
      await startEndPoints(snapshot, id, 1).then(collect),
    );
    await new Promise((later) => setTimeout(later, 50));
    expect(heavyDone).toBe(false);
    expect(gate.waiting).toBe(1);
    other.release();
    expect(await heavy).toEqual(expected);
    expect(gate.held).toBe(0);
  });

  it("keep a heavy walk for the answers that ask it again: the same answer, no link followed, charged as walked", async () => {
    const reference = await open(bytes);
    const id = await deepOrigin(reference);
    // Never kept: each walk follows its links.
    const walked = { heavyLinks: Number.POSITIVE_INFINITY };
    const expected = await startEndPoints(reference, id, 12, walked).then(collect);
    const refused = (traversalBudget: number) =>
      startEndPoints(reference, id, 12, { ...walked, traversalBudget }).then(
        () => false,
        () => true,
      );
    // The links both directions follow: the least budget the walk is not refused at.
    let links = 0;
    for (let most = 12_000_000; links < most; ) {
      const mid = (links + most) >> 1;
      if (await refused(mid)) links = mid + 1;
      else most = mid;
    }
    expect(links).toBeGreaterThan(64);
    const snapshot = await Snapshot.open(memorySource(bytes, "kept walks"), { sections: new SectionCache(1 << 30) });
    const kept = { heavyLinks: 64, linksATurn: 16 };
    const first = await turnsDuring(() => startEndPoints(snapshot, id, 12, kept).then(collect));
    const again = await turnsDuring(() => startEndPoints(snapshot, id, 12, kept).then(collect));
    expect(first.value).toEqual(expected);
    expect(again.value).toEqual(expected);
    expect(first.turns).toBeGreaterThan(0);
    expect(again.turns).toBe(0);
    await expect(startEndPoints(snapshot, id, 12, { ...kept, traversalBudget: links - 1 })).rejects.toMatchObject({
      parameter: "hops",
    });
    expect(await startEndPoints(snapshot, id, 12, { ...kept, traversalBudget: links }).then(collect)).toEqual(expected);
  });

  it("stop a walk at its next turn once the client has gone, the permit given back", async () => {
    const id = await deepOrigin(await open(bytes));
    const snapshot = await open(bytes);
    const gate = new HeavyGate(1);
    const gone = new AbortController();
    // Walking, holding the gate's permit: the client goes away at the next turn.
    const stopped = startEndPoints(snapshot, id, 12, { gate, heavyLinks: 64, linksATurn: 16, signal: gone.signal });
    while (gate.held === 0) await new Promise((later) => setImmediate(later));
    gone.abort(new Error(`client of ${id} gone`));
    await expect(stopped).rejects.toThrow(`client of ${id} gone`);
    expect({ held: gate.held, waiting: gate.waiting }).toEqual({ held: 0, waiting: 0 });
  });

  it("let a heavy impact walk wait for the gate between its levels, and give the permit back", async () => {
    const snapshot = await open(bytes);
    const gate = new HeavyGate(1);
    const options = {
      direction: "forward",
      hops: 12,
      types: null,
      stopAtFlowEnds: false,
      budget: 500_000,
      recordLinksUpTo: 0,
    } as const;
    const origin = OBJECTS >> 1;
    const expected = await walk(snapshot, origin, options);
    expect(expected.examined).toBeGreaterThan(64);
    const other = await gate.admit();
    let done = false;
    const waited = walk(snapshot, origin, { ...options, gate, heavyLinks: 64 }).finally(() => (done = true));
    await new Promise((later) => setTimeout(later, 50));
    expect({ done, waiting: gate.waiting }).toEqual({ done: false, waiting: 1 });
    other.release();
    const walked = await waited;
    expect({ levels: walked.levels, examined: walked.examined }).toEqual({
      levels: expected.levels,
      examined: expected.examined,
    });
    expect(gate.held).toBe(0);
  });

  it("let impact walks over late reads load the next chunks' links, and backward their callers', while one is expanded", async () => {
    const reference = await open(bytes);
    const linkBytes = reference.toc.get("LNKP")!.length;
    const options = { hops: 12, types: null, stopAtFlowEnds: false, budget: 500_000, recordLinksUpTo: 0 } as const;
    /** A cold walk's levels and rounds, its links loaded `frontierChunk` ranks at a time. */
    const walked = async (origin: number, direction: "forward" | "backward", frontierChunk: number) => {
      const { snapshot } = await loggedSnapshot(
        bytes,
        3 * linkBytes,
        `impact ${origin} ${direction} ${frontierChunk}`,
        1,
      );
      const meter = new StorageMeter();
      const w = await meter.measure(() => walk(snapshot, origin, { ...options, direction, frontierChunk }));
      return { levels: w.levels, examined: w.examined, rounds: meter.rounds };
    };
    // Sixteen ranks at a time, chunk after chunk, would take 5.3 times the rounds of a whole step at a
    // time forward and 2.0 backward; with the next chunks' loads under way, 2.5 and 1.35.
    const MOST_ROUNDS = { forward: 3, backward: 1.75 };
    for (const direction of ["forward", "backward"] as const) {
      let deep = 0;
      let byChunks = 0;
      let bySteps = 0;
      for (let origin = 0; origin < OBJECTS; origin += 503) {
        const chunked = await walked(origin, direction, 16);
        const whole = await walked(origin, direction, OBJECTS);
        expect({ levels: chunked.levels, examined: chunked.examined }).toEqual({
          levels: whole.levels,
          examined: whole.examined,
        });
        if (chunked.levels.reduce((sum, level) => sum + level.length, 0) < 1000) continue;
        deep++;
        byChunks += chunked.rounds;
        bySteps += whole.rounds;
      }
      expect(deep, direction).toBeGreaterThan(2);
      expect(byChunks, direction).toBeLessThanOrEqual(MOST_ROUNDS[direction] * bySteps);
    }
  });

  it("let one object's callees read a window of pages, not all of them, nor OBJC", async () => {
    const source = countingSource(memorySource(bytes, "counted"));
    // A budget the id pages take more than a quarter of: they are read page by page, as at scale.
    const idPagesBytes = (await open(bytes)).toc.get("IDXP")!.length;
    const snapshot = await Snapshot.open(source, { sections: new SectionCache(2 * idPagesBytes) });
    const opened = source.bytesRead;
    const id = (await ranked(await open(bytes))).id(OBJECTS >> 1);
    await objectCallees(snapshot, id, { includeEscalated: true, withParent: true }).then(collect);
    await startEndPoints(snapshot, id, 1).then(collect);
    const sizeOf = (tag: string) => snapshot.toc.get(tag as never)!.length;
    const directories = sizeOf("LNKD") + sizeOf("IDXD") + sizeOf("ROWD");
    const pages = source.bytesRead - opened - directories;
    expect(pages).toBeGreaterThan(0);
    expect(pages).toBeLessThan(sizeOf("LNKP") / 2);
    expect(snapshot.holds("OBJC")).toBe(false);
  });
});

describe("link windows", () => {
  /** Bytes of LNKP one object's links read, and the page and window sizes around it, under `budgetBytes` (none: no cache). */
  async function linkBytesRead(budgetBytes?: number) {
    const source = countingSource(memorySource(bytes, `windows ${budgetBytes}`));
    const sections = budgetBytes === undefined ? undefined : new SectionCache(budgetBytes);
    const snapshot = await Snapshot.open(source, { sections });
    const directory = await snapshot.section("LNKD");
    const before = source.bytesRead;
    const p = LINK_PAGES_PER_WINDOW + 1; // the second page of the second window
    await linkRows(snapshot, [directory.firstRanks[p]]);
    const { offsets } = directory;
    return {
      read: source.bytesRead - before,
      page: offsets[p + 1] - offsets[p],
      window: offsets[2 * LINK_PAGES_PER_WINDOW] - offsets[LINK_PAGES_PER_WINDOW],
      linkBytes: snapshot.toc.get("LNKP")!.length,
    };
  }

  it("are read whole while the link pages fit in a quarter of the cache's budget, or without a cache", async () => {
    const { read, window, linkBytes } = await linkBytesRead();
    expect(read).toBe(window);
    expect((await linkBytesRead(4 * linkBytes)).read).toBe(window);
  });

  it("give way to single pages when the link pages outgrow a quarter of the budget: a window would push out 16 pages for one", async () => {
    const { linkBytes, page, window } = await linkBytesRead();
    expect(page).toBeLessThan(window);
    expect((await linkBytesRead(4 * linkBytes - 1)).read).toBe(page);
  });
});

describe("id pages", () => {
  it("find every object's rank, and no rank for ids no object has", async () => {
    const snapshot = await open(bytes);
    const byRank = await ranked(snapshot);
    expect((await snapshot.section("IDXD")).pageCount).toBe(Math.ceil(OBJECTS / IDS_PER_PAGE));
    for (let r = 0; r < OBJECTS; r++) expect(await rankOfId(snapshot, byRank.id(r))).toBe(r);
    const ids = Array.from({ length: OBJECTS }, (_, r) => byRank.ids[r]).sort((a, b) => (a < b ? -1 : 1));
    const missing = [
      "0",
      "18446744073709551615",
      "99999999999999999999",
      "-1",
      "0302",
      "",
      `${ids[0] - 1n}`,
      `${ids[ids.length - 1] + 1n}`,
    ];
    for (let i = 1; i < ids.length && missing.length < 40; i++)
      if (ids[i] - ids[i - 1] > 1n) missing.push(`${ids[i] - 1n}`);
    const known = new Set(ids.map(String));
    for (const id of missing) {
      if (known.has(id)) continue;
      await expect(rankOfId(snapshot, id)).rejects.toThrow(ApiError);
    }
  });
});

describe("id pages with parents", () => {
  it("give each object's parent as its row does", async () => {
    const snapshot = await open(bytes);
    const byRank = await ranked(snapshot);
    let parents = 0;
    for (let r = 0; r < OBJECTS; r++) {
      const located = await locateId(snapshot, byRank.id(r));
      expect(located).toEqual({ rank: r, parent: byRank.parent(r) });
      if (located.parent !== NONE) parents++;
    }
    expect(parents).toBeGreaterThan(OBJECTS / 2); // the fixture has parents to compare
  });

  it("let an object's characteristics read its row and its parent's in one round, the id page cached", async () => {
    const snapshot = await open(bytes);
    const [byRank, rows] = await Promise.all([ranked(snapshot), snapshot.section("ROWD")]);
    // A child whose parent's row lies on another page.
    let child = 0;
    while (byRank.parent(child) === NONE || rows.pageOf(child) === rows.pageOf(byRank.parent(child))) child++;
    const id = byRank.id(child);
    await locateId(snapshot, id);
    const meter = new StorageMeter();
    const { object } = await meter.measure(() => objectCharacteristics(snapshot, id, null));
    expect(object.parent?.id).toBe(byRank.id(byRank.parent(child)));
    expect({ reads: meter.reads, rounds: meter.rounds }).toEqual({ reads: 2, rounds: 1 });
  });

  it("let an object's characteristics prefetch its link page, not waiting for it: callees then read none", async () => {
    const id = (await ranked(await open(bytes))).id(OBJECTS >> 2);
    const { snapshot, record } = await loggedSnapshot(bytes, 64 << 20, "characteristics prefetch");
    await locateId(snapshot, id);
    const reads = await record();
    const meter = new StorageMeter();
    await meter.measure(() => objectCharacteristics(snapshot, id, null));
    await new Promise((settled) => setTimeout(settled, 50));
    // The rows are waited for; the link page, a window of pages, is read beside them and counted apart.
    expect(reads.map((r) => [r.tag, r.prefetch])).toEqual([
      ...Array.from({ length: meter.reads }, () => ["ROWP", false]),
      ["LNKP", true],
    ]);
    expect({ rounds: meter.rounds, prefetches: meter.prefetches }).toEqual({ rounds: 1, prefetches: 1 });
    expect(meter.prefetchedBytes).toBe(reads.at(-1)!.length);
    reads.length = 0;
    await objectCallees(snapshot, id, { includeEscalated: true, withParent: false }).then((r) => collect(r.callees));
    expect(reads.map((r) => r.tag)).not.toContain("LNKP");
    // Read again, the object's link page is held: nothing is prefetched.
    const again = new StorageMeter();
    await again.measure(() => objectCharacteristics(snapshot, id, null));
    expect({ reads: again.reads, prefetches: again.prefetches }).toEqual({ reads: 0, prefetches: 0 });
  });

  it("let an object's characteristics from a local source (no connection limit) prefetch nothing: callees read the link page", async () => {
    const id = (await ranked(await open(bytes))).id(OBJECTS >> 2);
    const { snapshot, record } = await loggedSnapshot(bytes, 64 << 20, "characteristics from a local source", 0);
    await locateId(snapshot, id);
    const reads = await record();
    const meter = new StorageMeter();
    await meter.measure(() => objectCharacteristics(snapshot, id, null));
    await new Promise((settled) => setTimeout(settled, 50));
    expect({ prefetches: meter.prefetches, linkPagesRead: reads.some((r) => r.tag === "LNKP") }).toEqual({
      prefetches: 0,
      linkPagesRead: false,
    });
    await objectCallees(snapshot, id, { includeEscalated: true, withParent: false }).then((r) => collect(r.callees));
    expect(reads.map((r) => r.tag)).toContain("LNKP");
  });

  it("let callees with their parents' types read the link page, then the rows with the type columns: two rounds, the id page cached", async () => {
    const snapshot = await open(bytes);
    const [byRank, rows] = await Promise.all([ranked(snapshot), snapshot.section("ROWD")]);
    // An object with a callee whose parent's row lies on a page none of its callees' rows lie on.
    let caller = 0;
    for (; ; caller++) {
      const callees = [...(await linkRows(snapshot, [caller])).row(caller).targets];
      const pages = new Set(callees.map((t) => rows.pageOf(t)));
      if (callees.some((t) => byRank.parent(t) !== NONE && !pages.has(rows.pageOf(byRank.parent(t))))) break;
    }
    const id = byRank.id(caller);
    // Its id page and the directories held, under a key of its own: no link page, row or column is.
    // Reads take 5 ms, as storage does: reads made together are in flight together.
    const cold = await Snapshot.open(delayedSource(memorySource(bytes, "callees with parents"), 5));
    await Promise.all([locateId(cold, id), cold.section("LNKD"), cold.section("ROWD")]);
    const meter = new StorageMeter();
    const callees = await meter.measure(async () =>
      collect((await objectCallees(cold, id, { includeEscalated: true, withParent: true })).callees),
    );
    expect({ rounds: meter.rounds }).toEqual({ rounds: 2 });
    // Each parent's type and typeId as its own row gives them.
    const model = await decodeSnapshotModel(snapshot);
    const rankOf = new Map(model.objects.map((o, r) => [o.id, r]));
    expect(callees.length).toBeGreaterThan(0);
    for (const callee of callees) {
      const parent = byRank.parent(rankOf.get(callee.id)!);
      const expected =
        parent === NONE ? null : { type: model.objects[parent].type, typeId: model.objects[parent].typeId };
      expect(callee.parent).toEqual(expected);
    }
  });
});

describe("damaged pages", () => {
  const firstPage = (tag: string) => rawSections(bytes).find((s) => s.tag === tag)!.offset + 16;

  it("a flipped byte in a link or id page fails that page's checksum; other pages still answer", async () => {
    for (const [tag, message] of [
      ["LNKP", "link pages: page 0 checksum mismatch"],
      ["IDXP", "id pages: page 0 checksum mismatch"],
    ]) {
      const flipped = bytes.slice();
      flipped[firstPage(tag) + 5] ^= 0x40;
      const snapshot = await open(flipped);
      const byRank = await ranked(await open(bytes));
      const byId = Array.from({ length: OBJECTS }, (_, r) => r).sort((a, b) =>
        byRank.ids[a] < byRank.ids[b] ? -1 : 1,
      );
      // Callees read the object's id page, then its link page, whatever its links.
      const callees = (id: string) => objectCallees(snapshot, id, { includeEscalated: true, withParent: false });
      const onPage0 = tag === "LNKP" ? byRank.id(0) : byRank.id(byId[0]);
      await expect(callees(onPage0)).rejects.toThrow(new CorruptSnapshotError(message));
      const farAway = byRank.id(tag === "LNKP" ? OBJECTS - 1 : byId[OBJECTS - 1]);
      await expect(callees(farAway)).resolves.toBeDefined();
    }
  });

  it("a link page whose checksum was forged over bad contents is refused by its own checks", async () => {
    const directory = await (await open(bytes)).section("LNKD");
    const bad = bytes.slice();
    const page0 = bad.subarray(firstPage("LNKP"), firstPage("LNKP") + directory.offsets[1]);
    expect(page0[0]).toBeLessThan(8); // rank 0's flags, one byte
    page0[0] = 8; // a flag bit the format does not have
    const forged = patchSection(bad, "LNKD", (body) => setU32(body, 4, 0, crc32(page0)));
    await expect(linkRows(await open(forged), [0])).rejects.toThrow(
      new CorruptSnapshotError("link page 0: object 0 has flags 8"),
    );
  });

  it("a link page forged under a valid checksum is refused for its objects, while its window's other pages answer", async () => {
    const snapshot = await open(bytes);
    const directory = await snapshot.section("LNKD");
    const p = LINK_PAGES_PER_WINDOW + 1; // the second page of the second window
    expect(directory.pageCount).toBeGreaterThan(p + 1);
    const bad = bytes.slice();
    const page = bad.subarray(firstPage("LNKP") + directory.offsets[p], firstPage("LNKP") + directory.offsets[p + 1]);
    expect(page[0]).toBeLessThan(8); // its first object's flags, one byte
    page[0] = 8; // a flag bit the format does not have
    const forged = await open(patchSection(bad, "LNKD", (body) => setU32(body, 4, p, crc32(page))));
    const [first, last] = [directory.firstRanks[p], directory.firstRanks[p + 1] - 1];
    const refusal = new CorruptSnapshotError(`link page ${p}: object ${first} has flags 8`);
    await expect(linkRows(forged, [first])).rejects.toThrow(refusal);
    await expect(linkRows(forged, [last])).rejects.toThrow(refusal);
    // The page before it, in the same window, read from the same cached window.
    const before = directory.firstRanks[p - 1];
    const [good, same] = [await linkRows(snapshot, [before]), await linkRows(forged, [before])];
    expect(plain(same.row(before))).toEqual(plain(good.row(before)));
  });

  it("a link page forged at its last object answers for the objects before it and refuses that one", async () => {
    const snapshot = await open(bytes);
    const directory = await snapshot.section("LNKD");
    const p = 1;
    const [first, last] = [directory.firstRanks[p], directory.firstRanks[p + 1] - 1];
    // The last object's links as encodeLinkPages writes them: where they begin, the page's length less theirs.
    const row = (await linkRows(snapshot, [last])).row(last);
    const own = new VarintWriter();
    own.put(row.flags);
    own.put(row.targets.length);
    row.targets.forEach((target, i) => {
      own.put(target - (i === 0 ? 0 : row.targets[i - 1]));
      own.put(row.types[i] * 8 + row.targetFlags[i]);
    });
    own.put(row.callers.length);
    row.callers.forEach((caller, i) =>
      own.put((caller - (i === 0 ? 0 : row.callers[i - 1] + 1)) * 2 + row.callerFlags[i]),
    );
    const bad = bytes.slice();
    const page = bad.subarray(firstPage("LNKP") + directory.offsets[p], firstPage("LNKP") + directory.offsets[p + 1]);
    const at = page.length - own.length;
    expect(page[at]).toBe(row.flags);
    page[at] = 8; // a flag bit the format does not have
    const forged = await open(patchSection(bad, "LNKD", (body) => setU32(body, 4, p, crc32(page))));
    const refusal = new CorruptSnapshotError(`link page ${p}: object ${last} has flags 8`);
    const links = await linkRows(forged, [first, last - 1]);
    const good = await linkRows(snapshot, [first, last - 1]);
    for (const rank of [first, last - 1]) expect(plain(links.row(rank))).toEqual(plain(good.row(rank)));
    expect(() => links.row(last)).toThrow(refusal);
    await expect(linkRows(forged, [last])).rejects.toThrow(refusal);
  });

  it("an id page whose checksum was forged over an id past the next page's first is refused", async () => {
    const snapshot = await open(bytes);
    const directory = await snapshot.section("IDXD");
    const bad = bytes.slice();
    const page0 = bad.subarray(firstPage("IDXP"), firstPage("IDXP") + directory.offsets[1]);
    const ids = new DataView(page0.buffer, page0.byteOffset, page0.byteLength);
    ids.setBigUint64((IDS_PER_PAGE - 1) * 8, directory.firstIds[1], true); // the last id of page 0 becomes page 1's first
    const forged = patchSection(bad, "IDXD", (body) => setU32(body, 2, 0, crc32(page0)));
    const firstId = String(directory.firstIds[0]);
    await expect(rankOfId(await open(forged), firstId)).rejects.toThrow(
      new CorruptSnapshotError("id page 0 runs past the next page's first id"),
    );
  });

  it("a real link page with a few bytes changed or cut, under a valid checksum, decodes within bounds or is refused (property)", async () => {
    const snapshot = await open(bytes);
    const directory = await snapshot.section("LNKD");
    const p = directory.pageCount >> 1;
    const page = bytes.slice(firstPage("LNKP") + directory.offsets[p], firstPage("LNKP") + directory.offsets[p + 1]);
    const [first, end] = [directory.firstRanks[p], directory.firstRanks[p + 1]];
    const mutation = fc.record({
      at: fc.array(fc.nat({ max: page.length - 1 }), { minLength: 1, maxLength: 3 }),
      xor: fc.array(fc.integer({ min: 1, max: 255 }), { minLength: 3, maxLength: 3 }),
      keep: fc.oneof(fc.constant(page.length), fc.nat({ max: page.length - 1 })),
    });
    fc.assert(
      fc.property(mutation, ({ at, xor, keep }) => {
        const changed = page.slice(0, Math.max(1, keep));
        at.forEach((i, k) => i < changed.length && (changed[i] ^= xor[k]));
        // One page, checked as page 0 of a directory that states its new length and checksum.
        const alone = Object.assign(Object.create(LinkDirectory.prototype) as LinkDirectory, {
          offsets: Uint32Array.of(0, changed.length, changed.length + 1),
          crcs: Uint32Array.of(crc32(changed), 0),
          firstRanks: Uint32Array.of(first, end),
          linkTypes: directory.linkTypes,
          rows: OBJECTS,
          what: "link pages",
        });
        try {
          const decoded = alone.decodePage(0, changed);
          for (let r = first; r < end; r++) {
            const row = decoded.row(r);
            expect(row.flags).toBeLessThanOrEqual(7);
            row.targets.forEach((t, i) =>
              expect(t < OBJECTS && row.types[i] < directory.linkTypes.length && (row.targetFlags[i] & 3) !== 0).toBe(
                true,
              ),
            );
            row.callers.forEach((c, i) => expect(c < OBJECTS && (i === 0 || row.callers[i - 1] < c)).toBe(true));
          }
        } catch (error) {
          expect(error).toBeInstanceOf(CorruptSnapshotError);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it("random bytes under a valid checksum decode or are refused, never anything else", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 300 }), fc.integer({ min: 1, max: 40 }), (page, count) => {
        const directory = Object.assign(Object.create(LinkDirectory.prototype) as LinkDirectory, {
          offsets: Uint32Array.of(0, page.length),
          crcs: Uint32Array.of(crc32(page)),
          firstRanks: Uint32Array.of(0),
          linkTypes: ["CALL", "USE"],
          rows: count,
          what: "link pages",
        });
        try {
          const decoded = directory.decodePage(0, page);
          for (let r = 0; r < count; r++) {
            const row = decoded.row(r);
            row.targets.forEach((t, i) =>
              expect(t < count && row.types[i] < 2 && (row.targetFlags[i] & 3) !== 0).toBe(true),
            );
            row.callers.forEach((c, i) => expect(c < count && (i === 0 || row.callers[i - 1] < c)).toBe(true));
          }
        } catch (error) {
          expect(error).toBeInstanceOf(CorruptSnapshotError);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
