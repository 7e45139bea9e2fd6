// @module publishSnapshot refuses corrupt bytes (a flipped byte anywhere checked, a cut, a future format) with CorruptSnapshotError and leaves the store exactly as it was.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compileDocument } from "../../build/compile/compile-document.ts";
import { sha256Hex } from "../../src/digests.ts";
import { FORMAT_VERSION } from "../../src/format/container.ts";
import { CorruptSnapshotError } from "../../src/format/errors.ts";
import { manifestKey, snapshotKey } from "../../src/storage/manifest.ts";
import { publishSnapshot, readManifest } from "../../src/storage/publish.ts";
import { HEADER, rawSections, resealHeader } from "../format/snapshot-bytes.ts";
import { MemoryStore } from "../support/memory-store.ts";

const EXAMPLES = join(import.meta.dirname, "../fixtures/examples");
const V1 = JSON.parse(readFileSync(join(EXAMPLES, "petstore-v1.json"), "utf8")) as Record<string, unknown>;
const V2 = JSON.parse(readFileSync(join(EXAMPLES, "petstore-v2.json"), "utf8")) as Record<string, unknown>;
const APPLICATION = V1.application as string;

const GOOD = compileDocument(V2).bytes;

const flipped = (at: number) => {
  const out = GOOD.slice();
  out[at] ^= 0x5a;
  return out;
};

const CORRUPTIONS: [label: string, bytes: Uint8Array][] = [
  ...rawSections(GOOD).flatMap((s): [string, Uint8Array][] => [
    [`first byte of ${s.tag} flipped`, flipped(s.offset)],
    [`middle byte of ${s.tag} flipped`, flipped(s.offset + Math.floor(s.length / 2))],
    [`last byte of ${s.tag} flipped`, flipped(s.offset + s.length - 1)],
  ]),
  ["a magic byte flipped", flipped(3)],
  ["the table-of-contents offset flipped", flipped(16)],
  ["the header checksum flipped", flipped(40)],
  ["a table-of-contents byte flipped", flipped(HEADER + 9)],
  ["the last byte cut", GOOD.slice(0, GOOD.length - 1)],
  ["the last 16 bytes cut", GOOD.slice(0, GOOD.length - 16)],
  ["cut in half", GOOD.slice(0, GOOD.length >> 1)],
  ["only the header left", GOOD.slice(0, HEADER)],
  ["30 bytes left", GOOD.slice(0, 30)],
  ["nothing left", new Uint8Array(0)],
  ["8 bytes appended", Uint8Array.from([...GOOD, 0, 0, 0, 0, 0, 0, 0, 0])],
  [
    "a future format version (header re-sealed)",
    (() => {
      const out = GOOD.slice();
      new DataView(out.buffer).setUint16(8, FORMAT_VERSION + 1, true);
      resealHeader(out);
      return out;
    })(),
  ],
];

/** A store already holding the published petstore-v1, as a real bucket would. */
async function storeWithV1(): Promise<MemoryStore> {
  const store = new MemoryStore();
  await publishSnapshot(store, compileDocument(V1).bytes, new Date("2026-09-02T00:00:00Z"));
  return store;
}

describe("the in-memory store (a check on the test itself)", () => {
  it("a valid snapshot is published into it: the snapshot under its content address, then the manifest", async () => {
    const store = new MemoryStore();
    const result = await publishSnapshot(store, GOOD);
    expect(result.outcome).toBe("published");
    const sha = await sha256Hex(GOOD);
    expect(await store.list("")).toEqual([manifestKey(APPLICATION), snapshotKey(sha)].sort());
    expect(store.writes).toEqual([`put ${snapshotKey(sha)}`, `putIf ${manifestKey(APPLICATION)}`]);
    expect(Buffer.from((await store.get(snapshotKey(sha)))!.bytes).equals(Buffer.from(GOOD))).toBe(true);
    expect((await readManifest(store, APPLICATION))!.versions.map((v) => v.sha256)).toEqual([sha]);
  });
});

describe("publishSnapshot refuses a corrupt snapshot and writes nothing", () => {
  it("covers every section of the snapshot", () => {
    expect(rawSections(GOOD).length).toBeGreaterThanOrEqual(20);
  });

  for (const [label, bytes] of CORRUPTIONS)
    it(label, async () => {
      const empty = new MemoryStore();
      await expect(publishSnapshot(empty, bytes)).rejects.toBeInstanceOf(CorruptSnapshotError);
      expect(empty.writes).toEqual([]);
      expect(empty.contents()).toEqual([]);

      // Over a published history: the manifest still lists v1 only, and not a byte changed.
      const store = await storeWithV1();
      const before = store.contents();
      const writes = store.writes.length;
      await expect(publishSnapshot(store, bytes)).rejects.toBeInstanceOf(CorruptSnapshotError);
      expect(store.writes.slice(writes)).toEqual([]);
      expect(store.contents()).toEqual(before);
      expect((await readManifest(store, APPLICATION))!.versions.map((v) => v.analyzedAt)).toEqual([V1.analyzedAt]);
    });
});
