// @module Loads the project to analyse as a TypeScript program: its tsconfig/jsconfig, or every source file with allowJs.
import { existsSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import ts from "typescript";

export interface LoadedProject {
  program: ts.Program;
  root: string;
  /** The config file used, or null when every source file of the folder was taken. */
  configFile: string | null;
  /** The project's own source files (not declaration files, not under node_modules), in a stable order. */
  sourceFiles: ts.SourceFile[];
  /** Problems with the configuration itself (unknown options, missing references); the analysis goes on. */
  configProblems: string[];
}

export class ProjectError extends Error {}

const SOURCE_EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];
const FALLBACK_EXCLUDES = ["**/node_modules", "**/.git", "**/dist", "**/coverage"];

/** The defaults for a folder without tsconfig/jsconfig: every source file, JavaScript included, modern syntax. */
const FALLBACK_OPTIONS: ts.CompilerOptions = {
  allowJs: true,
  checkJs: false,
  noEmit: true,
  target: ts.ScriptTarget.ESNext,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  jsx: ts.JsxEmit.Preserve,
  allowImportingTsExtensions: true,
  experimentalDecorators: true,
};

/** TypeScript's own lib files, parsed once per process: they never change, and parsing lib.dom.d.ts costs more than a small project. */
const libCache = new Map<string, ts.SourceFile>();

const within = (folder: string, path: string) => {
  const r = relative(folder, path);
  return r === "" || (!r.startsWith("..") && !isAbsolute(r));
};

/**
 * A compiler host that sees only the project folder and TypeScript's own lib files, so module
 * resolution never wanders into an enclosing folder's node_modules: what the project does not
 * have installed stays unresolved and becomes external.
 */
function confinedHost(options: ts.CompilerOptions, root: string): ts.CompilerHost {
  const host = ts.createCompilerHost(options, true);
  const libFolder = dirname(ts.getDefaultLibFilePath(options));
  const visible = (path: string) => within(root, resolve(path)) || within(libFolder, resolve(path));
  const fileExists = host.fileExists.bind(host);
  const directoryExists = host.directoryExists?.bind(host) ?? ts.sys.directoryExists;
  const readFile = host.readFile.bind(host);
  const getDirectories = host.getDirectories?.bind(host) ?? ts.sys.getDirectories;
  host.fileExists = (path) => visible(path) && fileExists(path);
  host.directoryExists = (path) => visible(path) && directoryExists(path);
  host.readFile = (path) => (visible(path) ? readFile(path) : undefined);
  host.getDirectories = (path) => (visible(path) ? getDirectories(path) : []);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (path, languageVersion, onError, shouldCreate) => {
    if (!within(libFolder, resolve(path))) return getSourceFile(path, languageVersion, onError, shouldCreate);
    const key = `${path}\0${JSON.stringify(languageVersion)}`;
    let sf = libCache.get(key);
    if (!sf) {
      sf = getSourceFile(path, languageVersion, onError, shouldCreate);
      if (sf) libCache.set(key, sf);
    }
    return sf;
  };
  return host;
}

/** TypeScript's diagnostic for a configuration file, such as an `extends` target, that does not exist. */
const FILE_NOT_FOUND = 6053;

/**
 * When an `extends`ed configuration is not installed, its target and library are lost, and
 * TypeScript's defaults (ES5: no Promise, Map ...) would cost most external links: the modern
 * defaults of a folder without configuration stand in, with a warning.
 */
function modernDefaults(config: ts.ParsedCommandLine, configFile: string, problems: string[]): ts.CompilerOptions {
  const { options } = config;
  const missing = config.raw?.extends !== undefined && config.errors.some((d) => d.code === FILE_NOT_FOUND);
  if (!missing || options.target !== undefined || options.lib !== undefined) return {};
  problems.push(
    `${configFile}: a configuration it extends is not installed; analysing with target ESNext and its library (install the project's dependencies to use its own)`,
  );
  const module =
    options.module === undefined
      ? { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler }
      : {};
  return { target: ts.ScriptTarget.ESNext, ...module };
}

function parseConfig(configFile: string, problems: string[]): ts.ParsedCommandLine {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    configFile,
    { noEmit: true },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new ProjectError(`${configFile}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
      },
    },
  );
  if (!parsed) throw new ProjectError(`${configFile}: cannot be read as a TypeScript configuration`);
  for (const d of parsed.errors) problems.push(`${configFile}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`);
  return parsed;
}

/** A solution-style config (`files: []` with references) analyses the union of its referenced projects. */
function withReferences(
  parsed: ts.ParsedCommandLine,
  problems: string[],
): { options: ts.CompilerOptions; fileNames: string[] } {
  const fileNames = new Set(parsed.fileNames);
  let options = parsed.options;
  if (fileNames.size === 0) {
    for (const reference of parsed.projectReferences ?? []) {
      const path = ts.resolveProjectReferencePath(reference);
      if (!existsSync(path)) {
        problems.push(`${path}: referenced project not found`);
        continue;
      }
      const child = withReferences(parseConfig(path, problems), problems);
      if (fileNames.size === 0) options = child.options;
      for (const f of child.fileNames) fileNames.add(f);
    }
  }
  return { options, fileNames: [...fileNames] };
}

function findConfig(root: string, explicit: string | undefined): string | null {
  if (explicit) {
    const path = resolve(explicit);
    if (!existsSync(path)) throw new ProjectError(`--tsconfig ${explicit}: no such file`);
    return path;
  }
  for (const name of ["tsconfig.json", "jsconfig.json"]) if (existsSync(join(root, name))) return join(root, name);
  return null;
}

export function loadProject(folder: string, tsconfig?: string): LoadedProject {
  const root = resolve(folder);
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new ProjectError(`${folder}: not a folder`);
  const configProblems: string[] = [];
  const configFile = findConfig(root, tsconfig);
  let options: ts.CompilerOptions;
  let fileNames: string[];
  if (configFile) {
    const config = parseConfig(configFile, configProblems);
    const parsed = withReferences(config, configProblems);
    options = {
      ...parsed.options,
      ...modernDefaults(config, configFile, configProblems),
      noEmit: true,
      skipLibCheck: true,
      allowJs: parsed.options.allowJs ?? configFile.endsWith("jsconfig.json"),
    };
    fileNames = parsed.fileNames;
  } else {
    options = FALLBACK_OPTIONS;
    fileNames = ts.sys.readDirectory(root, SOURCE_EXTENSIONS, FALLBACK_EXCLUDES, ["**/*"]);
  }
  const program = ts.createProgram({ rootNames: fileNames, options, host: confinedHost(options, root) });
  const sourceFiles = program
    .getSourceFiles()
    .filter(
      (sf) =>
        !sf.isDeclarationFile &&
        within(root, sf.fileName) &&
        !projectPath(root, sf.fileName).split("/").includes("node_modules"),
    )
    .sort((a, b) => (a.fileName < b.fileName ? -1 : a.fileName > b.fileName ? 1 : 0));
  if (sourceFiles.length === 0)
    throw new ProjectError(
      `${folder}: no TypeScript or JavaScript source file to analyse${configFile ? ` (config ${configFile})` : ""}`,
    );
  return { program, root, configFile, sourceFiles, configProblems };
}

/** The project's files with one of these extensions (`.sql`, `.prisma`), outside node_modules, .git, dist and coverage, sorted. */
export const projectFilesWith = (root: string, extensions: string[]) =>
  ts.sys.readDirectory(root, extensions, FALLBACK_EXCLUDES, ["**/*"]).sort();

/** The project-relative path of a file, with `/` separators. */
export const projectPath = (root: string, fileName: string) => relative(root, fileName).split(sep).join("/");
