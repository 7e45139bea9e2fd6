// @module Object kinds of the analyzer and their display types and typeIds (docs/analyzer.md, "Objects").

export type ObjectKind =
  | "file"
  | "class"
  | "interface"
  | "enum"
  | "typeAlias"
  | "function"
  | "arrowFunction"
  | "functionExpression"
  | "method"
  | "interfaceMethod"
  | "classConstructor"
  | "getter"
  | "setter"
  | "variable"
  | "routeHandler"
  | "commandHandler"
  | "table"
  | "view"
  | "collection"
  | "model"
  | "package"
  | "externalClass"
  | "externalInterface"
  | "externalFunction"
  | "externalMethod"
  | "externalVariable"
  | "externalType"
  | "externalMember";

/** The typeId prefix of each language's objects. */
const INTERNAL = {
  file: ["File", "FILE"],
  class: ["Class", "CLASS"],
  interface: ["Interface", "INTERFACE"],
  enum: ["Enum", "ENUM"],
  typeAlias: ["Type Alias", "TYPE_ALIAS"],
  function: ["Function", "FUNCTION"],
  arrowFunction: ["Arrow Function", "ARROW_FUNCTION"],
  functionExpression: ["Function Expression", "FUNCTION_EXPRESSION"],
  method: ["Method", "METHOD"],
  interfaceMethod: ["Interface Method", "INTERFACE_METHOD"],
  classConstructor: ["Constructor", "CONSTRUCTOR"],
  getter: ["Getter", "GETTER"],
  setter: ["Setter", "SETTER"],
  variable: ["Variable", "VARIABLE"],
  routeHandler: ["Route Handler", "ROUTE_HANDLER"],
  commandHandler: ["Command Handler", "COMMAND_HANDLER"],
  table: ["Table", "TABLE"],
  view: ["View", "VIEW"],
  collection: ["Collection", "COLLECTION"],
  model: ["Model", "MODEL"],
} as const satisfies Partial<Record<ObjectKind, readonly [string, string]>>;

const EXTERNAL: Partial<Record<ObjectKind, readonly [string, string]>> = {
  externalClass: ["External Class", "EXT_CLASS"],
  externalInterface: ["External Interface", "EXT_INTERFACE"],
  externalFunction: ["External Function", "EXT_FUNCTION"],
  externalMethod: ["External Method", "EXT_METHOD"],
  externalVariable: ["External Variable", "EXT_VARIABLE"],
  externalType: ["External Type", "EXT_TYPE"],
  externalMember: ["External Member", "EXT_MEMBER"],
};

/** What a package object stands for: its display type, typeId and the technology (taxonomy level 4) of what it holds. */
export const PACKAGE_TYPES = {
  npm: ["npm Package", "NPM_PACKAGE", "npm"],
  node: ["Node.js Built-in Module", "NODE_MODULE", "Node.js"],
  stdlib: ["ECMAScript Standard Library", "ES_LIB", "ECMAScript"],
  unresolved: ["Unresolved Module", "UNRESOLVED_MODULE", "Unresolved"],
  /** A package of another ecosystem, as a SCIP index names it (PyPI, Maven, Go modules ...). */
  library: ["Package", "PACKAGE", "Package"],
} as const;
export type PackageKind = keyof typeof PACKAGE_TYPES;

const TYPE_ID_PREFIXES: Record<string, string> = {
  TypeScript: "TS",
  JavaScript: "JS",
  Python: "PY",
  Java: "JV",
  "C#": "CS",
  Go: "GO",
  Kotlin: "KT",
  Scala: "SC",
  Ruby: "RB",
  Rust: "RS",
  "C++": "CPP",
  SQL: "SQL",
  Prisma: "PRISMA",
  MongoDB: "MONGODB",
};

/** The typeId prefix of a language: the table's, else the language's letters and digits in capitals. */
const typeIdPrefix = (language: string) =>
  TYPE_ID_PREFIXES[language] ?? (language.toUpperCase().replace(/[^A-Z0-9]/g, "") || "CODE");

/** Display type and typeId: internal kinds are prefixed by the language ("TypeScript Method", TS_METHOD / PY_METHOD, "SQL Table", SQL_TABLE). */
export function displayType(
  kind: ObjectKind,
  language: string,
  packageKind: PackageKind = "npm",
): { type: string; typeId: string } {
  if (kind === "package") return { type: PACKAGE_TYPES[packageKind][0], typeId: PACKAGE_TYPES[packageKind][1] };
  const external = EXTERNAL[kind];
  if (external) return { type: external[0], typeId: external[1] };
  const [type, key] = INTERNAL[kind as keyof typeof INTERNAL];
  return { type: `${language} ${type}`, typeId: `${typeIdPrefix(language)}_${key}` };
}

/** Kinds that stand for stored data: tables, views, collections. */
export const DATA_KINDS: ReadonlySet<ObjectKind> = new Set(["table", "view", "collection"]);

/** Kinds a type reference names, internal or external: a reference to one is a USE link. */
export const USED_TYPE_KINDS: ReadonlySet<ObjectKind> = new Set([
  "class",
  "interface",
  "enum",
  "typeAlias",
  "externalClass",
  "externalInterface",
  "externalType",
]);
