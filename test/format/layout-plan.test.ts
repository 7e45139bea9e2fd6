// @module LayoutPlan: each shared layout computed once for the sections encoded from it, released by the last of them, and a stepped one started ahead finished to the same value.
import { describe, expect, it } from "vitest";
import { compileDocument } from "../../build/compile/compile-document.ts";
import { LayoutPlan, Planned, SteppedPlanned } from "../../src/format/layout-plan.ts";
import { encodePages, type PageEncoder } from "../../src/format/page-codec.ts";
import { encodeSection, type SectionTag } from "../../src/format/sections.ts";
import { largeAnalysis } from "../support/large-analysis.ts";
import { rawSection } from "./snapshot-bytes.ts";

// Enough objects for several row pages, so that row pages are encoded in more than one step.
const { bytes, model } = compileDocument(largeAnalysis("Plan", "2026-01-01T00:00:00Z", 300));
const inFile = (tag: SectionTag) => {
  const s = rawSection(bytes, tag);
  return bytes.subarray(s.offset, s.offset + s.length);
};

describe("Planned", () => {
  it("computes its value on first use, keeps it, and computes it again once released", () => {
    let computed = 0;
    const planned = new Planned(() => ({ n: ++computed }));
    expect(computed).toBe(0);
    const first = planned.value;
    expect(planned.value).toBe(first);
    expect(computed).toBe(1);
    planned.release();
    expect(planned.value).toEqual({ n: 2 });
  });
});

describe("SteppedPlanned", () => {
  function* count(to: number, steps: { taken: number }): Generator<void, number[]> {
    const out: number[] = [];
    for (let i = 0; i < to; i++) {
      out.push(i);
      steps.taken++;
      yield;
    }
    return out;
  }

  it("finishes an encoding started ahead where it stopped, to the value it gives unstarted", () => {
    const steps = { taken: 0 };
    const planned = new SteppedPlanned(() => count(5, steps));
    const run = planned.start();
    run.step();
    run.step();
    expect(steps.taken).toBe(2);
    // start() again is the same run: nothing is encoded twice.
    expect(planned.start()).toBe(run);
    expect(planned.value).toEqual([0, 1, 2, 3, 4]);
    expect(steps.taken).toBe(5);
    expect(new SteppedPlanned(() => count(5, { taken: 0 })).value).toEqual(planned.value);
  });
});

describe("LayoutPlan", () => {
  it("shares a paged section's layout with its directory, which releases it", () => {
    const plan = new LayoutPlan(model);
    expect(encodeSection("ROWP", plan)).toEqual(inFile("ROWP"));
    const rows = plan.rowPages.value;
    expect(plan.rowPages.value).toBe(rows);
    expect(encodeSection("ROWD", plan)).toEqual(inFile("ROWD"));
    // Released: asked again, the pages are encoded anew (the same bytes, another object).
    expect(plan.rowPages.value).not.toBe(rows);
    expect(plan.rowPages.value.pages).toEqual(rows.pages);
  });

  it("keeps a field's grouped keys for its key pages and the key of each object, until its reversed order", () => {
    const plan = new LayoutPlan(model);
    const grouped = plan.grouped.KFUL.value;
    for (const tag of ["TFUL", "CFUL", "KFUL", "DFUL", "OFUL"] as const) {
      expect(encodeSection(tag, plan), tag).toEqual(inFile(tag));
      expect(plan.grouped.KFUL.value, tag).toBe(grouped);
    }
    expect(encodeSection("RFUL", plan)).toEqual(inFile("RFUL"));
    expect(plan.grouped.KFUL.value).not.toBe(grouped);
  });

  it("hands a search index's keys to its trigram index and the trigram blocks to their chunk directory, then drops them", () => {
    const plan = new LayoutPlan(model);
    expect(encodeSection("XTYP", plan)).toEqual(inFile("XTYP"));
    expect(plan.searchKeys.has("XTYP")).toBe(true);
    expect(encodeSection("TTYP", plan)).toEqual(inFile("TTYP"));
    expect(plan.searchKeys.has("XTYP")).toBe(false);
    expect(plan.trigramBlocks.has("XTYP")).toBe(true);
    expect(encodeSection("CTYP", plan)).toEqual(inFile("CTYP"));
    expect(plan.trigramBlocks.has("XTYP")).toBe(false);
    // Without them (a plan of its own), each encodes what it needs first.
    expect(encodeSection("CTYP", new LayoutPlan(model))).toEqual(inFile("CTYP"));
  });

  it("encodes row and member pages ahead only while its page encoder has room", () => {
    const batches: number[] = [];
    let room = 2;
    const encoder: PageEncoder = {
      encode: (raws, codec) => {
        batches.push(raws.length);
        const pages = encodePages(raws, codec);
        return () => pages;
      },
      hasRoom: () => room-- > 0,
    };
    const plan = new LayoutPlan(model, { pages: encoder });
    plan.encodeAhead()();
    const ahead = batches.length;
    expect(ahead).toBeGreaterThan(0);
    expect(encodeSection("ROWP", plan)).toEqual(inFile("ROWP"));
    expect(encodeSection("MEMP", plan)).toEqual(inFile("MEMP"));
    // An encoder without hasRoom (this thread's) is never run ahead.
    const here = new LayoutPlan(model);
    let started = false;
    here.rowPages.start = () => {
      started = true;
      throw new Error("started ahead");
    };
    here.encodeAhead()();
    expect(started).toBe(false);
  });
});
