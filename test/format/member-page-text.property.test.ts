// @module Member page text: a page goes into answers as stored, so the reader accepts exactly the JSON that JSON.stringify writes of an array of member summaries, and refuses any other text that passes its checksum, however often it is read.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Blocks, encodeBlocks } from "../../src/format/blocks.ts";
import { crc32 } from "../../src/format/crc32.ts";
import { CorruptSnapshotError } from "../../src/format/errors.ts";
import { deflatePage } from "../../src/format/inflate.ts";
import { jsonObjectsIn, objectStarts, stringFieldsObject } from "../../src/format/json-objects.ts";
import { MemberDirectory, type MemberSummary } from "../../src/format/member-pages.ts";

/** A directory of one node holding one page of `count` members whose text is `text`, with that page's stored bytes. */
function onePage(text: string, count: number): { directory: MemberDirectory; stored: Uint8Array } {
  const raw = new TextEncoder().encode(text);
  const stored = deflatePage(raw);
  const body = encodeBlocks([
    Uint32Array.of(0, 1),
    Uint32Array.of(0, stored.length),
    Uint32Array.of(crc32(stored)),
    Uint32Array.of(raw.length),
    Uint32Array.of(count),
  ]);
  return { directory: new MemberDirectory(new Blocks(body, "MEMD", 5), 1, count), stored };
}

const anyString = fc.string({ unit: "binary", maxLength: 12 });
const encoder = new TextEncoder();
const member: fc.Arbitrary<MemberSummary> = fc.record({
  id: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 64n - 1n }).map(String),
  name: anyString,
  fullName: anyString,
  type: anyString,
  typeId: anyString,
});
const members = fc.array(member, { minLength: 1, maxLength: 6 });

describe("member page text", () => {
  it("is accepted as JSON.stringify writes members, whatever their strings, and given back as it is (property)", () => {
    fc.assert(
      fc.property(members, (list) => {
        const text = JSON.stringify(list);
        const { directory, stored } = onePage(text, list.length);
        expect(new TextDecoder().decode(directory.pageJson(0, stored))).toBe(text);
        // Again, checked once already: the same text.
        expect(new TextDecoder().decode(directory.pageJson(0, stored))).toBe(text);
        expect(directory.decodePage(0, stored)).toEqual(list);
      }),
    );
  });

  const refused: [string, (text: string) => string][] = [
    ["whitespace after a comma", (t) => t.replace('","', '", "')],
    ["a field renamed", (t) => t.replace('"fullName":', '"fullname":')],
    ["fields in another order", (t) => t.replace(/\{"id":("[^"]*"),"name":("[^"]*")/, '{"name":$2,"id":$1')],
    ["a field more", (t) => t.replace(/\}\]$/, ',"x":""}]')],
    ["a field less", (t) => t.replace(/,"typeId":"[^"]*"\}\]$/, "}]")],
    ["an id that is not decimal", (t) => t.replace(/"id":"[^"]*"/, '"id":"0x1f"')],
    ["an id that is a number, not a string", (t) => t.replace(/"id":"([^"]*)"/, '"id":$1')],
    ["a raw control character in a string", (t) => t.replace('"name":"', '"name":"\u0001')],
    ["an escape JSON has not", (t) => t.replace('"name":"', '"name":"\\x41')],
    ["a trailing comma", (t) => t.replace(/\]$/, ",]")],
    ["text after the array", (t) => `${t} `],
    ["an object, not an array", (t) => t.slice(1, -1)],
    ["a string closed early", (t) => t.replace('"type":"', '"type":""')],
  ];

  it.each(refused)("is refused with %s, though its checksum holds", (_, damage) => {
    const list: MemberSummary[] = [
      { id: "12", name: "Owner", fullName: "org.Owner", type: "Java Class", typeId: "7" },
      { id: "-3", name: 'say "hi"', fullName: "a\\b", type: "", typeId: "" },
    ];
    const text = damage(JSON.stringify(list));
    expect(text).not.toBe(JSON.stringify(list));
    const { directory, stored } = onePage(text, list.length);
    const error = () => {
      try {
        directory.pageJson(0, stored);
      } catch (e) {
        return e;
      }
    };
    // Refused each time it is read: a page is taken as checked only once it passed.
    for (const refusal of [error(), error()]) {
      expect(refusal).toBeInstanceOf(CorruptSnapshotError);
      expect((refusal as Error).message).toMatch(
        /^member page 0 (is not a JSON array of \{id, name, fullName, type, typeId\} members|holds \d+ members, expected 2)$/,
      );
    }
  });

  it("is refused when a string spells a character otherwise than JSON.stringify does", () => {
    const object = stringFieldsObject(["id", "name", "fullName", "type", "typeId"]);
    const page = (name: string) => `[{"id":"1","name":"${name}","fullName":"f","type":"t","typeId":"1"}]`;
    // As JSON.stringify writes them: the short escapes, other controls in lower-case hex, a lone surrogate.
    for (const name of [
      String.raw`\f\b\t\n\r\"\\`,
      String.raw`\u0000\u000b\u001f`,
      String.raw`\ud800`,
      String.raw`\udc00x`,
      "/😀",
    ])
      expect(jsonObjectsIn(page(name), object)).toBe(1);
    // Other spellings of the same characters, which JSON.parse reads and JSON.stringify does not write.
    for (const name of [
      String.raw`\u000c`,
      String.raw`\u000a`,
      String.raw`\/`,
      String.raw`\u0041`,
      String.raw`\u001F`,
      String.raw`\ud83d\ude00`,
    ])
      expect(jsonObjectsIn(page(name), object)).toBe(-1);
  });

  it("is accepted exactly when JSON.parse reads members from it that JSON.stringify writes back the same, however it was damaged (property)", () => {
    const FIELDS = ["id", "name", "fullName", "type", "typeId"];
    /** The reference: what the text holds, read by JSON.parse and checked field by field. */
    const reference = (text: string): number => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return -1;
      }
      const shaped = (item: unknown) =>
        typeof item === "object" &&
        item !== null &&
        Object.keys(item).join() === FIELDS.join() &&
        Object.values(item).every((value) => typeof value === "string") &&
        /^-?[0-9]+$/.test((item as MemberSummary).id);
      return Array.isArray(parsed) && parsed.every(shaped) && JSON.stringify(parsed) === text ? parsed.length : -1;
    };
    const damage = fc.array(
      fc.record({
        at: fc.nat(),
        cut: fc.nat({ max: 2 }),
        put: fc.constantFrom("", '"', "\\", "\\u00", "\\n", "\u0001", "\u001f", ",", "}", "{", " ", "0", "é"),
      }),
      { maxLength: 3 },
    );
    const object = stringFieldsObject(FIELDS);
    fc.assert(
      fc.property(members, damage, (list, changes) => {
        let text = JSON.stringify(list);
        for (const { at, cut, put } of changes) {
          const i = at % (text.length + 1);
          text = text.slice(0, i) + put + text.slice(i + cut);
        }
        // As the reader sees a page: decoded from UTF-8, where a split surrogate pair is U+FFFD.
        text = new TextDecoder().decode(encoder.encode(text));
        expect(jsonObjectsIn(text, object)).toBe(reference(text));
      }),
      { numRuns: 2000 },
    );
  });

  it("is refused when it holds another number of members than its directory counts", () => {
    const text = JSON.stringify([{ id: "1", name: "a", fullName: "a", type: "t", typeId: "1" }]);
    const { directory, stored } = onePage(text, 2);
    expect(() => directory.pageJson(0, stored)).toThrow("member page 0 holds 1 members, expected 2");
  });

  it("read again, gives each member's start where the check found it, whatever its strings hold (property)", () => {
    // Strings holding what a boundary between two objects looks like, quotes and backslashes.
    const tricky = fc.oneof(
      anyString,
      fc
        .array(fc.constantFrom('},{"id":"1"', "},{", '"', "\\", '\\"', '{"id":', ","), { maxLength: 4 })
        .map((parts) => parts.join("")),
    );
    const page = fc.array(
      fc.record({ id: fc.nat().map(String), name: tricky, fullName: tricky, type: tricky, typeId: tricky }),
      { maxLength: 6 },
    );
    const MEMBER = stringFieldsObject(["id", "name", "fullName", "type", "typeId"]);
    fc.assert(
      fc.property(page, (list) => {
        const text = JSON.stringify(list);
        const starts: number[] = [];
        expect(jsonObjectsIn(text, MEMBER, starts)).toBe(list.length);
        // The same starts in UTF-8: each the bytes of the code units before it.
        const byteStarts = starts.map((at) => encoder.encode(text.slice(0, at)).length);
        expect(objectStarts(encoder.encode(text), "id")).toEqual(byteStarts);
      }),
      { numRuns: 500 },
    );
  });
});
