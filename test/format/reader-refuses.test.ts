// @module Tests that the snapshot reader refuses broken bytes with CorruptSnapshotError and an exact message, never answering from them.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compileDocument } from "../../build/compile/compile-document.ts";
import { FORMAT_MINOR } from "../../src/format/container.ts";
import { decodeSnapshotModel } from "../../src/format/decode.ts";
import { CorruptSnapshotError } from "../../src/format/errors.ts";
import { SECTIONS, type SectionTag } from "../../src/format/sections.ts";
import { memorySource, Snapshot } from "../../src/format/snapshot.ts";
import {
  assemble,
  block,
  blockBody,
  ENTRY,
  getU32,
  HEADER,
  patchSection,
  rawSection,
  rawSections,
  resealHeader,
  sectionSpecs,
  setU32,
} from "./snapshot-bytes.ts";

const EXAMPLE = JSON.parse(
  readFileSync(join(import.meta.dirname, "../fixtures/golden/v5/petstore-v1.json"), "utf8"),
) as unknown;
const { bytes: GOOD, model: MODEL } = compileDocument(EXAMPLE);
const N = MODEL.objects.length; // 13
const TAGS = Object.keys(SECTIONS) as SectionTag[];
const ANNOTATIONS = new Set(MODEL.objects.flatMap((o) => o.annotations ?? [])).size;
const TAG_KEYS = new Set(MODEL.objects.flatMap((o) => o.tags.map((t) => t.toLowerCase()))).size;
/** The sections decodeSnapshotModel reads. */
const MODEL_SECTIONS = new Set<string>([
  "OBJC",
  "TYPE",
  "TYID",
  "LANG",
  "FPTH",
  "ANNO",
  "TAGS",
  "PSTI",
  "STAT",
  "LNKD",
  "TAXO",
  "SLCD",
  "SFID",
  "SFLD",
  "ROWD",
]);

const open = (bytes: Uint8Array) => Snapshot.open(memorySource(bytes));

/** Expects `promise` to reject with a CorruptSnapshotError whose message is exactly `message` (or matches it). */
async function refuses(promise: Promise<unknown>, message: string | RegExp): Promise<void> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, "expected a refusal, but the reader answered").toBeInstanceOf(CorruptSnapshotError);
  if (typeof message === "string") expect((error as Error).message).toBe(message);
  else expect((error as Error).message).toMatch(message);
}

/** Opens `bytes` and reads `tag`, expecting that read to be refused with `message`; open itself must succeed. */
async function sectionRefuses(bytes: Uint8Array, tag: SectionTag, message: string | RegExp): Promise<Snapshot> {
  const snapshot = await open(bytes);
  await refuses(snapshot.section(tag), message);
  return snapshot;
}

const withU16 = (bytes: Uint8Array, at: number, value: number) => {
  const out = bytes.slice();
  new DataView(out.buffer).setUint16(at, value, true);
  return out;
};
const flip = (bytes: Uint8Array, at: number) => {
  const out = bytes.slice();
  out[at] ^= 0x5a;
  return out;
};

describe("test setup", () => {
  it("the hand-written container layout reproduces the compiled bytes exactly", () => {
    expect(Buffer.from(assemble(sectionSpecs(GOOD))).equals(Buffer.from(GOOD))).toBe(true);
  });

  it("the unpatched snapshot opens and every section reads", async () => {
    const snapshot = await open(GOOD);
    for (const tag of TAGS) await expect(snapshot.section(tag)).resolves.toBeDefined();
    expect((await decodeSnapshotModel(snapshot)).objects).toHaveLength(N);
  });

  it("re-sealing an untouched section changes nothing", () => {
    expect(Buffer.from(patchSection(GOOD, "PSTI", () => {})).equals(Buffer.from(GOOD))).toBe(true);
  });
});

describe("the header", () => {
  it("refuses a file that is not a snapshot (bad magic)", async () => {
    const message = "not an appstruct snapshot (bad magic)";
    await refuses(open(flip(GOOD, 0)), message);
    await refuses(open(flip(GOOD, 7)), message);
    const lowerCase = GOOD.slice();
    lowerCase.set(new TextEncoder().encode("appstrct"), 0);
    await refuses(open(lowerCase), message);
    const png = new Uint8Array(128);
    png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    await refuses(open(png), message);
  });

  it("refuses a newer format version, before looking at the header checksum", async () => {
    // The checksum is left as it was, so it no longer matches: the version message must still win.
    await refuses(
      open(withU16(GOOD, 8, 6)),
      "snapshot is format version 6 but this reader supports version 5; upgrade appstruct",
    );
    await refuses(
      open(withU16(GOOD, 8, 0x0201)),
      "snapshot is format version 513 but this reader supports version 5; upgrade appstruct",
    );
  });

  it("refuses an older format version, every revision of version 1 and versions 2 to 4 included, and says to recompile", async () => {
    for (const [version, minor] of [
      [0, 0],
      [1, 0],
      [1, 15],
      [1, 16],
      [2, 0],
      [3, 0],
      [4, 0],
      [4, 1],
    ]) {
      const older = withU16(withU16(GOOD, 8, version), 10, minor);
      resealHeader(older);
      await refuses(
        open(older),
        `snapshot is format version ${version} but this reader supports version 5; recompile the analysis`,
      );
    }
  });

  it("refuses a header whose checksum does not match", async () => {
    const message = "snapshot header checksum mismatch";
    for (const at of [10, 12, 16, 24, 28, 32, 39, 40, 43]) await refuses(open(flip(GOOD, at)), message);
  });

  it("ignores the reserved bytes and a later minor revision (when its checksum is right)", async () => {
    const reserved = GOOD.slice();
    reserved.fill(0xee, 44, 64);
    expect((await decodeSnapshotModel(await open(reserved))).objects).toHaveLength(N);
    const minor = withU16(GOOD, 10, FORMAT_MINOR + 2);
    resealHeader(minor);
    expect((await decodeSnapshotModel(await open(minor))).objects).toHaveLength(N);
  });

  it("refuses a TOC length that disagrees with the entry count, and a TOC past the end", async () => {
    const count = GOOD.slice();
    new DataView(count.buffer).setUint32(12, rawSections(GOOD).length - 1, true);
    resealHeader(count);
    await refuses(open(count), "table of contents length does not match its entry count");
    const past = GOOD.slice();
    new DataView(past.buffer).setBigUint64(16, BigInt(GOOD.length), true);
    resealHeader(past);
    await refuses(open(past), "table of contents runs past the end of the file");
  });
});

describe("truncated and extended files", () => {
  it("refuses a file shorter than the header", async () => {
    await refuses(open(GOOD.slice(0, 40)), "file is 40 bytes, too short for a snapshot header (64 bytes)");
    await refuses(open(new Uint8Array(0)), "file is 0 bytes, too short for a snapshot header (64 bytes)");
  });

  it("refuses a file whose length differs from the header's", async () => {
    const L = GOOD.length;
    await refuses(open(GOOD.slice(0, L - 8)), `snapshot header says ${L} bytes but the file has ${L - 8} (truncated?)`);
    await refuses(open(GOOD.slice(0, 1000)), `snapshot header says ${L} bytes but the file has 1000 (truncated?)`);
    const longer = new Uint8Array(L + 8);
    longer.set(GOOD);
    await refuses(open(longer), `snapshot header says ${L} bytes but the file has ${L + 8} (truncated?)`);
  });
});

describe("the table of contents", () => {
  it("refuses a flipped byte anywhere in the TOC", async () => {
    const toc = rawSections(GOOD);
    const positions = [
      HEADER,
      HEADER + 4,
      HEADER + 8,
      HEADER + 16,
      HEADER + 24,
      HEADER + ENTRY * 5 + 2,
      HEADER + ENTRY * toc.length - 1,
    ];
    for (const at of positions) await refuses(open(flip(GOOD, at)), "table of contents checksum mismatch");
  });

  /** A copy with TOC entry `tag` changed by `edit` and every checksum rewritten to match. */
  const editEntry = (tag: string, edit: (v: DataView, at: number) => void) => {
    const out = GOOD.slice();
    edit(new DataView(out.buffer), HEADER + rawSection(GOOD, tag).index * ENTRY);
    resealHeader(out);
    return out;
  };

  it("refuses entries that are misaligned, overlap the TOC, run past the end or repeat a tag", async () => {
    const type = rawSection(GOOD, "TYPE");
    await refuses(
      open(editEntry("TYPE", (v, at) => v.setBigUint64(at + 8, BigInt(type.offset + 4), true))),
      "section TYPE is not 8-byte aligned",
    );
    await refuses(
      open(editEntry("TYPE", (v, at) => v.setBigUint64(at + 8, 64n, true))),
      "section TYPE overlaps the table of contents",
    );
    await refuses(
      open(editEntry("TYPE", (v, at) => v.setBigUint64(at + 16, BigInt(GOOD.length), true))),
      "section TYPE runs past the end of the file",
    );
    const twice = editEntry("TYID", (v, at) => "TYPE".split("").forEach((c, k) => v.setUint8(at + k, c.charCodeAt(0))));
    await refuses(open(twice), "section TYPE appears twice in the table of contents");
  });

  it("refuses a required section it does not know, and skips an optional one", async () => {
    const extra = { tag: "ZZZZ", flags: 1, body: blockBody([new Uint32Array([1, 2, 3])]) };
    await refuses(
      open(assemble([...sectionSpecs(GOOD), extra])),
      "snapshot needs section ZZZZ, which this reader does not know; upgrade appstruct",
    );
    const optional = await open(assemble([...sectionSpecs(GOOD), { ...extra, flags: 0 }]));
    expect(await decodeSnapshotModel(optional)).toEqual(await decodeSnapshotModel(await open(GOOD)));
  });

  it("refuses a snapshot without META, and a read of a section the TOC does not list", async () => {
    await refuses(open(assemble(sectionSpecs(GOOD).filter((s) => s.tag !== "META"))), "snapshot has no META section");
    const noIndex = await open(assemble(sectionSpecs(GOOD).filter((s) => s.tag !== "XTAG")));
    await refuses(noIndex.section("XTAG"), "snapshot has no XTAG section");
    await expect(noIndex.section("XTYP")).resolves.toBeDefined();
  });
});

describe("section checksums", () => {
  it.each(TAGS)("refuses a flipped byte in %s when that section is read, and only then", async (tag) => {
    const s = rawSection(GOOD, tag);
    const broken = flip(GOOD, s.offset + Math.floor(s.length / 2));
    const snapshot = await sectionRefuses(broken, tag, `section ${tag} checksum mismatch`);
    // A failed read is not remembered as a success: asking again refuses again.
    await refuses(snapshot.section(tag), `section ${tag} checksum mismatch`);
    // Other sections still read. (LGRA needs TAXO; the column-keyed indexes need their text column.)
    const other: SectionTag = tag === "TYPE" ? "TYID" : "TYPE";
    await expect(snapshot.section(other)).resolves.toBeDefined();
  });

  it("refuses a flipped first or last byte of a section too", async () => {
    for (const tag of ["OBJC", "XTAG", "SFID"] as const) {
      const s = rawSection(GOOD, tag);
      await sectionRefuses(flip(GOOD, s.offset), tag, `section ${tag} checksum mismatch`);
      await sectionRefuses(flip(GOOD, s.offset + s.length - 1), tag, `section ${tag} checksum mismatch`);
    }
  });

  it("refuses a broken META on open", async () => {
    const meta = rawSection(GOOD, "META");
    await refuses(open(flip(GOOD, meta.offset + 10)), "section META checksum mismatch");
  });

  it("refuses the whole-model decode when any section it reads is broken", async () => {
    for (const tag of ["OBJC", "ROWD", "STAT", "LNKD", "TAXO", "SLCD", "SFID", "SFLD", "PSTI"] as const) {
      const s = rawSection(GOOD, tag);
      await refuses(decodeSnapshotModel(await open(flip(GOOD, s.offset + 8))), `section ${tag} checksum mismatch`);
    }
  });
});

describe("META with a valid checksum", () => {
  const replaceMeta = (text: string) =>
    assemble(sectionSpecs(GOOD).map((s) => (s.tag === "META" ? { ...s, body: new TextEncoder().encode(text) } : s)));
  const metaText = () => {
    const s = rawSection(GOOD, "META");
    return new TextDecoder().decode(GOOD.subarray(s.offset, s.offset + s.length));
  };

  it("refuses META that is not JSON, or not UTF-8", async () => {
    await refuses(open(replaceMeta("{not json")), "META section is not UTF-8 JSON");
    const specs = sectionSpecs(GOOD).map((s) =>
      s.tag === "META" ? { ...s, body: Uint8Array.from([0x7b, 0xff, 0x7d]) } : s,
    );
    await refuses(open(assemble(specs)), "META section is not UTF-8 JSON");
  });

  it("refuses META whose fields break the schema, naming the field", async () => {
    await refuses(
      open(replaceMeta(metaText().replace('"objects":13', '"objects":-1'))),
      /^META section is malformed: counts\.objects /,
    );
    await refuses(
      open(replaceMeta(metaText().replace('"levels":[2,4,4,4,5]', '"levels":[2,4,4,4]'))),
      /^META section is malformed: counts\.levels /,
    );
    await refuses(
      open(replaceMeta(metaText().replace('"statusBase":null', '"statusBase":"abc"'))),
      /^META section is malformed: statusBase /,
    );
  });
});

describe("out-of-range values behind valid checksums", () => {
  const cases: [string, SectionTag, (body: Uint8Array, view: DataView) => void, string][] = [
    [
      "a level-5 node ≥ the level-5 count",
      "OBJC",
      (b) => setU32(b, 1, 0, 5),
      "object level-5 nodes: value 5 at 0 is out of range (limit 5)",
    ],
    [
      "a level-2 parent ≥ the level-1 count",
      "TAXO",
      (b) => setU32(b, 14, 0, 2),
      "level 2 parents: value 2 at 0 is out of range (limit 2)",
    ],
    ["a level-1 node with a parent", "TAXO", (b) => setU32(b, 6, 1, 0), "a level-1 node has a parent"],
    [
      "level-5 object counts that do not add up to the object count",
      "TAXO",
      (b) => setU32(b, 39, 0, getU32(b, 39, 0) + 1),
      `level-5 nodes count ${N + 1} objects, META says ${N}`,
    ],
    [
      "a level-graph origin ≥ the level size",
      "LGRA",
      (b) => setU32(b, 8, 0, 5),
      "level 5 graph origins: value 5 at 0 is out of range (limit 5)",
    ],
    [
      "a level-graph target ≥ the level size",
      "LGRA",
      (b) => setU32(b, 1, 0, 2),
      "level 1 graph targets: value 2 at 0 is out of range (limit 2)",
    ],
    ["a served status code of 4", "STAT", (b) => (b[block(b, 4).offset + 6] = 4), "status code out of range at 6"],
    ["an explicit status code of 255", "STAT", (b) => (b[block(b, 3).offset] = 255), "status code out of range at 0"],
    [
      "a type code ≥ the dictionary size",
      "TYPE",
      (b) => setU32(b, 2, 0, 4),
      "dictionary column: value 4 at 0 is out of range (limit 4)",
    ],
    [
      "an annotation code ≥ the dictionary size",
      "ANNO",
      (b) => setU32(b, 3, 0, 99),
      `annotations: value 99 at 0 is out of range (limit ${ANNOTATIONS})`,
    ],
    [
      "a posting ≥ the object count",
      "XTYP",
      (b) => setU32(b, 3, 0, N),
      `search index postings: value ${N} at 0 is out of range (limit ${N})`,
    ],
    [
      "a reversed-order key index ≥ the key count",
      "XTAG",
      (b) => setU32(b, 4, 0, 7),
      `search index reversed order: value 7 at 0 is out of range (limit ${TAG_KEYS})`,
    ],
    [
      "a post-it offset past the post-its",
      "PSTI",
      (b) => setU32(b, 0, N, 2),
      "post-its: offsets do not span the 1 entries",
    ],
    [
      "more blocks than the section holds",
      "PSTI",
      (_b, v) => v.setUint32(0, 0xffffffff, true),
      "section PSTI declares 4294967295 blocks, more than it holds",
    ],
    [
      "a block offset that is not aligned",
      "PSTI",
      (_b, v) => v.setUint32(8 + 3 * 8, block(_b, 3).offset + 4, true),
      "section PSTI block 3 is not aligned",
    ],
    [
      "a block running past the section",
      "PSTI",
      (b, v) => v.setUint32(12 + 3 * 8, b.length, true),
      "section PSTI block 3 runs past the section end",
    ],
    [
      "a u32 block of a length that is not a multiple of 4",
      "PSTI",
      (_b, v) => v.setUint32(12 + 3 * 8, block(_b, 3).length - 2, true),
      "section PSTI block 3 is not a whole number of elements",
    ],
  ];

  it.each(cases)("refuses %s (%s)", async (_what, tag, mutate, message) => {
    const broken = patchSection(GOOD, tag, mutate);
    await sectionRefuses(broken, tag, message);
  });

  it("refuses them in the whole-model decode too", async () => {
    for (const [what, tag, mutate, message] of cases) {
      if (!MODEL_SECTIONS.has(tag)) continue;
      await refuses(decodeSnapshotModel(await open(patchSection(GOOD, tag, mutate))), message).catch((e: unknown) => {
        throw new Error(`${what}: ${String(e)}`);
      });
    }
  });

  it("refuses a string that is not valid UTF-8 when it is read", async () => {
    const broken = patchSection(GOOD, "TYPE", (b) => (b[block(b, 1).offset] = 0xff));
    const { dictionary } = await (await open(broken)).section("TYPE");
    expect(() => dictionary.get(0)).toThrow(CorruptSnapshotError);
    expect(() => dictionary.get(0)).toThrow("a string is not valid UTF-8");
    expect(dictionary.get(1)).toBe([...new Set(MODEL.objects.map((o) => o.type))].sort()[1]); // the others still read
    await refuses(decodeSnapshotModel(await open(broken)), "a string is not valid UTF-8");
    // A long (non-ASCII fast path) string with a truncated sequence.
    const long = patchSection(GOOD, "FPTH", (b) => (b[block(b, 1).offset + 3] = 0xe2));
    await refuses(decodeSnapshotModel(await open(long)), "a string is not valid UTF-8");
  });

  // OBJC takes N from its own block 0: it must be compared with META counts.objects, which every other
  // section is checked against, or a rank the other sections accept would index past OBJC's arrays.
  it("refuses an OBJC with fewer objects than META counts", async () => {
    const core = await (await open(GOOD)).section("OBJC");
    const keep = N - 1;
    const objc = blockBody([core.flags.slice(0, keep), core.level5.slice(0, keep)]);
    const broken = assemble(sectionSpecs(GOOD).map((s) => (s.tag === "OBJC" ? { ...s, body: objc } : s)));
    await sectionRefuses(broken, "OBJC", `OBJC holds ${keep} objects, META says ${N}`);
    await refuses(decodeSnapshotModel(await open(broken)), `OBJC holds ${keep} objects, META says ${N}`);
  });

  // OBJC block 1 is checked against META counts.levels[4]; TAXO must hold exactly that many level-5 nodes, or an
  // object could name a node that does not exist. (META says 9 here, TAXO has 5, and object 0 points at node 7.)
  it("refuses a level-5 node index that TAXO does not have, even when META counts allow it", async () => {
    const meta = patchSection(GOOD, "META", (b) => {
      const text = new TextDecoder().decode(b).replace('"levels":[2,4,4,4,5]', '"levels":[2,4,4,4,9]');
      b.set(new TextEncoder().encode(text));
    });
    const broken = patchSection(meta, "OBJC", (b) => setU32(b, 1, 0, 7));
    await sectionRefuses(broken, "TAXO", "level 5 holds 5 nodes, META says 9");
    await refuses(decodeSnapshotModel(await open(broken)), "level 5 holds 5 nodes, META says 9");
    // Any level whose size differs from META is refused.
    const level2 = patchSection(GOOD, "META", (b) => {
      const text = new TextDecoder().decode(b).replace('"levels":[2,4,4,4,5]', '"levels":[2,3,4,4,5]');
      b.set(new TextEncoder().encode(text));
    });
    await sectionRefuses(level2, "TAXO", "level 2 holds 4 nodes, META says 3");
  });

  it("refuses a section with more or fewer blocks than its layout", async () => {
    const psti = rawSection(GOOD, "PSTI");
    const body = GOOD.slice(psti.offset, psti.offset + psti.length);
    const blocks = Array.from({ length: 6 }, (_, i) =>
      body.slice(block(body, i).offset, block(body, i).offset + block(body, i).length),
    );
    const withBody = (b: Uint8Array) =>
      assemble(sectionSpecs(GOOD).map((s) => (s.tag === "PSTI" ? { ...s, body: b } : s)));
    expect(Buffer.from(withBody(blockBody(blocks))).equals(Buffer.from(GOOD))).toBe(true); // the rebuilt body is the original
    await sectionRefuses(
      withBody(blockBody([...blocks, new Uint8Array(8)])),
      "PSTI",
      "section PSTI has 7 blocks, expected 6",
    );
    await sectionRefuses(withBody(blockBody(blocks.slice(0, 5))), "PSTI", "section PSTI has 5 blocks, expected 6");
  });
});
