// @module verifySnapshotSource: what the reader checks only later (pages, posting lists) and what no reader compares (sections with one another) is refused before publishing, reading one section at a time.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compileDocument } from "../../build/compile/compile-document.ts";
import { crc32 } from "../../src/format/crc32.ts";
import { CorruptSnapshotError } from "../../src/format/errors.ts";
import { type ByteSource, memorySource, Snapshot } from "../../src/format/snapshot.ts";
import { verifySnapshotSource, verifySnapshotSteps } from "../../src/format/verify.ts";
import petstoreV1 from "../fixtures/examples/petstore-v1.json";
import { largeAnalysis } from "../support/large-analysis.ts";
import {
  assemble,
  block,
  getU32,
  patchSection,
  rawSection,
  rawSections,
  sectionSpecs,
  setU32,
  swapU32,
} from "./snapshot-bytes.ts";

const GOOD = compileDocument(petstoreV1).bytes;
const N = petstoreV1.objects.length;

const verify = (bytes: Uint8Array) => verifySnapshotSource(memorySource(bytes));

/** Expects `bytes` to open and decode section by section as a reader would (so that only verification tells), and verification to refuse them with `message`. */
async function refused(bytes: Uint8Array, message: string | RegExp): Promise<void> {
  const snapshot = await Snapshot.open(memorySource(bytes));
  for (const tag of ["OBJC", "TAXO", "XTYP", "TNAM", "CNAM", "LNKD", "IDXD"] as const) await snapshot.section(tag);
  const error = await verify(bytes).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, "verification passed").toBeInstanceOf(CorruptSnapshotError);
  if (typeof message === "string") expect((error as Error).message).toBe(message);
  else expect((error as Error).message).toMatch(message);
}

/** `bytes` with page 0 of paged section `tag` changed by `change`, and its checksum in `directory` (block `crcBlock`) rewritten. */
function patchPage(
  bytes: Uint8Array,
  tag: string,
  directory: string,
  offsetsBlock: number,
  crcBlock: number,
  change: (page: Uint8Array) => void,
): Uint8Array {
  const dir = rawSection(bytes, directory);
  const body = bytes.subarray(dir.offset, dir.offset + dir.length);
  const length = getU32(body, offsetsBlock, 1) - getU32(body, offsetsBlock, 0);
  let page: Uint8Array = new Uint8Array(0);
  const changed = patchSection(bytes, tag, (pages) => {
    page = pages.subarray(block(pages, 0).offset, block(pages, 0).offset + length);
    change(page);
  });
  return patchSection(changed, directory, (d) => setU32(d, crcBlock, 0, crc32(page)));
}

/**
 * Walks link page 0 as SNAPSHOT-FORMAT.md §8.16 lays it out, handing each callee entry's packed
 * value and each caller (with its packed value, and whether it is its object's last) to `edit`, with
 * the offset of that value, until one returns true (it edited the page there); throws if none does.
 */
function editLinkPage(
  page: Uint8Array,
  edit: {
    callee?: (at: number, packed: number) => boolean;
    caller?: (at: number, caller: number, packed: number, last: boolean) => boolean;
  },
): void {
  let at = 0;
  const next = () => {
    let [value, scale, byte] = [0, 1, 0x80];
    while (byte & 0x80) (byte = page[at++]), (value += (byte & 0x7f) * scale), (scale *= 0x80);
    return value;
  };
  for (let rank = 0; rank < N; rank++) {
    next();
    const callees = next();
    for (let i = 0; i < callees; i++) {
      next();
      const before = at;
      const packed = next();
      if (edit.callee?.(before, packed)) return;
    }
    const callers = next();
    let caller = -1;
    for (let i = 0; i < callers; i++) {
      const before = at;
      const packed = next();
      caller += Math.floor(packed / 2) + 1;
      if (edit.caller?.(before, caller, packed, i === callers - 1)) return;
    }
  }
  throw new Error("link page 0 has no value to edit");
}

describe("snapshots as the compiler writes them", () => {
  it("pass, with their metadata returned", async () => {
    expect((await verify(GOOD)).counts.objects).toBe(N);
    for (const name of ["petstore-v1.snap", "petstore-v2.snap"]) {
      const golden = new Uint8Array(readFileSync(join(import.meta.dirname, "../fixtures/golden/v5", name)));
      expect((await verify(golden)).application).toBe("Pet Store & Co");
    }
  });

  it("are read one section or one window of pages at a time: no paged section is read whole but the id pages", async () => {
    const bytes = compileDocument(largeAnalysis("Windows", "2026-09-15T00:00:00Z", 8_000, 5)).bytes;
    // The id pages are read whole, once, as OBJC was: what is compared with them needs every id.
    const paged = new Set(["ROWP", "LNKP", "KFUL", "KMNG"]);
    const sections = rawSections(bytes);
    expect(sections.find((s) => s.tag === "ROWP")!.length).toBeGreaterThan(1024 * 1024);
    const reads: [offset: number, length: number][] = [];
    const inner = memorySource(bytes);
    const source: ByteSource = {
      ...inner,
      read: (offset, length) => (reads.push([offset, length]), inner.read(offset, length)),
    };
    await verifySnapshotSource(source);
    for (const [offset, length] of reads) {
      const whole = sections.find((s) => s.offset === offset && s.length === length);
      if (length > 1024 * 1024)
        expect(whole && !paged.has(whole.tag), `a read of ${length} bytes at ${offset}`).toBe(true);
    }
    const ids = sections.find((s) => s.tag === "IDXP")!;
    const idPagesWhole = reads.filter(([offset, length]) => offset === ids.offset + 16 && length + 16 <= ids.length);
    expect(idPagesWhole.length, "reads of the id pages whole").toBe(1);
    // Every byte of every paged section was read: their checksums and pages were all checked.
    for (const s of sections.filter((s) => paged.has(s.tag) || s.tag === "IDXP")) {
      const seen = new Uint8Array(s.length);
      for (const [offset, length] of reads)
        if (offset >= s.offset && offset < s.offset + s.length)
          seen.fill(1, offset - s.offset, offset - s.offset + length);
      expect(seen.indexOf(0), `${s.tag}: a byte never read`).toBe(-1);
    }
  });
});

describe("sections that disagree with one another, under valid checksums", () => {
  it("a level-5 node counting one object more than OBJC places there", () =>
    refused(
      // One object moved from node 1's count to node 0's: the level-5 counts still add up to META's.
      patchSection(GOOD, "TAXO", (body) => {
        setU32(body, 39, 0, getU32(body, 39, 0) + 1);
        setU32(body, 39, 1, getU32(body, 39, 1) - 1);
      }),
      /^TAXO: level-5 node 0 counts \d+ objects, OBJC places \d+ there$/,
    ));

  it("member pages listing an object under a node other than the one OBJC places it under", () =>
    refused(
      patchSection(GOOD, "OBJC", (body) => {
        // Two objects of different level-5 nodes swapped in OBJC's level-5 column: every count still right.
        const level5 = Array.from({ length: N }, (_, r) => getU32(body, 1, r));
        const other = level5.findIndex((node) => node !== level5[0]);
        setU32(body, 1, 0, level5[other]);
        setU32(body, 1, other, level5[0]);
      }),
      /^member page \d+: member \d+ is not object \d+ of level-5 node \d+$/,
    ));

  it("link pages whose callers are not exactly the objects whose callees name them", async () => {
    const { flags } = await (await Snapshot.open(memorySource(GOOD))).section("OBJC");
    // An object's last caller moved to the next rank, a rank of the same role, by adding one to its one-byte gap.
    const patched = patchPage(GOOD, "LNKP", "LNKD", 3, 4, (page) =>
      editLinkPage(page, {
        caller: (at, caller, packed, last) => {
          const moved = caller + 1;
          if (!(last && packed + 2 < 0x80 && moved < N && (flags[moved] & 2 ? 1 : 0) === (packed & 1))) return false;
          page[at] = packed + 2;
          return true;
        },
      }),
    );
    await refused(
      patched,
      /^LNKP: (the callers of object \d+ are not the objects whose callees name it|object \d+ has callers whose callees do not name it)$/,
    );
  });

  it("a link page marking a callee an end point that OBJC does not, or the reverse", () =>
    refused(
      patchPage(GOOD, "LNKP", "LNKD", 3, 4, (page) =>
        editLinkPage(page, {
          callee: (at, packed) => {
            if (packed >= 0x80) return false;
            page[at] = packed ^ 4;
            return true;
          },
        }),
      ),
      /^link page 0: object \d+ calls \d+ with another role than OBJC's$/,
    ));

  it("a link page marking a caller a start point that OBJC does not, or the reverse", () =>
    refused(
      patchPage(GOOD, "LNKP", "LNKD", 3, 4, (page) =>
        editLinkPage(page, {
          caller: (at, _, packed) => {
            if (packed >= 0x80) return false;
            page[at] = packed ^ 1;
            return true;
          },
        }),
      ),
      /^link page 0: caller \d+ of object \d+ has another role than OBJC's$/,
    ));

  it("link pages holding one link less or more than META counts", async () => {
    const meta = rawSection(GOOD, "META");
    const text = new TextDecoder().decode(GOOD.subarray(meta.offset, meta.offset + meta.length));
    const links = Number(/"links":(\d+)/.exec(text)![1]);
    const withLinks = (n: number) =>
      assemble(
        sectionSpecs(GOOD).map((s) =>
          s.tag === "META" ? { ...s, body: new TextEncoder().encode(text.replace(/"links":\d+/, `"links":${n}`)) } : s,
        ),
      );
    await refused(withLinks(links + 1), `the link pages hold ${links} links, META says ${links + 1}`);
    await refused(withLinks(links - 1), `the link pages hold ${links} links, META says ${links - 1}`);
  });

  it("a link page giving an object other flags than OBJC", () =>
    refused(
      patchPage(GOOD, "LNKP", "LNKD", 3, 4, (page) => (page[0] ^= 1)),
      "link page 0: object 0 has flags OBJC does not give it",
    ));

  it("HOPS giving an object fewer or more links to a point than its links do (a reader cannot tell)", () =>
    refused(
      // Rank 0 (303) leads to no end point (15) and is two links from start point 100 (1): 0x1f.
      patchSection(GOOD, "HOPS", (body) => (body[block(body, 0).offset] ^= 1)),
      "HOPS: object 0 has 30, its links give 31 (§8.24 of the format)",
    ));

  it("HOPS listing a point one link away that its links do not give", () =>
    refused(
      // The first list down is rank 1's (findById, 301: end point 400, the first of FLOW's two): the second instead.
      patchSection(GOOD, "HOPS", (body) => (body[block(body, 2).offset + 1] ^= 1)),
      "HOPS: its end points one link down at byte 1 are not those its links give (§8.24 of the format)",
    ));

  it("an id page giving an id another object's rank", () =>
    refused(
      patchPage(GOOD, "IDXP", "IDXD", 1, 2, (page) => {
        // Ids, then their ranks: the first two ranks swapped, every rank still one of an object.
        const ranks = new DataView(page.buffer, page.byteOffset + N * 8, N * 4);
        const [first, second] = [ranks.getUint32(0, true), ranks.getUint32(4, true)];
        ranks.setUint32(0, second, true);
        ranks.setUint32(4, first, true);
      }),
      /^row \d+ has id \d+, the id pages \d+$/,
    ));

  it("id pages whose block table puts them elsewhere than readers read them", () =>
    refused(
      patchSection(GOOD, "IDXP", (body) => new DataView(body.buffer, body.byteOffset).setUint32(8, 24, true)),
      "IDXP: malformed block table",
    ));

  it("an id page naming one object twice and another never", () =>
    refused(
      patchPage(GOOD, "IDXP", "IDXD", 1, 2, (page) => {
        const ranks = new DataView(page.buffer, page.byteOffset + N * 8, N * 4);
        ranks.setUint32(4, ranks.getUint32(0, true), true);
      }),
      /^id pages: rank \d+ has two ids$/,
    ));

  it("an id page giving an object a parent other than its row's", () =>
    refused(
      patchPage(GOOD, "IDXP", "IDXD", 1, 2, (page) => {
        // Ids, ranks, then parents: one parent moved to another object (not itself), or taken away.
        const ranks = new DataView(page.buffer, page.byteOffset + N * 8, N * 4);
        const parents = new DataView(page.buffer, page.byteOffset + N * 12, N * 4);
        const rank = ranks.getUint32(0, true);
        const parent = parents.getUint32(0, true);
        parents.setUint32(0, parent === 0xffffffff ? (rank === 0 ? 1 : 0) : 0xffffffff, true);
      }),
      /^row \d+ has parent \d+, the id pages \d+ \(4294967295: none\)$/,
    ));

  it("a search index whose postings do not ascend", () =>
    refused(
      patchSection(GOOD, "XTYP", (body) => {
        const keys = block(body, 2).length / 4 - 1;
        const k = Array.from({ length: keys }, (_, i) => i).find(
          (i) => getU32(body, 2, i + 1) - getU32(body, 2, i) > 1,
        )!;
        const at = getU32(body, 2, k);
        swapU32(body, 3, at, at + 1);
      }),
      /^XTYP: the postings of key \d+ do not ascend$/,
    ));

  it("a search index whose reversed order is not the order of its reversed keys", () =>
    refused(
      patchSection(GOOD, "XTYP", (body) => swapU32(body, 4, 0, 1)),
      "XTYP: the reversed order does not ascend at 1",
    ));

  it("key pages whose reversed order is not the order of their reversed keys", () =>
    refused(
      patchSection(GOOD, "RFUL", (body) => swapU32(body, 0, 0, 1)),
      "RFUL: the reversed order does not ascend at 1",
    ));

  it("a reversed order whose sampled key is not the key of its entry", () =>
    refused(
      // The first sampled key's first byte: block 2 holds the sampled keys' bytes.
      patchSection(GOOD, "RNAM", (body) => void (body[block(body, 2).offset] ^= 0x01)),
      "RNAM: sampled key 0 is not the key of entry 0",
    ));

  it("a key of each object that is not the key its pages list the object under (a reader checks only that it is a key)", () =>
    refused(
      // Objects 0 and 1 hold different manglings here: swapped, each names the other's key.
      patchSection(GOOD, "OMNG", (body) => swapU32(body, 0, 0, 1)),
      /^OMNG: object [01] holds key \d+, KMNG lists it under key \d+$/,
    ));

  it("a key page giving an object's rank to another key too (a reader checks ranks only against N)", () =>
    refused(
      // The page's last byte: the last rank of its last key (ranks are below 128 here), moved by one.
      patchPage(GOOD, "KFUL", "DFUL", 1, 2, (page) => (page[page.length - 1] = (page[page.length - 1] + 1) % N)),
      /^KFUL: (object \d+ holds two keys|some object holds no key)$|^KFUL directory: page 0 key \d+ holds rank \d+, past the objects$/,
    ));

  it("a trigram posting list longer than it is (a reader decodes it only when a query needs it)", () =>
    refused(
      patchSection(GOOD, "TNAM", (body) => setU32(body, 1, 0, getU32(body, 1, 0) + 1)),
      /^KNAM trigram index: (posting list 0 is malformed|bitmap list 0 holds \d+ keys, not \d+)$/,
    ));

  it("a trigram chunk directory whose checksum does not match the chunk", () =>
    refused(
      patchSection(GOOD, "CNAM", (body) => setU32(body, 1, 0, getU32(body, 1, 0) ^ 1)),
      "TNAM chunk directory: page 0 checksum mismatch",
    ));
});

describe("in steps (a Worker's request has a CPU limit)", () => {
  it("one check at a time, each resumed where the last stopped, reaches the end with the same metadata", async () => {
    const source = memorySource(GOOD);
    let progress = await verifySnapshotSteps(source, 0, () => true);
    expect(progress.done).toBe(1);
    let steps = 1;
    while (progress.done < progress.of) {
      progress = await verifySnapshotSteps(source, progress.done, () => true);
      steps++;
    }
    expect(steps).toBe(progress.of);
    expect(progress.meta).toEqual(await verify(GOOD));
  });

  it("the step that checks a broken part refuses it; the steps before it pass", async () => {
    const broken = patchSection(GOOD, "TAXO", (body) => setU32(body, 39, 0, getU32(body, 39, 0) + 1));
    const source = memorySource(broken);
    let done = 0;
    let refusal: unknown = null;
    while (refusal === null) {
      const from = done;
      done = await verifySnapshotSteps(source, from, () => true).then(
        (progress) => progress.done,
        (error: unknown) => ((refusal = error), from),
      );
    }
    expect(refusal).toBeInstanceOf(CorruptSnapshotError);
    expect(done).toBe(2); // required sections, OBJC, then TAXO
  });

  it("a reversed order checked a few entries a step: every pair compared once, across the steps' edges too", async () => {
    // Parts of 3 entries: RFUL's pair (2, 3) is compared by the step of the second part alone.
    const tiny = { reversedPartKeys: 3 };
    const all = async (bytes: Uint8Array) => {
      const source = memorySource(bytes);
      let progress = await verifySnapshotSteps(source, 0, () => true, tiny);
      while (progress.done < progress.of) progress = await verifySnapshotSteps(source, progress.done, () => true, tiny);
      return progress;
    };
    const whole = await verifySnapshotSteps(memorySource(GOOD));
    const inParts = await all(GOOD);
    expect(inParts.meta).toEqual(whole.meta);
    expect(inParts.of).toBeGreaterThan(whole.of);
    for (const [at, message] of [
      [0, "RFUL: the reversed order does not ascend at 1"],
      [2, "RFUL: the reversed order does not ascend at 3"],
      [3, "RFUL: the reversed order does not ascend at 4"],
    ] as const)
      await expect(all(patchSection(GOOD, "RFUL", (body) => swapU32(body, 0, at, at + 1)))).rejects.toThrow(
        new CorruptSnapshotError(message),
      );
    await expect(all(patchSection(GOOD, "RNAM", (body) => void (body[block(body, 2).offset] ^= 0x01)))).rejects.toThrow(
      new CorruptSnapshotError("RNAM: sampled key 0 is not the key of entry 0"),
    );
  });

  it("refuses to resume past its last check", async () => {
    const { of } = await verifySnapshotSteps(memorySource(GOOD), 0, () => true);
    await expect(verifySnapshotSteps(memorySource(GOOD), of + 1)).rejects.toThrow(
      new CorruptSnapshotError(`verification cannot resume at check ${of + 1} of ${of}`),
    );
  });
});
