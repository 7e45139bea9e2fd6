// @module Object extraction: one walk over a source file creating its file, class, function, method ... objects.
import ts from "typescript";
import type { CheckerGuard } from "./checker-guard.ts";
import { packageOfSpecifier } from "./externals.ts";
import { checksumOf, type IdAllocator, UniqueNames } from "./ids.ts";
import type { ObjectKind } from "./kinds.ts";
import { type CodeModel, type CodeObject, codeObject, fileObjectOf, type ProjectFile } from "./model.ts";
import type { RouteFinder } from "./routes.ts";
import {
  decoratorsOf,
  hasExportModifier,
  lineSpan,
  mangling,
  propertyNameText,
  sourceText,
  syntaxTags,
  unwrapExpression,
} from "./source-facts.ts";

interface FileContext {
  sf: ts.SourceFile;
  file: ProjectFile;
  exported: Set<ts.Node>;
  imports: Set<string>;
  /** Function-like objects by kind and fullName in this file, with whether the last declaration had a body (overload merging). */
  overloads: Map<string, { object: CodeObject; hasBody: boolean }>;
}

type FunctionNode = ts.FunctionLikeDeclaration | ts.MethodSignature;

const unwrap = (e: ts.Expression | undefined) => unwrapExpression(e);
const isFunctionValue = (e: ts.Expression | undefined): e is ts.ArrowFunction | ts.FunctionExpression =>
  !!e && (ts.isArrowFunction(e) || ts.isFunctionExpression(e));
const functionValueKind = (e: ts.ArrowFunction | ts.FunctionExpression): ObjectKind =>
  ts.isArrowFunction(e) ? "arrowFunction" : "functionExpression";
const hasBody = (n: FunctionNode) => "body" in n && n.body !== undefined;

/** `module.exports.a`, `exports.a`, `A.prototype.b`, `this.a`, `(x as T).a` → the names that locate the assigned value, and whether it is exported. */
function assignmentTarget(left: ts.Expression): { names: string[]; exported: boolean; prototype: boolean } | null {
  const names: string[] = [];
  let e = left;
  while (ts.isPropertyAccessExpression(e)) {
    names.unshift(e.name.text);
    e = unwrap(e.expression)!;
  }
  if (ts.isIdentifier(e)) names.unshift(e.text);
  else if (e.kind !== ts.SyntaxKind.ThisKeyword || names.length === 0) return null;
  let exported = false;
  if (names[0] === "module" && names[1] === "exports") names.splice(0, 2), (exported = true);
  else if (names[0] === "exports") names.splice(0, 1), (exported = true);
  const prototype = names.includes("prototype");
  return { names: names.filter((n) => n !== "prototype"), exported, prototype };
}

export class Extractor {
  readonly nodeObjects = new Map<ts.Node, CodeObject>();
  readonly fileImports = new Map<CodeObject, Set<string>>();
  private readonly model: CodeModel;
  private readonly ids: IdAllocator;
  private readonly checker: ts.TypeChecker;
  private readonly routes: RouteFinder;
  private readonly keys = new UniqueNames();
  private readonly guard: CheckerGuard;

  constructor(model: CodeModel, ids: IdAllocator, checker: ts.TypeChecker, routes: RouteFinder, guard: CheckerGuard) {
    this.guard = guard;
    this.model = model;
    this.ids = ids;
    this.checker = checker;
    this.routes = routes;
  }

  extractFile(sf: ts.SourceFile, file: ProjectFile): CodeObject {
    const fileObject = this.model.add(fileObjectOf(file, this.ids.idFor(`file:${file.path}`), sf.text));
    this.nodeObjects.set(sf, fileObject);
    const ctx: FileContext = {
      sf,
      file,
      exported: this.exportedDeclarations(sf),
      imports: new Set(),
      overloads: new Map(),
    };
    const scope = `"${file.path.replace(/\.[cm]?[jt]sx?$/, "")}"`;
    for (const statement of sf.statements) this.visit(statement, fileObject, scope, ctx);
    this.fileImports.set(fileObject, ctx.imports);
    return fileObject;
  }

  private exportedDeclarations(sf: ts.SourceFile): Set<ts.Node> {
    const exported = new Set<ts.Node>();
    const moduleSymbol = this.checker.getSymbolAtLocation(sf);
    if (!moduleSymbol) return exported;
    for (let symbol of this.checker.getExportsOfModule(moduleSymbol)) {
      if (symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
      for (const d of symbol.declarations ?? []) {
        // CommonJS `module.exports = { a }` exports the declaration `a` names.
        const named = ts.isShorthandPropertyAssignment(d)
          ? (this.checker.getShorthandAssignmentValueSymbol(d)?.declarations ?? [])
          : [d];
        for (const n of named)
          if (n.getSourceFile() === sf)
            exported.add(
              ts.isVariableDeclaration(n) &&
                ts.isVariableDeclarationList(n.parent) &&
                n.parent.declarations.length === 1
                ? n.parent.parent
                : n,
            );
      }
    }
    return exported;
  }

  private create(
    ctx: FileContext,
    node: ts.Node,
    kind: ObjectKind,
    name: string,
    fullName: string,
    parent: CodeObject,
    extraTags: string[] = [],
  ): CodeObject {
    const key = this.keys.unique(`${kind}:${fullName}`);
    const object = this.model.add(
      codeObject({
        id: this.ids.idFor(key),
        name,
        fullName: key.slice(kind.length + 1),
        kind,
        language: ctx.file.language,
        filePath: ctx.file.path,
        annotations: decoratorsOf(node),
        tags: new Set([...syntaxTags(node), ...extraTags]),
        parent,
        checksum: checksumOf(sourceText(node, ctx.sf)),
        location: { fileId: ctx.file.id, ...lineSpan(node, ctx.sf) },
      }),
    );
    if (ctx.exported.has(node) || hasExportModifier(node)) object.tags.add("exported");
    this.nodeObjects.set(node, object);
    return object;
  }

  /** A function-like object; overload signatures and their implementation make one object spanning all of them. */
  private createFunction(
    ctx: FileContext,
    located: ts.Node,
    fn: FunctionNode,
    kind: ObjectKind,
    name: string,
    fullName: string,
    parent: CodeObject,
    tags: string[] = [],
  ): CodeObject {
    const overloadKey = `${kind}:${fullName}`;
    const previous = ctx.overloads.get(overloadKey);
    if (previous && previous.object.parent === parent && (!previous.hasBody || !hasBody(fn))) {
      const o = previous.object;
      o.location!.endLine = lineSpan(located, ctx.sf).endLine;
      o.checksum = checksumOf(o.checksum + sourceText(located, ctx.sf));
      o.tags.add("overloaded");
      for (const tag of syntaxTags(located)) o.tags.add(tag);
      if (!hasBody(fn)) o.mangling += ` | ${mangling(fn)}`;
      previous.hasBody = hasBody(fn);
      this.nodeObjects.set(located, o);
      this.nodeObjects.set(fn, o);
      this.visitChildren(fn, o, o.fullName, ctx);
      return o;
    }
    const object = this.create(ctx, located, kind, name, fullName, parent, tags);
    object.mangling = mangling(fn);
    ctx.overloads.set(overloadKey, { object, hasBody: hasBody(fn) });
    this.nodeObjects.set(fn, object);
    this.visitChildren(fn, object, object.fullName, ctx);
    return object;
  }

  private visitChildren(node: ts.Node, owner: CodeObject, scope: string, ctx: FileContext): void {
    ts.forEachChild(node, (child) => this.visit(child, owner, scope, ctx));
  }

  private visit(node: ts.Node, owner: CodeObject, scope: string, ctx: FileContext): void {
    if (ts.isClassDeclaration(node) || ts.isClassExpression(node))
      return this.visitClass(
        ctx,
        node,
        node,
        node.name?.text ?? (ts.isClassDeclaration(node) ? "default" : "(class)"),
        owner,
        scope,
      );
    if (ts.isFunctionDeclaration(node)) {
      const name = node.name?.text ?? "default";
      this.createFunction(ctx, node, node, "function", name, `${scope}.${name}`, owner);
      return;
    }
    if (
      ts.isMethodDeclaration(node) ||
      ts.isGetAccessorDeclaration(node) ||
      ts.isSetAccessorDeclaration(node) ||
      ts.isConstructorDeclaration(node)
    )
      return this.visitMember(ctx, node, owner, scope);
    if (ts.isPropertyDeclaration(node)) {
      // Functions in a property's decorators (`@ApiProperty({ type: () => File })`) are the class's, like a method's.
      for (const decorator of ts.getDecorators(node) ?? []) this.visit(decorator.expression, owner, scope, ctx);
      return this.visitBinding(ctx, node, node.name, node.initializer, owner, scope);
    }
    if (ts.isPropertyAssignment(node)) return this.visitBinding(ctx, node, node.name, node.initializer, owner, scope);
    if (ts.isVariableStatement(node)) {
      const single = node.declarationList.declarations.length === 1;
      for (const d of node.declarationList.declarations)
        this.visitBinding(ctx, single ? node : d, d.name, d.initializer, owner, scope, d, hasExportModifier(node));
      return;
    }
    if (ts.isExportAssignment(node)) {
      const value = unwrap(node.expression);
      if (isFunctionValue(value))
        this.createFunction(ctx, node, value, functionValueKind(value), "default", `${scope}.default`, owner, [
          "exported",
        ]);
      else this.visitChildren(node, owner, scope, ctx);
      return;
    }
    if (
      ts.isExpressionStatement(node) &&
      ts.isBinaryExpression(node.expression) &&
      node.expression.operatorToken.kind === ts.SyntaxKind.EqualsToken
    ) {
      if (this.visitAssignment(ctx, node, node.expression, owner, scope)) return;
    }
    if (ts.isInterfaceDeclaration(node)) return this.visitInterface(ctx, node, owner, scope);
    if (ts.isEnumDeclaration(node) || ts.isTypeAliasDeclaration(node)) {
      this.create(
        ctx,
        node,
        ts.isEnumDeclaration(node) ? "enum" : "typeAlias",
        node.name.text,
        `${scope}.${node.name.text}`,
        owner,
      );
      return;
    }
    if (ts.isModuleDeclaration(node) && ts.isIdentifier(node.name))
      return this.visitChildren(node, owner, `${scope}.${node.name.text}`, ctx);
    if (ts.isCallExpression(node)) this.guard.run(node, () => this.visitCall(ctx, node, owner, scope));
    else if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    )
      this.noteImport(ctx, node.moduleSpecifier.text);
    this.visitChildren(node, owner, scope, ctx);
  }

  private noteImport(ctx: FileContext, specifier: string): void {
    if (!specifier.startsWith(".") && !specifier.startsWith("/"))
      ctx.imports.add(specifier.startsWith("node:") ? specifier : packageOfSpecifier(specifier).name);
  }

  /** Route registrations give their inline handlers an object named after the route; `require` notes an import. */
  private visitCall(ctx: FileContext, call: ts.CallExpression, owner: CodeObject, scope: string): void {
    if (
      ts.isIdentifier(call.expression) &&
      call.expression.text === "require" &&
      call.arguments[0] &&
      ts.isStringLiteralLike(call.arguments[0])
    )
      this.noteImport(ctx, call.arguments[0].text);
    if (
      call.expression.kind === ts.SyntaxKind.ImportKeyword &&
      call.arguments[0] &&
      ts.isStringLiteralLike(call.arguments[0])
    )
      this.noteImport(ctx, call.arguments[0].text);
    const registration = this.routes.registration(call);
    if (!registration) return;
    for (const handler of registration.handlers) {
      const value = unwrap(handler);
      if (!isFunctionValue(value)) continue;
      const o = this.createFunction(
        ctx,
        value,
        value,
        registration.kind,
        registration.route,
        `${scope}.${registration.route}`,
        owner,
      );
      o.role = "start";
    }
  }

  private visitClass(
    ctx: FileContext,
    located: ts.Node,
    node: ts.ClassLikeDeclaration,
    name: string,
    owner: CodeObject,
    scope: string,
  ): void {
    const object = this.create(ctx, located, "class", name, `${scope}.${name}`, owner);
    this.nodeObjects.set(node, object);
    ts.forEachChild(node, (child) => this.visit(child, object, object.fullName, ctx));
  }

  private visitMember(
    ctx: FileContext,
    node: ts.MethodDeclaration | ts.AccessorDeclaration | ts.ConstructorDeclaration,
    owner: CodeObject,
    scope: string,
  ): void {
    if (ts.isConstructorDeclaration(node)) {
      this.createFunction(ctx, node, node, "classConstructor", "constructor", `${scope}.constructor`, owner);
      return;
    }
    const name = propertyNameText(node.name) ?? "(computed)";
    const kind: ObjectKind = ts.isGetAccessorDeclaration(node)
      ? "getter"
      : ts.isSetAccessorDeclaration(node)
        ? "setter"
        : "method";
    this.createFunction(ctx, node, node, kind, name, `${scope}.${name}`, owner);
  }

  /** `name = value` in a variable, class property or object literal: functions and classes become objects, exported variables too. */
  private visitBinding(
    ctx: FileContext,
    located: ts.Node,
    nameNode: ts.PropertyName | ts.BindingName,
    initializer: ts.Expression | undefined,
    owner: CodeObject,
    scope: string,
    declaration?: ts.VariableDeclaration,
    exportModifier = false,
  ): void {
    const name = propertyNameText(nameNode);
    const value = unwrap(initializer);
    if (name === null || ts.isObjectBindingPattern(nameNode) || ts.isArrayBindingPattern(nameNode)) {
      if (initializer) this.visit(initializer, owner, scope, ctx);
      return;
    }
    // A handler given to a registration inside an object literal (`{ handler: () => ... }`) already has its object.
    if (value && this.nodeObjects.has(value)) return;
    const fullName = `${scope}.${name}`;
    // `module.exports = { a }` exports `const a = ...` as its statement (a single declarator) or its declaration.
    const exported =
      exportModifier || (declaration !== undefined && (ctx.exported.has(declaration) || ctx.exported.has(located)));
    let object: CodeObject | null = null;
    if (isFunctionValue(value))
      object = this.createFunction(
        ctx,
        located,
        value,
        functionValueKind(value),
        name,
        fullName,
        owner,
        exported ? ["exported"] : [],
      );
    else if (value && ts.isClassExpression(value)) {
      this.visitClass(ctx, located, value, name, owner, scope);
      object = this.nodeObjects.get(value)!;
    } else if (declaration && exported && owner.kind === "file") {
      object = this.create(ctx, located, "variable", name, fullName, owner, ["exported"]);
      if (value) this.visit(value, object, fullName, ctx);
    } else if (value && ts.isObjectLiteralExpression(value)) this.visit(value, owner, fullName, ctx);
    else if (value) this.visit(value, owner, scope, ctx);
    if (object && declaration) this.nodeObjects.set(declaration, object);
  }

  private visitAssignment(
    ctx: FileContext,
    statement: ts.ExpressionStatement,
    assignment: ts.BinaryExpression,
    owner: CodeObject,
    scope: string,
  ): boolean {
    const target = assignmentTarget(assignment.left);
    const value = unwrap(assignment.right);
    if (!target || !value) return false;
    if (!isFunctionValue(value) && !ts.isClassExpression(value)) {
      if (!ts.isObjectLiteralExpression(value) || !target.exported) return false;
      this.tagExportedNames(value);
      this.visit(value, owner, target.names.length ? `${scope}.${target.names.join(".")}` : scope, ctx);
      return true;
    }
    const names = target.names.length ? target.names : [value.name?.text ?? "default"];
    const name = names[names.length - 1];
    const fullName = `${scope}.${names.join(".")}`;
    if (ts.isClassExpression(value))
      this.visitClass(
        ctx,
        statement,
        value,
        name,
        owner,
        `${scope}${names.length > 1 ? `.${names.slice(0, -1).join(".")}` : ""}`,
      );
    else
      this.createFunction(
        ctx,
        statement,
        value,
        target.prototype ? "method" : functionValueKind(value),
        name,
        fullName,
        // `A.prototype.m = function` is a method of the constructor function `A` declared beside it.
        (target.prototype && ctx.overloads.get(`function:${scope}.${names[0]}`)?.object) || owner,
        target.exported ? ["exported"] : [],
      );
    return true;
  }

  /** `module.exports = { a, b: c }`: the functions and classes declared earlier as a and c are exported. */
  private tagExportedNames(exports: ts.ObjectLiteralExpression): void {
    for (const p of exports.properties) {
      const symbol = ts.isShorthandPropertyAssignment(p)
        ? this.checker.getShorthandAssignmentValueSymbol(p)
        : ts.isPropertyAssignment(p) && ts.isIdentifier(p.initializer)
          ? this.checker.getSymbolAtLocation(p.initializer)
          : undefined;
      for (const d of symbol?.declarations ?? []) {
        const object =
          this.nodeObjects.get(d) ?? (ts.isVariableDeclaration(d) ? this.nodeObjects.get(d.parent.parent) : undefined);
        object?.tags.add("exported");
      }
    }
  }

  private visitInterface(ctx: FileContext, node: ts.InterfaceDeclaration, owner: CodeObject, scope: string): void {
    const object = this.create(ctx, node, "interface", node.name.text, `${scope}.${node.name.text}`, owner);
    for (const member of node.members) {
      if (!ts.isMethodSignature(member)) continue;
      const name = propertyNameText(member.name) ?? "(computed)";
      this.createFunction(ctx, member, member, "interfaceMethod", name, `${object.fullName}.${name}`, object);
    }
  }
}
