// @module The analyzer's in-memory model: code objects, links and files before they are written as an analysis.
import { basename } from "node:path";
import { checksumOf } from "./ids.ts";
import type { ObjectKind, PackageKind } from "./kinds.ts";

export interface SourceSpan {
  fileId: string;
  startLine: number;
  endLine: number;
}

export interface CodeObject {
  id: string;
  name: string;
  fullName: string;
  kind: ObjectKind;
  /** For package objects: npm, node, stdlib or unresolved. */
  packageKind: PackageKind | null;
  language: string | null;
  filePath: string | null;
  mangling: string;
  external: boolean;
  annotations: string[];
  tags: Set<string>;
  parent: CodeObject | null;
  checksum: string;
  location: SourceSpan | null;
  role: "start" | "end" | null;
  /** For externals: the package the object belongs to (its own name for a package object). */
  packageName: string | null;
}

/** What an object is named and declared as; the rest of a CodeObject, when not given, is that of an object of the analysed code with no file, parent, annotation, tag or role. */
export type CodeObjectFields = Pick<CodeObject, "id" | "name" | "fullName" | "kind"> & Partial<CodeObject>;

/** A CodeObject of `fields`, every field not given at its default (`codeObject` is the one place the defaults are written). */
export function codeObject(fields: CodeObjectFields): CodeObject {
  return {
    packageKind: null,
    language: null,
    filePath: null,
    mangling: "",
    external: false,
    annotations: [],
    tags: new Set(),
    parent: null,
    checksum: "",
    location: null,
    role: null,
    packageName: null,
    ...fields,
  };
}

export interface CodeLink {
  from: CodeObject;
  to: CodeObject;
  type: string;
  escalated: boolean;
}

export interface ProjectFile {
  id: string;
  path: string;
  language: string;
  /** The file's text as the analyzer read it; absent with --no-source. */
  text?: string;
}

/** Objects and links of one analysis; links are deduplicated on (from, to, type, escalated) as the format counts them. */
export class CodeModel {
  readonly objects: CodeObject[] = [];
  readonly files: ProjectFile[] = [];
  readonly postIts: { object: CodeObject; title: string; text: string }[] = [];
  private readonly linkKeys = new Map<string, CodeLink>();

  get links(): Iterable<CodeLink> {
    return this.linkKeys.values();
  }

  add(object: CodeObject): CodeObject {
    this.objects.push(object);
    return object;
  }

  /** Drops external objects no link reaches (resolving a name may create one that is then not linked), keeping the packages of those kept. */
  dropUnlinkedExternals(): void {
    const linked = new Set<CodeObject>();
    for (const l of this.linkKeys.values())
      for (const end of [l.from, l.to]) for (let o: CodeObject | null = end; o; o = o.parent) linked.add(o);
    const kept = this.objects.filter((o) => !o.external || linked.has(o));
    this.objects.length = 0;
    this.objects.push(...kept);
  }

  link(from: CodeObject, to: CodeObject, type: string, escalated = false): void {
    const key = `${from.id} ${to.id} ${type} ${escalated}`;
    if (!this.linkKeys.has(key)) this.linkKeys.set(key, { from, to, type, escalated });
  }
}

/** The object of a project file: named by its path, spanning all its lines, its checksum that of its whole text. */
export function fileObjectOf(file: ProjectFile, id: string, text: string): CodeObject {
  return codeObject({
    id,
    name: basename(file.path),
    fullName: file.path,
    kind: "file",
    language: file.language,
    filePath: file.path,
    checksum: checksumOf(text),
    location: { fileId: file.id, startLine: 1, endLine: text.split("\n").length },
  });
}

/** Where a declaration that is not TypeScript (a table, a Prisma model) is: its file, the file's object, its lines and text. */
export interface DeclarationPlace {
  file: ProjectFile;
  fileObject: CodeObject;
  startLine: number;
  endLine: number;
  text: string;
}

/** An object declared in a file (its parent) or, without a place, declared nowhere the analysis sees. */
export function declaredObject(
  fields: Pick<CodeObject, "id" | "name" | "fullName" | "kind" | "language">,
  place: DeclarationPlace | null,
): CodeObject {
  return codeObject({
    ...fields,
    filePath: place?.file.path ?? null,
    parent: place?.fileObject ?? null,
    checksum: checksumOf(place?.text ?? fields.fullName),
    location: place ? { fileId: place.file.id, startLine: place.startLine, endLine: place.endLine } : null,
  });
}
