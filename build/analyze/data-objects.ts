// @module Tables, views and collections: created where a statement creates them, reached by the code and entities that use them, end points.
import type { IdAllocator } from "./ids.ts";
import type { ObjectKind } from "./kinds.ts";
import { type CodeModel, type CodeObject, type DeclarationPlace, declaredObject } from "./model.ts";
import type { TableName } from "./sql-parse.ts";

export type DataKind = Extract<ObjectKind, "table" | "view" | "collection">;

/** Schemas a name means when it names none: a table `public.users` is the `users` a query names. */
const DEFAULT_SCHEMAS = new Set(["public", "dbo", "main"]);

/** The key a name is known by: case folded (unquoted SQL names are case-insensitive), the default schema dropped. */
function tableKey(t: TableName): string {
  const schema = t.schema && !DEFAULT_SCHEMAS.has(t.schema.toLowerCase()) ? `${t.schema.toLowerCase()}.` : "";
  return `${schema}${t.name.toLowerCase()}`;
}

const displayName = (t: TableName) => (t.schema ? `${t.schema}.${t.name}` : t.name);

interface Use {
  from: CodeObject;
  table: TableName;
  linkType: string;
  /** The kind to give the object when no statement creates it. */
  kind: DataKind;
}

export class DataObjects {
  private readonly model: CodeModel;
  private readonly ids: IdAllocator;
  /** Tables and views by key, collections by `collection:` key. */
  private readonly byKey = new Map<string, CodeObject>();
  private readonly uses: Use[] = [];

  constructor(model: CodeModel, ids: IdAllocator) {
    this.model = model;
    this.ids = ids;
  }

  /** The table or view a statement creates; a name created again (a later migration, `CREATE OR REPLACE`) keeps its first object. */
  create(table: TableName, kind: "table" | "view", place: DeclarationPlace): CodeObject {
    const key = tableKey(table);
    const known = this.byKey.get(key);
    if (known) return known;
    const object = this.newObject(key, kind, displayName(table), "SQL", place);
    this.byKey.set(key, object);
    return object;
  }

  /** Records that `from` reads or writes the table (ACCESS) or maps it (an ORM entity, USE); linked by `finish`, once every statement is known. */
  use(from: CodeObject, table: TableName, linkType: "ACCESS" | "USE", kind: DataKind = "table"): void {
    this.uses.push({ from, table, linkType, kind });
  }

  /** `from` ACCESSes a table or view it creates. */
  useObject(from: CodeObject, object: CodeObject): void {
    this.model.link(from, object, "ACCESS");
  }

  /** Links every use to its object, creating the tables no statement creates (tagged so); every table, view and collection is an end point. */
  finish(): void {
    const byName = new Map<string, CodeObject[]>();
    for (const [key, object] of this.byKey)
      if (object.kind !== "collection") {
        const name = key.slice(key.lastIndexOf(".") + 1);
        byName.set(name, [...(byName.get(name) ?? []), object]);
      }
    for (const use of this.uses) {
      const key = use.kind === "collection" ? `collection:${use.table.name}` : tableKey(use.table);
      // An unqualified name reaches the one table of that name in whatever schema created it.
      const sole = use.table.schema === null ? byName.get(key) : undefined;
      let target = this.byKey.get(key) ?? (sole?.length === 1 ? sole[0] : undefined);
      if (!target) {
        target = this.newObject(key, use.kind, displayName(use.table), use.kind === "collection" ? "MongoDB" : "SQL");
        target.tags.add("not created in the project");
        this.byKey.set(key, target);
      }
      if (target !== use.from) this.model.link(use.from, target, use.linkType);
    }
    for (const object of this.byKey.values()) object.role = "end";
  }

  private newObject(key: string, kind: DataKind, name: string, language: string, place?: DeclarationPlace): CodeObject {
    const id = this.ids.idFor(`${kind === "collection" ? "" : "table:"}${key}`);
    const shortName = name.slice(name.lastIndexOf(".") + 1);
    return this.model.add(declaredObject({ id, name: shortName, fullName: name, kind, language }, place ?? null));
  }
}
