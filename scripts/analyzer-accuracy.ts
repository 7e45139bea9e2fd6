// @module Accuracy of `appstruct analyze` on a project against an independent checker-based reference: declaration recall, CALL precision and recall.
// Usage: node scripts/analyzer-accuracy.ts <folder> [--tsconfig <file>] [--scip <index.scip>] [--json] [--misses N]
// With --scip, the analysis measured is `appstruct import` of that index (made from the same folder) instead of `appstruct analyze`.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import ts from "typescript";
import { analyzeProject } from "../build/analyze/analyze.ts";
import { loadProject, projectPath } from "../build/analyze/load-program.ts";
import { importScip } from "../build/import/import-scip.ts";

interface Declaration {
  file: string;
  name: string;
  line: number;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    tsconfig: { type: "string" },
    scip: { type: "string" },
    json: { type: "boolean" },
    misses: { type: "string", default: "0" },
  },
});
if (positionals.length !== 1) {
  process.stderr.write(
    "usage: node scripts/analyzer-accuracy.ts <folder> [--tsconfig <file>] [--scip <index.scip>] [--json] [--misses N]\n",
  );
  process.exit(2);
}
const folder = positionals[0];

/**
 * The reference: a plain walk. Declarations are function, method, method signature, constructor,
 * accessor and class declarations, and function/class expressions bound to a variable, property or
 * assignment; overloads count once (their first declaration). Calls are call, new, tagged template
 * and decorator expressions, resolved with getResolvedSignature (else the symbol the callee names)
 * to a declaration of the project; the caller is the nearest enclosing declaration, else the file.
 */
function reference(folder: string, tsconfig: string | undefined) {
  const project = loadProject(folder, tsconfig);
  const checker = project.program.getTypeChecker();
  const own = new Set(project.sourceFiles);
  const declarations = new Map<ts.Node, Declaration>();
  const fileDeclarations = new Map<ts.SourceFile, Declaration>();
  const calls = new Set<string>();
  /** `caller \n name` of the calls `x.name()` the checker resolves to nothing: the reference cannot judge a link made there. */
  const unresolved = new Set<string>();

  const bindingOf = (n: ts.Node): ts.Node | null => {
    const p = n.parent;
    if (
      (ts.isVariableDeclaration(p) || ts.isPropertyDeclaration(p) || ts.isPropertyAssignment(p)) &&
      p.initializer === n
    )
      return p;
    if (ts.isBinaryExpression(p) && p.operatorToken.kind === ts.SyntaxKind.EqualsToken && p.right === n) return p;
    return null;
  };
  const nameOf = (n: ts.Node): string | null => {
    if (ts.isConstructorDeclaration(n)) return "constructor";
    if (ts.isBinaryExpression(n))
      return ts.isPropertyAccessExpression(n.left) ? n.left.name.text : ts.isIdentifier(n.left) ? n.left.text : null;
    const name = (n as ts.NamedDeclaration).name;
    if (!name) return ts.isFunctionDeclaration(n) || ts.isClassDeclaration(n) ? "default" : null;
    return ts.isIdentifier(name) ||
      ts.isStringLiteral(name) ||
      ts.isPrivateIdentifier(name) ||
      ts.isNumericLiteral(name)
      ? name.text
      : null;
  };
  const isDeclaration = (n: ts.Node) =>
    ts.isFunctionDeclaration(n) ||
    ts.isMethodDeclaration(n) ||
    ts.isMethodSignature(n) ||
    ts.isConstructorDeclaration(n) ||
    ts.isGetAccessorDeclaration(n) ||
    ts.isSetAccessorDeclaration(n) ||
    ts.isClassDeclaration(n);
  /** The declaration node a node stands for (overloads → their first declaration, a bound function expression → its binding). */
  const canonical = (n: ts.Node): ts.Node | null => {
    if (ts.isArrowFunction(n) || ts.isFunctionExpression(n) || ts.isClassExpression(n)) return bindingOf(n);
    if (!isDeclaration(n)) return null;
    if (
      ts.isFunctionDeclaration(n) ||
      ts.isMethodDeclaration(n) ||
      ts.isMethodSignature(n) ||
      ts.isConstructorDeclaration(n)
    ) {
      const symbol = n.name ? checker.getSymbolAtLocation(n.name) : undefined;
      const first = symbol?.declarations?.find((d) => d.kind === n.kind && d.parent === n.parent);
      if (first) return first;
      if (ts.isConstructorDeclaration(n)) return n.parent.members.find(ts.isConstructorDeclaration) ?? n;
    }
    return n;
  };
  const declare = (n: ts.Node, sf: ts.SourceFile) => {
    const c = canonical(n);
    if (!c || declarations.has(c)) return;
    const name = nameOf(c);
    if (name === null) return;
    declarations.set(c, {
      file: projectPath(project.root, sf.fileName),
      name,
      line: sf.getLineAndCharacterOfPosition(c.getStart(sf)).line + 1,
    });
  };
  const targetOf = (
    call: ts.CallExpression | ts.NewExpression | ts.TaggedTemplateExpression | ts.Decorator,
  ): ts.Node | null => {
    let declaration: ts.Node | undefined = checker.getResolvedSignature(call)?.declaration;
    // A signature from a type annotation (`const f: (x: T) => U = ...`) is no declaration of the set: then the symbol the callee names decides.
    if (
      !declaration ||
      ts.isJSDocSignature(declaration) ||
      !own.has(declaration.getSourceFile()) ||
      !declarations.has(canonical(declaration)!)
    ) {
      const callee = ts.isTaggedTemplateExpression(call) ? call.tag : call.expression;
      if (callee.kind === ts.SyntaxKind.SuperKeyword) return null;
      let symbol = checker.getSymbolAtLocation(ts.isPropertyAccessExpression(callee) ? callee.name : callee);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      declaration = symbol?.valueDeclaration;
      if (
        declaration &&
        (ts.isVariableDeclaration(declaration) ||
          ts.isPropertyDeclaration(declaration) ||
          ts.isPropertyAssignment(declaration)) &&
        declaration.initializer
      )
        declaration = declaration.initializer;
    }
    if (!declaration || !own.has(declaration.getSourceFile())) return null;
    const c = canonical(declaration);
    return c && declarations.has(c) ? c : null;
  };
  const callerOf = (n: ts.Node, sf: ts.SourceFile): Declaration => {
    for (let p = n.parent; p && !ts.isSourceFile(p); p = p.parent) {
      const c = canonical(p);
      if (c && declarations.has(c)) return declarations.get(c)!;
    }
    return fileDeclarations.get(sf)!;
  };
  const key = (d: Declaration) => `${d.file}\t${d.name}\t${d.line}`;

  for (const sf of project.sourceFiles) {
    fileDeclarations.set(sf, { file: projectPath(project.root, sf.fileName), name: "(file)", line: 1 });
    const walk = (n: ts.Node): void => {
      declare(n, sf);
      ts.forEachChild(n, walk);
    };
    walk(sf);
  }
  for (const sf of project.sourceFiles) {
    const walk = (n: ts.Node): void => {
      if (
        ts.isCallExpression(n) ||
        ts.isNewExpression(n) ||
        ts.isTaggedTemplateExpression(n) ||
        (ts.isDecorator(n) && !ts.isCallExpression(n.expression))
      ) {
        let target: ts.Node | null = null;
        try {
          if (!ts.isCallExpression(n) || n.expression.kind !== ts.SyntaxKind.ImportKeyword) target = targetOf(n);
        } catch (error) {
          // The checker's recursion can overflow the stack on huge bundled files: that call is left out of the reference.
          if (!(error instanceof RangeError)) throw error;
        }
        if (target) calls.add(`${key(callerOf(n, sf))}\n${key(declarations.get(target)!)}`);
        else if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression))
          unresolved.add(`${key(callerOf(n, sf))}\n${n.expression.name.text}`);
      }
      ts.forEachChild(n, walk);
    };
    walk(sf);
  }
  return { declarations: [...declarations.values()], files: [...fileDeclarations.values()], calls, unresolved, key };
}

const t0 = performance.now();
const ref = reference(folder, values.tsconfig);
const t1 = performance.now();
const { document } = values.scip
  ? importScip(readFileSync(values.scip), { source: values.scip })
  : analyzeProject({ folder, tsconfig: values.tsconfig });
const t2 = performance.now();

// Match every reference declaration to one of ours: same file and name, start line within 3 (the closest).
const ours = new Map<string, { id: string; line: number }[]>();
for (const o of document.objects) {
  // Tables no statement creates have no place in the source to match.
  if (o.external || o.typeId.endsWith("_FILE") || !o.sourceLocations) continue;
  const k = `${o.filePath}\t${o.name}`;
  if (!ours.has(k)) ours.set(k, []);
  ours.get(k)!.push({ id: o.id, line: o.sourceLocations![0].startLine });
}
const refOfOurs = new Map<string, string>();
let matched = 0;
const missedDeclarations: Declaration[] = [];
for (const d of ref.declarations) {
  const candidates = (ours.get(`${d.file}\t${d.name}`) ?? []).filter(
    (c) => Math.abs(c.line - d.line) <= 3 && !refOfOurs.has(c.id),
  );
  candidates.sort((a, b) => Math.abs(a.line - d.line) - Math.abs(b.line - d.line));
  if (candidates.length) {
    matched++;
    refOfOurs.set(candidates[0].id, ref.key(d));
  } else missedDeclarations.push(d);
}
for (const o of document.objects)
  if (o.typeId.endsWith("_FILE")) refOfOurs.set(o.id, ref.key({ file: o.filePath!, name: "(file)", line: 1 }));

// Our objects the reference has no declaration for (route handlers, exported variables) stand for their nearest ancestor it has, as the reference attributes calls.
const parents = new Map(document.objects.map((o) => [o.id, o.parent]));
const refKeyOf = (id: string | null | undefined): string | undefined => {
  for (let o = id; o; o = parents.get(o)) if (refOfOurs.has(o)) return refOfOurs.get(o);
  return undefined;
};
const internal = new Set(document.objects.filter((o) => !o.external).map((o) => o.id));
let ourCalls = 0;
let unmapped = 0;
const ourMapped = new Set<string>();
for (const l of document.links) {
  if (l.type !== "CALL" || l.escalated || !internal.has(l.from) || !internal.has(l.to)) continue;
  ourCalls++;
  const from = refKeyOf(l.from);
  const to = refOfOurs.get(l.to);
  if (from === undefined || to === undefined) unmapped++;
  else ourMapped.add(`${from}\n${to}`);
}
// A link of ours from a caller to `name` where the checker resolved a call `x.name()` of that caller to nothing is not judged: listed apart, to check by hand.
const calleeName = (c: string) => c.split("\n")[1].split("\t")[1];
const unjudged = [...ourMapped].filter(
  (c) => !ref.calls.has(c) && ref.unresolved.has(`${c.split("\n")[0]}\n${calleeName(c)}`),
);
const judged = [...ourMapped].filter((c) => !unjudged.includes(c));
const truePositive = judged.filter((c) => ref.calls.has(c));
const falsePositive = judged.filter((c) => !ref.calls.has(c));
const falseNegative = [...ref.calls].filter((c) => !ourMapped.has(c));
const ratio = (a: number, b: number) => (b === 0 ? 1 : a / b);
const result = {
  folder,
  files: ref.files.length,
  referenceDeclarations: ref.declarations.length,
  declarationRecall: ratio(matched, ref.declarations.length),
  referenceCalls: ref.calls.size,
  ourInternalCalls: ourCalls,
  ourCallsNotComparable: unmapped,
  ourCallsUnjudged: unjudged.length,
  callPrecision: ratio(truePositive.length, judged.length),
  callRecall: ratio(truePositive.length, ref.calls.size),
  seconds: { reference: +((t1 - t0) / 1000).toFixed(1), analyze: +((t2 - t1) / 1000).toFixed(1) },
};
if (values.json) console.log(JSON.stringify(result, null, 2));
else {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  console.log(`${folder}: ${result.files} files`);
  console.log(`  declarations: ${matched}/${ref.declarations.length} found (recall ${pct(result.declarationRecall)})`);
  console.log(
    `  internal CALL links: precision ${pct(result.callPrecision)} (${truePositive.length}/${judged.length}), recall ${pct(result.callRecall)} (${truePositive.length}/${ref.calls.size}); ${unmapped} of our ${ourCalls} call objects the reference does not have`,
  );
  if (unjudged.length)
    console.log(
      `  ${unjudged.length} more CALL links where the checker resolves the call to nothing (not judged; --misses lists them)`,
    );
  console.log(`  time: reference ${result.seconds.reference} s, analyze ${result.seconds.analyze} s`);
}
const misses = Number(values.misses);
if (misses > 0) {
  console.log("missed declarations:", missedDeclarations.slice(0, misses));
  console.log("false CALLs:", falsePositive.slice(0, misses));
  console.log("missed CALLs:", falseNegative.slice(0, misses));
  console.log("CALLs not judged:", unjudged.slice(0, misses));
}
