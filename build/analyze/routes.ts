// @module HTTP route registrations of web frameworks (`app.get("/x", handler)`): the calls whose handlers are start points.
import ts from "typescript";
import { type Externals, packageOfSpecifier } from "./externals.ts";
import type { OriginTracer } from "./origin.ts";
import { packageMatches, type Rules } from "./rules.ts";

export interface RouteRegistration {
  /** The route as displayed: `GET /owners/:id`. */
  route: string;
  /** The arguments that are handlers (everything after the path). */
  handlers: readonly ts.Expression[];
}

const pathText = (e: ts.Expression | undefined) =>
  e && (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) ? e.text : null;

export class RouteFinder {
  private readonly checker: ts.TypeChecker;
  private readonly origins: OriginTracer;
  private readonly externals: Externals;
  private readonly rules: Rules["startPoints"];

  constructor(checker: ts.TypeChecker, origins: OriginTracer, externals: Externals, rules: Rules["startPoints"]) {
    this.checker = checker;
    this.origins = origins;
    this.externals = externals;
    this.rules = rules;
  }

  /** `receiver.verb(path?, ...handlers)` on an object of a web framework, or null. */
  registration(call: ts.CallExpression): RouteRegistration | null {
    const callee = call.expression;
    if (!ts.isPropertyAccessExpression(callee) || !this.rules.routeMethods.includes(callee.name.text)) return null;
    const verb = callee.name.text === "del" ? "DELETE" : callee.name.text.toUpperCase();
    let path = pathText(call.arguments[0]);
    const receiver = callee.expression;
    if (
      path === null &&
      ts.isCallExpression(receiver) &&
      ts.isPropertyAccessExpression(receiver.expression) &&
      receiver.expression.name.text === "route"
    )
      path = pathText(receiver.arguments[0]);
    if (path === null && verb !== "USE") return null;
    if (!this.isFramework(receiver)) return null;
    const handlers = call.arguments.filter((a, i) => !(i === 0 && pathText(a) !== null));
    return { route: `${verb} ${path ?? "*"}`, handlers };
  }

  private isFramework(receiver: ts.Expression): boolean {
    const origin = this.origins.of(receiver);
    const pkg = origin ? packageOfSpecifier(origin.module).name : this.resolvedPackage(receiver);
    return pkg !== null && this.rules.routeFrameworks.some((f) => packageMatches(f, pkg));
  }

  private resolvedPackage(receiver: ts.Expression): string | null {
    const declaration = this.checker.getTypeAtLocation(receiver).getSymbol()?.declarations?.[0];
    if (!declaration) return null;
    const fileName = declaration.getSourceFile().fileName;
    return fileName.includes("/node_modules/") ? this.externals.packageOfDeclaration(declaration).name : null;
  }
}
