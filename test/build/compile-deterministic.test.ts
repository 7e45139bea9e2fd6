// @module Compiles are deterministic: the same analysis gives the same bytes every time, whether its pages are encoded on worker threads or on the compiling thread.
import { spawnSync } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { getPriority, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readAnalysis } from "../../build/analysis/read.ts";
import { buildModel } from "../../build/compile/build-model.ts";
import { compileAnalysis, compileAnalysisToFile, sha256Hex } from "../../build/compile/compile.ts";
import { PagePool } from "../../build/compile/page-pool.ts";
import { generateAnalysis } from "../../build/generate.ts";
import { MemorySink } from "../../src/format/container.ts";
import { encodeSnapshot, writeSnapshot } from "../../src/format/encode.ts";
import { countFlows, pointRoles } from "../../src/format/flow-points.ts";
import { indexKeys } from "../../src/format/key-indexes.ts";
import { DEFLATE, encodePages } from "../../src/format/page-codec.ts";
import { buildRowDictionary } from "../../src/format/row-codec.ts";

/** The niceness of each thread of this process: /proc/self/task/<id>/stat's field 19 (field 3 comes first after the command's closing parenthesis). */
async function threadNiceness(): Promise<number[]> {
  const tasks = await readdir("/proc/self/task");
  const stats = await Promise.all(
    tasks.map((task) => readFile(`/proc/self/task/${task}/stat`, "utf8").catch(() => null)),
  );
  return stats.flatMap((stat) => (stat === null ? [] : [Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16])]));
}

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

  it("writes the same bytes with its links grouped, its pages encoded, its flow points counted and its keys indexed on worker threads, ahead, as on the compiling thread", async () => {
    const model = buildModel(await readAnalysis(analysis), null);
    expect(model.objects.some((o) => o.role === "start") && model.objects.some((o) => o.role === "end")).toBe(true);
    expect(model.meta.counts.links).toBeGreaterThan(0);
    const pool = new PagePool(2);
    const sink = new MemorySink();
    try {
      const modelOnWorkers = buildModel(await readAnalysis(analysis), null, pool.groupCallees);
      expect(modelOnWorkers).toEqual(model);
      writeSnapshot(modelOnWorkers, sink, undefined, pool.threads);
    } finally {
      await pool.close();
    }
    expect(sha256Hex(sink.bytes())).toBe(sha256Hex(encodeSnapshot(model)));
  });
});

describe("PagePool", () => {
  it("gives each batch back deflated as encodePages does here, in the order given, across its workers", async () => {
    const pool = new PagePool(3);
    try {
      // Pages of different sizes and contents, so that a page out of place would show.
      const batches = Array.from({ length: 40 }, (_, b) =>
        Array.from({ length: 1 + (b % 5) }, (_, p) =>
          new TextEncoder().encode(`batch ${b} page ${p} `.repeat(20 + ((b * 7 + p) % 50))),
        ),
      );
      const results = batches.map((raws) => pool.encode(raws, DEFLATE));
      batches.forEach((raws, b) => expect(results[b]()).toEqual(encodePages(raws, DEFLATE)));
    } finally {
      await pool.close();
    }
  });

  it("counts the flows of the links it grouped as countFlows does here, between batches of pages, for that model alone", async () => {
    const here = buildModel(await readAnalysis(analysis), null);
    const pool = new PagePool(2);
    try {
      const pages = pool.encode([new TextEncoder().encode("a page ".repeat(100))], DEFLATE);
      const model = buildModel(await readAnalysis(analysis), null, pool.groupCallees);
      const counted = pool.countedFlows(model);
      expect(counted).toBeDefined();
      const flows = counted!();
      expect(flows).toEqual(countFlows(here.callees, pointRoles(here.objects)));
      expect(flows.starts.length).toBeGreaterThan(0);
      expect(flows.ends.length).toBeGreaterThan(0);
      // A graph of each point counted, not all left to the walks at each request.
      expect([...flows.startTotals, ...flows.endTotals].some((total) => total > 1)).toBe(true);
      // Another model's links were not grouped here: its flows are counted where it is encoded.
      expect(pool.countedFlows(here)).toBeUndefined();
      expect(pages()).toEqual(encodePages([new TextEncoder().encode("a page ".repeat(100))], DEFLATE));
    } finally {
      await pool.close();
    }
  });

  it.runIf(process.platform === "linux")(
    "runs its workers 10 above the compiling thread's niceness (Linux: a niceness per thread), up to the highest",
    async () => {
      const mine = getPriority();
      const before = (await threadNiceness()).filter((n) => n === Math.min(19, mine + 10)).length;
      const pool = new PagePool(2);
      try {
        // A reply from each worker: both have run their first lines.
        const batches = [0, 1].map((b) => pool.encode([new TextEncoder().encode(`page ${b} `.repeat(50))], DEFLATE));
        for (const batch of batches) batch();
        expect((await threadNiceness()).filter((n) => n === Math.min(19, mine + 10)).length - before).toBe(2);
        expect(getPriority()).toBe(mine);
      } finally {
        await pool.close();
      }
      // A compile already run nicely (`nice -n 15`): its workers go to the highest niceness, 19, not
      // back down to 10 (which would take a privilege elsewhere than here), and the compile goes on.
      // A script file, not --eval: a worker inherits the process's flags, --input-type among them.
      const script = join(folder, "nicely.mjs");
      await writeFile(
        script,
        `import { setPriority } from "node:os";
        import { readdirSync, readFileSync } from "node:fs";
        setPriority(15);
        const { PagePool } = await import(process.argv[2]);
        const pool = new PagePool(2);
        const batches = [0, 1].map((b) => pool.encode([new TextEncoder().encode("page ".repeat(50 + b))], { kind: "deflate" }));
        for (const batch of batches) batch();
        const niceness = readdirSync("/proc/self/task").map((task) => {
          const stat = readFileSync("/proc/self/task/" + task + "/stat", "utf8");
          return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
        });
        await pool.close();
        console.log(JSON.stringify(niceness));`,
      );
      const child = spawnSync(
        process.execPath,
        [script, pathToFileURL(join(import.meta.dirname, "../../build/compile/page-pool.ts")).href],
        { encoding: "utf8", timeout: 60_000 },
      );
      expect(child.stderr).toBe("");
      const niceness = JSON.parse(child.stdout) as number[];
      expect(niceness.filter((n) => n === 19)).toHaveLength(2);
      expect(niceness.filter((n) => n === 10)).toHaveLength(0);
    },
  );

  it("builds a field's trigram index and reversed order as indexKeys does here, between batches of pages", async () => {
    // Sorted distinct keys: shared prefixes and suffixes, keys of fewer than three units, and keys
    // beyond ASCII, whose trigrams are hashed.
    const keys = [
      "",
      "a",
      "ab",
      "abc",
      "getorder",
      "getorderline",
      "orderline",
      "setorder",
      "zürich",
      "東京駅",
      "東京駅前",
    ];
    const pool = new PagePool(2);
    try {
      const pages = pool.encode([new TextEncoder().encode("a page ".repeat(100))], DEFLATE);
      const indexes = [pool.indexKeys(keys), pool.indexKeys(keys.slice(3))];
      const here = indexKeys(keys);
      expect(indexes[0]()).toEqual(here);
      // The reversed order, worked by hand: "", "a", "ba", "cba", "enilredro", "enilredroteg",
      // "hcirüz", "redroteg", "redrotes", "前駅京東", "駅京東" (前 is U+524D, 駅 U+99C5).
      expect([...here.reversed]).toEqual([0, 1, 2, 3, 6, 5, 8, 4, 7, 10, 9]);
      expect(indexes[1]()).toEqual(indexKeys(keys.slice(3)));
      // Its worker ended with the last task taken: the next task starts another.
      expect(pool.indexKeys(["getorder"])()).toEqual(indexKeys(["getorder"]));
      expect(pages()).toEqual(encodePages([new TextEncoder().encode("a page ".repeat(100))], DEFLATE));
    } finally {
      await pool.close();
    }
  });

  it("codes row pages against the dictionary each batch names, as encodePages does here", async () => {
    const json = (b: number, r: number) =>
      new TextEncoder().encode(
        JSON.stringify([`${b}${r}`, `name${r}`, `com.example.batch${b % 3}.Type${r}`, "Java Class"]),
      );
    // A raw row page: each row's JSON length (one LEB128 byte each, rows being short), then the rows.
    const rawPage = (b: number, p: number) => {
      const rows = Array.from({ length: 1 + ((b + p) % 7) }, (_, r) => json(b, r + p));
      return Uint8Array.from([...rows.map((row) => row.length), ...rows.flatMap((row) => [...row])]);
    };
    const dictionaries = [0, 1].map((d) => buildRowDictionary([json(d, 1), json(d + 2, 2)], 256));
    const pool = new PagePool(2);
    try {
      // The dictionaries alternate between batches, so that a worker keeping the last one's encoder would show.
      const batches = Array.from({ length: 12 }, (_, b) =>
        Array.from({ length: 1 + (b % 4) }, (_, p) => rawPage(b, p)),
      );
      const codec = (b: number) => ({ kind: "rows", dictionary: dictionaries[b % 2] }) as const;
      const results = batches.map((raws, b) => pool.encode(raws, codec(b)));
      batches.forEach((raws, b) => expect(results[b]()).toEqual(encodePages(raws, codec(b))));
      expect(encodePages(batches[0], codec(0))).not.toEqual(encodePages(batches[0], codec(1)));
    } finally {
      await pool.close();
    }
  });
});
