// @module Resolves what a call, a reference or a type names to an object: through the type checker, else through an unresolved import.
import ts from "typescript";
import type { Externals } from "./externals.ts";
import type { CodeObject } from "./model.ts";
import type { OriginTracer } from "./origin.ts";
import { isTypeWrapper } from "./source-facts.ts";

/** The callee is a parameter or property of the project: no object of ours is called (the value passed is not known statically). */
const THROUGH_A_VALUE = Symbol("through a value");

export type CallLike =
  | ts.CallExpression
  | ts.NewExpression
  | ts.TaggedTemplateExpression
  | ts.Decorator
  | ts.JsxOpeningLikeElement;

const calleeOf = (node: CallLike): ts.Node =>
  ts.isTaggedTemplateExpression(node) ? node.tag : ts.isJsxOpeningLikeElement(node) ? node.tagName : node.expression;

export class TargetResolver {
  private readonly checker: ts.TypeChecker;
  private readonly nodeObjects: ReadonlyMap<ts.Node, CodeObject>;
  private readonly externals: Externals;
  private readonly origins: OriginTracer;
  private readonly projectFiles: ReadonlySet<ts.SourceFile>;

  constructor(
    checker: ts.TypeChecker,
    nodeObjects: ReadonlyMap<ts.Node, CodeObject>,
    externals: Externals,
    origins: OriginTracer,
    projectFiles: ReadonlySet<ts.SourceFile>,
  ) {
    this.checker = checker;
    this.nodeObjects = nodeObjects;
    this.externals = externals;
    this.origins = origins;
    this.projectFiles = projectFiles;
  }

  /** The object a declaration stands for: the project's own object, an external one, or null (a parameter, a local callback type ...). */
  declarationTarget(declaration: ts.Node): CodeObject | null {
    const file = declaration.getSourceFile() as ts.SourceFile | undefined;
    // The checker makes some declarations itself (a JSX element's signature, for one): no file, no object.
    if (!file) return null;
    if (!this.projectFiles.has(file))
      return file.isDeclarationFile || file.fileName.includes("/node_modules/")
        ? this.externals.forDeclaration(declaration as ts.Declaration)
        : null;
    const own = this.nodeObjects.get(declaration);
    if (own) return own;
    // A function value is the object of the name it is bound to, and the other way round.
    if (
      (ts.isArrowFunction(declaration) || ts.isFunctionExpression(declaration) || ts.isClassExpression(declaration)) &&
      declaration.parent
    ) {
      let p = declaration.parent;
      while (isTypeWrapper(p)) p = p.parent;
      if (ts.isBinaryExpression(p)) return this.nodeObjects.get(p.parent) ?? null;
      // Only a binding names a function value: a function returned by another one is not that one.
      const bound =
        ts.isVariableDeclaration(p) ||
        ts.isPropertyAssignment(p) ||
        ts.isPropertyDeclaration(p) ||
        ts.isExportAssignment(p);
      return bound ? (this.nodeObjects.get(p) ?? null) : null;
    }
    if (
      (ts.isVariableDeclaration(declaration) ||
        ts.isPropertyAssignment(declaration) ||
        ts.isPropertyDeclaration(declaration)) &&
      declaration.initializer
    )
      return this.nodeObjects.get(declaration.initializer) ?? null;
    if (ts.isBinaryExpression(declaration.parent) && ts.isExpressionStatement(declaration.parent.parent))
      return this.nodeObjects.get(declaration.parent.parent) ?? null;
    if (
      ts.isPropertyAccessExpression(declaration) &&
      ts.isBinaryExpression(declaration.parent) &&
      ts.isExpressionStatement(declaration.parent.parent)
    )
      return this.nodeObjects.get(declaration.parent.parent) ?? null;
    return null;
  }

  symbolTarget(symbol: ts.Symbol | undefined): CodeObject | null {
    if (!symbol) return null;
    if (symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
    const declaration = symbol.valueDeclaration ?? symbol.declarations?.[0];
    return declaration ? this.declarationTarget(declaration) : null;
  }

  /** What a name in a type position stands for: its class, interface, enum or type alias declaration. */
  typeTarget(symbol: ts.Symbol | undefined): CodeObject | null {
    if (!symbol) return null;
    if (symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
    const declaration = symbol.declarations?.find(
      (d) =>
        ts.isClassLike(d) || ts.isInterfaceDeclaration(d) || ts.isTypeAliasDeclaration(d) || ts.isEnumDeclaration(d),
    );
    return declaration ? this.declarationTarget(declaration) : null;
  }

  /** The callee of a call, `new`, tagged template, decorator or JSX element: its resolved signature's declaration, else the symbol it names, else its import origin. */
  callTarget(node: CallLike): CodeObject | null {
    const direct = this.nameTarget(node);
    if (direct === THROUGH_A_VALUE) return null;
    if (direct) return direct;
    let declaration: ts.Declaration | undefined;
    try {
      declaration = this.checker.getResolvedSignature(node)?.declaration;
    } catch {
      declaration = undefined;
    }
    const signed = declaration && !ts.isJSDocSignature(declaration) ? this.declarationTarget(declaration) : null;
    if (signed && !signed.external) return signed;
    // A call through a function-typed parameter or property: no object of ours is called.
    if (!signed && declaration && this.projectFiles.has(declaration.getSourceFile())) return null;
    // `new Own()` of a class without constructor that extends a library class resolves to the library's constructor: the class named is ours.
    const callee = calleeOf(node);
    // `super()` into a base class that declares no constructor has no signature declaration: `super` names the base class.
    const symbol = this.checker.getSymbolAtLocation(ts.isPropertyAccessExpression(callee) ? callee.name : callee);
    const named = this.symbolTarget(symbol);
    if (named && !named.external) return named;
    return (
      signed ?? named ?? (ts.isJsxNamespacedName(callee) ? null : this.importOriginTarget(callee as ts.Expression))
    );
  }

  /**
   * The callee when the name alone decides it, or null when only signature resolution can (argument
   * inference, many times the cost): see soleDeclaration, and a name whose declarations all stand
   * for one object (overloads of the project; a library's overloads or interface and var merges,
   * whose member path is the same).
   */
  private nameTarget(node: CallLike): CodeObject | typeof THROUGH_A_VALUE | null {
    if (ts.isJsxOpeningLikeElement(node)) return null;
    const callee = calleeOf(node) as ts.Expression;
    const name = ts.isPropertyAccessExpression(callee) ? callee.name : ts.isIdentifier(callee) ? callee : null;
    if (!name) return null;
    let symbol = this.checker.getSymbolAtLocation(name);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
    const declarations = symbol?.declarations;
    if (!declarations?.length) return null;
    if (declarations.length > 1) return ts.isNewExpression(node) ? null : this.commonTarget(declarations);
    const sole = this.soleDeclaration(node, declarations[0]);
    return sole === THROUGH_A_VALUE ? sole : sole ? this.declarationTarget(sole) : null;
  }

  private commonTarget(declarations: readonly ts.Declaration[]): CodeObject | null {
    const own = declarations.some((d) => this.projectFiles.has(d.getSourceFile()));
    if (
      own &&
      !declarations.every((d) => ts.isFunctionDeclaration(d) || ts.isMethodDeclaration(d) || ts.isMethodSignature(d))
    )
      return null;
    let target: CodeObject | null = null;
    for (const d of declarations) {
      const t = this.declarationTarget(d);
      if (!t || (target && t !== target)) return null;
      target = t;
    }
    return target;
  }

  /** The callee's only declaration when it decides the callee: a function or method, a function bound to a const, a class whose constructor is its own. */
  private soleDeclaration(node: CallLike, d: ts.Declaration): ts.Declaration | typeof THROUGH_A_VALUE | null {
    if (ts.isNewExpression(node)) {
      if (!ts.isClassDeclaration(d)) return null;
      const constructors = d.members.filter(ts.isConstructorDeclaration);
      if (constructors.length === 1) return constructors[0];
      return constructors.length === 0 && !d.heritageClauses?.some((h) => h.token === ts.SyntaxKind.ExtendsKeyword)
        ? d
        : null;
    }
    if (ts.isFunctionDeclaration(d) || ts.isMethodDeclaration(d) || ts.isMethodSignature(d)) return d;
    // A parameter or property of the project holding a function: what it holds is not known statically.
    const holdsValue =
      ts.isParameter(d) || ts.isPropertySignature(d) || (ts.isPropertyDeclaration(d) && !d.initializer);
    if (holdsValue && this.projectFiles.has(d.getSourceFile())) return THROUGH_A_VALUE;
    if (
      ts.isVariableDeclaration(d) &&
      d.initializer &&
      (d.parent.flags & ts.NodeFlags.Const) !== 0 &&
      (ts.isArrowFunction(d.initializer) || ts.isFunctionExpression(d.initializer))
    )
      return d.initializer;
    return null;
  }

  /** The external object an expression reaches through an import of a module that is not installed. */
  importOriginTarget(expression: ts.Expression): CodeObject | null {
    const origin = this.origins.of(expression);
    return origin ? this.externals.forOrigin(origin) : null;
  }
}
