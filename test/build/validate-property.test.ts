// @module Property test of validation: a random valid analysis with one rule broken is refused at the broken record, in .json and shuffled .ndjson, and compiles to no file.

import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Fault } from "../../build/analysis/faults.ts";
import { AnalysisRefused, formatFault } from "../../build/analysis/faults.ts";
import { readAnalysis } from "../../build/analysis/read.ts";
import { compileAnalysis, writeAtomically } from "../../build/compile/compile.ts";
import type { Analysis } from "../support/arbitrary-analysis.ts";
import { arbitraryAnalysis } from "../support/arbitrary-analysis.ts";

type ArrayName = "files" | "taxonomy" | "objects" | "links" | "postIts";
type Ref = [ArrayName, number];
type Rec = Record<string, unknown>;

const KINDS: [ArrayName, string][] = [
  ["files", "file"],
  ["taxonomy", "taxonomy"],
  ["objects", "object"],
  ["links", "link"],
  ["postIts", "postIt"],
];

/** What one mutation must produce. */
interface Expectation {
  /** The broken record; with two (a duplicate), the one later in the file is reported and names the earlier. */
  records: Ref[];
  field: string;
  /** The message when it is fully determined (the earlier record's location is filled in for duplicates). */
  message?: (earlier: string) => string;
  /** true when nothing else may be reported; false when the record is refused and references to it may dangle too. */
  only: boolean;
}

const MUTATIONS = [
  "danglingLinkFrom",
  "danglingLinkTo",
  "badObjectId",
  "duplicateObjectId",
  "badLevel5",
  "startLineAfterEndLine",
  "unknownFileId",
  "badLinkType",
  "danglingPostIt",
  "danglingParent",
  "badTaxonomyParent",
  "duplicateFileId",
] as const;
type Mutation = (typeof MUTATIONS)[number];

const records = (a: Analysis, array: ArrayName) => (a as unknown as Record<ArrayName, Rec[] | undefined>)[array]!;

function freshId(a: Analysis): string {
  const ids = new Set(a.objects.map((o) => o.id as string));
  for (let n = 7; ; n++) if (!ids.has(String(n))) return String(n);
}

/** Breaks one rule of `a` in place; `pick` and `variant` choose the record and the way. */
function mutate(a: Analysis, mutation: Mutation, pick: number, variant: number): Expectation {
  const objects = a.objects;
  const i = pick % objects.length;
  switch (mutation) {
    case "danglingLinkFrom":
    case "danglingLinkTo": {
      const end = mutation === "danglingLinkFrom" ? "from" : "to";
      if (a.links.length === 0)
        a.links.push({ from: objects[0].id as string, to: objects[i].id as string, type: "CALL" });
      const l = pick % a.links.length;
      const id = freshId(a);
      a.links[l][end] = id;
      return {
        records: [["links", l]],
        field: end,
        message: () => `refers to object "${id}", which the analysis does not define`,
        only: true,
      };
    }
    case "badObjectId": {
      const id = objects[i].id as string;
      const bad: unknown = [`0${id}`, `${id}x`, "1".repeat(20), "", Number(id), `-${id}`][variant % 6];
      objects[i].id = bad;
      return { records: [["objects", i]], field: "id", only: false };
    }
    case "duplicateObjectId": {
      const at = variant % (objects.length + 1);
      objects.splice(at, 0, { ...objects[i], name: "copy" });
      const original = at <= i ? i + 1 : i;
      return {
        records: [
          ["objects", original],
          ["objects", at],
        ],
        field: "id",
        message: (earlier) => `duplicates object id "${objects[at].id as string}" of ${earlier}`,
        only: true,
      };
    }
    case "badLevel5": {
      const choice = variant % 3;
      if (choice === 0) {
        delete objects[i].level5;
        return {
          records: [["objects", i]],
          field: "level5",
          message: () => "is required when the analysis has a taxonomy",
          only: true,
        };
      }
      if (choice === 1) {
        objects[i].level5 = "no-such-node";
        return {
          records: [["objects", i]],
          field: "level5",
          message: () => 'refers to taxonomy key "no-such-node", which the analysis does not define',
          only: true,
        };
      }
      const level = 1 + (variant % 4);
      objects[i].level5 = `L${level}-0`;
      return {
        records: [["objects", i]],
        field: "level5",
        message: () => `must be a level-5 node, but "L${level}-0" is at level ${level}`,
        only: true,
      };
    }
    case "startLineAfterEndLine": {
      if (a.files.length === 0) a.files.push({ id: "77", path: "src/77.java" });
      const start = 2 + (variant % 1000);
      objects[i].sourceLocations = [{ fileId: a.files[0].id, startLine: start, endLine: start - 1 }];
      return { records: [["objects", i]], field: "sourceLocations[0].endLine", only: false };
    }
    case "unknownFileId": {
      const fileId = String(100 + (variant % 1000));
      const loc = { fileId, startLine: 1, endLine: 1 };
      const before = ((objects[i].sourceLocations as Rec[] | undefined) ?? []).filter((l) =>
        a.files.some((f) => f.id === l.fileId),
      );
      objects[i].sourceLocations = [...before, loc];
      return {
        records: [["objects", i]],
        field: `sourceLocations[${before.length}].fileId`,
        message: () => `refers to file "${fileId}", which the analysis does not define in files`,
        only: true,
      };
    }
    case "badLinkType": {
      if (a.links.length === 0)
        a.links.push({ from: objects[0].id as string, to: objects[i].id as string, type: "CALL" });
      const l = pick % a.links.length;
      a.links[l].type = ["CALL ME", "A".repeat(65), "", "RELY-ON", "CALL\n"][variant % 5];
      return { records: [["links", l]], field: "type", only: true };
    }
    case "danglingPostIt": {
      if (a.postIts.length === 0) a.postIts.push({ object: objects[i].id as string, title: "t" });
      const p = pick % a.postIts.length;
      const id = freshId(a);
      a.postIts[p].object = id;
      return {
        records: [["postIts", p]],
        field: "object",
        message: () => `refers to object "${id}", which the analysis does not define`,
        only: true,
      };
    }
    case "danglingParent": {
      const id = freshId(a);
      objects[i].parent = id;
      return {
        records: [["objects", i]],
        field: "parent",
        message: () => `refers to object "${id}", which the analysis does not define`,
        only: true,
      };
    }
    case "badTaxonomyParent": {
      const nodes = a.taxonomy!;
      const t = pick % nodes.length;
      const node = nodes[t];
      if (node.level === 1) {
        node.parent = "L2-0";
        return {
          records: [["taxonomy", t]],
          field: "parent",
          message: () => 'must be null at level 1, found "L2-0"',
          only: true,
        };
      }
      if (variant % 2 === 0) {
        node.parent = null;
        return {
          records: [["taxonomy", t]],
          field: "parent",
          message: () => `must be the key of a level-${node.level - 1} node at level ${node.level}, found null`,
          only: true,
        };
      }
      const wrong = node.level === 5 ? 3 : 5;
      node.parent = `L${wrong}-0`;
      return {
        records: [["taxonomy", t]],
        field: "parent",
        message: () => `must be a node one level up (level ${node.level - 1}), but "L${wrong}-0" is at level ${wrong}`,
        only: true,
      };
    }
    case "duplicateFileId": {
      if (a.files.length === 0) a.files.push({ id: "77", path: "src/77.java" });
      const f = pick % a.files.length;
      a.files.push({ id: a.files[f].id, path: "other.java" });
      return {
        records: [
          ["files", f],
          ["files", a.files.length - 1],
        ],
        field: "id",
        message: (earlier) => `duplicates file id "${a.files[f].id}" of ${earlier}`,
        only: true,
      };
    }
  }
}

/** The analysis as NDJSON with its records in a shuffled order; returns the text and each record's line. */
function toNdjson(a: Analysis, shuffle: number[]): { text: string; lineOf: (ref: Ref) => number } {
  const entries: { ref: Ref; line: string }[] = [];
  for (const [array, kind] of KINDS)
    (records(a, array) ?? []).forEach((r, index) =>
      entries.push({ ref: [array, index], line: JSON.stringify({ kind, ...r }) }),
    );
  for (let k = entries.length - 1; k > 0; k--) {
    const j = shuffle[k % shuffle.length] % (k + 1);
    [entries[k], entries[j]] = [entries[j], entries[k]];
  }
  const header = { format: a.format, application: a.application, analyzedAt: a.analyzedAt };
  const lines = new Map(entries.map((e, position) => [e.ref.join(":"), position + 2]));
  return {
    text: `${[JSON.stringify(header), ...entries.map((e) => e.line)].join("\n")}\n`,
    lineOf: (ref) => lines.get(ref.join(":"))!,
  };
}

const ROOT = join(import.meta.dirname, "../..");

function cli(...args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, "build/bin/appstruct.js"), ...args], {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "appstruct-property-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("one broken rule in a valid analysis", () => {
  it("is refused at the broken record, and compiling it leaves no file", async () => {
    let run = 0;
    const seen = new Set<Mutation>();
    await fc.assert(
      fc.asyncProperty(
        arbitraryAnalysis({ withTaxonomy: true }).filter((a) => a.objects.length > 0),
        fc.constantFrom(...MUTATIONS),
        fc.nat(),
        fc.nat(),
        fc.constantFrom("json" as const, "ndjson" as const),
        fc.array(fc.nat(), { minLength: 1, maxLength: 16 }),
        async (analysis, mutation, pick, variant, encoding, shuffle) => {
          const a = structuredClone(analysis);
          const folder = join(dir, `run-${run++}`);
          await mkdir(folder);
          const input = join(folder, `analysis.${encoding}`);

          // The unmutated analysis is valid in this encoding.
          const valid = encoding === "json" ? JSON.stringify(a) : toNdjson(a, shuffle).text;
          await writeFile(input, valid);
          await readAnalysis(input);

          const expected = mutate(a, mutation, pick, variant);
          seen.add(mutation);
          let where: (ref: Ref) => string;
          let order: (ref: Ref) => number;
          if (encoding === "json") {
            await writeFile(input, JSON.stringify(a));
            where = ([array, index]) => `${array}[${index}]`;
            order = ([, index]) => index;
          } else {
            const nd = toNdjson(a, shuffle);
            await writeFile(input, nd.text);
            where = (ref) => `line ${nd.lineOf(ref)}`;
            order = nd.lineOf;
          }
          const [reported, earlier] =
            expected.records.length === 1
              ? [expected.records[0], expected.records[0]]
              : [...expected.records].sort((x, y) => order(y) - order(x));

          let faults: Fault[] = [];
          let total = 0;
          try {
            await readAnalysis(input);
          } catch (error) {
            if (!(error instanceof AnalysisRefused)) throw error;
            faults = error.faults.faults;
            total = error.faults.total;
          }
          const hit = faults.find((f) => f.at === where(reported) && f.field === expected.field);
          expect(
            hit,
            `${mutation}: expected a fault at ${where(reported)} ${expected.field}, got ${JSON.stringify(faults)}`,
          ).toBeDefined();
          if (expected.message) expect(hit!.message).toBe(expected.message(where(earlier)));
          if (expected.only) expect(faults).toEqual([hit]);
          else
            for (const f of faults)
              if (f !== hit) {
                // Only references to the refused record may dangle as a consequence.
                expect(["from", "to", "object", "parent"]).toContain(f.field);
                expect(f.message).toMatch(
                  /(, whose record \((objects\[\d+\]|line \d+)\) is invalid|, which the analysis does not define)$/,
                );
              }
          expect(total).toBe(faults.length);

          const out = join(folder, "out.snap");
          await expect(compileAnalysis(input, null).then((c) => writeAtomically(out, c.bytes))).rejects.toBeInstanceOf(
            AnalysisRefused,
          );
          expect(await readdir(folder)).toEqual([`analysis.${encoding}`]);

          if (run <= 6) {
            const result = await cli("compile", input, "-o", out);
            expect(result.code).toBe(1);
            expect(result.stderr).toContain(`${input}: ${formatFault(hit!)}\n`);
            expect(await readdir(folder)).toEqual([`analysis.${encoding}`]);
          }
        },
      ),
      { numRuns: 50 },
    );
    expect(run).toBe(50);
    expect(seen.size).toBeGreaterThan(6);
  });
});
