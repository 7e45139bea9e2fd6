// @module Registrations whose handlers are start points: HTTP routes of web frameworks (`app.get("/x", handler)`), commands of CLI frameworks (`program.command("x").action(handler)`).
import ts from "typescript";
import { type Externals, packageOfSpecifier } from "./externals.ts";
import type { OriginTracer } from "./origin.ts";
import { packageMatches, type Rules } from "./rules.ts";
import { propertyNameText, unwrapExpression } from "./source-facts.ts";

export interface RouteRegistration {
  /** The route as displayed: `GET /owners/:id`, or `command build` for a CLI command. */
  route: string;
  kind: "routeHandler" | "commandHandler";
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

  /** `receiver.verb(path?, ...handlers)` on an object of a web framework, a command of a CLI framework, or null. */
  registration(call: ts.CallExpression): RouteRegistration | null {
    const callee = call.expression;
    if (!ts.isPropertyAccessExpression(callee)) return null;
    if (callee.name.text === "action" || callee.name.text === "command") return this.command(call, callee);
    if (!this.rules.routeMethods.includes(callee.name.text)) return null;
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
    if (!this.isFrom(receiver, this.rules.routeFrameworks)) return null;
    const handlers = call.arguments.filter((a, i) => !(i === 0 && pathText(a) !== null));
    return { route: `${verb} ${path ?? "*"}`, kind: "routeHandler", handlers };
  }

  /**
   * commander `program.command("build <dir>").option(...).action(handler)` (the root command's
   * `program.action(handler)` too); yargs `.command("serve", "describe", builder, handler)` and
   * `.command({ command: "serve", handler })`.
   */
  private command(call: ts.CallExpression, callee: ts.PropertyAccessExpression): RouteRegistration | null {
    // A command is configured in long chains (`.command().description().option()...`): their root decides the package.
    let root = callee.expression;
    while (ts.isCallExpression(root) && ts.isPropertyAccessExpression(root.expression))
      root = root.expression.expression;
    if (!this.rules.commandFrameworks.length || !this.isFrom(root, this.rules.commandFrameworks)) return null;
    const args = call.arguments;
    if (callee.name.text === "action") {
      if (args.length !== 1) return null;
      let name: string | null = null;
      for (let e: ts.Expression = callee.expression; name === null && ts.isCallExpression(e); ) {
        const inner = e.expression;
        if (!ts.isPropertyAccessExpression(inner)) break;
        if (inner.name.text === "command") name = pathText(e.arguments[0]);
        e = inner.expression;
      }
      return { route: `command ${name?.split(/\s/)[0] ?? "*"}`, kind: "commandHandler", handlers: [args[0]] };
    }
    const module = unwrapExpression(args[0]);
    if (module && ts.isObjectLiteralExpression(module)) {
      const property = (key: string) =>
        module.properties.find(
          (p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && propertyNameText(p.name) === key,
        )?.initializer;
      const handler = property("handler");
      const name = pathText(property("command"));
      return handler
        ? { route: `command ${name?.split(/\s/)[0] ?? "*"}`, kind: "commandHandler", handlers: [handler] }
        : null;
    }
    const name = pathText(args[0]);
    return name !== null && args.length === 4
      ? { route: `command ${name.split(/\s/)[0]}`, kind: "commandHandler", handlers: [args[3]] }
      : null;
  }

  /** Whether the receiver comes from one of the packages, installed (by its type) or not (by its import). */
  private isFrom(receiver: ts.Expression, packages: readonly string[]): boolean {
    const origin = this.origins.of(receiver);
    const pkg = origin ? packageOfSpecifier(origin.module).name : this.resolvedPackage(receiver);
    return pkg !== null && packages.some((f) => packageMatches(f, pkg));
  }

  private resolvedPackage(receiver: ts.Expression): string | null {
    const declaration = this.checker.getTypeAtLocation(receiver).getSymbol()?.declarations?.[0];
    if (!declaration) return null;
    const fileName = declaration.getSourceFile().fileName;
    return fileName.includes("/node_modules/") ? this.externals.packageOfDeclaration(declaration).name : null;
  }
}
