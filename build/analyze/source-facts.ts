// @module Facts read off a declaration's syntax: source lines, checksum text, tags, decorators, names, mangling.
import ts from "typescript";

/** 1-based first and last line: the first token (decorators and modifiers included, leading comments and JSDoc not) to the last. */
export function lineSpan(node: ts.Node, sf: ts.SourceFile): { startLine: number; endLine: number } {
  const startLine = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
  const endLine = sf.getLineAndCharacterOfPosition(node.getEnd()).line + 1;
  return { startLine, endLine };
}

/** The source text an object's checksum covers (the same span as its lines). */
export const sourceText = (node: ts.Node, sf: ts.SourceFile) => sf.text.slice(node.getStart(sf), node.getEnd());

/** Type-only wrappers around a value: parentheses, `as`, `satisfies`, `<T>x`. */
export const isTypeWrapper = (
  n: ts.Node,
): n is ts.ParenthesizedExpression | ts.AsExpression | ts.SatisfiesExpression | ts.TypeAssertion =>
  ts.isParenthesizedExpression(n) ||
  ts.isAsExpression(n) ||
  ts.isSatisfiesExpression(n) ||
  ts.isTypeAssertionExpression(n);

/** The value inside type-only wrappers (and `await` and `!` when `value` is set: what the value comes from). */
export function unwrapExpression<E extends ts.Expression | undefined>(e: E, value = false): E {
  let x: ts.Expression | undefined = e;
  while (x && (isTypeWrapper(x) || (value && (ts.isAwaitExpression(x) || ts.isNonNullExpression(x))))) x = x.expression;
  return x as E;
}

/** The name of a property-like name node, or null for a computed name that is not a literal. */
export function propertyNameText(name: ts.PropertyName | ts.BindingName | undefined): string | null {
  if (!name) return null;
  if (
    ts.isIdentifier(name) ||
    ts.isPrivateIdentifier(name) ||
    ts.isStringLiteralLike(name) ||
    ts.isNumericLiteral(name)
  )
    return name.text;
  if (ts.isComputedPropertyName(name)) {
    const e = name.expression;
    if (ts.isStringLiteralLike(e) || ts.isNumericLiteral(e)) return e.text;
    return `[${e.getText()}]`;
  }
  return null;
}

/** Decorators as written, whitespace folded: `@Get(":id")`. */
export function decoratorsOf(node: ts.Node): string[] {
  if (!ts.canHaveDecorators(node)) return [];
  return (ts.getDecorators(node) ?? []).map((d) => d.getText().replace(/\s+/g, " "));
}

const MODIFIER_TAGS: [ts.SyntaxKind, string][] = [
  [ts.SyntaxKind.AsyncKeyword, "async"],
  [ts.SyntaxKind.StaticKeyword, "static"],
  [ts.SyntaxKind.AbstractKeyword, "abstract"],
  [ts.SyntaxKind.PrivateKeyword, "private"],
  [ts.SyntaxKind.ProtectedKeyword, "protected"],
  [ts.SyntaxKind.DefaultKeyword, "default export"],
];

/** Tags that follow from the declaration's syntax (exported, test and overloaded are added by the extractor). */
export function syntaxTags(node: ts.Node): string[] {
  const tags: string[] = [];
  const modifiers = ts.canHaveModifiers(node) ? (ts.getModifiers(node) ?? []) : [];
  for (const [kind, tag] of MODIFIER_TAGS) if (modifiers.some((m) => m.kind === kind)) tags.push(tag);
  if (ts.isPrivateIdentifier((node as ts.NamedDeclaration).name ?? node)) tags.push("private");
  if ((ts.isFunctionLike(node) || ts.isFunctionExpression(node)) && (node as ts.FunctionLikeDeclaration).asteriskToken)
    tags.push("generator");
  if ((node as { typeParameters?: ts.NodeArray<ts.TypeParameterDeclaration> }).typeParameters?.length)
    tags.push("generic");
  if (ts.getJSDocDeprecatedTag(node)) tags.push("deprecated");
  return tags;
}

export const hasExportModifier = (node: ts.Node) =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/**
 * Parameter types as written (JSDoc `@param` types in JavaScript, `any` when there is none), e.g.
 * `<T>(T[], (item: T) => boolean, number?)`. Written types, not inferred ones: asking the checker
 * for every contextually typed callback parameter costs more than the rest of the analysis.
 */
export function mangling(node: ts.SignatureDeclaration): string {
  const typeParameters = node.typeParameters?.length
    ? `<${node.typeParameters.map((t) => t.name.text).join(", ")}>`
    : "";
  const parameters = node.parameters.map((p) => {
    if (ts.isIdentifier(p.name) && p.name.text === "this") return `this: ${p.type?.getText() ?? "any"}`;
    const written = p.type ?? ts.getJSDocType(p);
    const type = written ? written.getText().replace(/\s+/g, " ") : "any";
    return `${p.dotDotDotToken ? "..." : ""}${type}${p.questionToken || p.initializer ? "?" : ""}`;
  });
  return `${typeParameters}(${parameters.join(", ")})`;
}
