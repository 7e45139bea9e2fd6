// @module External objects: what the code uses from node_modules, Node built-ins and the standard library, one package object each.
import { builtinModules } from "node:module";
import { basename, dirname } from "node:path";
import ts from "typescript";
import { checksumOf, type IdAllocator } from "./ids.ts";
import type { ObjectKind, PackageKind } from "./kinds.ts";
import { type CodeModel, type CodeObject, codeObject } from "./model.ts";
import type { ImportOrigin } from "./origin.ts";

const BUILTINS = new Set(builtinModules.filter((m) => !m.startsWith("_")));
export const STDLIB_PACKAGE = "ECMAScript";

/** The package a module specifier names: `@scope/name`, `name`, a built-in without `node:` and subpath (`fs` for `fs/promises`). */
export function packageOfSpecifier(specifier: string): { name: string; kind: PackageKind } {
  const bare = specifier.replace(/^node:/, "");
  if (specifier.startsWith(".") || specifier.startsWith("/")) return { name: specifier, kind: "unresolved" };
  const parts = bare.split("/");
  const name = bare.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
  if (BUILTINS.has(name) || specifier.startsWith("node:")) return { name, kind: "node" };
  return { name, kind: "npm" };
}

function declarationKind(declaration: ts.Declaration): ObjectKind {
  if (ts.isClassLike(declaration)) return "externalClass";
  if (ts.isInterfaceDeclaration(declaration)) return "externalInterface";
  if (ts.isTypeAliasDeclaration(declaration) || ts.isEnumDeclaration(declaration)) return "externalType";
  if (ts.isFunctionDeclaration(declaration)) return "externalFunction";
  if (
    ts.isMethodDeclaration(declaration) ||
    ts.isMethodSignature(declaration) ||
    ts.isConstructorDeclaration(declaration) ||
    ts.isConstructSignatureDeclaration(declaration) ||
    ts.isCallSignatureDeclaration(declaration)
  )
    return "externalMethod";
  if (
    ts.isVariableDeclaration(declaration) ||
    ts.isPropertySignature(declaration) ||
    ts.isPropertyDeclaration(declaration)
  )
    return "externalVariable";
  return "externalMember";
}

/** The names of the declarations enclosing `declaration` up to its file or ambient module: [Pool, query]. */
function memberPath(declaration: ts.Node): { path: string[]; ambientModule: string | null } {
  const path: string[] = [];
  for (let n: ts.Node | undefined = declaration; n && !ts.isSourceFile(n); n = n.parent) {
    if (ts.isModuleDeclaration(n) && ts.isStringLiteral(n.name)) return { path, ambientModule: n.name.text };
    if (ts.isConstructorDeclaration(n) || ts.isConstructSignatureDeclaration(n)) path.unshift("constructor");
    const name = (n as ts.NamedDeclaration).name;
    if (
      name &&
      (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isPrivateIdentifier(name)) &&
      !ts.isParameter(n) &&
      !ts.isTypeParameterDeclaration(n)
    )
      path.unshift(name.text);
  }
  return { path, ambientModule: null };
}

export class Externals {
  private readonly model: CodeModel;
  private readonly ids: IdAllocator;
  private readonly libFolder: string;
  private readonly packages = new Map<string, CodeObject>();
  private readonly members = new Map<string, CodeObject>();

  constructor(model: CodeModel, ids: IdAllocator, options: ts.CompilerOptions) {
    this.model = model;
    this.ids = ids;
    this.libFolder = dirname(ts.getDefaultLibFilePath(options));
  }

  packageObject(name: string, kind: PackageKind): CodeObject {
    let object = this.packages.get(name);
    if (!object) {
      object = this.model.add(
        codeObject({
          id: this.ids.idFor(`package:${name}`),
          name,
          fullName: name,
          kind: "package",
          packageKind: kind,
          external: true,
          tags: new Set(kind === "unresolved" ? ["unresolved"] : []),
          checksum: checksumOf(`package:${name}`),
          packageName: name,
        }),
      );
      this.packages.set(name, object);
    }
    return object;
  }

  member(pkg: CodeObject, path: string[], kind: ObjectKind): CodeObject {
    if (path.length === 0) return pkg;
    const fullName = `${pkg.name}.${path.join(".")}`;
    let object = this.members.get(fullName);
    if (!object) {
      object = this.model.add(
        codeObject({
          id: this.ids.idFor(`external:${fullName}`),
          name: path[path.length - 1],
          fullName,
          kind,
          external: true,
          parent: pkg,
          checksum: checksumOf(`external:${fullName}`),
          packageName: pkg.name,
        }),
      );
      this.members.set(fullName, object);
    }
    return object;
  }

  /** The package a declaration outside the project belongs to (by its file under node_modules, its ambient module, or the TypeScript lib). */
  packageOfDeclaration(declaration: ts.Node): { name: string; kind: PackageKind; path: string[] } {
    const fileName = declaration.getSourceFile().fileName;
    const { path, ambientModule } = memberPath(declaration);
    if (ambientModule !== null) return { ...packageOfSpecifier(ambientModule), path };
    if (dirname(fileName) === this.libFolder && /^lib\..*\.d\.ts$/.test(basename(fileName)))
      return { name: STDLIB_PACKAGE, kind: "stdlib", path };
    const segments = fileName.split(/[\\/]/);
    const at = segments.lastIndexOf("node_modules");
    if (at >= 0 && at + 1 < segments.length) {
      let name = segments[at + 1].startsWith("@") ? `${segments[at + 1]}/${segments[at + 2]}` : segments[at + 1];
      if (name.startsWith("@types/")) name = name.slice(7).replace(/^(.+)__(.+)$/, "@$1/$2");
      return name === "node" ? { name: "node", kind: "node", path } : { ...packageOfSpecifier(name), path };
    }
    return { name: "(declarations)", kind: "npm", path };
  }

  forDeclaration(declaration: ts.Declaration): CodeObject {
    const { name, kind, path } = this.packageOfDeclaration(declaration);
    return this.member(this.packageObject(name, kind), path, declarationKind(declaration));
  }

  forOrigin(origin: ImportOrigin): CodeObject {
    const { name, kind } = packageOfSpecifier(origin.module);
    const subpath = origin.module.replace(/^node:/, "").slice(name.length + 1);
    return this.member(
      this.packageObject(name, kind),
      subpath ? [subpath, ...origin.path] : origin.path,
      "externalMember",
    );
  }

  forModule(specifier: string): CodeObject {
    const { name, kind } = packageOfSpecifier(specifier);
    return this.packageObject(name, kind);
  }
}
