// @module Load check (docs/load.md): 30 s of autocannon against `wrangler dev` on 127.0.0.1 while a second version is published; every answer must be v1's or v2's.
//
// npx node scripts/load.ts [--duration 30] [--connections 50] [--objects 20000] [--publish-at 10] [--keep]
//
// Everything lives in a fresh temporary folder: the generated analyses, wrangler's persistence
// (`wrangler dev --persist-to <tmp>/work/state`, published into through wrangler's platform proxy
// exactly as build/store.ts does for `.wrangler/state/v3`), wrangler's log and the report
// `<tmp>/load.json`. Only 127.0.0.1 is ever contacted. See docs/load.md.
import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { compileAnalysis, loadStatusBase } from "../build/compile/compile.ts";
import { publishFiles } from "../build/publish.ts";
import { openLocalStoreAt, PROJECT_ROOT } from "../build/store.ts";
import { createApp } from "../src/app.ts";
import { memorySource, Snapshot } from "../src/format/snapshot.ts";
import { findObjects } from "../src/query/find-objects.ts";
import { SnapshotSourceLocator } from "../src/query/source-locator.ts";
import { type Catalog, SnapshotCache, type Version } from "../src/storage/catalog.ts";

const HOST = "127.0.0.1";
const APPLICATION = "Synthetic Enterprise";
/** A whole run never takes longer than this: past it everything is stopped and the run fails. */
const WATCHDOG_MS = 10 * 60_000;
/** Every SAMPLE_EVERY-th autocannon response is checked against the expected answers. */
const SAMPLE_EVERY = 50;
/** Upper bounds on request counts, whatever the duration. */
const MAX_LOAD_REQUESTS = 500_000;
const MAX_SAMPLER_REQUESTS = 50_000;
/**
 * Environment of every child: no metrics, and no fetch of the `Request.cf` placeholder from
 * Cloudflare's site at workerd start (miniflare's CLOUDFLARE_CF_FETCH_ENABLED), so nothing leaves
 * the machine; the banner (and its update check against the npm registry) is hidden too.
 */
const childEnv = {
  ...process.env,
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_HIDE_BANNER: "true",
};

/* ------------------------------------------------------------------ child mode: publish into a persistence folder */

/**
 * `--publish-into <state>/v3 <file>`: what `appstruct publish --local` does, but into another
 * wrangler persistence folder. Runs in its own process so compiling does not stall the load
 * generator's event loop.
 */
async function publishInto(persistPath: string, files: string[]): Promise<void> {
  const opened = await openLocalStoreAt(persistPath);
  try {
    const results = await publishFiles(opened.store, files, (line) => process.stderr.write(`${line}\n`));
    process.stdout.write(
      `${JSON.stringify(results.map((r) => ({ outcome: r.outcome, sha256: r.version.sha256, analyzedAt: r.version.analyzedAt })))}\n`,
    );
  } finally {
    await opened.close();
  }
}

/* ------------------------------------------------------------------ autocannon (untyped CommonJS) */

interface CannonRequest {
  method: string;
  path?: string;
  setupRequest?: (request: CannonRequest, context: Record<string, unknown>) => CannonRequest;
  onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
}
interface CannonHistogram {
  average: number;
  mean: number;
  stddev: number;
  min: number;
  max: number;
  p50: number;
  p90: number;
  p99: number;
  p99_9: number;
  total: number;
}
interface CannonResult {
  latency: CannonHistogram;
  requests: CannonHistogram;
  throughput: CannonHistogram;
  duration: number;
  errors: number;
  timeouts: number;
  resets: number;
  non2xx: number;
  statusCodeStats: Record<string, { count: number }>;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  timeout: number;
  maxOverallRequests: number;
  requests: CannonRequest[];
}) => Promise<CannonResult>;

/* ------------------------------------------------------------------ helpers */

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, HOST, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function run(command: string, args: string[], options: { quiet?: boolean } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: PROJECT_ROOT, stdio: ["ignore", "pipe", "pipe"], env: childEnv });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d));
    child.stderr.on("data", (d: Buffer) => (err += d));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (!options.quiet && err.trim()) process.stderr.write(err.replace(/^(?=.)/gm, "  | "));
      if (code === 0) resolve(out);
      else
        reject(
          new Error(`${command} ${args.join(" ")} exited ${code}: ${err.trim().split("\n").slice(-5).join("\n")}`),
        );
    });
  });
}

/** v2: v1 analyzed a month later with ~2% of objects renamed, ~3% with a new checksum and ~8% of links gone. */
async function deriveSecondVersion(
  v1Path: string,
  v2Path: string,
): Promise<{ renamed: string[]; modified: number; droppedLinks: number }> {
  const lines = (await readFile(v1Path, "utf8")).split("\n");
  const out: string[] = [];
  const renamed: string[] = [];
  let modified = 0;
  let droppedLinks = 0;
  for (const [i, line] of lines.entries()) {
    if (!line) continue;
    const record = JSON.parse(line);
    if (i === 0) record.analyzedAt = "2026-02-01T00:00:00Z";
    else if (record.kind === "object") {
      const h = hash(`object:${record.id}`) % 1000;
      if (h < 20) {
        const name = `Legacy${record.name.charAt(0).toUpperCase()}${record.name.slice(1)}`;
        if (typeof record.fullName === "string" && record.fullName.endsWith(record.name))
          record.fullName = record.fullName.slice(0, -record.name.length) + name;
        record.name = name;
        renamed.push(record.id);
      } else if (h < 50 && typeof record.checksum === "string") {
        record.checksum = [...record.checksum].reverse().join("");
        modified++;
      }
    } else if (record.kind === "link" && hash(`link:${record.from}>${record.to}`) % 12 === 0) {
      droppedLinks++;
      continue;
    }
    out.push(JSON.stringify(record));
  }
  await writeFile(v2Path, `${out.join("\n")}\n`);
  return { renamed, modified, droppedLinks };
}

/** An in-memory catalog over compiled snapshots: the reference the served answers are compared with. */
function memoryCatalog(
  compiled: { bytes: Uint8Array; sha256: string; analyzedAt: string; analyzedAtMs: number }[],
): Catalog {
  const versions: Version[] = compiled.map((c) => ({
    sha256: c.sha256,
    analyzedAt: c.analyzedAt,
    analyzedAtMs: c.analyzedAtMs,
    size: c.bytes.length,
  }));
  const bytes = new Map(compiled.map((c) => [c.sha256, c.bytes]));
  const cache = new SnapshotCache(Number.POSITIVE_INFINITY);
  return {
    applications: async () => [APPLICATION],
    versions: async (application) => (application === APPLICATION ? versions : null),
    open: (version) =>
      cache.get(version.sha256, () => Snapshot.open(memorySource(bytes.get(version.sha256)!, version.sha256))),
  };
}

function referenceApp(catalog: Catalog) {
  const deps = { catalog, sources: new SnapshotSourceLocator(catalog), access: null, rateLimit: null };
  return createApp(() => deps);
}

interface MixEntry {
  kind: string;
  path: string;
}

/** The request mix: paths picked from v1 by the query engine itself, weighted by repetition. */
async function buildMix(
  v1Path: string,
  snapshot: Snapshot,
  renamed: string[],
): Promise<{ unique: MixEntry[]; sequence: MixEntry[] }> {
  const base = `/rest/applications/${encodeURIComponent(APPLICATION)}`;
  const objects: { id: string; name: string; type: string; external?: boolean }[] = [];
  const outDegree = new Map<string, number>();
  for (const line of (await readFile(v1Path, "utf8")).split("\n")) {
    if (line.startsWith('{"kind":"object"')) objects.push(JSON.parse(line));
    else if (line.startsWith('{"kind":"link"')) {
      const from = JSON.parse(line).from as string;
      outDegree.set(from, (outDegree.get(from) ?? 0) + 1);
    }
  }
  const total = async (
    filters: Record<string, string[]>,
    operator: "contains" | "equals" | "startswith" | "endswith" = "contains",
  ) => (await findObjects(snapshot, { filters, operator, searchtype: "all", skip: 0, limit: 0 })).totalObjects;
  const q = (params: Record<string, string | number>) =>
    Object.entries(params)
      .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
      .join("&");
  const stride = <T>(list: T[], n: number) =>
    Array.from(
      { length: Math.min(n, list.length) },
      (_, i) => list[Math.floor((i * list.length) / Math.min(n, list.length))],
    );

  // Name words by how many objects carry them; rare and common substrings are checked with the engine.
  const words = new Map<string, number>();
  for (const o of objects)
    for (const w of new Set(
      o.name
        .split(/(?=[A-Z])|_/)
        .map((s) => s.toLowerCase())
        .filter((s) => s.length >= 5),
    ))
      words.set(w, (words.get(w) ?? 0) + 1);
  const byCount = [...words.entries()].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1));
  // Half of the rare words are taken from objects v2 renames, so that their answers differ.
  const renamedWords = new Set(
    objects
      .filter((o) => renamed.includes(o.id))
      .flatMap((o) => o.name.split(/(?=[A-Z])|_/).map((s) => s.toLowerCase())),
  );
  const rare: string[] = [];
  for (const [w] of byCount) {
    if (rare.length >= 5) break;
    if (!renamedWords.has(w)) continue;
    const n = await total({ name: [w] });
    if (n >= 1 && n <= 5) rare.push(w);
  }
  for (const [w] of byCount) {
    if (rare.length >= 10) break;
    if (hash(w) % 7 !== 0 || rare.includes(w)) continue;
    const n = await total({ name: [w] });
    if (n >= 1 && n <= 5) rare.push(w);
  }
  const common = ["get", "find", "dto", "repository", "invoice", "order"];

  const find: MixEntry[] = [];
  const add = (list: MixEntry[], kind: string, path: string) => list.push({ kind, path });
  for (const w of rare) add(find, "find-rare", `${base}/objects?${q({ limit: 50, name: w })}`);
  for (const w of common) add(find, "find-common", `${base}/objects?${q({ limit: 50, name: w })}`);
  add(find, "find-common", `${base}/objects?${q({ limit: 100, type: "Java Method", name: "find" })}`);
  const named = stride(
    objects.filter((o) => o.type === "Java Class" || o.type === "Java Method" || o.type === "Oracle Table"),
    8,
  );
  for (const o of [...named, ...objects.filter((o) => renamed.includes(o.id)).slice(0, 3)])
    add(find, "find-equals", `${base}/objects?${q({ limit: 20, name: o.name, operator: "equals" })}`);
  for (const o of stride(
    objects.filter((o) => o.type === "Java Class"),
    6,
  ))
    add(
      find,
      "find-startswith",
      `${base}/objects?${q({ limit: 50, name: o.name.slice(0, 5), operator: "startswith" })}`,
    );
  for (const suffix of ["Repository", "Dto", "Service", "Action", "_ID"])
    if ((await total({ name: [suffix] }, "endswith")) > 0)
      add(find, "find-endswith", `${base}/objects?${q({ limit: 50, name: suffix, operator: "endswith" })}`);
  add(find, "find-deep-skip", `${base}/objects?${q({ limit: 100, skip: 15000 })}`);
  add(find, "find-deep-skip", `${base}/objects?${q({ limit: 50, skip: objects.length - 50 })}`);
  const gets = await total({ name: ["get"] });
  add(find, "find-deep-skip", `${base}/objects?${q({ limit: 100, name: "get", skip: Math.max(0, gets - 100) })}`);
  add(find, "find-deep-skip", `${base}/objects?${q({ limit: 100, type: "Java Method", skip: 8000 })}`);
  add(find, "find-other", `${base}/objects?${q({ limit: 50, annotation: "@Transactional" })}`);
  add(find, "find-other", `${base}/objects?${q({ limit: 50, filepath: "billing" })}`);
  add(find, "find-other", `${base}/objects?${q({ limit: 100, searchtype: "external" })}`);
  add(find, "find-other", `${base}/objects?${q({ limit: 20, fullname: "com.acme.billing", operator: "startswith" })}`);
  add(find, "find-other", `${base}/objects?${q({ limit: 10, "post-it": "legacy" })}`);
  add(find, "find-other", `${base}/objects?${q({ limit: 20, name: "invoice", select: "source-locations" })}`);

  const internal = objects.filter((o) => !o.external);
  const callers = internal.filter((o) => (outDegree.get(o.id) ?? 0) >= 2).sort((a, b) => hash(a.id) - hash(b.id));
  const hub = [...outDegree.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0][0];
  const characteristics: MixEntry[] = [];
  for (const o of [...stride(internal, 16), ...objects.filter((o) => renamed.includes(o.id)).slice(0, 4)])
    add(characteristics, "characteristics", `${base}/objects/${o.id}`);
  add(characteristics, "characteristics", `${base}/objects/${internal[7].id}?select=source-locations`);
  const callees: MixEntry[] = [];
  for (const o of callers.slice(0, 16)) add(callees, "callees", `${base}/objects/${o.id}/callees`);
  add(callees, "callees", `${base}/objects/${hub}/callees`);
  add(callees, "callees", `${base}/objects/${callers[20].id}/callees?select=parent`);
  add(callees, "callees", `${base}/objects/${callers[21].id}/callees?includeEscalated=true`);
  add(callees, "callees", `${base}/objects/${callers[22].id}/callees?select=parent&select=source-locations`);
  const hops1: MixEntry[] = [];
  const hops3: MixEntry[] = [];
  for (const o of callers.slice(30, 46)) add(hops1, "points-hops-1", `${base}/objects/${o.id}/start-end-points?hops=1`);
  for (const o of callers.slice(50, 62)) add(hops3, "points-hops-3", `${base}/objects/${o.id}/start-end-points?hops=3`);
  const graph: MixEntry[] = [];
  for (let level = 1; level <= 5; level++) add(graph, "level-graph", `${base}/levels/${level}/graph`);
  const nodes: MixEntry[] = [];
  for (const [level, name] of [
    [2, "Services"],
    [3, "Billing"],
    [3, "a"],
    [4, "Java"],
    [4, "SQL"],
    [5, "JSP Fragment"],
    [5, "View"],
    [5, "Interface"],
  ] as const)
    add(nodes, "level-nodes", `${base}/levels/${level}/nodes?${q({ name, select: "children" })}`);
  add(nodes, "level-nodes", `${base}/levels/3/nodes?_id=2&select=children`);

  // Weights (share of the load): find 40%, characteristics 15%, callees 15%, hops 1 10%, hops 3 5%, graph 5%, nodes 10%.
  const groups: [MixEntry[], number][] = [
    [find, 40],
    [characteristics, 15],
    [callees, 15],
    [hops1, 10],
    [hops3, 5],
    [graph, 5],
    [nodes, 10],
  ];
  const sequence: MixEntry[] = [];
  const cursor = groups.map(() => 0);
  for (let i = 0; i < 1000; i++) {
    // Deterministic weighted interleaving: the group most behind its share goes next.
    let best = 0;
    let worst = Number.POSITIVE_INFINITY;
    groups.forEach(([, weight], g) => {
      const lead = cursor[g] / weight;
      if (lead < worst) [worst, best] = [lead, g];
    });
    const [list] = groups[best];
    sequence.push(list[cursor[best]++ % list.length]);
  }
  const unique = [...new Map(groups.flatMap(([list]) => list).map((e) => [e.path, e])).values()];
  return { unique, sequence };
}

function tail(text: string, lines: number): string {
  return text.trim().split("\n").slice(-lines).join("\n");
}

/* ------------------------------------------------------------------ main */

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      duration: { type: "string", default: "30" },
      connections: { type: "string", default: "50" },
      objects: { type: "string", default: "20000" },
      "publish-at": { type: "string", default: "10" },
      keep: { type: "boolean", default: false },
    },
  });
  const duration = Number(values.duration);
  const connections = Number(values.connections);
  const publishAt = Number(values["publish-at"]);
  if (
    !(
      duration > 0 &&
      duration <= 300 &&
      connections >= 1 &&
      connections <= 500 &&
      publishAt >= 0 &&
      publishAt < duration
    )
  )
    throw new Error("--duration must be in (0, 300] s, --connections in [1, 500], --publish-at within the duration");

  const root = await mkdtemp(join(tmpdir(), "appstruct-load-"));
  const work = join(root, "work");
  const state = join(work, "state");
  await mkdir(work);
  const reportPath = join(root, "load.json");
  const wranglerLog = join(root, "wrangler.log");
  const v1Path = join(work, "v1.ndjson");
  const v2Path = join(work, "v2.ndjson");
  const cli = join(PROJECT_ROOT, "build", "bin", "appstruct.js");
  const started = Date.now();
  const elapsed = () => ((Date.now() - started) / 1000).toFixed(1);
  const log = (line: string) => console.log(`[load ${elapsed()}s] ${line}`);

  const children = new Set<ChildProcess>();
  let wrangler: ChildProcess | null = null;
  let wranglerExited = false;
  const stopGroup = async (child: ChildProcess) => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      return;
    }
    if (await Promise.race([exited.then(() => true), sleep(5000).then(() => false)])) return;
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {}
    await Promise.race([exited, sleep(2000)]);
  };
  let cleaned = false;
  const cleanup = async () => {
    if (cleaned) return;
    cleaned = true;
    for (const child of children) await stopGroup(child);
    if (!values.keep) await rm(work, { recursive: true, force: true });
  };
  const onSignal = (signal: NodeJS.Signals) => {
    log(`${signal}: stopping`);
    void cleanup().then(() => process.exit(130));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const watchdog = setTimeout(() => {
    log(`watchdog: still running after ${WATCHDOG_MS / 1000} s, stopping`);
    void cleanup().then(() => process.exit(3));
  }, WATCHDOG_MS);
  watchdog.unref();

  /** Runs a child in its own process group, so stopping it stops everything it started. */
  const runGrouped = (args: string[], onOutput: (chunk: string) => void) => {
    const child = spawn(process.execPath, args, {
      cwd: PROJECT_ROOT,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: childEnv,
    });
    children.add(child);
    child.stdout!.on("data", (d: Buffer) => onOutput(d.toString()));
    child.stderr!.on("data", (d: Buffer) => onOutput(d.toString()));
    return child;
  };
  const publish = (file: string) =>
    new Promise<{ outcome: string; sha256: string }[]>((resolve, reject) => {
      let out = "";
      let err = "";
      const child = spawn(
        process.execPath,
        [join(PROJECT_ROOT, "scripts", "load.ts"), "--publish-into", join(state, "v3"), file],
        {
          cwd: PROJECT_ROOT,
          detached: true,
          stdio: ["ignore", "pipe", "pipe"],
          env: childEnv,
        },
      );
      children.add(child);
      child.stdout.on("data", (d: Buffer) => (out += d));
      child.stderr.on("data", (d: Buffer) => (err += d));
      child.on("error", reject);
      child.on("exit", (code) => {
        children.delete(child);
        if (code === 0) resolve(JSON.parse(tail(out, 1)));
        else reject(new Error(`publishing ${file} failed (exit ${code}): ${tail(err, 8)}`));
      });
    });

  try {
    /* 1. data */
    log(`working in ${root}`);
    await run(process.execPath, [cli, "generate", "--objects", values.objects, "--seed", "7", "-o", v1Path], {
      quiet: true,
    });
    const changes = await deriveSecondVersion(v1Path, v2Path);
    log(
      `generated v1 (${values.objects} objects, seed 7) and v2: ${changes.renamed.length} objects renamed, ${changes.modified} checksums changed, ${changes.droppedLinks} links dropped`,
    );
    const v1 = await compileAnalysis(v1Path, null);
    const v2 = await compileAnalysis(v2Path, await loadStatusBase(v1.bytes));
    const entry = (c: typeof v1) => ({
      bytes: c.bytes,
      sha256: c.sha256,
      analyzedAt: c.meta.analyzedAt,
      analyzedAtMs: c.meta.analyzedAtMs,
    });
    const refV1 = referenceApp(memoryCatalog([entry(v1)]));
    const refV2 = referenceApp(memoryCatalog([entry(v1), entry(v2)]));
    const { unique, sequence } = await buildMix(
      v1Path,
      await Snapshot.open(memorySource(v1.bytes, v1.sha256)),
      changes.renamed,
    );

    const expected = new Map<string, { kind: string; v1: string; v2: string }>();
    for (const e of unique) {
      const answers = [];
      for (const app of [refV1, refV2]) {
        const response = await app.fetch(new Request(`http://${HOST}${e.path}`));
        const body = await response.text();
        if (response.status !== 200)
          throw new Error(`the reference answers ${response.status} to ${e.path}: ${body.slice(0, 300)}`);
        answers.push(body);
      }
      expected.set(e.path, { kind: e.kind, v1: answers[0], v2: answers[1] });
    }
    const distinguishing = [...expected.values()].filter((x) => x.v1 !== x.v2).length;
    const kinds = [...new Set(unique.map((e) => e.kind))];
    const byKind = Object.fromEntries(
      kinds.map((k) => {
        const of = [...expected.values()].filter((x) => x.kind === k);
        return [
          k,
          {
            paths: of.length,
            differing: of.filter((x) => x.v1 !== x.v2).length,
            share: sequence.filter((e) => e.kind === k).length / sequence.length,
          },
        ];
      }),
    );
    log(`request mix: ${unique.length} distinct paths; ${distinguishing} answer differently in v1 and v2`);
    for (const [k, v] of Object.entries(byKind))
      log(
        `  ${k.padEnd(16)} ${String(v.paths).padStart(3)} paths, ${String(v.differing).padStart(3)} differ, ${(v.share * 100).toFixed(1)}% of requests`,
      );

    /* publish v1 into our own persistence, then start wrangler dev on it */
    const [p1] = await publish(v1Path);
    if (p1.sha256 !== v1.sha256)
      throw new Error(`published v1 is ${p1.sha256}, compiled in memory ${v1.sha256}: compiling is not deterministic`);
    log(`published v1 (${p1.sha256.slice(0, 12)}) into ${state}`);

    const port = await freePort();
    const inspectorPort = await freePort();
    const origin = `http://${HOST}:${port}`;
    const url = (path: string) => {
      const u = new URL(path, origin);
      if (u.hostname !== HOST || u.port !== String(port))
        throw new Error(`refusing to contact ${u.host}: this check only talks to ${HOST}:${port}`);
      return u.href;
    };
    const wranglerOut = createWriteStream(wranglerLog);
    let wranglerText = "";
    wrangler = runGrouped(
      [
        join(PROJECT_ROOT, "node_modules", "wrangler", "bin", "wrangler.js"),
        "dev",
        "--ip",
        HOST,
        "--port",
        String(port),
        "--inspector-port",
        String(inspectorPort),
        "--persist-to",
        state,
        "--show-interactive-dev-session=false",
        "--log-level",
        "warn",
      ],
      (chunk) => {
        wranglerOut.write(chunk);
        if (wranglerText.length < 1_000_000) wranglerText += chunk;
      },
    );
    wrangler.on("exit", () => (wranglerExited = true));
    log(`wrangler dev on ${origin} (pid ${wrangler.pid}, persistence ${state}, log ${wranglerLog})`);

    /* 2. ready */
    const readyBy = Date.now() + 120_000;
    for (;;) {
      if (wranglerExited) throw new Error(`wrangler dev exited before it was ready:\n${tail(wranglerText, 20)}`);
      if (Date.now() > readyBy) throw new Error(`wrangler dev not ready after 120 s:\n${tail(wranglerText, 20)}`);
      try {
        const r = await fetch(url("/rest/ready"), { signal: AbortSignal.timeout(2000) });
        if (r.status === 200 && (await r.text()).trim() === "true") break;
      } catch {}
      await sleep(250);
    }
    log("ready");

    interface Mismatch {
      phase: string;
      path: string;
      status: number;
      body: string;
    }
    const mismatches: Mismatch[] = [];
    const mismatchCount = { preflight: 0, load: 0, sampler: 0, final: 0 };
    const note = (m: Mismatch) => {
      mismatchCount[m.phase as keyof typeof mismatchCount]++;
      if (mismatches.length < 20) mismatches.push({ ...m, body: m.body.slice(0, 400) });
    };

    /* preflight: every path answers exactly v1 (also warms the isolate's snapshot cache) */
    for (const e of unique) {
      const r = await fetch(url(e.path), { signal: AbortSignal.timeout(30_000) });
      const body = await r.text();
      if (r.status !== 200 || body !== expected.get(e.path)!.v1)
        note({ phase: "preflight", path: e.path, status: r.status, body });
    }
    log(`preflight: ${unique.length} paths, ${mismatchCount.preflight} differ from v1`);

    /* 3. load, with v2 published at publishAt and a sampler checking answers throughout */
    const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;
    const statusByKind: Record<string, Record<string, number>> = {};
    const loadSamples = { checked: 0, v1: 0, v2: 0, both: 0, undecodable: 0 };
    let nextRequest = 0;
    const classify = (path: string, status: number, body: string) => {
      const x = expected.get(path)!;
      if (status !== 200) return "none";
      const isV1 = body === x.v1;
      const isV2 = body === x.v2;
      return isV1 && isV2 ? "both" : isV1 ? "v1" : isV2 ? "v2" : "none";
    };

    const loadavgBefore = loadavg().map((x) => Number(x.toFixed(2)));
    const perSecond: number[] = [];
    const loadStart = Date.now();
    const t = () => (Date.now() - loadStart) / 1000;
    const publishTimes: { start?: number; end?: number; error?: string; sha256?: string } = {};
    const publishDone = (async () => {
      await sleep(publishAt * 1000);
      publishTimes.start = t();
      log(`publishing v2 at t=${publishTimes.start.toFixed(1)} s`);
      try {
        const [p2] = await publish(v2Path);
        publishTimes.end = t();
        publishTimes.sha256 = p2.sha256;
        if (p2.sha256 !== v2.sha256) throw new Error(`published v2 is ${p2.sha256}, compiled in memory ${v2.sha256}`);
        log(`published v2 (${p2.sha256.slice(0, 12)}) at t=${publishTimes.end.toFixed(1)} s`);
      } catch (error) {
        publishTimes.error = (error as Error).message;
        log(`publishing v2 failed: ${publishTimes.error}`);
      }
    })();

    const sampler = {
      requests: 0,
      v1: 0,
      v2: 0,
      both: 0,
      errors: 0,
      firstV2At: null as number | null,
      lastV1OnlyAt: null as number | null,
      nonOk: {} as Record<string, number>,
    };
    let loadRunning = true;
    const samplerDone = (async () => {
      let k = 0;
      while (loadRunning && sampler.requests < MAX_SAMPLER_REQUESTS) {
        const e = sequence[(k++ * 7 + 3) % sequence.length];
        sampler.requests++;
        try {
          const r = await fetch(url(e.path), { signal: AbortSignal.timeout(10_000) });
          const body = await r.text();
          const at = t();
          if (r.status !== 200) sampler.nonOk[r.status] = (sampler.nonOk[r.status] ?? 0) + 1;
          const c = classify(e.path, r.status, body);
          if (c === "none") note({ phase: "sampler", path: e.path, status: r.status, body });
          else {
            sampler[c]++;
            if (c === "v2" && sampler.firstV2At === null) sampler.firstV2At = at;
            if (c === "v1") sampler.lastV1OnlyAt = at;
          }
        } catch (_error) {
          sampler.errors++;
          await sleep(50);
        }
      }
    })();

    log(`autocannon: ${connections} connections for ${duration} s over ${sequence.length} requests in rotation`);
    const result = await autocannon({
      url: origin,
      connections,
      duration,
      timeout: 10,
      maxOverallRequests: MAX_LOAD_REQUESTS,
      requests: [
        {
          method: "GET",
          setupRequest: (request, context) => {
            const n = nextRequest++;
            const e = sequence[n % sequence.length];
            context.n = n;
            context.entry = e;
            return { ...request, path: url(e.path).slice(origin.length) };
          },
          onResponse: (status, body, context) => {
            const e = context.entry as MixEntry;
            const second = Math.floor((Date.now() - loadStart) / 1000);
            perSecond[second] = (perSecond[second] ?? 0) + 1;
            const byStatus = (statusByKind[e.kind] ??= {});
            byStatus[status] = (byStatus[status] ?? 0) + 1;
            if ((context.n as number) % SAMPLE_EVERY !== 0) return;
            loadSamples.checked++;
            const c = classify(e.path, status, body);
            if (c !== "none") loadSamples[c]++;
            // autocannon decodes each TCP chunk separately: a multi-byte character split across two
            // chunks turns into U+FFFD, so such a body cannot be compared (the sampler's can).
            else if (status === 200 && body.includes("\uFFFD")) loadSamples.undecodable++;
            else note({ phase: "load", path: e.path, status, body });
          },
        },
      ],
    });
    loadRunning = false;
    await samplerDone;
    await publishDone;
    log(`load done after ${result.duration} s`);

    /* after the load: every path must now answer v2 */
    for (const e of unique) {
      const r = await fetch(url(e.path), { signal: AbortSignal.timeout(30_000) });
      const body = await r.text();
      if (r.status !== 200 || body !== expected.get(e.path)!.v2)
        note({ phase: "final", path: e.path, status: r.status, body });
    }
    log(`final: ${unique.length} paths, ${mismatchCount.final} differ from v2`);

    /* 4. report */
    const nonOk: Record<string, number> = {};
    for (const [status, { count }] of Object.entries(result.statusCodeStats))
      if (!status.startsWith("2")) nonOk[status] = count;
    const serverErrors = Object.entries(nonOk)
      .filter(([s]) => s.startsWith("5"))
      .reduce((a, [, n]) => a + n, 0);
    const totalMismatches = mismatchCount.preflight + mismatchCount.load + mismatchCount.sampler + mismatchCount.final;
    const warnings = wranglerText
      .split("\n")
      .map((l) => l.replace(/\x1b\[[0-9;]*m/g, "").trim())
      .filter((l) => /warn|error|✘|▲|exception|uncaught/i.test(l));
    const staleAfter =
      publishTimes.end !== undefined && sampler.lastV1OnlyAt !== null
        ? Math.max(0, sampler.lastV1OnlyAt - publishTimes.end)
        : null;
    const report = {
      command: `npx node scripts/load.ts --duration ${duration} --connections ${connections} --objects ${values.objects} --publish-at ${publishAt}`,
      target: origin,
      at: new Date(started).toISOString(),
      machine: {
        cores: availableParallelism(),
        loadavgBefore,
        loadavgAfter: loadavg().map((x) => Number(x.toFixed(2))),
      },
      data: {
        objects: Number(values.objects),
        seed: 7,
        v1: { sha256: v1.sha256, size: v1.bytes.length, links: v1.meta.counts.links },
        v2: {
          sha256: v2.sha256,
          size: v2.bytes.length,
          links: v2.meta.counts.links,
          ...{
            renamed: changes.renamed.length,
            checksumsChanged: changes.modified,
            linksDropped: changes.droppedLinks,
          },
        },
      },
      mix: { distinctPaths: unique.length, distinguishingPaths: distinguishing, byKind },
      load: {
        connections,
        durationSeconds: result.duration,
        requests: result.requests.total,
        throughputRps: result.requests.average,
        latencyMs: {
          mean: result.latency.mean,
          p50: result.latency.p50,
          p90: result.latency.p90,
          p99: result.latency.p99,
          max: result.latency.max,
        },
        responsesPerSecond: Array.from(perSecond, (n) => n ?? 0),
        statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([s, { count }]) => [s, count])),
        non2xx: nonOk,
        statusByKind,
        errors: result.errors,
        timeouts: result.timeouts,
        resets: result.resets,
      },
      publish: { at: publishTimes.start ?? null, done: publishTimes.end ?? null, error: publishTimes.error ?? null },
      checks: {
        loadSamples,
        sampler: { ...sampler, staleV1SecondsAfterPublish: staleAfter },
        mismatches: { total: totalMismatches, ...mismatchCount },
        examples: mismatches,
      },
      wranglerWarnings: [...new Set(warnings)].slice(0, 30),
    };
    await writeFile(reportPath, `${JSON.stringify(report, null, 2)}\n`);

    const failures: string[] = [];
    if (result.errors > 0) failures.push(`${result.errors} connection errors (${result.timeouts} timeouts)`);
    if (sampler.errors > 0) failures.push(`${sampler.errors} sampler request errors`);
    if (serverErrors > 0) failures.push(`${serverErrors} 5xx answers`);
    if (totalMismatches > 0) failures.push(`${totalMismatches} answers matching neither version`);
    if (publishTimes.error) failures.push(`publishing v2 failed`);
    if (Object.keys(nonOk).length > 0 && serverErrors === 0) failures.push(`non-2xx answers: ${JSON.stringify(nonOk)}`);

    const l = report.load;
    console.log(`
appstruct load check — ${origin}, ${connections} connections, ${l.durationSeconds} s, ${unique.length} distinct paths
  requests      ${l.requests} (${l.throughputRps.toFixed(0)} req/s; per second: ${l.responsesPerSecond.join(" ")})
  latency       p50 ${l.latencyMs.p50} ms, p90 ${l.latencyMs.p90} ms, p99 ${l.latencyMs.p99} ms, max ${l.latencyMs.max} ms
  status        ${JSON.stringify(l.statusCodes)}; errors ${l.errors} (timeouts ${l.timeouts})
  v2 published  at t=${publishTimes.start?.toFixed(1)} s, done t=${publishTimes.end?.toFixed(1) ?? "—"} s${publishTimes.error ? ` FAILED: ${publishTimes.error}` : ""}
  load samples  ${loadSamples.checked} checked (every ${SAMPLE_EVERY}th): ${loadSamples.v1} v1, ${loadSamples.v2} v2, ${loadSamples.both} same in both, ${loadSamples.undecodable} not comparable
  sampler       ${sampler.requests} fetches: ${sampler.v1} v1, ${sampler.v2} v2, ${sampler.both} same in both; first v2 at t=${sampler.firstV2At?.toFixed(2) ?? "—"} s, last v1 at t=${sampler.lastV1OnlyAt?.toFixed(2) ?? "—"} s
  mismatches    ${totalMismatches} (preflight ${mismatchCount.preflight}, load ${mismatchCount.load}, sampler ${mismatchCount.sampler}, final ${mismatchCount.final})
  wrangler      ${report.wranglerWarnings.length} warning/error lines${report.wranglerWarnings.length ? `:\n${report.wranglerWarnings.map((w) => `    ${w}`).join("\n")}` : ""}
  report        ${reportPath}
${failures.length ? `FAILED: ${failures.join("; ")}` : "PASSED"}`);
    return failures.length ? 1 : 0;
  } finally {
    await cleanup();
    clearTimeout(watchdog);
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

const argv = process.argv.slice(2);
if (argv[0] === "--publish-into") {
  await publishInto(argv[1], argv.slice(2));
} else {
  try {
    process.exitCode = await main();
  } catch (error) {
    console.error(`load check failed: ${(error as Error).stack ?? error}`);
    process.exitCode = 1;
  }
}
