// @module What a SCIP symbol becomes: its object kind (by SymbolInformation.kind, else by its descriptor suffix) and its document's language.
import type { ObjectKind } from "../analyze/kinds.ts";
import type { Descriptor } from "./scip-symbol.ts";

/** SymbolInformation.Kind numbers of scip.proto, grouped by the object kind they give; kinds not listed give no object. */
const KIND_NUMBERS: [ObjectKind, number[]][] = [
  // Class 7, Object 33, SingletonClass 75, Struct 49, Union 59
  ["class", [7, 33, 75, 49, 59]],
  // Interface 21, Protocol 42, Trait 53, TypeClass 56, Mixin 85, Concept 86
  ["interface", [21, 42, 53, 56, 85, 86]],
  // Enum 11
  ["enum", [11]],
  // TypeAlias 55, Type 54, AssociatedType 3, TypeFamily 57, DataFamily 10
  ["typeAlias", [55, 54, 3, 57, 10]],
  // Function 17, Macro 25, Delegate 73
  ["function", [17, 25, 73]],
  // Method 26, StaticMethod 80, SingletonMethod 76, MethodAlias 74, Extension 84, Operator 34
  ["method", [26, 80, 76, 74, 84, 34]],
  // AbstractMethod 66, MethodSpecification 67, ProtocolMethod 68, PureVirtualMethod 69, TraitMethod 70, TypeClassMethod 71
  ["interfaceMethod", [66, 67, 68, 69, 70, 71]],
  // Constructor 9
  ["classConstructor", [9]],
  // Getter 18, Accessor 72
  ["getter", [18, 72]],
  // Setter 45
  ["setter", [45]],
  // Variable 61, Constant 8, StaticVariable 82
  ["variable", [61, 8, 82]],
];
const BY_NUMBER = new Map(KIND_NUMBERS.flatMap(([kind, numbers]) => numbers.map((n) => [n, kind] as const)));

/** Module 29, Namespace 30, Package 35, PackageObject 36, File 16, Library 64: a module, never an object of its own. */
const MODULE_KINDS = new Set([29, 30, 35, 36, 16, 64]);

/** Names indexers give constructors: scip-typescript `<constructor>`, scip-java `<init>`, Python `__init__`. */
const CONSTRUCTOR_NAMES = new Set(["<constructor>", "<init>", "__init__"]);

/** A module symbol: a namespace (`src/x.ts/`, `"fs"/`), or scip-python's module marker (`shop.store/__init__:`). */
export const isModuleDescriptor = (d: Descriptor) =>
  d.suffix === "namespace" || (d.suffix === "meta" && d.name === "__init__");

export interface DefinitionFacts {
  /** SymbolInformation.kind, 0 when the indexer gives none (scip-typescript, scip-python). */
  kind: number;
  descriptor: Descriptor;
  /** The descriptor the symbol is written under (its owner's last), null for a top-level one. */
  ownerDescriptor: Descriptor | null;
  /** Whether the definition has an enclosing range (scip-typescript gives one to functions, classes, methods and function-valued variables only). */
  hasBody: boolean;
}

/**
 * The object kind of a definition, or null when it makes no object (modules, fields, parameters,
 * type parameters, object-literal keys). Without a SCIP kind the suffix decides: `Type#` is a class,
 * `f().` a method under a type and a function elsewhere, a term with a body is a function-valued
 * variable and a top-level term without one a variable.
 */
export function objectKindOf(facts: DefinitionFacts): ObjectKind | null {
  const { kind, descriptor, ownerDescriptor, hasBody } = facts;
  if (MODULE_KINDS.has(kind) || isModuleDescriptor(descriptor)) return null;
  const underType = ownerDescriptor?.suffix === "type";
  if (kind !== 0) {
    const mapped = BY_NUMBER.get(kind) ?? null;
    if (mapped === "method" && CONSTRUCTOR_NAMES.has(descriptor.name)) return "classConstructor";
    if (mapped === "variable" && ownerDescriptor && !isModuleDescriptor(ownerDescriptor)) return null;
    return mapped;
  }
  switch (descriptor.suffix) {
    case "type":
      return "class";
    case "method":
      if (CONSTRUCTOR_NAMES.has(descriptor.name)) return "classConstructor";
      // scip-typescript names accessors `<get>name().` and `<set>name().`.
      if (descriptor.name.startsWith("<get>")) return "getter";
      if (descriptor.name.startsWith("<set>")) return "setter";
      if (!underType) return "function";
      // A method without a body is a signature: an interface's or an abstract one.
      return hasBody ? "method" : "interfaceMethod";
    case "term":
      if (hasBody) return "function";
      return ownerDescriptor === null || isModuleDescriptor(ownerDescriptor) ? "variable" : null;
    case "meta":
      // scip-typescript's object-literal members (`handlers.send0:`): those with a body are functions.
      return hasBody ? "function" : null;
    case "macro":
      return "function";
    default:
      return null;
  }
}

/** External objects' kinds by the same reading. */
export function externalKindOf(kind: number, descriptor: Descriptor, ownerDescriptor: Descriptor | null): ObjectKind {
  const internal = objectKindOf({ kind, descriptor, ownerDescriptor, hasBody: true });
  switch (internal) {
    case "class":
      return "externalClass";
    case "interface":
      return "externalInterface";
    case "enum":
    case "typeAlias":
      return "externalType";
    case "function":
      return descriptor.suffix === "term" ? "externalVariable" : "externalFunction";
    case "method":
    case "interfaceMethod":
    case "classConstructor":
    case "getter":
    case "setter":
      return "externalMethod";
    case "variable":
      return "externalVariable";
    default:
      return descriptor.suffix === "term" ? "externalVariable" : "externalMember";
  }
}

/** SCIP's Language names (Document.language) as the analysis names languages; case is ignored. */
const LANGUAGE_NAMES: Record<string, string> = {
  typescript: "TypeScript",
  typescriptreact: "TypeScript",
  javascript: "JavaScript",
  javascriptreact: "JavaScript",
  python: "Python",
  java: "Java",
  kotlin: "Kotlin",
  scala: "Scala",
  csharp: "C#",
  go: "Go",
  rust: "Rust",
  ruby: "Ruby",
  c: "C",
  cpp: "C++",
  php: "PHP",
  swift: "Swift",
  dart: "Dart",
};

/** Languages by file extension, for documents that leave Document.language empty (scip-typescript, scip-python). */
const EXTENSIONS: [RegExp, string][] = [
  [/\.[cm]?tsx?$/, "TypeScript"],
  [/\.[cm]?jsx?$/, "JavaScript"],
  [/\.pyi?$/, "Python"],
  [/\.java$/, "Java"],
  [/\.kts?$/, "Kotlin"],
  [/\.scala$/, "Scala"],
  [/\.cs$/, "C#"],
  [/\.go$/, "Go"],
  [/\.rs$/, "Rust"],
  [/\.rb$/, "Ruby"],
  [/\.(c|h)$/, "C"],
  [/\.(cc|cpp|cxx|hpp|hh)$/, "C++"],
  [/\.php$/, "PHP"],
  [/\.swift$/, "Swift"],
  [/\.dart$/, "Dart"],
];

/** The language of a document: Document.language, else its extension, else "Unknown". */
export function languageOf(language: string, path: string): string {
  if (language) return LANGUAGE_NAMES[language.toLowerCase()] ?? language;
  return EXTENSIONS.find(([extension]) => extension.test(path))?.[1] ?? "Unknown";
}
