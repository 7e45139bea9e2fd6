// @module AnalysisCollector: validates analysis records as they stream in, then checks every cross-reference.
import { AnalysisRefused, FaultList } from "./faults.ts";
import { Growable } from "./growable.ts";
import {
  ANALYSIS_FORMAT,
  type AnalysisFile,
  type AnalysisHeader,
  type AnalysisLink,
  type AnalysisObject,
  type AnalysisTaxonomyNode,
  HeaderSchema,
  LINK_TYPE,
  OBJECT_ID,
  ObjectSchema,
  parseRfc3339,
  READ_FORMATS,
  RECORD_KINDS,
  type RecordKind,
} from "./schema.ts";

/** A validated analysis: every reference resolved. Objects are indexed by "slot" (order of first mention). */
export interface ValidatedAnalysis {
  header: AnalysisHeader;
  analyzedAtMs: number;
  files: AnalysisFile[];
  /** null when the analysis has no taxonomy (the build derives one). */
  taxonomy: AnalysisTaxonomyNode[] | null;
  objects: AnalysisObject[];
  /** Slot of each object's parent, or -1. */
  parentSlots: Int32Array;
  links: { from: Uint32Array; to: Uint32Array; type: Uint32Array; escalated: Uint8Array; types: string[] };
  postIts: { slot: number; title: string; text: string | null }[];
}

/** Renders where a record is: `objects[17]` for `.json`, `line 9` for `.ndjson`. */
export type Locator = (kind: RecordKind | "header", position: number) => string;

export class AnalysisCollector {
  readonly faults = new FaultList();
  private header: AnalysisHeader | null = null;
  private analyzedAtMs = 0;
  private formatRefused = false;
  private readonly files: AnalysisFile[] = [];
  private readonly filePos: number[] = [];
  private readonly fileIds = new Map<string, number>();
  private taxonomy: AnalysisTaxonomyNode[] | null = null;
  private readonly taxonomyPos: number[] = [];
  private readonly slots = new Map<string | number, number>();
  private readonly slotIds: string[] = [];
  /** Records refused by their schema, by kind and id/key, with where they are. */
  private readonly refused = new Map<string, string>();
  private readonly objects: (AnalysisObject | undefined)[] = [];
  private readonly objectPos: number[] = [];
  private readonly linkFrom = new Growable((n) => new Uint32Array(n));
  private readonly linkTo = new Growable((n) => new Uint32Array(n));
  private readonly linkType = new Growable((n) => new Uint32Array(n));
  private readonly linkEscalated = new Growable((n) => new Uint8Array(n));
  private readonly linkPos = new Growable((n) => new Uint32Array(n));
  private readonly linkTypes = new Map<string, number>();
  private readonly postIts: { slot: number; title: string; text: string | null; pos: number }[] = [];
  /** The first string met of each value of the SHARED_FIELDS, which later equal values are replaced by. */
  private readonly shared = new Map<string, string>();

  private readonly locate: Locator;

  constructor(locate: Locator) {
    this.locate = locate;
  }

  /** The document's top-level fields; returns false when the format is not one this build reads (stop reading). */
  acceptHeader(value: unknown, position: number): boolean {
    const at = this.locate("header", position);
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      this.faults.add(at, null, "must be a JSON object with format, application and analyzedAt");
      return false;
    }
    const format = (value as { format?: unknown }).format;
    if (format !== ANALYSIS_FORMAT) {
      this.formatRefused = true;
      this.faults.add(
        at,
        "format",
        `${format === undefined ? "is required" : `is ${JSON.stringify(format)}`}; this build reads ${READ_FORMATS.map((f) => `"${f}"`).join(", ")}`,
      );
      return false;
    }
    const parsed = HeaderSchema.safeParse(value);
    if (!parsed.success) return (this.faults.addIssues(at, value, parsed.error.issues), true);
    this.header = parsed.data;
    this.analyzedAtMs = parseRfc3339(parsed.data.analyzedAt)!;
    return true;
  }

  record(kind: RecordKind, value: unknown, position: number): void {
    // Links are most of a large analysis: a record that plainly passes LinkSchema skips the generic parse.
    if (kind === "link" && isPlainLink(value)) return this.addLink(value, position);
    // Objects come next: a record that plainly passes ObjectSchema is kept as parsed, not parsed
    // again; only an NDJSON line's `kind`, which the schema drops, is left out.
    if (kind === "object" && isPlainObjectRecord(value)) return this.addObject(withoutKind(value), position);
    const parsed = RECORD_KINDS[kind].schema.safeParse(value);
    if (!parsed.success) {
      // Remember refused objects and taxonomy nodes, so references to them say why they do not resolve.
      const id = (value as { id?: unknown; key?: unknown } | null)?.[kind === "taxonomy" ? "key" : "id"];
      if ((kind === "object" || kind === "taxonomy") && typeof id === "string")
        this.refused.set(`${kind}:${id}`, this.locate(kind, position));
      return this.faults.addIssues(this.locate(kind, position), value, parsed.error.issues);
    }
    const data = parsed.data;
    switch (kind) {
      case "file":
        return this.addFile(data as AnalysisFile, position);
      case "taxonomy":
        (this.taxonomy ??= []).push(data as AnalysisTaxonomyNode);
        this.taxonomyPos.push(position);
        return;
      case "object":
        return this.addObject(data as AnalysisObject, position);
      case "link":
        return this.addLink(data as AnalysisLink, position);
      case "postIt": {
        const p = data as { object: string; title: string; text?: string };
        this.postIts.push({ slot: this.slot(p.object), title: p.title, text: p.text ?? null, pos: position });
        return;
      }
    }
  }

  /** Records a fault found by the reader itself (syntax, a missing array, an unknown record kind). */
  fault(at: string, field: string | null, message: string): void {
    this.faults.add(at, field, message);
  }

  /** Runs every cross-record check; returns the analysis or throws AnalysisRefused with all faults. */
  finish(): ValidatedAnalysis {
    if (!this.header && !this.formatRefused && this.faults.ok)
      this.faults.add("document", null, "has no header (format, application, analyzedAt)");
    if (this.formatRefused) throw new AnalysisRefused(this.faults);
    const taxonomyKeys = this.checkTaxonomy();
    const parentSlots = this.checkObjects(taxonomyKeys);
    this.checkLinks();
    for (const p of this.postIts) this.checkSlot(p.slot, this.locate("postIt", p.pos), "object");
    if (!this.faults.ok || !this.header) throw new AnalysisRefused(this.faults);
    const objects = this.objects as AnalysisObject[];
    return {
      header: this.header,
      analyzedAtMs: this.analyzedAtMs,
      files: this.files,
      taxonomy: this.taxonomy,
      objects,
      parentSlots,
      links: {
        from: this.linkFrom.view(),
        to: this.linkTo.view(),
        type: this.linkType.view(),
        escalated: this.linkEscalated.view(),
        types: [...this.linkTypes.keys()],
      },
      postIts: this.postIts.map(({ slot, title, text }) => ({ slot, title, text })),
    };
  }

  private addLink(link: AnalysisLink, position: number): void {
    this.addLinkOfSlots(this.slot(link.from), this.slot(link.to), link.type, link.escalated === true, position);
  }

  /**
   * Records a link whose fields are known to pass LinkSchema, its ids given as slotKey keys them:
   * a plain link line (plain-links.ts) is read straight into this, without a record or its id strings.
   */
  addPlainLink(from: string | number, to: string | number, type: string, escalated: boolean, position: number): void {
    this.addLinkOfSlots(this.slotOfKey(from), this.slotOfKey(to), type, escalated, position);
  }

  /** Records a link known to pass LinkSchema, between the objects of two slots (slotOfKey). */
  addLinkOfSlots(from: number, to: number, type: string, escalated: boolean, position: number): void {
    let code = this.linkTypes.get(type);
    if (code === undefined) this.linkTypes.set(type, (code = this.linkTypes.size));
    this.linkFrom.push(from);
    this.linkTo.push(to);
    this.linkType.push(code);
    this.linkEscalated.push(escalated ? 1 : 0);
    this.linkPos.push(position);
  }

  private slot(id: string): number {
    return this.slotOfKey(slotKey(id), id);
  }

  /**
   * The slot of an id as slotKey keys it, numbered now when the id is met first (`id`, its text,
   * when at hand: else String gives the digits back, as ids have no leading zeros).
   */
  slotOfKey(key: string | number, id?: string): number {
    let slot = this.slots.get(key);
    if (slot === undefined) {
      this.slots.set(key, (slot = this.objects.length));
      this.objects.push(undefined);
      this.objectPos.push(-1);
      this.slotIds.push(id ?? String(key));
    }
    return slot;
  }

  private addFile(file: AnalysisFile, position: number): void {
    if (this.fileIds.has(file.id))
      return this.faults.add(
        this.locate("file", position),
        "id",
        `duplicates file id "${file.id}" of ${this.locate("file", this.filePos[this.fileIds.get(file.id)!])}`,
      );
    this.fileIds.set(file.id, this.files.length);
    this.files.push(file);
    this.filePos.push(position);
  }

  private addObject(object: AnalysisObject, position: number): void {
    const slot = this.slot(object.id);
    if (this.objects[slot])
      return this.faults.add(
        this.locate("object", position),
        "id",
        `duplicates object id "${object.id}" of ${this.locate("object", this.objectPos[slot])}`,
      );
    for (const field of SHARED_FIELDS) {
      const value = object[field];
      if (typeof value !== "string") continue;
      const first = this.shared.get(value);
      if (first === undefined) this.shared.set(value, value);
      else object[field] = first;
    }
    this.objects[slot] = object;
    this.objectPos[slot] = position;
  }

  private checkSlot(slot: number, at: string, field: string): void {
    if (!this.objects[slot]) this.faults.add(at, field, this.unresolved("object", this.slotIds[slot]));
  }

  private unresolved(kind: "object" | "taxonomy", id: string): string {
    const what = kind === "object" ? `object "${id}"` : `taxonomy key "${id}"`;
    const refusedAt = this.refused.get(`${kind}:${id}`);
    return refusedAt
      ? `refers to ${what}, whose record (${refusedAt}) is invalid`
      : `refers to ${what}, which the analysis does not define`;
  }

  /** The level of each taxonomy key; null when the analysis has no taxonomy. */
  private checkTaxonomy(): Map<string, number> | null {
    if (!this.taxonomy) return null;
    const levels = new Map<string, number>();
    const firstAt = new Map<string, number>();
    this.taxonomy.forEach((node, i) => {
      if (levels.has(node.key))
        this.faults.add(
          this.locate("taxonomy", this.taxonomyPos[i]),
          "key",
          `duplicates taxonomy key "${node.key}" of ${this.locate("taxonomy", this.taxonomyPos[firstAt.get(node.key)!])}`,
        );
      else levels.set(node.key, node.level), firstAt.set(node.key, i);
    });
    this.taxonomy.forEach((node, i) => {
      const at = this.locate("taxonomy", this.taxonomyPos[i]);
      if (node.level === 1) {
        if (node.parent !== null) this.faults.add(at, "parent", `must be null at level 1, found "${node.parent}"`);
      } else if (node.parent === null) {
        this.faults.add(
          at,
          "parent",
          `must be the key of a level-${node.level - 1} node at level ${node.level}, found null`,
        );
      } else if (!levels.has(node.parent)) {
        this.faults.add(at, "parent", this.unresolved("taxonomy", node.parent));
      } else if (levels.get(node.parent) !== node.level - 1) {
        this.faults.add(
          at,
          "parent",
          `must be a node one level up (level ${node.level - 1}), but "${node.parent}" is at level ${levels.get(node.parent)}`,
        );
      }
    });
    return levels;
  }

  /** Checks each object's references; returns the slot of each one's parent (-1 for none), looked up once here. */
  private checkObjects(taxonomyLevels: Map<string, number> | null): Int32Array {
    const parentSlots = new Int32Array(this.objects.length).fill(-1);
    this.objects.forEach((object, slot) => {
      if (!object) return;
      // Where the object is, written out only for a fault: a million objects pass.
      const at = () => this.locate("object", this.objectPos[slot]);
      if (object.parent != null) {
        const parent = this.slots.get(slotKey(object.parent));
        if (parent === undefined || !this.objects[parent])
          this.faults.add(at(), "parent", this.unresolved("object", object.parent));
        else parentSlots[slot] = parent;
      }
      if (taxonomyLevels) {
        if (object.level5 === undefined)
          this.faults.add(at(), "level5", "is required when the analysis has a taxonomy");
        else if (!taxonomyLevels.has(object.level5))
          this.faults.add(at(), "level5", this.unresolved("taxonomy", object.level5));
        else if (taxonomyLevels.get(object.level5) !== 5)
          this.faults.add(
            at(),
            "level5",
            `must be a level-5 node, but "${object.level5}" is at level ${taxonomyLevels.get(object.level5)}`,
          );
      } else if (object.level5 !== undefined) {
        this.faults.add(
          at(),
          "level5",
          `refers to taxonomy key "${object.level5}", but the analysis has no taxonomy nodes`,
        );
      }
      object.sourceLocations?.forEach((l, i) => {
        if (!this.fileIds.has(l.fileId))
          this.faults.add(
            at(),
            `sourceLocations[${i}].fileId`,
            `refers to file "${l.fileId}", which the analysis does not define in files`,
          );
      });
    });
    return parentSlots;
  }

  private checkLinks(): void {
    const from = this.linkFrom.view();
    const to = this.linkTo.view();
    // A byte a slot, in the processor's caches, rather than the records' array, most of which is not.
    const defined = Uint8Array.from(this.objects, (object) => (object ? 1 : 0));
    for (let i = 0; i < from.length; i++) {
      if (!defined[from[i]]) this.checkSlot(from[i], this.locate("link", this.linkPos.get(i)), "from");
      if (!defined[to[i]]) this.checkSlot(to[i], this.locate("link", this.linkPos.get(i)), "to");
    }
  }
}

/** Exactly what LinkSchema accepts and returns unchanged, checked without building a parse result (tested against the schema). */
export function isPlainLink(value: unknown): value is AnalysisLink {
  if (value === null || typeof value !== "object") return false;
  const { from, to, type, escalated } = value as Record<string, unknown>;
  return (
    typeof from === "string" &&
    typeof to === "string" &&
    typeof type === "string" &&
    (escalated === undefined || typeof escalated === "boolean") &&
    OBJECT_ID.test(from) &&
    OBJECT_ID.test(to) &&
    LINK_TYPE.test(type)
  );
}

const isText = (v: unknown): v is string => typeof v === "string" && v.isWellFormed();
const isTextOrAbsent = (v: unknown) => v === undefined || isText(v);
const isTextOrNull = (v: unknown) => v === undefined || v === null || isText(v);
const isTextArray = (v: unknown) => Array.isArray(v) && v.every(isText);
const isLine = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 0xffffffff;

/** A source location ObjectSchema accepts unchanged: its three fields and no other. */
function isPlainLocation(value: unknown): boolean {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  let fields = 0;
  for (const key in value) {
    if (key !== "fileId" && key !== "startLine" && key !== "endLine") return false;
    fields++;
  }
  const { fileId, startLine, endLine } = value as Record<string, unknown>;
  return fields === 3 && isText(fileId) && isLine(startLine) && isLine(endLine) && startLine <= endLine;
}

/**
 * Exactly what ObjectSchema accepts and returns field for field, checked without building a parse
 * result (tested against the schema): fields it knows (and the NDJSON `kind`), each valid, nothing
 * else. Any other record, valid or not, is left to the schema, which says what is wrong.
 */
export function isPlainObjectRecord(value: unknown): value is AnalysisObject {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  for (const key in value) if (!OBJECT_FIELDS.has(key)) return false;
  const o = value as Record<string, unknown>;
  return (
    typeof o.id === "string" &&
    OBJECT_ID.test(o.id) &&
    isText(o.name) &&
    isText(o.fullName) &&
    isText(o.type) &&
    isText(o.typeId) &&
    isTextOrNull(o.language) &&
    isTextOrNull(o.filePath) &&
    isTextOrAbsent(o.mangling) &&
    (o.external === undefined || typeof o.external === "boolean") &&
    (o.annotations === undefined || o.annotations === null || isTextArray(o.annotations)) &&
    (o.tags === undefined || isTextArray(o.tags)) &&
    (o.parent === undefined || o.parent === null || (typeof o.parent === "string" && OBJECT_ID.test(o.parent))) &&
    isTextOrAbsent(o.level5) &&
    (o.role === undefined || o.role === null || o.role === "start" || o.role === "end") &&
    isTextOrAbsent(o.checksum) &&
    (o.status === undefined ||
      o.status === null ||
      o.status === "Added" ||
      o.status === "Modified" ||
      o.status === "Unchanged") &&
    (o.sourceLocations === undefined || (Array.isArray(o.sourceLocations) && o.sourceLocations.every(isPlainLocation)))
  );
}
const OBJECT_FIELDS = new Set(["kind", ...Object.keys(ObjectSchema.shape)]);

/** `object` without the `kind` of its NDJSON line, as ObjectSchema returns it. */
export function withoutKind(object: AnalysisObject & { kind?: unknown }): AnalysisObject {
  if (!("kind" in object)) return object;
  const { kind: _, ...rest } = object;
  return rest;
}

/**
 * Object fields that few distinct strings fill (a type, a file's path: 94k paths for 1M objects),
 * each value replaced as its record arrives by the first equal string met, while the line is still
 * in the CPU's caches. The copies JSON.parse made are then garbage while the records are read, and
 * the passes that hash or compare these values later (the dictionary columns, their search
 * indexes) meet a few thousand strings, their hashes computed once, rather than a million
 * scattered over the heap: the first such pass over 1M file paths took 2.4 s, the next ones 0.5 s.
 */
const SHARED_FIELDS = ["type", "typeId", "language", "filePath", "level5"] as const;

/** Ids of up to 15 digits are exact doubles: number keys hash faster than freshly parsed strings. */
export const slotKey = (id: string): string | number => (id.length <= 15 ? Number(id) : id);
