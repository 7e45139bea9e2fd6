// @module `appstruct import`: a SCIP index (any SCIP indexer's) as an analysis: definitions, references, relationships, then the analyzer's taxonomy and roles.
import { existsSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseRfc3339, publishableNameProblem } from "../../src/rules.ts";
import { validateDocument } from "../analysis/document.ts";
import { escalateLinks } from "../analyze/escalate.ts";
import { Externals, packageOfSpecifier, STDLIB_PACKAGE } from "../analyze/externals.ts";
import { checksumOf, IdAllocator, UniqueNames } from "../analyze/ids.ts";
import { type ObjectKind, type PackageKind, USED_TYPE_KINDS } from "../analyze/kinds.ts";
import { CodeModel, type CodeObject, codeObject } from "../analyze/model.ts";
import { assignEndPoints, assignStartPoints } from "../analyze/roles.ts";
import { DEFAULT_RULES, type Rules } from "../analyze/rules.ts";
import { buildTaxonomy } from "../analyze/taxonomy.ts";
import { type AnalysisDocument, analysisDocument } from "../analyze/write-analysis.ts";
import { type ReferenceForm, referenceForm, SourceLines } from "./call-syntax.ts";
import { before, outerFirst, type Span, spanOf, spansContaining } from "./ranges.ts";
import { externalKindOf, isModuleDescriptor, languageOf, objectKindOf } from "./scip-kinds.ts";
import {
  decodeScipIndex,
  type ScipDocument,
  type ScipIndex,
  type ScipOccurrence,
  type ScipSymbolInformation,
  SymbolRole,
} from "./scip-schema.ts";
import { type Descriptor, type GlobalSymbol, isLocalSymbol, ownerSymbol, parseSymbol } from "./scip-symbol.ts";
import { TsSyntax } from "./ts-syntax.ts";

export interface ImportOptions {
  /** The index file's name, for messages. */
  source: string;
  application?: string;
  analyzedAt?: string;
  rules?: Rules;
}

export interface ImportResult {
  document: AnalysisDocument;
  /** The indexer that wrote the index (Metadata.tool_info). */
  tool: string;
}

export class ScipImportError extends Error {}

const KINDS_CALLED: ReadonlySet<ObjectKind> = new Set([
  "function",
  "method",
  "interfaceMethod",
  "classConstructor",
  "getter",
  "setter",
  "externalFunction",
  "externalMethod",
]);
const TYPE_KINDS: ReadonlySet<ObjectKind> = new Set(["class", "interface", "enum", "typeAlias"]);
/** Standard libraries as indexers name their packages: no USE links into them, as `analyze` makes none into ECMAScript. */
const STANDARD_LIBRARIES = new Set([STDLIB_PACKAGE, "python-stdlib", "jdk", "github.com/golang/go/src"]);

/** A function of a TypeScript or JavaScript document without a global symbol: a local one (`local …`), or an object-literal method keyed by its position. */
interface LocalFunction {
  document: ScipDocument;
  file: CodeObject;
  symbol: string;
  name: string;
  span: Span;
}

const localKey = (document: ScipDocument, symbol: string) => `${document.relativePath}\n${symbol}`;

/** A descriptor's name as the object's name: scip-typescript's `<constructor>` is `constructor` and `<get>x` is `x`, as `analyze` names them. */
const nameOf = (d: Descriptor) => (d.name === "<constructor>" ? "constructor" : d.name.replace(/^<[gs]et>/, ""));

interface Definition {
  symbol: string;
  parsed: GlobalSymbol;
  document: ScipDocument;
  file: CodeObject;
  occurrence: ScipOccurrence;
  span: Span;
  hasBody: boolean;
  /** The name as the source writes it, when it differs from the descriptor's (scip-typescript numbers object-literal keys: `send0:`). */
  sourceName: string | null;
}

/** The analysis's name for a definition: the namespaces as a quoted module path, then the other descriptors (`"src/shapes.ts".Square.area`). */
function fullNameOf(d: Definition): string {
  const parsed = d.parsed;
  const modules = parsed.descriptors.filter(isModuleDescriptor).filter((d) => d.suffix === "namespace");
  const rest = parsed.descriptors.filter((d) => !isModuleDescriptor(d)).map(nameOf);
  if (d.sourceName) rest[rest.length - 1] = d.sourceName;
  const module = modules.map((d) => d.name).join("/");
  return module ? [`"${module}"`, ...rest].join(".") : rest.join(".");
}

const packageKey = (p: GlobalSymbol) => `${p.scheme} ${p.manager} ${p.packageName} ${p.version}`;

/** SCIP says nothing of exports: without TypeScript's syntax, every top-level name counts as exported but Python's `_private` ones and Go's lower-case ones. */
const looksExported = (name: string, language: string) =>
  !name.startsWith("_") && (language !== "Go" || /^\p{Lu}/u.test(name));

export function importScip(bytes: Uint8Array, options: ImportOptions): ImportResult {
  if (options.analyzedAt !== undefined && parseRfc3339(options.analyzedAt) === null)
    throw new ScipImportError(
      `--analyzed-at ${options.analyzedAt}: must be an RFC 3339 date-time with a zone, e.g. 2026-09-01T12:00:00Z`,
    );
  const nameProblem = options.application !== undefined ? publishableNameProblem(options.application) : null;
  if (nameProblem) throw new ScipImportError(`--name: the application name ${nameProblem}`);
  const index = readIndex(bytes, options.source);
  return new ScipImporter(index, options).run();
}

function readIndex(bytes: Uint8Array, source: string): ScipIndex {
  let index: ScipIndex;
  try {
    index = decodeScipIndex(bytes);
  } catch (error) {
    throw new ScipImportError(
      `${source}: not a SCIP index: its bytes are not a protobuf scip.Index (${(error as Error).message}); a SCIP index is the binary file an indexer writes (index.scip)`,
    );
  }
  if (!index.metadata?.toolInfo?.name && !index.metadata?.projectRoot)
    throw new ScipImportError(
      `${source}: not a SCIP index: no metadata naming the indexer or the project root (every SCIP indexer writes both)`,
    );
  // scip-typescript indexes a file once per tsconfig that includes it: one document per path, their occurrences together.
  const byPath = new Map<string, ScipDocument>();
  for (const [i, d] of index.documents.entries()) {
    if (!d.relativePath) throw new ScipImportError(`${source}: documents[${i}] has no relative_path`);
    const first = byPath.get(d.relativePath);
    if (!first) byPath.set(d.relativePath, d);
    else {
      first.occurrences.push(...d.occurrences);
      first.symbols.push(...d.symbols);
    }
  }
  index.documents = [...byPath.values()];
  return index;
}

class ScipImporter {
  private readonly model = new CodeModel();
  private readonly ids = new IdAllocator();
  private readonly names = new UniqueNames();
  private readonly externals = new Externals(this.model, this.ids, {});
  private readonly parsed = new Map<string, GlobalSymbol>();
  private readonly information = new Map<string, ScipSymbolInformation>();
  private readonly definitions = new Map<string, Definition>();
  /** The same, by the document that defines them. */
  private readonly documentDefinitions = new Map<ScipDocument, Definition[]>();
  /** What each global symbol of the project stands for: an object, or null when it makes none (a field, a parameter). */
  private readonly objects = new Map<string, CodeObject | null>();
  private readonly fileImports = new Map<CodeObject, Set<string>>();
  private readonly fingerprints = new Map<CodeObject, string[]>();
  private readonly documentLocals = new Map<ScipDocument, LocalFunction[]>();
  /** What each TypeScript or JavaScript module exports, when its source is at hand. */
  private readonly exportedNames = new Map<ScipDocument, Set<string>>();
  /** References that name a function they declare (an object-literal method typed by its context): no link. */
  private readonly declarations = new Set<ScipOccurrence>();
  /** Local functions' objects by document and local symbol. */
  private readonly localObjects = new Map<string, CodeObject>();
  /** Each class's constructor, which a call of the class calls. */
  private readonly constructors = new Map<CodeObject, CodeObject>();
  /** The packages the documents define symbols of: the project's own. */
  private readonly ownPackages = new Set<string>();

  private readonly index: ScipIndex;
  private readonly options: ImportOptions;

  constructor(index: ScipIndex, options: ImportOptions) {
    this.index = index;
    this.options = options;
  }

  run(): ImportResult {
    const files = this.index.documents.map((d, i) => this.fileObject(d, i));
    for (const info of this.index.externalSymbols) this.information.set(info.symbol, info);
    this.index.documents.forEach((d, i) => {
      for (const info of d.symbols) this.information.set(info.symbol, info);
      this.collectDefinitions(d, files[i]);
      this.inferBodies(d, files[i]);
    });
    this.createObjects();
    this.index.documents.forEach((d, i) => this.linkDocument(d, files[i]));
    this.linkRelationships();
    for (const [o, parts] of this.fingerprints) o.checksum = checksumOf(parts.join("\n"));
    return { document: this.finish(), tool: this.toolName() };
  }

  private toolName(): string {
    const tool = this.index.metadata?.toolInfo;
    return tool?.name ? `${tool.name} ${tool.version}`.trim() : "an unnamed SCIP indexer";
  }

  private fail(document: ScipDocument, occurrence: ScipOccurrence | null, what: string): never {
    const where = occurrence ? `${document.relativePath}:${(occurrence.range[0] ?? 0) + 1}` : document.relativePath;
    throw new ScipImportError(`${this.options.source}: ${where}: ${what}`);
  }

  private parse(symbol: string, document: ScipDocument, occurrence: ScipOccurrence | null): GlobalSymbol {
    let parsed = this.parsed.get(symbol);
    if (!parsed) {
      try {
        parsed = parseSymbol(symbol);
      } catch (error) {
        this.fail(document, occurrence, (error as Error).message);
      }
      this.parsed.set(symbol, parsed);
    }
    return parsed;
  }

  private fileObject(document: ScipDocument, i: number): CodeObject {
    const path = document.relativePath;
    const language = languageOf(document.language, path);
    this.model.files.push({ id: String(i + 1), path, language });
    const file = this.model.add(
      codeObject({
        id: this.ids.idFor(`file:${path}`),
        name: basename(path),
        fullName: path,
        kind: "file",
        language,
        filePath: path,
        location: { fileId: String(i + 1), startLine: 1, endLine: 1 },
      }),
    );
    this.fingerprints.set(file, [`file ${path}`]);
    this.fileImports.set(file, new Set());
    return file;
  }

  private collectDefinitions(document: ScipDocument, file: CodeObject): void {
    const own: Definition[] = [];
    this.documentDefinitions.set(document, own);
    let lastLine = 0;
    for (const occurrence of document.occurrences) {
      const span = spanOf(occurrence.range);
      if (!span)
        this.fail(document, occurrence, `occurrence range ${JSON.stringify(occurrence.range)} is not 3 or 4 numbers`);
      const enclosing = occurrence.enclosingRange.length ? spanOf(occurrence.enclosingRange) : span;
      if (!enclosing)
        this.fail(
          document,
          occurrence,
          `enclosing range ${JSON.stringify(occurrence.enclosingRange)} is not 3 or 4 numbers`,
        );
      lastLine = Math.max(lastLine, span.end[0], enclosing.end[0]);
      if (!(occurrence.symbolRoles & SymbolRole.Definition) || !occurrence.symbol || isLocalSymbol(occurrence.symbol))
        continue;
      const parsed = this.parse(occurrence.symbol, document, occurrence);
      const earlier = this.definitions.get(occurrence.symbol);
      if (earlier) {
        // Overloads define one symbol several times: one object spans them all, as `analyze` makes it.
        if (earlier.document === document && occurrence.enclosingRange.length) {
          if (!earlier.hasBody) earlier.span = enclosing;
          else if (before(earlier.span.end, enclosing.end))
            earlier.span = { start: earlier.span.start, end: enclosing.end };
          earlier.hasBody = true;
        }
        continue;
      }
      this.ownPackages.add(packageKey(parsed));
      const definition: Definition = {
        symbol: occurrence.symbol,
        parsed,
        document,
        file,
        occurrence,
        span: enclosing,
        hasBody: occurrence.enclosingRange.length > 0,
        sourceName: null,
      };
      this.definitions.set(occurrence.symbol, definition);
      own.push(definition);
    }
    file.location!.endLine = lastLine + 1;
  }

  /**
   * scip-typescript gives no enclosing range to functions bound to class properties and
   * object-literal keys, and gives local functions `local` symbols without one. With the source at
   * hand, TypeScript's parser finds those functions' bodies; object-literal keys take their written
   * name (scip-typescript numbers them: `send0:`).
   */
  private inferBodies(document: ScipDocument, file: CodeObject): void {
    if (file.language !== "TypeScript" && file.language !== "JavaScript") return;
    const text = this.sourceTextOf(document);
    if (text === null) return;
    const syntax = new TsSyntax(document.relativePath, text);
    this.exportedNames.set(document, syntax.exportedNames());
    for (const d of this.documentDefinitions.get(document)!) {
      const last = d.parsed.descriptors.at(-1)!;
      if (d.hasBody || !(last.suffix === "term" || last.suffix === "meta" || /^<[gs]et>/.test(last.name))) continue;
      const body = syntax.functionAt(d.occurrence.range[0], d.occurrence.range[1]);
      if (!body) continue;
      d.span = body.span;
      d.hasBody = true;
      if (last.suffix === "meta") d.sourceName = body.name;
    }
    // Local functions; and object-literal methods typed by their context (`{ open(ws) {…} }` given where an
    // interface is expected), which scip-typescript records as references to the interface's member.
    for (const occurrence of document.occurrences) {
      const definition = occurrence.symbolRoles & SymbolRole.Definition;
      if (definition ? !isLocalSymbol(occurrence.symbol) : !/[.:]$/.test(occurrence.symbol)) continue;
      const body = syntax.functionAt(occurrence.range[0], occurrence.range[1]);
      if (!body) continue;
      const symbol = definition ? occurrence.symbol : `${occurrence.range[0]}:${occurrence.range[1]}`;
      this.documentLocals.set(document, [
        ...(this.documentLocals.get(document) ?? []),
        { document, file, symbol, ...body },
      ]);
      if (!definition) this.declarations.add(occurrence);
    }
  }

  private createObjects(): void {
    const created: [Definition, CodeObject][] = [];
    for (const d of this.definitions.values()) {
      const last = d.parsed.descriptors.at(-1)!;
      // The document's own module (defined where the file starts) is the file object.
      if (isModuleDescriptor(last)) {
        const startsFile = d.span.start[0] === 0 && d.span.start[1] === 0;
        this.objects.set(d.symbol, startsFile ? d.file : null);
        continue;
      }
      const kind = objectKindOf({
        kind: this.information.get(d.symbol)?.kind ?? 0,
        descriptor: last,
        ownerDescriptor: d.parsed.descriptors.at(-2) ?? null,
        hasBody: d.hasBody,
      });
      if (!kind) {
        this.objects.set(d.symbol, null);
        continue;
      }
      const fullName = this.names.unique(fullNameOf(d));
      const object = this.model.add(
        codeObject({
          id: this.ids.idFor(`scip:${d.symbol}`),
          name: d.sourceName ?? nameOf(last),
          fullName,
          kind,
          language: d.file.language,
          filePath: d.file.filePath,
          location: { fileId: d.file.location!.fileId, startLine: d.span.start[0] + 1, endLine: d.span.end[0] + 1 },
        }),
      );
      this.objects.set(d.symbol, object);
      this.fingerprints.set(object, [`${kind} ${d.symbol} ${d.span.end[0] - d.span.start[0]}`]);
      created.push([d, object]);
    }
    for (const [d, object] of created) {
      object.parent = this.parentOf(d);
      if (object.kind === "classConstructor") this.constructors.set(object.parent, object);
      const exported = this.exportedNames.get(d.document);
      if (
        object.parent === d.file &&
        (exported ? exported.has(object.name) : looksExported(object.name, d.file.language!))
      )
        object.tags.add("exported");
    }
    // Without a SCIP kind, a type whose members are all bodiless method signatures is an interface.
    const members = new Map<CodeObject, ObjectKind[]>();
    for (const [, o] of created) if (o.parent) members.set(o.parent, [...(members.get(o.parent) ?? []), o.kind]);
    for (const [d, o] of created) {
      const kinds = members.get(o) ?? [];
      if (
        o.kind === "class" &&
        !this.information.get(d.symbol)?.kind &&
        kinds.length &&
        kinds.every((k) => k === "interfaceMethod")
      )
        o.kind = "interface";
    }
    this.createLocalFunctions();
  }

  /** Local functions, outer ones first: each one's parent is the innermost object whose body holds it. */
  private createLocalFunctions(): void {
    const sorted = [...this.documentLocals.values()].flat().sort((a, b) => outerFirst(a.span, b.span));
    const bodies = new Map<ScipDocument, { span: Span; object: CodeObject }[]>();
    for (const d of this.definitions.values()) {
      const object = this.objects.get(d.symbol);
      if (object && object !== d.file)
        bodies.set(d.document, [...(bodies.get(d.document) ?? []), { span: d.span, object }]);
    }
    for (const local of sorted) {
      const own = bodies.get(local.document) ?? [];
      const parent = spansContaining(own, [local.span])[0].at(-1)?.object ?? local.file;
      const object = this.model.add(
        codeObject({
          id: this.ids.idFor(`scip:${local.document.relativePath}:${local.symbol}`),
          name: local.name,
          fullName: this.names.unique(
            `${parent.kind === "file" ? `"${parent.fullName}"` : parent.fullName}.${local.name}`,
          ),
          kind: "function",
          language: local.file.language,
          filePath: local.file.filePath,
          tags: new Set(["local"]),
          parent,
          location: {
            fileId: local.file.location!.fileId,
            startLine: local.span.start[0] + 1,
            endLine: local.span.end[0] + 1,
          },
        }),
      );
      this.fingerprints.set(object, [`local ${local.name} ${local.span.end[0] - local.span.start[0]}`]);
      this.localObjects.set(localKey(local.document, local.symbol), object);
      own.push({ span: local.span, object });
      bodies.set(local.document, own);
    }
  }

  /** SymbolInformation.enclosing_symbol, else the nearest owner in the descriptor path that is an object, else the file. */
  private parentOf(d: Definition): CodeObject {
    const enclosing = this.information.get(d.symbol)?.enclosingSymbol;
    if (enclosing && this.objects.get(enclosing)) return this.objects.get(enclosing)!;
    for (let owner = ownerSymbol(d.symbol, d.parsed); owner; ) {
      const object = this.objects.get(owner);
      if (object) return object;
      const parsed = this.parsed.get(owner) ?? parseSymbol(owner);
      owner = ownerSymbol(owner, parsed);
    }
    return d.file;
  }

  /** The object a referenced symbol stands for: the project's, an external one, or null (locals, fields, parameters). */
  private target(symbol: string, document: ScipDocument, occurrence: ScipOccurrence): CodeObject | null {
    if (!symbol) return null;
    if (isLocalSymbol(symbol)) return this.localObjects.get(localKey(document, symbol)) ?? null;
    if (this.objects.has(symbol)) return this.objects.get(symbol)!;
    const parsed = this.parse(symbol, document, occurrence);
    const last = parsed.descriptors.at(-1)!;
    if (last.suffix === "parameter" || last.suffix === "typeParameter") return null;
    // A symbol of the project's own package that no document defines (scip-python's `shop.main/` for `__name__`) is nothing outside.
    if (this.ownPackages.has(packageKey(parsed))) return null;
    const { name, kind, path } = externalPlace(parsed);
    const pkg = this.externals.packageObject(name, kind);
    // A module of a package (`json/__init__:`, `"node:fs"/`) stands for its package: what a file includes.
    if (path.length === 0 || isModuleDescriptor(last)) return pkg;
    const owner = parsed.descriptors.filter((d) => !isModuleDescriptor(d)).at(-2) ?? null;
    return this.externals.member(pkg, path, externalKindOf(this.information.get(symbol)?.kind ?? 0, last, owner));
  }

  private linkDocument(document: ScipDocument, file: CodeObject): void {
    const spans: { span: Span; object: CodeObject }[] = [];
    for (const d of this.documentDefinitions.get(document)!) {
      const object = this.objects.get(d.symbol);
      if (object && object !== file) spans.push({ span: d.span, object });
    }
    for (const local of this.documentLocals.get(document) ?? [])
      spans.push({ span: local.span, object: this.localObjects.get(localKey(document, local.symbol))! });
    const attributed = spansContaining(
      spans,
      document.occurrences.map((o) => spanOf(o.range)!),
    );
    const references: { occurrence: ScipOccurrence; from: CodeObject; target: CodeObject }[] = [];
    // Imports: file-scope references on the line of a module reference (`from m import f`), or in the run of
    // file-scope references a module reference ends (`import {\n f,\n g\n} from "m"`), bind names and call nothing.
    const moduleLines = new Set<number>();
    const imports = new Set<ScipOccurrence>();
    let run: ScipOccurrence[] = [];
    document.occurrences.forEach((occurrence, i) => {
      const enclosing = attributed[i].map((s) => s.object);
      const from = enclosing.at(-1) ?? file;
      for (const o of [file, ...enclosing]) {
        const [line, ...rest] = occurrence.range;
        this.fingerprints
          .get(o)!
          .push(`${line - o.location!.startLine + 1} ${rest} ${occurrence.symbolRoles} ${occurrence.symbol}`);
      }
      const target =
        occurrence.symbolRoles & SymbolRole.Definition || this.declarations.has(occurrence)
          ? null
          : this.target(occurrence.symbol, document, occurrence);
      if (from !== file || occurrence.symbolRoles & SymbolRole.Definition) run = [];
      if (!target) return;
      if (this.isModule(target)) {
        moduleLines.add(occurrence.range[0]);
        this.include(file, target);
        for (const o of run) imports.add(o);
        run = [];
        return;
      }
      if (occurrence.symbolRoles & SymbolRole.Import) return;
      if (from === file) run.push(occurrence);
      references.push({ occurrence, from, target });
    });
    const source = this.sourceOf(document);
    const jsx = /\.[jt]sx$/.test(document.relativePath);
    for (const { occurrence, from, target } of references) {
      if (from === file && (imports.has(occurrence) || moduleLines.has(occurrence.range[0]))) continue;
      const [line, start, endLine, endCharacter] = occurrence.range;
      const end = occurrence.range.length === 3 ? endLine : endLine === line ? endCharacter : Number.MAX_SAFE_INTEGER;
      const at = source?.range(line, start, end);
      this.reference(from, target, at ? referenceForm(at.text, at.start, at.end, jsx) : null);
    }
  }

  private isModule(o: CodeObject): boolean {
    return o.kind === "file" || o.kind === "package";
  }

  private include(file: CodeObject, target: CodeObject): void {
    if (target === file) return;
    this.model.link(file, target, "INCLUDE");
    if (target.external) this.fileImports.get(file)!.add(target.name);
  }

  /**
   * The link a reference makes. Without the source (`form` null) every reference to a function or
   * method is a CALL; with it, only a call is, a function passed as an argument is a REFER, and a
   * class called (Python's `Circle(1.0)`, `new Base()` of a class without constructor) is a CALL of
   * its constructor, else of the class.
   */
  private reference(from: CodeObject, target: CodeObject, form: ReferenceForm | null): void {
    if (KINDS_CALLED.has(target.kind)) {
      if (form === null || form === "call") this.model.link(from, target, "CALL");
      else if (form === "argument") this.model.link(from, target, "REFER");
    } else if (USED_TYPE_KINDS.has(target.kind)) {
      if (form === "call" && (target.kind === "class" || target.kind === "externalClass"))
        this.model.link(from, this.constructors.get(target) ?? target, "CALL");
      else if (!target.external || !STANDARD_LIBRARIES.has(target.packageName!)) this.model.link(from, target, "USE");
    } else if (target.kind === "variable") this.model.link(from, target, "ACCESS");
  }

  /** The document's text: the index's, else the file under the project root when the index was made on this machine. */
  private sourceTextOf(document: ScipDocument): string | null {
    if (document.text) return document.text;
    const root = this.projectRoot();
    const path = root && join(root, document.relativePath);
    return path && existsSync(path) ? readFileSync(path, "utf8") : null;
  }

  private sourceOf(document: ScipDocument): SourceLines | null {
    const text = this.sourceTextOf(document);
    return text === null ? null : new SourceLines(text, document.positionEncoding);
  }

  /** Relationships marked is_implementation: a type's bases (INHERIT), a method's overridden members (INHERIT, and DISPATCH back). */
  private linkRelationships(): void {
    for (const d of this.definitions.values()) {
      const object = this.objects.get(d.symbol);
      const info = this.information.get(d.symbol);
      if (!object || !info) continue;
      for (const r of info.relationships) {
        if (!r.isImplementation || r.symbol === d.symbol) continue;
        const base = this.target(r.symbol, d.document, d.occurrence);
        if (!base || base === object) continue;
        this.model.link(object, base, "INHERIT");
        if (!TYPE_KINDS.has(object.kind)) this.model.link(base, object, "DISPATCH");
      }
    }
  }

  private finish(): AnalysisDocument {
    const rules = this.options.rules ?? DEFAULT_RULES;
    const model = this.model;
    model.dropUnlinkedExternals();
    escalateLinks(model);
    assignStartPoints(model, this.projectRoot() ?? "", rules.startPoints);
    assignEndPoints(model, rules.endPoints);
    const taxonomy = buildTaxonomy(model.objects, this.fileImports, rules);
    const nodes = new Map(taxonomy.nodes.map((n) => [n.key, n]));
    const serviceOf = (o: CodeObject) => nodes.get(taxonomy.level5.get(o.id)!.split(".").slice(0, 2).join("."))!.name;
    for (const o of model.objects) if (!o.external && /^Test/.test(serviceOf(o))) o.tags.add("test");
    const tool = this.index.metadata?.toolInfo;
    const document = analysisDocument(model, taxonomy, {
      application: this.options.application ?? this.applicationName(),
      analyzedAt: this.options.analyzedAt ?? new Date().toISOString().replace(/\.\d{3}Z$/, "Z"),
      analyzer: { name: "appstruct import", version: `0.1.0 (${tool?.name || "SCIP"} ${tool?.version ?? ""})`.trim() },
    });
    // A fault here is the importer's bug: refused before anything is written.
    validateDocument(document);
    return document;
  }

  /** The project root as a local folder, when the index was made on this machine (its package.json then names start points). */
  private projectRoot(): string | null {
    const root = this.index.metadata?.projectRoot ?? "";
    try {
      const path = root.startsWith("file:") ? fileURLToPath(root) : root;
      return path && existsSync(path) ? path : null;
    } catch {
      return null;
    }
  }

  /** The name of the project's package as the definitions give it, else the project root's folder name. */
  private applicationName(): string {
    for (const d of this.definitions.values())
      if (d.parsed.packageName && !publishableNameProblem(d.parsed.packageName)) return d.parsed.packageName;
    const root = (this.index.metadata?.projectRoot ?? "").replace(/\/+$/, "");
    const name = basename(root);
    return name && !publishableNameProblem(name) ? name : "application";
  }
}

/**
 * The package an external symbol belongs to and its member path. scip-typescript's npm symbols are
 * named as `analyze` names them (a Node module by its ambient `"fs"` namespace, TypeScript's lib as
 * ECMAScript, `@types/x` as x), so the same end-point rules match; other ecosystems keep SCIP's
 * package name, and the module path begins the member path.
 */
function externalPlace(parsed: GlobalSymbol): { name: string; kind: PackageKind; path: string[] } {
  const members = parsed.descriptors.filter((d) => !isModuleDescriptor(d)).map((d) => d.name);
  if (parsed.manager === "npm") {
    const ambient = [...parsed.descriptors]
      .reverse()
      .find((d: Descriptor) => d.suffix === "namespace" && /^".+"$/.test(d.name));
    if (ambient) return { ...packageOfSpecifier(ambient.name.slice(1, -1)), path: members };
    if (parsed.packageName === "typescript" && parsed.descriptors[0]?.name === "lib")
      return { name: STDLIB_PACKAGE, kind: "stdlib", path: members };
    let name = parsed.packageName;
    if (name.startsWith("@types/")) name = name.slice(7).replace(/^(.+)__(.+)$/, "@$1/$2");
    return name === "node" ? { name, kind: "node", path: members } : { ...packageOfSpecifier(name), path: members };
  }
  const module = parsed.descriptors
    .filter((d) => d.suffix === "namespace")
    .map((d) => d.name)
    .join(".");
  return {
    name: parsed.packageName || parsed.manager || parsed.scheme,
    kind: "library",
    path: module ? [module, ...members] : members,
  };
}
