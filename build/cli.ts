// @module The appstruct command line: validate, compile, inspect, generate (and publish, list, serve, analyze, import).

import { createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { Command, CommanderError, InvalidArgumentError } from "commander";
import { CorruptSnapshotError, SnapshotLimitError } from "../src/format/errors.ts";
import { AnalysisRefused, formatFault } from "./analysis/faults.ts";
import { readAnalysis } from "./analysis/read.ts";
import type { StatusBase } from "./compile/build-model.ts";
import { compileAnalysisToFile, loadStatusBaseFile } from "./compile/compile.ts";
import { countExternalMemoryInHeapLimit } from "./compile/heap-limits.ts";
import { formatInspectReport, inspectSnapshot } from "./inspect.ts";
import { formatBytes, Progress } from "./progress.ts";

/** Exit codes, documented in the README. */
const EXIT = { ok: 0, refused: 1, usage: 2, failed: 3 } as const;

class ExitError extends Error {
  readonly code: number;

  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

const positiveInteger = (value: string) => {
  if (!/^[0-9]+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError("must be a whole number ≥ 1");
  return Number(value);
};

function reportRefusal(file: string, error: AnalysisRefused, outcome = "nothing written"): never {
  const { faults, total } = error.faults;
  for (const fault of faults) process.stderr.write(`${file}: ${formatFault(fault)}\n`);
  if (total > faults.length)
    process.stderr.write(
      `${file}: ... and ${total - faults.length} more fault${total - faults.length === 1 ? "" : "s"}\n`,
    );
  throw new ExitError(EXIT.refused, `${file}: refused, ${total} fault${total === 1 ? "" : "s"}; ${outcome}`);
}

const program = new Command("appstruct")
  .description("Validate, compile and serve analyses of an application's structure.")
  .showHelpAfterError()
  .exitOverride();

program
  .command("validate")
  .description("check an analysis (.json or .ndjson) against the analysis format; exit 1 listing every fault")
  .argument("<analysis>", "analysis file")
  .action(async (file: string) => {
    const progress = new Progress();
    try {
      const a = await readAnalysis(file, (done, total) => progress.update("reading", done, total, "bytes"));
      progress.done();
      console.log(
        `${file}: valid — ${a.header.application} @ ${a.header.analyzedAt}, ${a.objects.length} objects, ${a.links.from.length} link records`,
      );
    } catch (error) {
      progress.done();
      if (error instanceof AnalysisRefused) reportRefusal(file, error);
      throw error;
    }
  });

program
  .command("compile")
  .description("compile an analysis into a snapshot; writes nothing when the analysis is refused")
  .argument("<analysis>", "analysis file (.json or .ndjson)")
  .requiredOption("-o, --out <file>", "snapshot file to write")
  .option("--previous <snapshot>", "compute status.id against this earlier snapshot of the application")
  .action(async (file: string, options: { out: string; previous?: string }) => {
    const started = performance.now();
    countExternalMemoryInHeapLimit();
    const progress = new Progress();
    let previous: StatusBase | null = null;
    try {
      previous = options.previous ? await loadStatusBaseFile(options.previous) : null;
    } catch (error) {
      if (error instanceof CorruptSnapshotError)
        throw new ExitError(EXIT.refused, `${options.previous}: not a usable snapshot: ${error.message}`);
      throw error;
    }
    try {
      const compiled = await compileAnalysisToFile(file, options.out, previous, (stage, done, total) =>
        progress.update(stage === "read" ? "reading" : stage, done, total, stage === "read" ? "bytes" : "items"),
      );
      progress.done();
      const m = compiled.meta;
      console.log(
        `${options.out}: ${m.application} @ ${m.analyzedAt} — ${m.counts.objects} objects, ${m.counts.links} links, ${formatBytes(compiled.size)}, sha256 ${compiled.sha256.slice(0, 12)}, ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    } catch (error) {
      progress.done();
      if (error instanceof AnalysisRefused) reportRefusal(file, error);
      if (error instanceof SnapshotLimitError)
        throw new ExitError(EXIT.refused, `${file}: ${error.message}; nothing written`);
      throw error;
    }
  });

program
  .command("inspect")
  .description("show a snapshot's header, sections (size, checksum state) and counts; exit 1 when corrupt")
  .argument("<snapshot>", "snapshot file")
  .option("--json", "print the report as JSON")
  .action(async (file: string, options: { json?: boolean }) => {
    let report: Awaited<ReturnType<typeof inspectSnapshot>>;
    try {
      report = await inspectSnapshot(file);
    } catch (error) {
      if (error instanceof CorruptSnapshotError) throw new ExitError(EXIT.refused, `${file}: ${error.message}`);
      throw error;
    }
    console.log(options.json ? JSON.stringify(report, null, 2) : formatInspectReport(report));
    if (!report.ok) throw new ExitError(EXIT.refused, `${file}: corrupt snapshot`);
  });

program
  .command("generate")
  .description("write a deterministic synthetic analysis (.ndjson) for scale work")
  .requiredOption("--objects <n>", "number of objects", positiveInteger)
  .requiredOption("-o, --out <file>", "NDJSON file to write")
  .option("--seed <s>", "random seed", positiveInteger, 1)
  .option("--application <name>", "application name")
  .action(async (options: { objects: number; out: string; seed: number; application?: string }) => {
    const { generateAnalysis } = await import("./generate.ts");
    const progress = new Progress();
    const temporary = `${options.out}.${process.pid}.tmp`;
    const stream = createWriteStream(temporary);
    try {
      const counts = await generateAnalysis(
        stream,
        { objects: options.objects, seed: options.seed, application: options.application },
        (done, total) => progress.update("writing", done, total),
      );
      await new Promise<void>((resolve, reject) =>
        stream.end((error?: Error | null) => (error ? reject(error) : resolve())),
      );
      await rename(temporary, options.out);
      progress.done();
      console.log(
        `${options.out}: ${counts.objects} objects, ${counts.links} links, ${counts.files} files, ${counts.taxonomyNodes} taxonomy nodes, ${counts.postIts} post-its`,
      );
    } catch (error) {
      stream.destroy();
      await rm(temporary, { force: true });
      throw error;
    }
  });

program
  .command("publish")
  .description("compile (when needed) and publish analyses or snapshots: snapshot first, manifest last, atomically")
  .argument("<files...>", "analyses (.json, .ndjson) and/or snapshots")
  .option("--local", "publish to the local store that `npm run dev` serves (default)")
  .option("--remote", "publish to the R2 bucket configured in wrangler.toml (needs Cloudflare credentials)")
  .option("--url <base URL>", "publish through a deployed worker's publish API (needs its PUBLISH_TOKEN)")
  .option("--token <token>", "the worker's PUBLISH_TOKEN (default: $APPSTRUCT_PUBLISH_TOKEN)")
  .option("--part-mib <MiB>", "upload part size with --url, 5 to 95", positiveInteger, 64)
  .action(
    async (
      files: string[],
      options: { local?: boolean; remote?: boolean; url?: string; token?: string; partMib: number },
    ) => {
      if ([options.local, options.remote, options.url].filter(Boolean).length > 1)
        throw new ExitError(EXIT.usage, "choose one of --local, --remote and --url");
      if (options.partMib < 5 || options.partMib > 95)
        throw new ExitError(
          EXIT.usage,
          "--part-mib must be from 5 (R2's smallest part) to 95 (under a Worker's 100 MB request body)",
        );
      countExternalMemoryInHeapLimit();
      const { InputRefused, publishFilesTo, storeTarget } = await import("./publish.ts");
      let opened: { target: import("./publish.ts").PublishTarget; where: string; close(): Promise<void> };
      if (options.url) {
        const [{ PublishClient }, { remoteTarget }] = await Promise.all([
          import("./publish-client.ts"),
          import("./remote.ts"),
        ]);
        opened = {
          target: remoteTarget(
            new PublishClient({
              url: options.url,
              token: remoteToken(options.token),
              partSize: options.partMib * 1024 * 1024,
            }),
          ),
          where: options.url,
          close: async () => {},
        };
      } else {
        const { openStore } = await import("./store.ts");
        const store = await openStore(options.remote ? "remote" : "local");
        opened = { ...store, target: storeTarget(store.store) };
      }
      try {
        const results = await publishFilesTo(opened.target, files, (line) => console.log(line));
        console.log(
          `${results.filter((r) => r.outcome === "published").length} published, ${results.filter((r) => r.outcome === "unchanged").length} unchanged — ${opened.where}`,
        );
      } catch (error) {
        await failOnPublishApi(error);
        if (!(error instanceof InputRefused)) throw error;
        if (error.cause instanceof AnalysisRefused) reportRefusal(error.path, error.cause, "nothing published");
        if (error.cause instanceof SnapshotLimitError)
          throw new ExitError(EXIT.refused, `${error.path}: ${error.cause.message}; nothing published`);
        if (error.cause instanceof CorruptSnapshotError)
          throw new ExitError(
            EXIT.refused,
            `${error.path}: not a valid snapshot: ${error.cause.message}; nothing published`,
          );
        await failOnPublishApi(error.cause);
        throw error.cause;
      } finally {
        await opened.close();
      }
    },
  );

program
  .command("prune")
  .description("remove old versions through a worker's publish API: from the manifest first, their snapshots after")
  .argument("[application]", "the application (default: every application)")
  .requiredOption("--url <base URL>", "the worker's base URL")
  .option("--token <token>", "the worker's PUBLISH_TOKEN (default: $APPSTRUCT_PUBLISH_TOKEN)")
  .option("--keep <n>", "versions to keep, newest first", positiveInteger)
  .option(
    "--analyzed-at <time...>",
    "remove the versions analyzed at these times (rolls back a bad analysis); needs <application>",
  )
  .action(
    async (
      application: string | undefined,
      options: { url: string; token?: string; keep?: number; analyzedAt?: string[] },
    ) => {
      if (options.keep === undefined && !options.analyzedAt)
        throw new ExitError(EXIT.usage, "give --keep <n> and/or --analyzed-at <time...>");
      if (options.analyzedAt && application === undefined)
        throw new ExitError(EXIT.usage, "--analyzed-at needs the application");
      const { PublishClient } = await import("./publish-client.ts");
      const client = new PublishClient({ url: options.url, token: remoteToken(options.token) });
      try {
        for (const name of application === undefined ? await client.applications() : [application]) {
          const { removed, kept } = await client.prune(name, { keep: options.keep, analyzedAt: options.analyzedAt });
          console.log(
            `${name}: removed ${removed.length} version${removed.length === 1 ? "" : "s"}${removed.length ? ` (${removed.map((v) => v.analyzedAt).join(", ")})` : ""}; ${kept.length} kept${kept.length ? `, newest ${kept.at(-1)!.analyzedAt}` : ""}`,
          );
        }
      } catch (error) {
        await failOnPublishApi(error);
        throw error;
      }
    },
  );

/** The publish token of `--token` or $APPSTRUCT_PUBLISH_TOKEN, else a usage error. */
function remoteToken(option: string | undefined): string {
  const token = option ?? (process.env.APPSTRUCT_PUBLISH_TOKEN || undefined);
  if (!token)
    throw new ExitError(
      EXIT.usage,
      "--url needs the worker's publish token: --token <token> or APPSTRUCT_PUBLISH_TOKEN",
    );
  return token;
}

/** A refusal of the publish API as an exit: 1 when the content was refused (422), 3 otherwise. */
async function failOnPublishApi(error: unknown): Promise<void> {
  const { PublishApiError } = await import("./publish-client.ts");
  if (error instanceof PublishApiError)
    throw new ExitError(error.status === 422 ? EXIT.refused : EXIT.failed, error.message);
}

program
  .command("list")
  .description("list the applications of a store and their published versions")
  .option("--local", "the local store that `npm run dev` serves (default)")
  .option("--remote", "the R2 bucket configured in wrangler.toml")
  .option("--json", "print JSON")
  .action(async (options: { remote?: boolean; json?: boolean }) => {
    const { openStore } = await import("./store.ts");
    const { listStore } = await import("./publish.ts");
    const opened = await openStore(options.remote ? "remote" : "local");
    try {
      const apps = await listStore(opened.store);
      if (options.json) return console.log(JSON.stringify(apps, null, 2));
      if (apps.length === 0) console.log(`no applications in the ${opened.where}`);
      for (const app of apps) {
        console.log(app.application);
        for (const v of app.versions)
          console.log(
            `  ${v.analyzedAt}  ${String(v.objects).padStart(9)} objects  ${String(v.links).padStart(10)} links  ${formatBytes(v.size).padStart(10)}  ${v.sha256.slice(0, 12)}`,
          );
      }
    } finally {
      await opened.close();
    }
  });

program
  .command("serve")
  .description("serve the API on Node over a folder of snapshots and analyses (no Cloudflare needed)")
  .requiredOption("--data <folder>", "folder with .snap, .json and .ndjson files")
  .option("--port <port>", "port", positiveInteger, 8787)
  .option("--host <host>", "interface to listen on", "127.0.0.1")
  .option(
    "--section-cache-mb <MB>",
    "megabytes of decoded sections kept, as the worker's SECTION_CACHE_MB (default: $SECTION_CACHE_MB, else 64)",
  )
  .option(
    "--read-latency-ms <ms>",
    "delay every snapshot read by this long, at most six of a request's reads waiting at once, as R2 behind a Worker and the worker's STORAGE_LATENCY_MS (default: $STORAGE_LATENCY_MS, else 0)",
  )
  .action(
    async (options: { data: string; port: number; host: string; sectionCacheMb?: string; readLatencyMs?: string }) => {
      const [{ startNodeServer }, { sectionBudgetBytes }, { latencyMs, storageLatencyMs }] = await Promise.all([
        import("./serve.ts"),
        import("../src/storage/isolate-caches.ts"),
        import("../src/storage/delayed-store.ts"),
      ]);
      const setting = options.sectionCacheMb ?? process.env.SECTION_CACHE_MB;
      let budget: number;
      try {
        budget = sectionBudgetBytes(setting);
      } catch {
        throw new ExitError(
          EXIT.usage,
          `--section-cache-mb (or SECTION_CACHE_MB) must be a number of megabytes ≥ 0, not ${JSON.stringify(setting)}`,
        );
      }
      let readLatencyMs: number;
      try {
        readLatencyMs =
          options.readLatencyMs === undefined
            ? storageLatencyMs(process.env.STORAGE_LATENCY_MS)
            : latencyMs("--read-latency-ms", options.readLatencyMs);
      } catch (error) {
        throw new ExitError(EXIT.usage, (error as Error).message);
      }
      await startNodeServer({ ...options, sectionBudgetBytes: budget, readLatencyMs });
    },
  );

program
  .command("analyze")
  .description("analyse a TypeScript/JavaScript project into an analysis (.json); see docs/analyzer.md")
  .argument("<folder>", "project folder (its tsconfig.json, jsconfig.json, or every source file)")
  .requiredOption("-o, --out <file>", "analysis file to write (.json)")
  .option("--name <application>", "application name (default: package.json name, else the folder name)")
  .option("--tsconfig <file>", "TypeScript configuration to use instead of the folder's")
  .option("--rules <file>", "taxonomy and start/end point rules (JSON; sections left out keep their defaults)")
  .option("--analyzed-at <date>", "RFC 3339 date-time of the analysis (default: now)")
  .option("--no-source", "leave the source text of the files out of the analysis (the API then serves no code)")
  .action(
    async (
      folder: string,
      options: { out: string; name?: string; tsconfig?: string; rules?: string; analyzedAt?: string; source: boolean },
    ) => {
      const started = performance.now();
      const { AnalyzeOptionError, analyzeProject } = await import("./analyze/analyze.ts");
      const { ProjectError } = await import("./analyze/load-program.ts");
      const { RulesError, loadRules } = await import("./analyze/rules.ts");
      const { writeAnalysisFile } = await import("./analyze/write-analysis.ts");
      try {
        const result = analyzeProject({
          folder,
          tsconfig: options.tsconfig,
          application: options.name,
          analyzedAt: options.analyzedAt,
          rules: await loadRules(options.rules),
          source: options.source,
        });
        for (const problem of result.configProblems) process.stderr.write(`warning: ${problem}\n`);
        for (const p of result.syntaxProblems)
          process.stderr.write(`${p.file}:${p.line}: syntax error: ${p.message} (the rest of the file is analysed)\n`);
        for (const p of result.sqlProblems) process.stderr.write(`${p.file}:${p.line}: warning: ${p.message}\n`);
        for (const p of result.checkerFailures)
          process.stderr.write(
            `${p.file}:${p.line}: warning: the type checker failed here (${p.message}); this expression has no links\n`,
          );
        await writeAnalysisFile(options.out, result.document);
        const d = result.document;
        console.log(
          `${options.out}: ${d.application} — ${d.files.length} files, ${d.objects.length} objects (${d.objects.filter((o) => o.external).length} external), ${d.links.length} links, ${d.objects.filter((o) => o.role === "start").length} start and ${d.objects.filter((o) => o.role === "end").length} end points${result.configFile ? ` (config ${result.configFile})` : " (no tsconfig/jsconfig: every source file)"}, ${((performance.now() - started) / 1000).toFixed(1)} s`,
        );
      } catch (error) {
        if (error instanceof ProjectError || error instanceof RulesError || error instanceof AnalyzeOptionError)
          throw new ExitError(EXIT.usage, error.message);
        throw error;
      }
    },
  );

program
  .command("import")
  .description(
    "turn a SCIP index (scip-typescript, scip-python, scip-java ...) into an analysis (.json); see docs/import.md",
  )
  .argument("<index>", "SCIP index file (index.scip)")
  .requiredOption("-o, --out <file>", "analysis file to write (.json)")
  .option("--name <application>", "application name (default: the package the index defines)")
  .option("--rules <file>", "taxonomy and start/end point rules (JSON; sections left out keep their defaults)")
  .option("--analyzed-at <date>", "RFC 3339 date-time of the analysis (default: now)")
  .action(async (file: string, options: { out: string; name?: string; rules?: string; analyzedAt?: string }) => {
    const started = performance.now();
    const { readFile } = await import("node:fs/promises");
    const { ScipImportError, importScip } = await import("./import/import-scip.ts");
    const { RulesError, loadRules } = await import("./analyze/rules.ts");
    const { writeAnalysisFile } = await import("./analyze/write-analysis.ts");
    if (!/\.json$/i.test(options.out)) throw new ExitError(EXIT.usage, `--out ${options.out}: must end in .json`);
    try {
      const rules = await loadRules(options.rules);
      const { document: d, tool } = importScip(await readFile(file), {
        source: file,
        application: options.name,
        analyzedAt: options.analyzedAt,
        rules,
      });
      await writeAnalysisFile(options.out, d);
      console.log(
        `${options.out}: ${d.application} — from ${tool}: ${d.files.length} files, ${d.objects.length} objects (${d.objects.filter((o) => o.external).length} external), ${d.links.length} links, ${d.objects.filter((o) => o.role === "start").length} start and ${d.objects.filter((o) => o.role === "end").length} end points, ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    } catch (error) {
      if (error instanceof ScipImportError || error instanceof RulesError)
        throw new ExitError(EXIT.usage, error.message);
      throw error;
    }
  });

async function main(argv: string[]): Promise<number> {
  try {
    await program.parseAsync(argv);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    if (error instanceof ExitError) {
      process.stderr.write(`appstruct: ${error.message}\n`);
      return error.code;
    }
    const e = error as NodeJS.ErrnoException;
    process.stderr.write(`appstruct: ${e.code === "ENOENT" ? `no such file: ${e.path}` : e.message}\n`);
    return EXIT.failed;
  }
}

process.exitCode = await main(process.argv);
