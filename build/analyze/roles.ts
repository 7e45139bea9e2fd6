// @module Start and end points by the rules file: route handlers, package entry points, and calls into data stores and the outside world.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { CodeModel, CodeObject } from "./model.ts";
import { packageMatches, type Rules } from "./rules.ts";

interface PackageJson {
  bin?: string | Record<string, string>;
  main?: string;
  module?: string;
  exports?: unknown;
}

const stem = (path: string) => path.replace(/^\.\//, "").replace(/\.(d\.)?[cm]?[jt]sx?$/, "");

/** Where the project's build writes its output and what it compiles from, project-relative (`dist`, `src`), when the tsconfig says. */
export interface BuildFolders {
  outDir: string | null;
  rootDir: string | null;
}

/** The project files a package.json path names: the path itself, or its source when it points at build output (`outDir/x.js` → `rootDir/x.ts`; dist/x.js → src/x.ts). */
function sourceFilesFor(path: string, files: ReadonlyMap<string, CodeObject>, build: BuildFolders): CodeObject[] {
  const wanted = stem(path);
  const candidates = [
    wanted,
    wanted.replace(/^(dist|build|lib|out)\//, "src/"),
    wanted.replace(/^(dist|build|lib|out)\//, ""),
  ];
  if (build.outDir && wanted.startsWith(`${build.outDir}/`)) {
    const inside = wanted.slice(build.outDir.length + 1);
    candidates.push(build.rootDir ? `${build.rootDir}/${inside}` : inside, `src/${inside}`);
  }
  return [...files.entries()].filter(([p]) => candidates.includes(stem(p))).map(([, f]) => f);
}

function exportPaths(exports: unknown): string[] {
  if (typeof exports === "string") return [exports];
  if (!exports || typeof exports !== "object") return [];
  const root = (exports as Record<string, unknown>)["."] ?? exports;
  if (typeof root === "string") return [root];
  return Object.values(root as Record<string, unknown>).flatMap((v) => (typeof v === "string" ? [v] : exportPaths(v)));
}

function readPackageJson(root: string): PackageJson | null {
  const path = join(root, "package.json");
  if (!existsSync(path)) return null;
  try {
    return JSON.parse(readFileSync(path, "utf8")) as PackageJson;
  } catch {
    return null;
  }
}

export function assignStartPoints(
  model: CodeModel,
  root: string,
  rules: Rules["startPoints"],
  build: BuildFolders = { outDir: null, rootDir: null },
): void {
  const files = new Map(model.objects.filter((o) => o.kind === "file").map((f) => [f.filePath!, f]));
  const routeFile = new RegExp(rules.routeFiles);
  const decorator = new RegExp(`^@(${rules.routeDecorators.join("|")})\\b`);
  for (const o of model.objects) {
    if (o.external) continue;
    if (rules.routeDecorators.length && o.kind === "method" && o.annotations.some((a) => decorator.test(a)))
      o.role = "start";
    if (
      o.parent?.kind === "file" &&
      routeFile.test(o.filePath!) &&
      rules.routeFileExports.includes(o.name) &&
      o.tags.has("exported")
    )
      o.role = "start";
  }
  const pkg = readPackageJson(root);
  if (!pkg) return;
  if (rules.packageBin && pkg.bin) {
    for (const path of typeof pkg.bin === "string" ? [pkg.bin] : Object.values(pkg.bin))
      for (const f of sourceFilesFor(path, files, build)) f.role = "start";
  }
  if (rules.packageMain) {
    const mains = new Set(
      // Without main, module or exports, Node loads the package's index.js.
      (pkg.main || pkg.module || pkg.exports ? [pkg.main, pkg.module, ...exportPaths(pkg.exports)] : ["index.js"])
        .filter((p): p is string => typeof p === "string")
        .flatMap((p) => sourceFilesFor(p, files, build)),
    );
    for (const o of model.objects) {
      if (
        o.parent &&
        mains.has(o.parent) &&
        o.tags.has("exported") &&
        ["function", "arrowFunction", "functionExpression", "class"].includes(o.kind)
      )
        o.role = "start";
    }
  }
}

/** External objects that are called and match an end-point rule (package, and member path when the rule has one). */
export function assignEndPoints(model: CodeModel, rules: Rules["endPoints"]): void {
  const called = new Set<CodeObject>();
  for (const link of model.links)
    if (link.type === "CALL" && link.to.external && link.to.kind !== "package") called.add(link.to);
  const ends = new Set<string>();
  // Shorter names first: a chain's head is decided before the calls made on what it returns.
  for (const o of [...called].sort((a, b) => a.fullName.length - b.fullName.length)) {
    const member = o.fullName.slice(o.packageName!.length + 1);
    if (o.kind === "externalMember" && ends.has(o.fullName.slice(0, o.fullName.lastIndexOf(".")))) {
      // `repo.find().map()` traced through an import gives `typeorm.Repository.find.map`: a call on what the
      // end point `find` returned, not a second end point; `new S3Client().send()` names a method of an instance.
      const head = member.split(".").at(-2)!;
      if (/^[a-z_$]/.test(head)) continue;
    }
    const rule = rules.find(
      (r) =>
        r.packages.some((p) => packageMatches(p, o.packageName!)) && (!r.members || new RegExp(r.members).test(member)),
    );
    if (rule) {
      o.role = "end";
      o.tags.add(rule.what);
      ends.add(o.fullName);
    }
  }
}
