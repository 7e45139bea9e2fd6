// @module `npm run crosscheck`: an independent check of the benchmark's ratios: appstruct's Node server against the cross-check's own SQLite server, same answers first, then timed side by side.
//
//   npm run crosscheck -- [--objects 20000 --seed 7 | --analysis <file.ndjson>] [--dir <folder>] [--reuse]
//                         [--queries 10] [--rounds 10] [--mix-seed 20261122] [--check-only] [--in-process] [--out <report.json>]
//
// Independent of `npm run bench` (scripts/bench): its own SQLite schema and queries written from the
// spec, its own query mix, its own timing. See docs/crosscheck.md.
import { writeFile } from "node:fs/promises";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { parseArgs } from "node:util";
import { type AnsweringSide, checkAnswers, type Mismatch } from "./check-answers.ts";
import { type DataSet, prepareData } from "./data.ts";
import { appstructEngine, type EngineSide, sqliteEngine } from "./engine.ts";
import { KeepAliveClient } from "./http-client.ts";
import { appstructInProcess, sqliteInProcess } from "./in-process.ts";
import { CLASSES, type MixQuery, pickMix } from "./mix.ts";
import { type ClassFigures, figures, table } from "./report.ts";
import { type RunningServer, startServer } from "./servers.ts";
import { type TimedSide, type TimingOptions, timeInterleaved } from "./timing.ts";

const ROOT = resolve(import.meta.dirname, "../..");

function options() {
  const { values } = parseArgs({
    options: {
      objects: { type: "string", default: "20000" },
      seed: { type: "string", default: "7" },
      analysis: { type: "string" },
      dir: { type: "string" },
      reuse: { type: "boolean", default: false },
      queries: { type: "string", default: "10" },
      rounds: { type: "string", default: "10" },
      "mix-seed": { type: "string", default: "20261122" },
      "class-seconds": { type: "string", default: "60" },
      "check-only": { type: "boolean", default: false },
      "in-process": { type: "boolean", default: false },
      out: { type: "string" },
    },
  });
  const int = (name: keyof typeof values, min: number, max: number) => {
    const n = Number(values[name]);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new Error(`--${name} must be an integer from ${min} to ${max}, got ${values[name]}`);
    return n;
  };
  const objects = int("objects", 1000, 20_000_000);
  return {
    objects,
    seed: int("seed", 0, 2 ** 31),
    analysis: values.analysis,
    dir: resolve(values.dir ?? join(tmpdir(), `crosscheck-${values.analysis ? "analysis" : objects}`)),
    reuse: values.reuse,
    queries: int("queries", 1, 1000),
    timing: {
      warmupRounds: 1,
      rounds: int("rounds", 1, 1000),
      maxSecondsPerClass: int("class-seconds", 1, 3600),
      seed: int("mix-seed", 0, 2 ** 31),
    } satisfies TimingOptions,
    mixSeed: int("mix-seed", 0, 2 ** 31),
    checkOnly: values["check-only"],
    inProcess: values["in-process"],
    out: values.out,
  };
}

/** Timed side over HTTP: fails loudly on anything but 200. */
function timedHttp(client: KeepAliveClient): TimedSide {
  return async (query) => {
    const reply = await client.get(query.path);
    if (reply.status !== 200)
      throw new Error(`${client.base}${query.path} answered ${reply.status}: ${reply.body.slice(0, 300)}`);
    return reply.ms;
  };
}

function timedInProcess(side: AnsweringSide): TimedSide {
  return async (query) => {
    const started = performance.now();
    const { status } = await side(query);
    const elapsed = performance.now() - started;
    if (status !== 200) throw new Error(`${query.path} answered ${status} in process`);
    return elapsed;
  };
}

/** Prints how many answers differed (and the first 30); returns them. */
function printMismatches(where: string, mismatches: Mismatch[]): Mismatch[] {
  console.log(`answers compared ${where}: ${mismatches.length} mismatches`);
  for (const m of mismatches.slice(0, 30))
    console.log(`MISMATCH ${m.where} ${m.query.cls} ${m.query.path}\n  ${m.difference}`);
  return mismatches;
}

/** Both sides in this process, for the optional in-process comparisons and timings: whole requests, and engines alone. */
async function inProcessSides(data: DataSet, log: (line: string) => void) {
  log("in process: loading the snapshot and opening the database in this process");
  return {
    ours: await appstructInProcess(data.servedDir),
    sqlite: sqliteInProcess(data.database),
    oursEngine: await appstructEngine(data.snapshot),
    sqliteEngine: sqliteEngine(data.database),
  };
}

/** An engine side as an answering side: its answer as JSON, status 200 (errors throw). */
function answering(side: EngineSide): AnsweringSide {
  return async (query) => ({ status: 200, body: JSON.stringify(await side(query)) });
}

async function main(): Promise<number> {
  const o = options();
  const started = Date.now();
  const log = (line: string) =>
    process.stderr.write(`[crosscheck ${((Date.now() - started) / 1000).toFixed(1)}s] ${line}\n`);
  const loadBefore = loadavg();
  const data = await prepareData({
    dir: o.dir,
    analysis: o.analysis,
    objects: o.objects,
    seed: o.seed,
    reuse: o.reuse,
    log,
  });

  const db = new DatabaseSync(data.database, { readOnly: true });
  const mix = pickMix(db, o.mixSeed, o.queries);
  const sqliteVersion = (db.prepare("SELECT sqlite_version() AS v").get() as { v: string }).v;
  db.close();
  const perClass = CLASSES.map((cls) => `${cls} ${mix.filter((q) => q.cls === cls).length}`).join(", ");
  console.log(`mix: ${mix.length} queries in ${new Set(mix.map((q) => q.cls)).size} classes (${perClass})`);

  const servers: RunningServer[] = [];
  const clients: KeepAliveClient[] = [];
  try {
    log("starting appstruct serve and the SQLite server");
    servers.push(
      await startServer("appstruct serve", [join(ROOT, "build/bin/appstruct.js"), "serve", "--data", data.servedDir]),
    );
    servers.push(
      await startServer("sqlite server", [join(ROOT, "scripts/crosscheck/sqlite-server.ts"), "--db", data.database]),
    );
    const [ours, sqlite] = servers.map((s) => new KeepAliveClient(s.base));
    clients.push(ours, sqlite);

    const mismatches = printMismatches(
      "over HTTP",
      await checkAnswers(
        "over HTTP",
        mix,
        (q) => ours.get(q.path),
        (q) => sqlite.get(q.path),
      ),
    );
    const here = o.inProcess ? await inProcessSides(data, log) : undefined;
    if (here) {
      mismatches.push(...printMismatches("in process", await checkAnswers("in process", mix, here.ours, here.sqlite)));
      mismatches.push(
        ...printMismatches(
          "engine to engine",
          await checkAnswers("engine to engine", mix, answering(here.oursEngine), answering(here.sqliteEngine)),
        ),
      );
    }
    const results: Record<string, unknown> = { date: new Date().toISOString(), data, mix, mismatches };
    const out = o.out ?? join(o.dir, "crosscheck-report.json");
    const writeReport = async () => {
      await writeFile(out, `${JSON.stringify(results, null, 2)}\n`);
      log(`report written to ${out}`);
    };
    if (mismatches.length > 0 || o.checkOnly) {
      await writeReport();
      return mismatches.length > 0 ? 1 : 0;
    }

    log(
      `timing over HTTP: ${o.timing.rounds} rounds per class after ${o.timing.warmupRounds} warm-up round, cap ${o.timing.maxSecondsPerClass} s per class`,
    );
    const readyMix: MixQuery[] = Array.from({ length: 20 }, () => ({ cls: "level-graph", path: "/rest/ready" }));
    const http = figures(await timeInterleaved(mix, timedHttp(ours), timedHttp(sqlite), o.timing, log));
    const ready = figures(
      await timeInterleaved(readyMix, timedHttp(ours), timedHttp(sqlite), { ...o.timing, rounds: 5 }, () => {}),
    )[0];
    const rss = Object.fromEntries(servers.map((s) => [s.name, s.peakRssMiB()]));
    let inProcess: ClassFigures[] | undefined;
    let engine: ClassFigures[] | undefined;
    if (here) {
      log("timing in process (whole requests)");
      inProcess = figures(
        await timeInterleaved(mix, timedInProcess(here.ours), timedInProcess(here.sqlite), o.timing, log),
      );
      log("timing engine to engine");
      engine = figures(
        await timeInterleaved(
          mix,
          timedInProcess(answering(here.oursEngine)),
          timedInProcess(answering(here.sqliteEngine)),
          o.timing,
          log,
        ),
      );
    }

    const loadAfter = loadavg();
    const machine = `${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, SQLite ${sqliteVersion}`;
    const load = `load average ${loadBefore.map((x) => x.toFixed(2)).join(" ")} before, ${loadAfter.map((x) => x.toFixed(2)).join(" ")} after`;
    console.log(`\n${new Date().toISOString()} · ${machine} · ${load}`);
    console.log(
      `data: ${data.analysis} (${(data.bytes.analysis / 2 ** 20).toFixed(0)} MiB), snapshot ${(data.bytes.snapshot / 2 ** 20).toFixed(0)} MiB, SQLite ${(data.bytes.database / 2 ** 20).toFixed(0)} MiB`,
    );
    console.log(
      `peak RSS: appstruct serve ${rss["appstruct serve"]?.toFixed(0)} MiB, SQLite server ${rss["sqlite server"]?.toFixed(0)} MiB\n`,
    );
    console.log(table("Over HTTP (ms)", [...http, { ...ready, cls: "round trip /rest/ready" }]));
    if (inProcess) console.log(`\n${table("In process, whole request (ms)", inProcess)}`);
    if (engine) console.log(`\n${table("Engine to engine (ms)", engine)}`);
    console.log("\nSQLite/ours = SQLite median / appstruct median: above 1, appstruct is faster.");
    Object.assign(results, { machine, loadBefore, loadAfter, http, ready, inProcess, engine, peakRssMiB: rss });
    await writeReport();
    return 0;
  } finally {
    for (const c of clients) c.close();
    for (const s of servers) await s.stop();
  }
}

process.exitCode = await main();
