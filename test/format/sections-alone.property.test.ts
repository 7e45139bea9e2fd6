// @module The sections encoded from values a LayoutPlan shares (keys of a search index, trigram blocks, key pages) are the same bytes encoded alone, in any order, or within the whole file (property).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileDocument } from "../../build/compile/compile-document.ts";
import { LayoutPlan } from "../../src/format/layout-plan.ts";
import { encodeSection, SECTIONS, type SectionTag } from "../../src/format/sections.ts";
import { arbitraryAnalysis } from "../support/arbitrary-analysis.ts";
import { rawSection } from "./snapshot-bytes.ts";

/** The sections encoded from a field grouped once per plan (trigram index, chunks, key pages, their directory and reversed order), and a search index's. */
const SHARING: readonly SectionTag[] = [
  "TFUL",
  "CFUL",
  "KFUL",
  "DFUL",
  "OFUL",
  "RFUL",
  "TMNG",
  "CMNG",
  "KMNG",
  "DMNG",
  "OMNG",
  "RMNG",
  "TNAM",
  "CNAM",
  "KNAM",
  "DNAM",
  "RNAM",
  "XPST",
  "TPST",
  "CPST",
];

describe("sections sharing the values of a layout plan", () => {
  it("encode alone, in any order, to their bytes in the compiled file (property)", () => {
    fc.assert(
      fc.property(
        arbitraryAnalysis({ maxObjects: 30 }),
        fc.shuffledSubarray([...SHARING], { minLength: 1 }),
        (analysis, order) => {
          const { bytes, model } = compileDocument(analysis);
          const inFile = (tag: SectionTag) => {
            const s = rawSection(bytes, tag);
            return Buffer.from(bytes.subarray(s.offset, s.offset + s.length));
          };
          // One plan, its sections in a random order: a value released before a section needs it is computed again.
          const plan = new LayoutPlan(model);
          for (const tag of order) expect(Buffer.from(encodeSection(tag, plan)).equals(inFile(tag)), tag).toBe(true);
          // Each alone, on a plan of its own.
          for (const tag of order.slice(0, 3))
            expect(Buffer.from(encodeSection(tag, new LayoutPlan(model))).equals(inFile(tag)), tag).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
    expect(SHARING.every((tag) => tag in SECTIONS)).toBe(true);
  });
});
