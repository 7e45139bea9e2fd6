// @module `appstruct analyze`: loads a TypeScript/JavaScript project and produces its analysis (objects, links, taxonomy, roles).
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import ts from "typescript";
import { parseRfc3339, publishableNameProblem } from "../../src/rules.ts";
import { validateDocument } from "../analysis/document.ts";
import { type CheckerFailure, CheckerGuard } from "./checker-guard.ts";
import { DataAccessFinder } from "./data-access.ts";
import { DataObjects } from "./data-objects.ts";
import { escalateLinks } from "./escalate.ts";
import { Externals } from "./externals.ts";
import { Extractor } from "./extract.ts";
import { IdAllocator } from "./ids.ts";
import { Linker } from "./links.ts";
import { loadProject, projectFilesWith, projectPath } from "./load-program.ts";
import { CodeModel, type CodeObject, fileObjectOf, type ProjectFile } from "./model.ts";
import { OriginTracer } from "./origin.ts";
import { type PrismaModel, readPrismaSchema } from "./prisma-schema.ts";
import { TargetResolver } from "./resolve.ts";
import { assignEndPoints, assignStartPoints } from "./roles.ts";
import { RouteFinder } from "./routes.ts";
import { DEFAULT_RULES, type Rules } from "./rules.ts";
import { type SqlProblem, SqlReader } from "./sql-reader.ts";
import { buildTaxonomy } from "./taxonomy.ts";
import { type AnalysisDocument, analysisDocument } from "./write-analysis.ts";

export interface AnalyzeOptions {
  folder: string;
  tsconfig?: string;
  application?: string;
  analyzedAt?: string;
  rules?: Rules;
  /** Whether the analysis holds the source text of the files analysed (default true; `--no-source` says false). */
  source?: boolean;
}

export interface SyntaxProblem {
  file: string;
  line: number;
  message: string;
}

export interface AnalyzeResult {
  document: AnalysisDocument;
  configFile: string | null;
  configProblems: string[];
  syntaxProblems: SyntaxProblem[];
  /** Expressions the type checker could not resolve (stack overflow): they have no links. */
  checkerFailures: CheckerFailure[];
  /** SQL statements no dialect parses: skipped, or only the name they create read. */
  sqlProblems: SqlProblem[];
}

const ANALYZER = { name: "appstruct analyze", version: `0.1.0 (TypeScript ${ts.version})` };
const languageOf = (path: string) => (/\.[cm]?tsx?$/.test(path) ? "TypeScript" : "JavaScript");

/** The application name: the option, else package.json's name, else the folder's name. */
function applicationName(root: string, given: string | undefined): string {
  if (given) return given;
  try {
    const name = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).name;
    if (typeof name === "string" && !publishableNameProblem(name)) return name;
  } catch {
    // no usable package.json: the folder names the application
  }
  return basename(root);
}

export class AnalyzeOptionError extends Error {}

export function analyzeProject(options: AnalyzeOptions): AnalyzeResult {
  if (options.analyzedAt !== undefined && parseRfc3339(options.analyzedAt) === null)
    throw new AnalyzeOptionError(
      `--analyzed-at ${options.analyzedAt}: must be an RFC 3339 date-time with a zone, e.g. 2026-09-01T12:00:00Z`,
    );
  const nameProblem = options.application !== undefined ? publishableNameProblem(options.application) : null;
  if (nameProblem) throw new AnalyzeOptionError(`--name: the application name ${nameProblem}`);
  const rules = options.rules ?? DEFAULT_RULES;
  const project = loadProject(options.folder, options.tsconfig);
  const checker = project.program.getTypeChecker();
  const model = new CodeModel();
  const ids = new IdAllocator();
  const externals = new Externals(model, ids, project.program.getCompilerOptions());
  const origins = new OriginTracer(checker);
  const routes = new RouteFinder(checker, origins, externals, rules.startPoints);
  const guard = new CheckerGuard((sf) => projectPath(project.root, sf.fileName));
  const extractor = new Extractor(model, ids, checker, routes, guard);
  const syntaxProblems: SyntaxProblem[] = [];
  const projectFiles = new Map<ts.SourceFile, ProjectFile>();

  project.sourceFiles.forEach((sf, i) => {
    const path = projectPath(project.root, sf.fileName);
    const file = {
      id: String(i + 1),
      path,
      language: languageOf(path),
      ...(options.source === false ? {} : { text: sf.text }),
    };
    model.files.push(file);
    projectFiles.set(sf, file);
    const fileObject = extractor.extractFile(sf, file);
    const problems = project.program.getSyntacticDiagnostics(sf).map((d) => ({
      file: path,
      line: sf.getLineAndCharacterOfPosition(d.start ?? 0).line + 1,
      message: ts.flattenDiagnosticMessageText(d.messageText, " "),
    }));
    if (problems.length) {
      fileObject.tags.add("syntax errors");
      model.postIts.push({
        object: fileObject,
        title: "Syntax errors",
        text: problems.map((p) => `line ${p.line}: ${p.message}`).join("\n"),
      });
      syntaxProblems.push(...problems);
    }
  });

  const resolver = new TargetResolver(checker, extractor.nodeObjects, externals, origins, new Set(project.sourceFiles));
  const linker = new Linker(model, checker, extractor.nodeObjects, resolver, externals, routes, guard);
  for (const sf of project.sourceFiles) linker.linkFile(sf);

  const data = new DataObjects(model, ids);
  const sqlReader = new SqlReader(data);
  const prismaModels = new Map<string, PrismaModel>();
  for (const [extension, language] of [
    [".sql", "SQL"],
    [".prisma", "Prisma"],
  ]) {
    for (const absolute of projectFilesWith(project.root, [extension])) {
      const file = { id: String(model.files.length + 1), path: projectPath(project.root, absolute), language };
      const text = readFileSync(absolute, "utf8");
      model.files.push(file);
      const fileObject = model.add(fileObjectOf(file, ids.idFor(`file:${file.path}`), text));
      if (language === "SQL") sqlReader.read(text, { file, fileObject, firstLine: 1 }, null);
      else
        for (const [delegate, m] of readPrismaSchema(text, file, fileObject, model, ids, data))
          prismaModels.set(delegate, m);
    }
  }
  const finder = new DataAccessFinder({
    checker,
    nodeObjects: extractor.nodeObjects,
    resolver,
    guard,
    sourceOf: (sf) => ({ file: projectFiles.get(sf)!, fileObject: extractor.nodeObjects.get(sf)! }),
    reader: sqlReader,
    data,
    rules: rules.sql,
    prismaModels,
  });
  for (const sf of project.sourceFiles) finder.findInFile(sf);
  finder.finish();
  data.finish();
  model.dropUnlinkedExternals();
  escalateLinks(model);
  const compilerOptions = project.program.getCompilerOptions();
  const relativeFolder = (folder: string | undefined) => (folder ? projectPath(project.root, folder) || null : null);
  assignStartPoints(model, project.root, rules.startPoints, {
    outDir: relativeFolder(compilerOptions.outDir),
    rootDir: relativeFolder(compilerOptions.rootDir),
  });
  assignEndPoints(model, rules.endPoints);

  const taxonomy = buildTaxonomy(model.objects, extractor.fileImports, rules);
  const nodes = new Map(taxonomy.nodes.map((n) => [n.key, n]));
  const serviceOf = (o: CodeObject) => nodes.get(taxonomy.level5.get(o.id)!.split(".").slice(0, 2).join("."))!.name;
  for (const o of model.objects) if (!o.external && /^Test/.test(serviceOf(o))) o.tags.add("test");

  const document = analysisDocument(model, taxonomy, {
    application: applicationName(project.root, options.application),
    analyzedAt: options.analyzedAt ?? new Date().toISOString().replace(/\.\d{3}Z$/, "Z"),
    analyzer: ANALYZER,
  });
  // The analysis must be one the build step takes: a fault here is a bug of the analyzer, refused before anything is written.
  validateDocument(document);
  return {
    document,
    configFile: project.configFile,
    configProblems: project.configProblems,
    syntaxProblems,
    checkerFailures: guard.failures,
    sqlProblems: sqlReader.problems,
  };
}
