// @module Member pages (MEMP + MEMD): every level-5 node's pages list exactly its objects with their summary fields, read by range and never cached; damaged pages are refused.
import { beforeAll, describe, expect, it } from "vitest";
import { Blocks } from "../../src/format/blocks.ts";
import { decodeSnapshotModel } from "../../src/format/decode.ts";
import { CorruptSnapshotError, SnapshotLimitError } from "../../src/format/errors.ts";
import {
  encodeMemberDirectory,
  encodeMemberPages,
  MemberDirectory,
  type MemberSummary,
  memberPages,
} from "../../src/format/member-pages.ts";
import type { SnapshotModel } from "../../src/format/model.ts";
import { SectionCache } from "../../src/format/section-cache.ts";
import { countingSource, FIRST_READ, memorySource, Snapshot } from "../../src/format/snapshot.ts";
import { levelNodes } from "../../src/query/levels.ts";
import { collect } from "../../src/query/streamed-list.ts";
import { generatedSnapshot } from "../support/generated-snapshot.ts";
import { block, blockBody, getU32, patchSection, rawSection, setU32 } from "./snapshot-bytes.ts";

const OBJECTS = 20_000;
let bytes: Uint8Array;
let model: SnapshotModel;

beforeAll(async () => {
  bytes = await generatedSnapshot(OBJECTS, 11);
  model = await decodeSnapshotModel(await Snapshot.open(memorySource(bytes)));
}, 120_000);

/** The reference: the objects the model places under `node`, in rank order, as a level-5 answer lists them. */
const reference = (node: number): MemberSummary[] =>
  model.objects
    .filter((o) => o.level5 === node)
    .map(({ id, name, fullName, type, typeId }) => ({ id, name, fullName, type, typeId }));

async function membersOf(snapshot: Snapshot, node: number): Promise<{ pages: number; members: MemberSummary[] }> {
  let pages = 0;
  const members: MemberSummary[] = [];
  for await (const page of memberPages(snapshot, node)) {
    pages++;
    members.push(...page);
  }
  return { pages, members };
}

describe("member pages", () => {
  it("give every level-5 node exactly its objects and their fields, in rank order", async () => {
    const snapshot = await Snapshot.open(memorySource(bytes));
    const nodes = model.levels[4].length;
    expect(nodes).toBeGreaterThan(5);
    let multiPage = 0;
    for (let node = 0; node < nodes; node++) {
      const { pages, members } = await membersOf(snapshot, node);
      expect(members, `node ${node}`).toEqual(reference(node));
      if (pages > 1) multiPage++;
    }
    expect(multiPage, "some node spans several pages").toBeGreaterThan(0);
  });

  it("answer a level-5 node's children as the reference lists them", async () => {
    const snapshot = await Snapshot.open(memorySource(bytes));
    const answer = await Promise.all((await levelNodes(snapshot, 5, { name: "" })).map((n) => collect(n)));
    expect(answer.map((n) => n.children)).toEqual(answer.map((n) => reference(n._id)));
  });

  it("are read by range, a node in a read or two, and not kept in the section cache", async () => {
    const source = countingSource(memorySource(bytes));
    const cache = new SectionCache(64 * 1024 * 1024);
    const snapshot = await Snapshot.open(source, { sections: cache });
    const sizes = model.levels[4].map((_, node) => reference(node).length);
    const biggest = sizes.indexOf(Math.max(...sizes));
    await membersOf(snapshot, biggest); // MEMD and MEMP's block table
    const [reads, cached] = [source.reads, await snapshot.loadedBytes()];
    const { pages } = await membersOf(snapshot, biggest);
    expect(pages).toBeGreaterThan(1);
    expect(source.reads - reads).toBe(1);
    expect(await snapshot.loadedBytes()).toBe(cached);
    const memp = rawSection(bytes, "MEMP").length;
    expect(cached, "no member page is cached").toBeLessThan(memp / 4);
    // A node's pages are read, not the section: the biggest of many nodes twice is less than MEMP once.
    expect(source.bytesRead - FIRST_READ).toBeLessThan(memp);
  });

  it("give a member a page of its own when it could take a page past 1 MiB, and refuse one that alone would, naming it", () => {
    const node = model.objects[0].level5;
    const first = model.objects.findIndex((o, rank) => rank > 0 && o.level5 === node);
    const withName = (name: string): SnapshotModel => ({
      ...model,
      objects: model.objects.map((o, rank) => (rank === first ? { ...o, name } : o)),
    });
    // 400,000 characters: three bytes each at most would take the page past 1 MiB, so it starts one.
    const large = encodeMemberPages(withName("m".repeat(400_000)));
    const directory = new MemberDirectory(
      new Blocks(blockBody(encodeMemberDirectory(large)), "MEMD", 5),
      model.levels[4].length,
      model.objects.length,
    );
    const start = large.firstPages[node];
    expect(large.memberCounts[start]).toBe(1);
    expect(large.memberCounts[start + 1]).toBe(1);
    expect(
      directory.decodePage(start + 1, large.pages.subarray(large.offsets[start + 1], large.offsets[start + 2]))[0].name,
    ).toHaveLength(400_000);
    const id = model.objects[first].id;
    expect(() => encodeMemberPages(withName("m".repeat(1_100_000)))).toThrow(
      new SnapshotLimitError(
        `object ${id} has ${JSON.stringify({ ...reference(node)[1], name: "m".repeat(1_100_000) }).length} bytes of id, names and type as JSON; a snapshot holds at most 1048574 for a member of a level-5 node`,
      ),
    );
  });

  it("refuse a page whose bytes do not match its checksum", async () => {
    const broken = patchSection(bytes, "MEMP", (body) => (body[block(body, 0).offset + 5] ^= 0xff));
    const snapshot = await Snapshot.open(memorySource(broken));
    const node = (await snapshot.section("MEMD")).nodeOf(0);
    const error = await membersOf(snapshot, node).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorruptSnapshotError);
    expect((error as Error).message).toBe("member pages: page 0 checksum mismatch");
  });

  it("refuse a page holding other than the members its directory counts", async () => {
    // A member moved from page 0's count to page 1's: the counts still cover every object.
    const broken = patchSection(bytes, "MEMD", (body) => {
      setU32(body, 4, 0, getU32(body, 4, 0) + 1);
      setU32(body, 4, 1, getU32(body, 4, 1) - 1);
    });
    const snapshot = await Snapshot.open(memorySource(broken));
    const first = (await snapshot.section("MEMD")).nodeOf(0);
    const error = await membersOf(snapshot, first).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorruptSnapshotError);
    expect((error as Error).message).toMatch(/^member page 0 holds \d+ members, expected \d+$/);
  });

  it("refuse a directory whose pages hold more members than there are objects", async () => {
    const broken = patchSection(bytes, "MEMD", (body) => setU32(body, 4, 0, getU32(body, 4, 0) + 1));
    const snapshot = await Snapshot.open(memorySource(broken));
    const error = await snapshot.section("MEMD").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorruptSnapshotError);
    expect((error as Error).message).toBe(
      `member directory: its pages hold ${OBJECTS + 1} members of ${OBJECTS} objects`,
    );
  });
});
