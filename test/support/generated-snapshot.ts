// @module generatedSnapshot: the bytes of a snapshot compiled from `appstruct generate`'s synthetic analysis, for tests at scale.
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compileAnalysis } from "../../build/compile/compile.ts";
import { generateAnalysis } from "../../build/generate.ts";

/** Generates `objects` objects with `seed` into a temporary NDJSON file, compiles it, and removes the file. */
export async function generatedSnapshot(objects: number, seed: number): Promise<Uint8Array> {
  const folder = await mkdtemp(join(tmpdir(), "appstruct-generated-"));
  try {
    const path = join(folder, "gen.ndjson");
    const out = createWriteStream(path);
    await generateAnalysis(out, { objects, seed });
    await new Promise<void>((resolve, reject) =>
      out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
    return (await compileAnalysis(path, null)).bytes;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
