// @module Data access in the code: SQL strings given to query calls, ORM entities and models (TypeORM, Sequelize, Mongoose, Prisma) and the tables they map.
import ts from "typescript";
import type { CheckerGuard } from "./checker-guard.ts";
import type { DataObjects } from "./data-objects.ts";
import type { CodeObject } from "./model.ts";
import type { PrismaModel } from "./prisma-schema.ts";
import type { TargetResolver } from "./resolve.ts";
import type { Rules } from "./rules.ts";
import { lineSpan, propertyNameText, sourceText, unwrapExpression } from "./source-facts.ts";
import type { TableName } from "./sql-parse.ts";
import type { SqlReader, SqlSource } from "./sql-reader.ts";

/** SQL text begins with one of these verbs, after comments and an opening parenthesis: a path or a key given to `get` does not. */
const SQL_START =
  /^\s*(?:(?:--[^\n]*\n|\/\*[\s\S]*?\*\/)\s*)*\(?\s*(SELECT|INSERT|UPDATE|DELETE|WITH|CREATE|ALTER|DROP|REPLACE|TRUNCATE|MERGE)\b/i;

/** Prisma client delegate methods: `prisma.user.findMany()` reaches the User model's table. */
const PRISMA_OPERATIONS = new Set([
  "findUnique",
  "findUniqueOrThrow",
  "findFirst",
  "findFirstOrThrow",
  "findMany",
  "create",
  "createMany",
  "createManyAndReturn",
  "update",
  "updateMany",
  "upsert",
  "delete",
  "deleteMany",
  "count",
  "aggregate",
  "groupBy",
]);

/** Schema builder calls that create a table, and those that change one (their first argument names it). */
const SCHEMA_CREATES = new Set(["createTable", "createTableIfNotExists"]);
const SCHEMA_CHANGES = new Set([
  "dropTable",
  "dropTableIfExists",
  "alterTable",
  "renameTable",
  "addColumn",
  "addColumns",
  "dropColumn",
  "dropColumns",
  "changeColumn",
  "renameColumn",
  "createForeignKey",
  "createForeignKeys",
  "dropForeignKey",
  "createIndex",
  "dropIndex",
]);

/** The naive English plural Sequelize and Mongoose give a model's table or collection: `User` → `Users`, `Category` → `Categories`. */
export function pluralize(name: string): string {
  if (/[^aeiou]y$/i.test(name)) return `${name.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/i.test(name)) return `${name}es`;
  return `${name}s`;
}

/** TypeORM's default table name: the class name in snake case (`UserProfile` → `user_profile`). */
export const snakeCase = (name: string) =>
  name.replace(/(?:([a-z])([A-Z]))|(?:((?!^)[A-Z])([a-z]))/g, "$1_$3$2$4").toLowerCase();

const calleeName = (callee: ts.Expression): string | null =>
  ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : null;

/** A literal, a concatenation of literals, or a `const` bound to one: its text and the node where it is written. */
function constantText(
  expression: ts.Expression | undefined,
  checker: ts.TypeChecker,
  depth = 0,
): { text: string; node: ts.Node } | null {
  const e = unwrapExpression(expression);
  if (!e || depth > 4) return null;
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return { text: e.text, node: e };
  if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = constantText(e.left, checker, depth + 1);
    const right = left && constantText(e.right, checker, depth + 1);
    return left && right ? { text: left.text + right.text, node: e } : null;
  }
  if (ts.isIdentifier(e)) {
    let symbol = checker.getSymbolAtLocation(e);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    const d = symbol?.valueDeclaration;
    if (d && ts.isVariableDeclaration(d) && d.parent.flags & ts.NodeFlags.Const)
      return constantText(d.initializer, checker, depth + 1);
  }
  return null;
}

/** The value of an object literal's property (`{ tableName: "users" }` → `"users"`), or undefined. */
function property(options: ts.Expression | undefined, key: string): ts.Expression | undefined {
  const o = unwrapExpression(options);
  if (!o || !ts.isObjectLiteralExpression(o)) return undefined;
  for (const p of o.properties)
    if (ts.isPropertyAssignment(p) && propertyNameText(p.name) === key) return p.initializer;
  return undefined;
}
const stringOf = (e: ts.Expression | undefined) =>
  e && (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) ? e.text : null;

/** What the finder reads the code with, and where it records what it finds. */
export interface DataAccessContext {
  checker: ts.TypeChecker;
  nodeObjects: ReadonlyMap<ts.Node, CodeObject>;
  resolver: TargetResolver;
  guard: CheckerGuard;
  /** The file and file object of a source file of the project. */
  sourceOf: (sf: ts.SourceFile) => Omit<SqlSource, "firstLine">;
  reader: SqlReader;
  data: DataObjects;
  rules: Rules["sql"];
  /** Prisma models by the name of their client delegate (`user`). */
  prismaModels: ReadonlyMap<string, PrismaModel>;
}

export class DataAccessFinder {
  private readonly checker: ts.TypeChecker;
  private readonly resolver: TargetResolver;
  private readonly data: DataObjects;
  private readonly rules: Rules["sql"];
  private readonly context: DataAccessContext;
  /** What each entity class maps (TypeORM table or view, NestJS Mongoose collection), and the code that reaches an entity through a repository or model: linked in `finish`. */
  private readonly entityTables = new Map<CodeObject, { table: TableName; kind: "table" | "view" | "collection" }>();
  private readonly entityUses: { from: CodeObject; entity: CodeObject }[] = [];

  constructor(context: DataAccessContext) {
    this.context = context;
    this.checker = context.checker;
    this.resolver = context.resolver;
    this.data = context.data;
    this.rules = context.rules;
  }

  findInFile(sf: ts.SourceFile): void {
    this.visit(sf, this.context.nodeObjects.get(sf)!);
  }

  /** Code that reaches an entity (`Repository<User>`, `getRepository(User)`) ACCESSes its table. */
  finish(): void {
    for (const { from, entity } of this.entityUses) {
      const mapped = this.entityTables.get(entity);
      if (mapped) this.data.use(from, mapped.table, "ACCESS", mapped.kind);
    }
  }

  private visit(node: ts.Node, owner: CodeObject): void {
    const current = this.context.nodeObjects.get(node) ?? owner;
    this.context.guard.run(node, () => {
      if (ts.isCallExpression(node)) this.visitCall(node, current);
      else if (ts.isTaggedTemplateExpression(node)) this.visitTaggedTemplate(node, current);
      else if (ts.isClassDeclaration(node) && current !== owner) this.visitEntity(node, current);
    });
    ts.forEachChild(node, (child) => this.visit(child, current));
  }

  private readSql(text: string, at: ts.Node, runner: CodeObject): void {
    if (!SQL_START.test(text)) return;
    const sf = at.getSourceFile();
    const firstLine = sf.getLineAndCharacterOfPosition(at.getStart(sf)).line + 1;
    this.context.reader.read(text, { ...this.context.sourceOf(sf), firstLine }, runner);
  }

  /**
   * A query given a `.sql` file of the project (pg-promise `db.one(sql.find)` where
   * `find: new QueryFile("products/find.sql")`, or a helper `sql("products/find.sql")`, through
   * consts and object properties): the code runs that file's statements, so it reaches their tables.
   */
  private runSqlFile(argument: ts.Expression | undefined, owner: CodeObject): void {
    const reference = this.sqlFileReference(argument, 0);
    if (!reference) return;
    const path = reference.text.replace(/\\/g, "/").replace(/^(\.\.?\/)+/, "");
    // Of the files the path may name, the one sharing the most folders with the code naming it.
    const near = this.context.sourceOf(reference.getSourceFile()).file.path.split("/");
    const shared = (p: string) => p.split("/").findIndex((segment, i) => segment !== near[i]);
    const file = [...this.context.reader.files.keys()]
      .filter((p) => p === path || p.endsWith(`/${path}`))
      .sort((a, b) => shared(b) - shared(a))[0];
    const reach = file === undefined ? undefined : this.context.reader.files.get(file);
    if (!reach) return;
    for (const table of reach.tables) this.data.use(owner, table, "ACCESS");
    for (const created of reach.created) this.data.useObject(owner, created);
  }

  /** The `"x.sql"` literal given to the call or `new` an expression is, or is bound to (a `const`, an object property). */
  private sqlFileReference(expression: ts.Expression | undefined, depth: number): ts.StringLiteralLike | null {
    const e = unwrapExpression(expression);
    if (!e || depth > 4) return null;
    if (ts.isCallExpression(e) || ts.isNewExpression(e)) {
      const first = e.arguments?.[0];
      return first && ts.isStringLiteralLike(first) && /\.sql$/i.test(first.text) ? first : null;
    }
    if (!ts.isIdentifier(e) && !ts.isPropertyAccessExpression(e)) return null;
    let symbol = this.checker.getSymbolAtLocation(e);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
    const d = symbol?.valueDeclaration;
    if (d && ts.isVariableDeclaration(d) && d.parent.flags & ts.NodeFlags.Const)
      return this.sqlFileReference(d.initializer, depth + 1);
    return d && ts.isPropertyAssignment(d) ? this.sqlFileReference(d.initializer, depth + 1) : null;
  }

  /** `` sql`SELECT ... ${id}` ``: each substitution is a value the driver binds, so it reads as `0` (a value wherever SQL takes one, `LIMIT` included). */
  private visitTaggedTemplate(node: ts.TaggedTemplateExpression, owner: CodeObject): void {
    const name = calleeName(node.tag);
    if (name === null || !this.rules.queryTags.includes(name)) return;
    const t = node.template;
    const text = ts.isNoSubstitutionTemplateLiteral(t)
      ? t.text
      : t.head.text + t.templateSpans.map((s) => `0${s.literal.text}`).join("");
    this.readSql(text, t, owner);
  }

  private visitCall(node: ts.CallExpression, owner: CodeObject): void {
    const name = calleeName(node.expression);
    if (name === null) return;
    if (this.rules.queryMethods.includes(name)) {
      const sql = constantText(node.arguments[0], this.checker);
      if (sql) this.readSql(sql.text, sql.node, owner);
      else this.runSqlFile(node.arguments[0], owner);
    }
    if (SCHEMA_CREATES.has(name) || SCHEMA_CHANGES.has(name)) this.visitSchemaCall(node, name, owner);
    else if (name === "define" || name === "init" || name === "model") this.visitModelCall(node, name, owner);
    else if (PRISMA_OPERATIONS.has(name)) this.visitPrismaCall(node, owner);
    this.visitEntityArguments(node, owner);
    if (ts.isPropertyAccessExpression(node.expression)) this.visitRepositoryCall(node.expression.expression, owner);
  }

  /** A class of the project passed to a library (`getRepository(User)`, `manager.find(User)`): maybe an entity. */
  private visitEntityArguments(node: ts.CallExpression, owner: CodeObject): void {
    let external: boolean | null = null;
    for (const argument of node.arguments) {
      if (!ts.isIdentifier(argument)) continue;
      const target = this.resolver.symbolTarget(this.checker.getSymbolAtLocation(argument));
      if (target?.kind !== "class") continue;
      external ??= this.resolver.callTarget(node)?.external ?? false;
      if (external) this.entityUses.push({ from: owner, entity: target });
    }
  }

  /** A call on a value declared with type arguments naming classes of the project (`this.users: Repository<User>`): maybe entities. */
  private visitRepositoryCall(receiver: ts.Expression, owner: CodeObject): void {
    if (!ts.isPropertyAccessExpression(receiver) && !ts.isIdentifier(receiver)) return;
    const declaration = this.checker.getSymbolAtLocation(receiver)?.valueDeclaration;
    const type = declaration && (declaration as ts.ParameterDeclaration | ts.PropertyDeclaration).type;
    if (!type || !ts.isTypeReferenceNode(type)) return;
    for (const argument of type.typeArguments ?? []) {
      if (!ts.isTypeReferenceNode(argument)) continue;
      const target = this.resolver.typeTarget(this.checker.getSymbolAtLocation(argument.typeName));
      if (target?.kind === "class") this.entityUses.push({ from: owner, entity: target });
    }
  }

  /**
   * Schema builders of migrations: knex `schema.createTable("users", ...)`, TypeORM
   * `queryRunner.createTable(new Table({ name: "users" }))`, `dropTable`, `addColumn` ... The table
   * created is located at the call, or at its `new Table`; who calls ACCESSes it. A function of the project with such a
   * name is not a schema builder.
   */
  private visitSchemaCall(node: ts.CallExpression, name: string, owner: CodeObject): void {
    const first = this.constValue(node.arguments[0]);
    const table =
      stringOf(first) ??
      (first && ts.isNewExpression(first) && calleeName(first.expression) === "Table"
        ? stringOf(property(first.arguments?.[0], "name"))
        : null);
    if (table === null || this.resolver.callTarget(node)?.external === false) return;
    const tableName = { schema: null, name: table };
    if (!SCHEMA_CREATES.has(name)) return this.data.use(owner, tableName, "ACCESS");
    // A `new Table({...})` spells the table out: it is where the table is.
    const at = first && ts.isNewExpression(first) ? first : node;
    const sf = at.getSourceFile();
    const created = this.data.create(tableName, "table", {
      ...this.context.sourceOf(sf),
      ...lineSpan(at, sf),
      text: sourceText(at, sf),
    });
    this.data.useObject(owner, created);
  }

  /** An expression, or the initializer of the `const` it names (`const table = new Table(...)`). */
  private constValue(expression: ts.Expression | undefined): ts.Expression | undefined {
    const e = unwrapExpression(expression);
    if (!e || !ts.isIdentifier(e)) return e;
    const d = this.checker.getSymbolAtLocation(e)?.valueDeclaration;
    return d && ts.isVariableDeclaration(d) && d.parent.flags & ts.NodeFlags.Const
      ? unwrapExpression(d.initializer)
      : e;
  }

  private packageOf(node: ts.CallExpression | ts.Decorator): string | null {
    return this.resolver.callTarget(node)?.packageName ?? null;
  }

  /** Sequelize `sequelize.define(name, attributes, options)` and `Model.init(attributes, options)`, Mongoose `model(name, schema, collection?)`. */
  private visitModelCall(node: ts.CallExpression, name: string, owner: CodeObject): void {
    const args = node.arguments;
    if (name === "model") {
      const modelName = stringOf(args[0]);
      if (modelName === null || this.packageOf(node) !== "mongoose") return;
      const collection = stringOf(args[2]) ?? pluralize(modelName.toLowerCase());
      this.data.use(owner, { schema: null, name: collection }, "USE", "collection");
      return;
    }
    if (name === "define") {
      const modelName = stringOf(args[0]);
      if (modelName === null || this.packageOf(node) !== "sequelize") return;
      this.data.use(owner, { schema: null, name: this.sequelizeTable(modelName, args[2]) }, "USE");
      return;
    }
    const receiver = ts.isPropertyAccessExpression(node.expression) ? node.expression.expression : null;
    const modelClass = receiver && this.resolver.symbolTarget(this.checker.getSymbolAtLocation(receiver));
    if (modelClass?.kind !== "class" || !this.extendsFrom(receiver!, "sequelize")) return;
    const modelName = stringOf(property(args[1], "modelName")) ?? modelClass.name;
    this.data.use(modelClass, { schema: null, name: this.sequelizeTable(modelName, args[1]) }, "USE");
  }

  private sequelizeTable(modelName: string, options: ts.Expression | undefined): string {
    const frozen = property(options, "freezeTableName")?.kind === ts.SyntaxKind.TrueKeyword;
    return stringOf(property(options, "tableName")) ?? (frozen ? modelName : pluralize(modelName));
  }

  /** Whether the class an expression names extends a class of the package (installed or not). */
  private extendsFrom(classReference: ts.Expression, packageName: string): boolean {
    const symbol = this.checker.getSymbolAtLocation(classReference);
    const declaration = symbol?.declarations?.find(ts.isClassDeclaration);
    const base = declaration?.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0];
    if (!base) return false;
    const target =
      this.resolver.symbolTarget(this.checker.getSymbolAtLocation(base.expression)) ??
      this.resolver.importOriginTarget(base.expression);
    return target?.packageName === packageName;
  }

  /** `prisma.user.findMany()`: the delegate names a model of the schema. */
  private visitPrismaCall(node: ts.CallExpression, owner: CodeObject): void {
    const callee = node.expression;
    if (!ts.isPropertyAccessExpression(callee) || !ts.isPropertyAccessExpression(callee.expression)) return;
    const model = this.context.prismaModels.get(callee.expression.name.text);
    if (model) this.data.use(owner, { schema: null, name: model.table }, "ACCESS");
  }

  /**
   * TypeORM `@Entity("name")`, `@Entity({ name })` or `@Entity()` (the class name in snake case);
   * `@ViewEntity` likewise for a view. NestJS Mongoose `@Schema({ collection })` or `@Schema()` (the
   * class name in lower case, pluralized, as Mongoose names a model's collection).
   */
  private visitEntity(node: ts.ClassDeclaration, entity: CodeObject): void {
    for (const decorator of ts.getDecorators(node) ?? []) {
      const call = decorator.expression;
      if (!ts.isCallExpression(call)) continue;
      const name = calleeName(call.expression);
      if (name === "Schema" && this.packageOf(call) === "@nestjs/mongoose") {
        const options = call.arguments[0];
        const collection = stringOf(property(options, "collection")) ?? pluralize(entity.name.toLowerCase());
        this.data.use(entity, { schema: null, name: collection }, "USE", "collection");
        this.entityTables.set(entity, { table: { schema: null, name: collection }, kind: "collection" });
        continue;
      }
      if ((name !== "Entity" && name !== "ViewEntity") || this.packageOf(call) !== "typeorm") continue;
      const table =
        stringOf(call.arguments[0]) ?? stringOf(property(call.arguments[0], "name")) ?? snakeCase(entity.name);
      const schema = stringOf(property(call.arguments[0], "schema"));
      const kind = name === "ViewEntity" ? "view" : "table";
      this.data.use(entity, { schema, name: table }, "USE", kind);
      this.entityTables.set(entity, { table: { schema, name: table }, kind });
    }
  }
}
