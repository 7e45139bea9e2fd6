// @module Function bodies scip-typescript leaves without an enclosing range, read from the source with TypeScript's parser (syntax only, no checker).
import ts from "typescript";
import type { Span } from "./ranges.ts";

export interface FunctionBody {
  name: string;
  span: Span;
}

const isFunctionValue = (node: ts.Node | undefined): boolean => {
  while (node && ts.isParenthesizedExpression(node)) node = node.expression;
  return !!node && (ts.isArrowFunction(node) || ts.isFunctionExpression(node));
};

/** One parsed TypeScript or JavaScript file. */
export class TsSyntax {
  private readonly sf: ts.SourceFile;

  constructor(path: string, text: string) {
    this.sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  }

  /** Names the module exports: declarations marked `export`, `export { a, b as c }` (a, b), `export default a`. */
  exportedNames(): Set<string> {
    const names = new Set<string>();
    for (const statement of this.sf.statements) {
      if (
        ts.isExportDeclaration(statement) &&
        !statement.moduleSpecifier &&
        statement.exportClause &&
        ts.isNamedExports(statement.exportClause)
      )
        for (const e of statement.exportClause.elements) names.add((e.propertyName ?? e.name).text);
      else if (ts.isExportAssignment(statement) && ts.isIdentifier(statement.expression))
        names.add(statement.expression.text);
      else if (
        ts.canHaveModifiers(statement) &&
        ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
      ) {
        if (ts.isVariableStatement(statement))
          for (const d of statement.declarationList.declarations) ts.isIdentifier(d.name) && names.add(d.name.text);
        else {
          const name = (statement as ts.DeclarationStatement).name;
          if (name && ts.isIdentifier(name)) names.add(name.text);
        }
      }
    }
    return names;
  }

  /**
   * The function whose name starts at (line, character): a function declaration, or a function
   * bound to a variable, a class property or an object-literal key (`const f = () => …`,
   * `handle = async (req) => …`, `send: function () {…}`), or an object-literal method
   * (`{ open(ws) {…} }`), or an accessor (`get res() {…}`); null when the name binds no function.
   */
  functionAt(line: number, character: number): FunctionBody | null {
    // A range outside the text (the file changed since it was indexed) names nothing.
    const starts = this.sf.getLineStarts();
    const position = (starts[line] ?? Number.NaN) + character;
    if (!(position < (starts[line + 1] ?? this.sf.text.length + 1))) return null;
    let node: ts.Node = this.sf;
    for (;;) {
      // By full extents (leading trivia included): cheap, and the token is checked once at the end.
      const child: ts.Node | undefined = ts.forEachChild(node, (c) =>
        c.pos <= position && position < c.end ? c : undefined,
      );
      if (!child) break;
      node = child;
    }
    if (
      node.getStart(this.sf) !== position ||
      !(ts.isIdentifier(node) || ts.isPrivateIdentifier(node) || ts.isStringLiteral(node))
    )
      return null;
    const declaration = node.parent;
    const bound =
      (ts.isFunctionDeclaration(declaration) && declaration.name === node && declaration.body) ||
      ((ts.isGetAccessorDeclaration(declaration) || ts.isSetAccessorDeclaration(declaration)) &&
        declaration.name === node &&
        declaration.body) ||
      (ts.isMethodDeclaration(declaration) &&
        ts.isObjectLiteralExpression(declaration.parent) &&
        declaration.name === node &&
        declaration.body) ||
      ((ts.isVariableDeclaration(declaration) ||
        ts.isPropertyDeclaration(declaration) ||
        ts.isPropertyAssignment(declaration)) &&
        declaration.name === node &&
        isFunctionValue(declaration.initializer));
    if (!bound) return null;
    const at = (offset: number) => {
      const p = this.sf.getLineAndCharacterOfPosition(offset);
      return [p.line, p.character] as const;
    };
    return { name: node.text, span: { start: at(declaration.getStart(this.sf)), end: at(declaration.end) } };
  }
}
