// @module Where a value comes from when its module is not installed: traces an expression back to an unresolved import.
import ts from "typescript";
import { unwrapExpression } from "./source-facts.ts";

/** A value reached from an import of a module the program could not resolve: the module and the member path, e.g. pg + [Pool, query]. */
export interface ImportOrigin {
  module: string;
  path: string[];
}

const MAX_DEPTH = 12;

const requiredModule = (e: ts.Expression): string | null =>
  ts.isCallExpression(e) &&
  ts.isIdentifier(e.expression) &&
  e.expression.text === "require" &&
  e.arguments.length === 1 &&
  ts.isStringLiteralLike(e.arguments[0])
    ? e.arguments[0].text
    : null;

/**
 * Follows imports, `require`, const initializers, type annotations, `new`/calls and property accesses
 * back to an import whose module does not resolve. Resolved modules are the checker's business.
 */
export class OriginTracer {
  private readonly checker: ts.TypeChecker;

  constructor(checker: ts.TypeChecker) {
    this.checker = checker;
  }

  /** The module of an import or `require`, when the program could not resolve it. */
  unresolvedModule(specifier: ts.Expression): string | null {
    if (!ts.isStringLiteralLike(specifier)) return null;
    return this.checker.getSymbolAtLocation(specifier) ? null : specifier.text;
  }

  of(expression: ts.Expression, depth = 0): ImportOrigin | null {
    if (depth > MAX_DEPTH) return null;
    const e = unwrapExpression(expression, true);
    const required = requiredModule(e);
    if (required !== null)
      return this.checker.getSymbolAtLocation((e as ts.CallExpression).arguments[0])
        ? null
        : { module: required, path: [] };
    if (ts.isCallExpression(e) || ts.isNewExpression(e)) return this.of(e.expression, depth + 1);
    // `var app = module.exports = express()`: an assignment's value is its right side.
    if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.EqualsToken)
      return this.of(e.right, depth + 1);
    if (ts.isTaggedTemplateExpression(e)) return this.of(e.tag, depth + 1);
    if (ts.isIdentifier(e)) return this.ofSymbol(this.checker.getSymbolAtLocation(e), depth);
    if (ts.isPropertyAccessExpression(e)) {
      const own = this.ofSymbol(this.checker.getSymbolAtLocation(e), depth);
      if (own) return own;
      const left = this.of(e.expression, depth + 1);
      return left && { module: left.module, path: [...left.path, e.name.text] };
    }
    return null;
  }

  private ofSymbol(symbol: ts.Symbol | undefined, depth: number): ImportOrigin | null {
    const declaration = symbol?.declarations?.[0];
    if (!declaration) return null;
    if (ts.isImportSpecifier(declaration)) {
      const module = this.unresolvedModule(declaration.parent.parent.parent.moduleSpecifier);
      return module === null ? null : { module, path: [(declaration.propertyName ?? declaration.name).text] };
    }
    if (ts.isImportClause(declaration) || ts.isNamespaceImport(declaration)) {
      const clause = ts.isImportClause(declaration) ? declaration : declaration.parent;
      const module = this.unresolvedModule(clause.parent.moduleSpecifier);
      return module === null ? null : { module, path: [] };
    }
    if (ts.isImportEqualsDeclaration(declaration) && ts.isExternalModuleReference(declaration.moduleReference)) {
      const module = this.unresolvedModule(declaration.moduleReference.expression);
      return module === null ? null : { module, path: [] };
    }
    if (
      ts.isBindingElement(declaration) &&
      ts.isObjectBindingPattern(declaration.parent) &&
      ts.isVariableDeclaration(declaration.parent.parent)
    ) {
      const from = declaration.parent.parent.initializer && this.of(declaration.parent.parent.initializer, depth + 1);
      const key = propertyKey(declaration.propertyName ?? declaration.name);
      return from && key ? { module: from.module, path: [...from.path, key] } : null;
    }
    if (
      ts.isVariableDeclaration(declaration) ||
      ts.isPropertyDeclaration(declaration) ||
      ts.isParameter(declaration) ||
      ts.isPropertySignature(declaration)
    ) {
      if (declaration.type && ts.isTypeReferenceNode(declaration.type)) {
        const typed = this.ofTypeName(declaration.type.typeName, depth);
        if (typed) return typed;
      }
      const initializer = (declaration as ts.VariableDeclaration | ts.PropertyDeclaration).initializer;
      const constant =
        !ts.isVariableDeclaration(declaration) ||
        (declaration.parent.flags & ts.NodeFlags.Const) !== 0 ||
        ts.isSourceFile(declaration.parent.parent.parent);
      if (initializer && constant) return this.of(initializer, depth + 1);
    }
    if (ts.isShorthandPropertyAssignment(declaration))
      return this.ofSymbol(this.checker.getShorthandAssignmentValueSymbol(declaration), depth + 1);
    return null;
  }

  private ofTypeName(name: ts.EntityName, depth: number): ImportOrigin | null {
    if (ts.isIdentifier(name)) return this.ofSymbol(this.checker.getSymbolAtLocation(name), depth + 1);
    const left = this.ofTypeName(name.left, depth + 1);
    return left && { module: left.module, path: [...left.path, name.right.text] };
  }
}

const propertyKey = (name: ts.PropertyName | ts.BindingName) =>
  ts.isIdentifier(name) || ts.isStringLiteralLike(name) ? name.text : null;
