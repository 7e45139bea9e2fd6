// @module Compiles are deterministic: the same analysis gives the same bytes every time, whether its pages are deflated on worker threads or on the compiling thread.
import { createWriteStream } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readAnalysis } from "../../build/analysis/read.ts";
import { buildModel } from "../../build/compile/build-model.ts";
import { compileAnalysis, compileAnalysisToFile, sha256Hex } from "../../build/compile/compile.ts";
import { DeflatePool } from "../../build/compile/deflate-pool.ts";
import { generateAnalysis } from "../../build/generate.ts";
import { MemorySink } from "../../src/format/container.ts";
import { encodeSnapshot, writeSnapshot } from "../../src/format/encode.ts";
import { deflatePage } from "../../src/format/inflate.ts";

let folder: string;
let analysis: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "appstruct-deterministic-"));
  analysis = join(folder, "gen.ndjson");
  const out = createWriteStream(analysis);
  // Enough objects for some hundred row pages: many batches, spread over the workers.
  await generateAnalysis(out, { objects: 4000, seed: 7 });
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
});

afterAll(() => rm(folder, { recursive: true, force: true }));

describe("compile", () => {
  it("writes the same bytes twice", async () => {
    const first = await compileAnalysisToFile(analysis, join(folder, "a.snap"), null);
    const second = await compileAnalysisToFile(analysis, join(folder, "b.snap"), null);
    expect(second.sha256).toBe(first.sha256);
    expect(sha256Hex(new Uint8Array(await readFile(join(folder, "b.snap"))))).toBe(first.sha256);
    expect((await compileAnalysis(analysis, null)).sha256).toBe(first.sha256);
  });

  it("writes the same bytes with its pages deflated on worker threads, encoded ahead, as on the compiling thread", async () => {
    const model = buildModel(await readAnalysis(analysis), null);
    const pool = new DeflatePool(2);
    const sink = new MemorySink();
    try {
      writeSnapshot(model, sink, undefined, pool);
    } finally {
      await pool.close();
    }
    expect(sha256Hex(sink.bytes())).toBe(sha256Hex(encodeSnapshot(model)));
  });
});

describe("DeflatePool", () => {
  it("gives each batch back deflated as deflatePage does, in the order given, across its workers", async () => {
    const pool = new DeflatePool(3);
    try {
      // Pages of different sizes and contents, so that a page out of place would show.
      const batches = Array.from({ length: 40 }, (_, b) =>
        Array.from({ length: 1 + (b % 5) }, (_, p) =>
          new TextEncoder().encode(`batch ${b} page ${p} `.repeat(20 + ((b * 7 + p) % 50))),
        ),
      );
      const results = batches.map((raws) => pool.deflate(raws));
      batches.forEach((raws, b) => expect(results[b]()).toEqual(raws.map(deflatePage)));
    } finally {
      await pool.close();
    }
  });
});
