// @module Link extraction: a walk over each file linking the innermost object to what it calls, references, extends, uses and imports.
import ts from "typescript";
import type { CheckerGuard } from "./checker-guard.ts";
import type { Externals } from "./externals.ts";
import { USED_TYPE_KINDS } from "./kinds.ts";
import type { CodeModel, CodeObject } from "./model.ts";
import type { CallLike, TargetResolver } from "./resolve.ts";
import type { RouteFinder } from "./routes.ts";

const isImportCall = (node: ts.CallExpression) =>
  node.expression.kind === ts.SyntaxKind.ImportKeyword ||
  (ts.isIdentifier(node.expression) &&
    node.expression.text === "require" &&
    node.arguments.length === 1 &&
    ts.isStringLiteralLike(node.arguments[0]));

/** Kinds a function reference passed as a value can point at (a REFER link). */
const FUNCTION_KINDS = new Set([
  "function",
  "arrowFunction",
  "functionExpression",
  "method",
  "routeHandler",
  "commandHandler",
  "externalFunction",
  "externalMethod",
]);
/** Kinds of the functions an assignment binds to a name (`obj.f = function`, `A.prototype.m = function`). */
const ASSIGNED_KINDS: ReadonlySet<string> = new Set(["arrowFunction", "functionExpression", "method"]);

export class Linker {
  private readonly model: CodeModel;
  private readonly checker: ts.TypeChecker;
  private readonly nodeObjects: ReadonlyMap<ts.Node, CodeObject>;
  private readonly resolver: TargetResolver;
  private readonly externals: Externals;
  private readonly routes: RouteFinder;
  private readonly variableNames: ReadonlySet<string>;
  private readonly guard: CheckerGuard;
  private internalByFullName: Map<string, CodeObject> | null = null;

  constructor(
    model: CodeModel,
    checker: ts.TypeChecker,
    nodeObjects: ReadonlyMap<ts.Node, CodeObject>,
    resolver: TargetResolver,
    externals: Externals,
    routes: RouteFinder,
    guard: CheckerGuard,
  ) {
    this.guard = guard;
    this.model = model;
    this.checker = checker;
    this.nodeObjects = nodeObjects;
    this.resolver = resolver;
    this.externals = externals;
    this.routes = routes;
    this.variableNames = new Set(model.objects.filter((o) => o.kind === "variable").map((o) => o.name));
  }

  linkFile(sf: ts.SourceFile): void {
    const fileObject = this.nodeObjects.get(sf)!;
    ts.forEachChild(sf, (child) => this.visit(child, fileObject));
  }

  private visit(node: ts.Node, owner: CodeObject): void {
    const own = this.nodeObjects.get(node);
    const current = own ?? owner;
    this.guard.run(node, () => this.linkNode(node, current, own !== undefined && own !== owner));
    ts.forEachChild(node, (child) => this.visit(child, current));
  }

  private linkNode(node: ts.Node, owner: CodeObject, entered: boolean): void {
    if (entered) {
      if (ts.isClassLike(node) || ts.isInterfaceDeclaration(node)) this.linkHeritage(node, owner);
      if (
        (ts.isMethodDeclaration(node) || ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node)) &&
        ts.isClassLike(node.parent)
      )
        this.linkOverrides(node, owner);
    }
    if (ts.isCallExpression(node)) this.visitCall(node, owner);
    else if (
      ts.isNewExpression(node) ||
      ts.isTaggedTemplateExpression(node) ||
      ts.isJsxOpeningElement(node) ||
      ts.isJsxSelfClosingElement(node)
    )
      this.call(node, owner);
    else if (ts.isDecorator(node) && !ts.isCallExpression(node.expression)) this.call(node, owner);
    else if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier)
      this.include(node.moduleSpecifier, owner);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      this.include(node.moduleReference.expression, owner);
    else if (ts.isTypeReferenceNode(node)) this.use(node.typeName, owner);
    else if (ts.isExpressionWithTypeArguments(node) && !ts.isHeritageClause(node.parent))
      this.use(node.expression, owner);
    else if (ts.isIdentifier(node) && this.variableNames.has(node.text)) this.access(node, owner);
  }

  private visitCall(node: ts.CallExpression, owner: CodeObject): void {
    if (isImportCall(node)) {
      if (node.arguments[0]) this.include(node.arguments[0], owner);
      return;
    }
    this.call(node, owner);
    const registration = this.routes.registration(node);
    for (const argument of node.arguments) {
      if (!ts.isIdentifier(argument) && !ts.isPropertyAccessExpression(argument)) continue;
      const target = this.resolver.symbolTarget(this.checker.getSymbolAtLocation(argument));
      if (!target || !FUNCTION_KINDS.has(target.kind)) continue;
      this.model.link(owner, target, "REFER");
      if (registration?.handlers.includes(argument) && !target.external) target.role = "start";
    }
  }

  private call(node: CallLike, owner: CodeObject): void {
    const target = this.resolver.callTarget(node) ?? this.siblingTarget(node, owner);
    if (target) this.model.link(owner, target, "CALL");
  }

  /**
   * `this.x()` inside a function bound by assignment (`app.init = function () {...}`,
   * `A.prototype.m = function () {...}`) that the checker leaves unresolved (a function assigning
   * `this.y` is a constructor to it, so its `this` is its own instance): the function bound the same
   * way beside it, `app.x` or `A.prototype.x`.
   */
  private siblingTarget(node: CallLike, owner: CodeObject): CodeObject | null {
    const callee = ts.isCallExpression(node) ? node.expression : null;
    if (!callee || !ts.isPropertyAccessExpression(callee) || callee.expression.kind !== ts.SyntaxKind.ThisKeyword)
      return null;
    if (!ASSIGNED_KINDS.has(owner.kind) || owner.parent?.kind === "class") return null;
    if (!this.internalByFullName) {
      this.internalByFullName = new Map();
      for (const o of this.model.objects) if (!o.external) this.internalByFullName.set(o.fullName, o);
    }
    const sibling = this.internalByFullName.get(
      `${owner.fullName.slice(0, owner.fullName.lastIndexOf("."))}.${callee.name.text}`,
    );
    return sibling && ASSIGNED_KINDS.has(sibling.kind) ? sibling : null;
  }

  private include(specifier: ts.Expression, owner: CodeObject): void {
    if (!ts.isStringLiteralLike(specifier)) return;
    const module = this.checker.getSymbolAtLocation(specifier);
    const declaration = module?.valueDeclaration ?? module?.declarations?.[0];
    // A project file is its file object; a module of a package (its file or `declare module`) is the package object.
    const target =
      (declaration && this.resolver.declarationTarget(declaration)) ?? this.externals.forModule(specifier.text);
    this.model.link(owner, target, "INCLUDE");
  }

  private use(name: ts.Node, owner: CodeObject): void {
    const target = this.resolver.typeTarget(
      this.checker.getSymbolAtLocation(ts.isQualifiedName(name) ? name.right : name),
    );
    if (target && USED_TYPE_KINDS.has(target.kind) && target !== owner && target.packageName !== "ECMAScript")
      this.model.link(owner, target, "USE");
  }

  private access(identifier: ts.Identifier, owner: CodeObject): void {
    const parent = identifier.parent;
    if (
      (ts.isVariableDeclaration(parent) || ts.isPropertyAccessExpression(parent)) &&
      (parent as ts.NamedDeclaration).name === identifier
    )
      return;
    if (ts.isImportSpecifier(parent) || ts.isImportClause(parent) || ts.isExportSpecifier(parent)) return;
    const target = this.resolver.symbolTarget(this.checker.getSymbolAtLocation(identifier));
    if (target?.kind === "variable" && target !== owner) this.model.link(owner, target, "ACCESS");
  }

  /** extends / implements: INHERIT from the class or interface to each base. */
  private linkHeritage(node: ts.ClassLikeDeclaration | ts.InterfaceDeclaration, object: CodeObject): void {
    for (const clause of node.heritageClauses ?? []) {
      for (const type of clause.types) {
        const target =
          this.resolver.symbolTarget(this.checker.getSymbolAtLocation(type.expression)) ??
          this.resolver.importOriginTarget(type.expression);
        if (target && target !== object) this.model.link(object, target, "INHERIT");
      }
    }
  }

  /**
   * A method overriding or implementing a base member: INHERIT method → base member, DISPATCH base
   * member → method (calls to the base reach it). When the class it extends lacks the member, the
   * interfaces its ancestors implement count too (`class B extends A`, `A implements I` without `m`).
   */
  private linkOverrides(node: ts.MethodDeclaration | ts.AccessorDeclaration, method: CodeObject): void {
    const name = method.name;
    const owner = node.parent as ts.ClassLikeDeclaration;
    for (const clause of owner.heritageClauses ?? []) for (const type of clause.types) this.override(type, method);
    const base = owner.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0];
    if (!base || this.checker.getTypeAtLocation(base).getProperty(name)) return;
    for (let ancestor = this.baseClassOf(owner), depth = 0; ancestor && depth < 16; depth++) {
      for (const clause of ancestor.heritageClauses ?? [])
        if (clause.token === ts.SyntaxKind.ImplementsKeyword)
          for (const type of clause.types) this.override(type, method);
      ancestor = this.baseClassOf(ancestor);
    }
  }

  private override(typeNode: ts.ExpressionWithTypeArguments, method: CodeObject): void {
    const baseMember = this.checker.getTypeAtLocation(typeNode).getProperty(method.name);
    for (const declaration of baseMember?.declarations ?? []) {
      const target = this.resolver.declarationTarget(declaration);
      if (!target || target === method) continue;
      this.model.link(method, target, "INHERIT");
      if (!target.external) this.model.link(target, method, "DISPATCH");
    }
  }

  /** The class declaration a class extends, when the program has its source. */
  private baseClassOf(node: ts.ClassLikeDeclaration): ts.ClassLikeDeclaration | undefined {
    const base = node.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0];
    let symbol = base && this.checker.getSymbolAtLocation(base.expression);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
    return symbol?.declarations?.find(ts.isClassLike);
  }
}
