// @module Writes the two sample analyses of "Spring PetClinic" (May and June 2026) shipped as the project's default data.
//
// The application is modelled once, as the union of both versions: every object says whether it
// exists in both analyses, only in the first (deleted in June) or only in the second (added in
// June), and whether June modified it. Ids, line ranges, checksums and links are derived from that
// model, so the two files stay consistent with each other (same object, same id) and the output is
// the same on every run. Run: `npx node snapshots/make-petclinic.ts`.

import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

type Presence = "both" | "v1" | "v2";
type Version = 1 | 2;
type Role = "start" | "end";

const inVersion = (p: Presence, v: Version): boolean => p === "both" || (p === "v1" ? v === 1 : v === 2);

/** FNV-1a: a stable small hash for the deterministic choices (lengths, growth). */
function fnv(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}
const pick = (seed: string, lo: number, hi: number): number => lo + (fnv(seed) % (hi - lo + 1));

// ---------------------------------------------------------------------------------------------
// Taxonomy: level 1 Services / External, level 2 tiers, level 3 subsystems, level 4 technologies,
// level 5 object kinds (created as the objects need them).

interface TaxNode {
  key: string;
  level: number;
  name: string;
  parent: string | null;
}
const taxonomy: TaxNode[] = [];
const taxKeys = new Set<string>();
function tax(key: string, level: number, name: string, parent: string | null): string {
  if (!taxKeys.has(key)) {
    taxKeys.add(key);
    taxonomy.push({ key, level, name, parent });
  }
  return key;
}
const slug = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

tax("svc", 1, "Services", null);
tax("ext", 1, "External", null);
tax("svc.ui", 2, "User Interaction Services", "svc");
tax("svc.logic", 2, "Logic Services", "svc");
tax("svc.data", 2, "Database Services", "svc");
tax("ext.lib", 2, "Libraries", "ext");

/** Level-3 subsystems: short name -> [level-2 key, subsystem name, technology]. */
const SUBSYSTEMS: Record<string, [string, string, string]> = {
  web: ["svc.ui", "Web Pages", "JSP"],
  rest: ["svc.ui", "REST API", "Java"],
  ctrl: ["svc.logic", "Web Controllers", "Java"],
  biz: ["svc.logic", "Business Services", "Java"],
  model: ["svc.logic", "Domain Model", "Java"],
  dao: ["svc.logic", "Data Access", "Java"],
  batch: ["svc.logic", "Batch Processing", "Java"],
  infra: ["svc.logic", "Infrastructure & Utilities", "Java"],
  db: ["svc.data", "Clinic Database", "PostgreSQL"],
  jre: ["ext.lib", "Java Runtime", "Java"],
  spring: ["ext.lib", "Spring Framework", "Java"],
  hib: ["ext.lib", "Hibernate ORM", "Java"],
  jakarta: ["ext.lib", "Jakarta EE", "Java"],
  logging: ["ext.lib", "Logging", "Java"],
};
function l4Of(sub: string): string {
  const s = SUBSYSTEMS[sub];
  if (!s) throw new Error(`unknown subsystem ${sub}`);
  const l3 = tax(`${s[0]}.${sub}`, 3, s[1], s[0]);
  return tax(`${l3}.${slug(s[2])}`, 4, s[2], l3);
}
for (const sub of Object.keys(SUBSYSTEMS)) l4Of(sub);
/** The level-5 node for one kind of object in one subsystem. */
function kind(sub: string, kindName: string): string {
  const l4 = l4Of(sub);
  return tax(`${l4}.${slug(kindName)}`, 5, kindName, l4);
}

// ---------------------------------------------------------------------------------------------
// Files and objects.

interface SrcFile {
  path: string;
  language: string;
  sql: boolean;
  roots: Obj[];
  id: string;
}
const files: SrcFile[] = [];
function srcFile(path: string, language: string, sql = false): SrcFile {
  const f: SrcFile = { path, language, sql, roots: [], id: "" };
  files.push(f);
  return f;
}

type Layout = "none" | "class" | "member" | "page" | "table" | "column" | "block";

interface Obj {
  ref: string;
  name: string;
  fullName: string;
  type: string;
  typeId: string;
  level5: string;
  language: string | null;
  file: SrcFile | null;
  mangling: string;
  external: boolean;
  annotations: string[];
  tags: string[];
  parent: Obj | null;
  role: Role | null;
  presence: Presence;
  modified: boolean;
  layout: Layout;
  /** Lines of the object's own text in the first version (annotations excluded). */
  len: number;
  /** Lines added by the June change when modified. */
  grow: number;
  /** Extra lines after the object's end inside its file (indexes, blank lines). */
  trailer: number;
  children: Obj[];
  specs: string[];
  /** Type names in the signature (parameters and return) or the field's declared type. */
  sigTypes: string[];
  /** The class the relative link targets ('.name') are read in. */
  scope: string;
  id: string;
}

const objects: Obj[] = [];
const byRef = new Map<string, Obj>();

interface ObjInit {
  ref: string;
  name: string;
  fullName: string;
  type: string;
  typeId: string;
  level5: string;
  language?: string | null;
  file?: SrcFile | null;
  mangling?: string;
  external?: boolean;
  annotations?: string[];
  tags?: string[];
  parent?: Obj | null;
  role?: Role | null;
  presence?: Presence;
  modified?: boolean;
  layout?: Layout;
  len?: number;
  trailer?: number;
  specs?: string[];
  sigTypes?: string[];
  scope?: string;
}
function addObj(i: ObjInit): Obj {
  if (byRef.has(i.ref)) throw new Error(`duplicate ref ${i.ref}`);
  const o: Obj = {
    ref: i.ref,
    name: i.name,
    fullName: i.fullName,
    type: i.type,
    typeId: i.typeId,
    level5: i.level5,
    language: i.language ?? null,
    file: i.file ?? null,
    mangling: i.mangling ?? "",
    external: i.external ?? false,
    annotations: i.annotations ?? [],
    tags: i.tags ?? [],
    parent: i.parent ?? null,
    role: i.role ?? null,
    presence: i.presence ?? "both",
    modified: i.modified ?? false,
    layout: i.layout ?? "none",
    len: i.len ?? 1,
    grow: 0,
    trailer: i.trailer ?? 0,
    children: [],
    specs: i.specs ?? [],
    sigTypes: i.sigTypes ?? [],
    scope: i.scope ?? "",
    id: "",
  };
  o.grow = pick(`${o.fullName}|${o.mangling}|grow`, 1, 7);
  byRef.set(o.ref, o);
  objects.push(o);
  if (o.parent) o.parent.children.push(o);
  else if (o.file) o.file.roots.push(o);
  return o;
}

// ---------------------------------------------------------------------------------------------
// Java.

const BASE = "org.springframework.samples.petclinic";

interface MOpts {
  ann?: string[];
  len?: number;
  role?: Role;
  tags?: string[];
  only?: Presence;
  mod?: boolean;
  key?: string;
}
interface MemberDef {
  kind: "field" | "method" | "ctor" | "item";
  name: string;
  key: string;
  params: string;
  ret: string;
  calls: string[];
  o: MOpts;
}
/** A method from its Java signature, e.g. `Owner findOwnerById(int)`. */
function M(sig: string, calls: string[] = [], o: MOpts = {}): MemberDef {
  const m = /^(.*\S)\s+(\w+)\((.*)\)$/.exec(sig);
  if (!m) throw new Error(`bad signature ${sig}`);
  return { kind: "method", name: m[2], key: o.key ?? m[2], params: m[3], ret: m[1], calls, o };
}
function F(name: string, type: string, o: MOpts & { calls?: string[] } = {}): MemberDef {
  return { kind: "field", name, key: o.key ?? name, params: "", ret: type, calls: o.calls ?? [], o };
}
function Ctor(params: string, calls: string[] = [], o: MOpts = {}): MemberDef {
  return { kind: "ctor", name: "", key: "new", params, ret: "", calls, o };
}
function Item(name: string): MemberDef {
  return { kind: "item", name, key: name, params: "", ret: "", calls: [], o: {} };
}

interface ClassDef {
  name: string;
  pkg: string;
  sub: string;
  kind?: "class" | "interface" | "enum";
  ann?: string[];
  ext?: string;
  impl?: string[];
  uses?: string[];
  tags?: string[];
  only?: Presence;
  mod?: boolean;
  /** Range of body lengths for methods whose length is not given. */
  lens?: [number, number];
  /** Has a `log` field; its methods log through SLF4J. */
  log?: boolean;
  members: MemberDef[];
}

const typeNames = (s: string): string[] => s.match(/[A-Z]\w*/g) ?? [];

function javaClass(d: ClassDef): Obj {
  const pkgFull = d.pkg ? `${BASE}.${d.pkg}` : BASE;
  const path = `src/main/java/${pkgFull.replace(/\./g, "/")}/${d.name}.java`;
  const f = srcFile(path, "Java");
  const k = d.kind ?? "class";
  const type = k === "interface" ? "Java Interface" : k === "enum" ? "Java Enum" : "Java Class";
  const typeId = k === "interface" ? "JV_INTERFACE" : k === "enum" ? "JV_ENUM" : "JV_CLASS";
  const specs: string[] = [];
  if (d.ext) specs.push(`INHERIT ${d.ext}`);
  for (const i of d.impl ?? []) specs.push(`INHERIT ${i}`);
  for (const u of d.uses ?? []) specs.push(u);
  const cls = addObj({
    ref: d.name,
    name: d.name,
    fullName: `${pkgFull}.${d.name}`,
    type,
    typeId,
    level5: kind(d.sub, type),
    language: "Java",
    file: f,
    annotations: d.ann ?? [],
    tags: d.tags ?? [],
    presence: d.only ?? "both",
    modified: d.mod ?? false,
    layout: "class",
    specs,
    scope: d.name,
  });
  const lens = d.lens ?? [5, 16];
  const members = d.log ? [F("log", "Logger", { calls: ["X:LoggerFactory.getLogger"] }), ...d.members] : d.members;
  for (const m of members) {
    const presence = m.o.only ?? cls.presence;
    const base = {
      parent: cls,
      language: "Java",
      file: f,
      presence,
      modified: m.o.mod ?? false,
      layout: "member" as Layout,
      annotations: m.o.ann ?? [],
      tags: m.o.tags ?? [],
      role: m.o.role ?? null,
      scope: d.name,
      specs: m.calls,
    };
    if (m.kind === "field") {
      addObj({
        ...base,
        ref: `${d.name}.${m.key}`,
        name: m.name,
        fullName: `${cls.fullName}.${m.name}`,
        type: "Java Field",
        typeId: "JV_FIELD",
        level5: kind(d.sub, "Java Field"),
        len: 1,
        sigTypes: typeNames(m.ret),
      });
    } else if (m.kind === "item") {
      addObj({
        ...base,
        ref: `${d.name}.${m.key}`,
        name: m.name,
        fullName: `${cls.fullName}.${m.name}`,
        type: "Java Enum Item",
        typeId: "JV_ENUM_ITEM",
        level5: kind(d.sub, "Java Enum Item"),
        len: 1,
      });
    } else if (m.kind === "ctor") {
      const mangling = `${d.name}(${m.params})`;
      addObj({
        ...base,
        ref: `${d.name}.new`,
        name: d.name,
        fullName: `${cls.fullName}.${d.name}`,
        mangling,
        type: "Java Constructor",
        typeId: "JV_CTOR",
        level5: kind(d.sub, "Java Constructor"),
        len: m.o.len ?? 2 + Math.max(1, m.params.split(",").filter((p) => p).length),
        sigTypes: typeNames(m.params),
      });
    } else {
      const mangling = `${m.name}(${m.params})`;
      const fullName = `${cls.fullName}.${m.name}`;
      const len = m.o.len ?? (k === "interface" ? 1 : pick(`${fullName}|${mangling}`, lens[0], lens[1]));
      const specs = [...m.calls];
      if (d.log && len > 3) {
        const r = pick(`${fullName}|log`, 0, 9);
        specs.push(
          m.calls.includes("X:Throwable.getCause") || m.name.startsWith("handle")
            ? "X:Logger.error"
            : r < 6
              ? "X:Logger.debug"
              : r < 9
                ? "X:Logger.info"
                : "X:Logger.warn",
        );
      }
      addObj({
        ...base,
        specs,
        ref: `${d.name}.${m.key}`,
        name: m.name,
        fullName,
        mangling,
        type: "Java Method",
        typeId: "JV_METHOD",
        level5: kind(d.sub, "Java Method"),
        len,
        sigTypes: [...typeNames(m.ret), ...typeNames(m.params)],
      });
    }
  }
  return cls;
}

interface FieldSpec {
  name: string;
  type: string;
  col?: string;
  ann?: string[];
  acc?: "gs" | "g" | "s" | "";
  only?: Presence;
  tags?: string[];
}
const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** A JPA entity: fields (mapped to the table's columns), their getters and setters, then extra methods. */
function entity(d: {
  name: string;
  sup?: string;
  table?: string;
  ann?: string[];
  fields: FieldSpec[];
  extra?: MemberDef[];
  only?: Presence;
  impl?: string[];
}): Obj {
  const members: MemberDef[] = [];
  for (const fs of d.fields) {
    const calls = d.table && fs.col ? [`RELYON T:${d.table}.${fs.col}`] : [];
    members.push(F(fs.name, fs.type, { ann: fs.ann, calls, only: fs.only, tags: fs.tags }));
  }
  for (const fs of d.fields) {
    const acc = fs.acc ?? "gs";
    const getter = fs.type === "boolean" ? `is${cap(fs.name)}` : `get${cap(fs.name)}`;
    if (acc.includes("g")) members.push(M(`${fs.type} ${getter}()`, [`ACCESS .${fs.name}`], { len: 3, only: fs.only }));
    if (acc.includes("s"))
      members.push(M(`void set${cap(fs.name)}(${fs.type})`, [`ACCESS .${fs.name}`], { len: 3, only: fs.only }));
  }
  members.push(...(d.extra ?? []));
  const uses = d.table ? [`RELYON T:${d.table}`] : [];
  return javaClass({
    name: d.name,
    pkg: "model",
    sub: "model",
    ext: d.sup,
    impl: d.impl,
    only: d.only,
    uses,
    lens: [4, 12],
    ann: d.ann ?? (d.table ? ["@Entity", `@Table(name = "${d.table}")`] : ["@MappedSuperclass"]),
    members,
  });
}

// ---------------------------------------------------------------------------------------------
// JSP, SQL and external objects.

const WEBINF = "src/main/webapp/WEB-INF";
function page(
  path: string,
  calls: string[],
  o: { only?: Presence; mod?: boolean; tags?: string[]; len?: number } = {},
): Obj {
  const isTag = path.endsWith(".tag");
  const isFragment = path.startsWith("fragments/");
  const full = isTag ? `${WEBINF}/tags/${path}` : `${WEBINF}/jsp/${path}`;
  const type = isTag ? "JSP Tag File" : isFragment ? "JSP Fragment" : "JSP Page";
  const typeId = isTag ? "JSP_TAG_FILE" : isFragment ? "JSP_FRAGMENT" : "JSP_PAGE";
  const name = path.slice(path.lastIndexOf("/") + 1);
  return addObj({
    ref: `J:${path.replace(/\.\w+$/, "")}`,
    name,
    fullName: full,
    type,
    typeId,
    level5: kind("web", type),
    language: "JSP",
    file: srcFile(full, "JSP"),
    role: isTag || isFragment ? null : "start",
    presence: o.only ?? "both",
    modified: o.mod ?? false,
    tags: o.tags ?? [],
    layout: "page",
    len: o.len ?? (isTag || isFragment ? pick(full, 18, 70) : pick(full, 35, 170)),
    specs: calls,
  });
}

const SCHEMA = srcFile("src/main/resources/db/postgres/schema.sql", "SQL", true);
const VIEWS = srcFile("src/main/resources/db/postgres/views.sql", "SQL", true);
const PROCS = srcFile("src/main/resources/db/postgres/procedures.sql", "SQL", true);
const DB = "petclinic.public";

/** A table; columns may carry a `v2|` prefix (added in June) and ` #tag` suffixes. */
function table(
  name: string,
  cols: string[],
  o: { fks?: string[]; only?: Presence; tags?: string[]; indexes?: number } = {},
): Obj {
  const t = addObj({
    ref: `T:${name}`,
    name,
    fullName: `${DB}.${name}`,
    type: "PostgreSQL Table",
    typeId: "SQLScriptTable",
    level5: kind("db", "PostgreSQL Table"),
    language: "SQL",
    file: SCHEMA,
    role: "end",
    presence: o.only ?? "both",
    tags: o.tags ?? [],
    layout: "table",
    len: 2 + (o.fks ?? []).length,
    trailer: (o.indexes ?? 0) + 1,
    specs: (o.fks ?? []).map((fk) => `REFER T:${fk.split(":")[0]}`),
  });
  const fkOf = new Map((o.fks ?? []).map((fk) => [fk.split(":")[1], fk.split(":")[0]]));
  for (const c of cols) {
    const m = /^(?:(v1|v2)\|)?(\w+)((?: #[\w ]+?)*)$/.exec(c);
    if (!m) throw new Error(`bad column ${c}`);
    const tags = m[3]
      ? m[3]
          .split(" #")
          .map((s) => s.trim())
          .filter((s) => s)
      : [];
    addObj({
      ref: `T:${name}.${m[2]}`,
      name: m[2],
      fullName: `${DB}.${name}.${m[2]}`,
      type: "PostgreSQL Column",
      typeId: "SQLScriptTableColumn",
      level5: kind("db", "PostgreSQL Column"),
      language: "SQL",
      file: SCHEMA,
      parent: t,
      presence: (m[1] as Presence | undefined) ?? t.presence,
      tags,
      layout: "column",
      len: 1,
      specs: fkOf.has(m[2]) ? [`REFER T:${fkOf.get(m[2])}.${m[2] === "username" ? "username" : "id"}`] : [],
    });
  }
  return t;
}
function view(name: string, calls: string[], o: { mod?: boolean } = {}): Obj {
  return addObj({
    ref: `V:${name}`,
    name,
    fullName: `${DB}.${name}`,
    type: "PostgreSQL View",
    typeId: "SQLScriptView",
    level5: kind("db", "PostgreSQL View"),
    language: "SQL",
    file: VIEWS,
    layout: "block",
    len: pick(name, 9, 24),
    modified: o.mod ?? false,
    trailer: 1,
    specs: calls,
  });
}
function proc(
  sig: string,
  calls: string[],
  o: { fn?: boolean; only?: Presence; mod?: boolean; tags?: string[] } = {},
): Obj {
  const name = sig.slice(0, sig.indexOf("("));
  const type = o.fn ? "PostgreSQL Function" : "PostgreSQL Procedure";
  return addObj({
    ref: `P:${name}`,
    name,
    fullName: `${DB}.${name}`,
    type,
    typeId: o.fn ? "SQLScriptFunction" : "SQLScriptProcedure",
    level5: kind("db", type),
    language: "SQL",
    file: PROCS,
    mangling: sig,
    presence: o.only ?? "both",
    modified: o.mod ?? false,
    tags: o.tags ?? [],
    layout: "block",
    len: pick(name, 14, 85),
    trailer: 1,
    specs: calls,
  });
}

/** An external class with the methods the application calls; `!end` marks an end point. */
function extClass(fqn: string, sub: string, k: "class" | "interface", methods: string[] = []): void {
  const simple = fqn.slice(fqn.lastIndexOf(".") + 1);
  const type = k === "interface" ? "Java Interface" : "Java Class";
  const cls = addObj({
    ref: `X:${simple}`,
    name: simple,
    fullName: fqn,
    type,
    typeId: k === "interface" ? "JV_INTERFACE" : "JV_CLASS",
    level5: kind(sub, type),
    language: "Java",
    external: true,
  });
  for (const ms of methods) {
    const end = ms.endsWith("!end");
    const mangling = end ? ms.slice(0, -4) : ms;
    const name = mangling.slice(0, mangling.indexOf("("));
    addObj({
      ref: `X:${simple}.${name}`,
      name,
      fullName: `${fqn}.${name}`,
      type: "Java Method",
      typeId: "JV_METHOD",
      level5: kind(sub, "Java Method"),
      language: "Java",
      external: true,
      parent: cls,
      mangling,
      role: end ? "end" : null,
    });
  }
}

// =============================================================================================
// The application.

// --- Database ------------------------------------------------------------------------------

table("owners", ["id", "first_name", "last_name #search", "address", "city", "telephone #pii", "email #pii"], {
  indexes: 1,
});
table("types", ["id", "name"], { indexes: 1 });
table("pets", ["id", "name", "birth_date", "type_id", "owner_id"], {
  fks: ["types:type_id", "owners:owner_id"],
  indexes: 1,
});
table("vets", ["id", "first_name", "last_name"], { indexes: 1 });
table("specialties", ["id", "name"], { indexes: 1 });
table("vet_specialties", ["vet_id", "specialty_id"], { fks: ["vets:vet_id", "specialties:specialty_id"] });
table("visits", ["id", "pet_id", "vet_id", "visit_date", "description"], {
  fks: ["pets:pet_id", "vets:vet_id"],
  indexes: 2,
});
table("appointments", ["id", "pet_id", "vet_id", "start_time", "end_time", "status", "notes"], {
  fks: ["pets:pet_id", "vets:vet_id"],
  indexes: 2,
});
table("invoices", ["id", "number", "owner_id", "issue_date", "total", "paid"], {
  fks: ["owners:owner_id"],
  indexes: 2,
});
table("invoice_lines", ["id", "invoice_id", "description", "quantity", "unit_price"], { fks: ["invoices:invoice_id"] });
table("users", ["username", "password #security", "enabled"], { tags: ["security"] });
table("authorities", ["username", "authority"], { fks: ["users:username"], tags: ["security"], indexes: 1 });
table("audit_log", ["id", "entity_name", "entity_id", "action", "changed_at", "changed_by"], { indexes: 1 });
table("vaccination_reminders", ["id", "pet_id", "vaccine", "due_date", "sent_at"], {
  fks: ["pets:pet_id"],
  only: "v2",
  indexes: 1,
});

// The SQL analyzer links views and routines to the tables and to the columns they read or write.
const cols = (t: string, names: string): string[] => names.split(" ").map((c) => `T:${t}.${c}`);
view(
  "v_vet_workload",
  [
    "T:vets",
    "T:visits",
    "T:appointments",
    ...cols("vets", "id first_name last_name"),
    ...cols("visits", "vet_id visit_date"),
    ...cols("appointments", "vet_id start_time end_time status"),
  ],
  { mod: true },
);
view("v_owner_balance", [
  "T:owners",
  "T:invoices",
  "CALL P:fn_owner_balance",
  ...cols("owners", "id first_name last_name"),
  ...cols("invoices", "owner_id paid"),
]);

proc("fn_next_invoice_number()", ["T:invoices", ...cols("invoices", "number issue_date")], { fn: true });
proc(
  "fn_owner_balance(integer)",
  [
    "T:invoices",
    "T:invoice_lines",
    ...cols("invoices", "id owner_id paid"),
    ...cols("invoice_lines", "invoice_id quantity unit_price"),
  ],
  { fn: true, mod: true },
);
proc(
  "sp_generate_monthly_invoices(date)",
  [
    "T:visits",
    "T:owners",
    "T:pets",
    "T:invoices",
    "T:invoice_lines",
    "P:fn_next_invoice_number",
    ...cols("visits", "pet_id visit_date description"),
    ...cols("pets", "id owner_id"),
    ...cols("owners", "id"),
    ...cols("invoices", "id number owner_id issue_date total paid"),
    ...cols("invoice_lines", "invoice_id description quantity unit_price"),
  ],
  { mod: true, tags: ["batch"] },
);
proc("sp_close_day(date)", [
  "T:appointments",
  "T:visits",
  "T:audit_log",
  "P:sp_close_day",
  ...cols("appointments", "pet_id vet_id start_time status notes"),
  ...cols("visits", "pet_id vet_id visit_date description"),
  ...cols("audit_log", "entity_name entity_id action changed_at changed_by"),
]);
proc("sp_vet_workload(date,date)", ["V:v_vet_workload"]);
proc(
  "sp_purge_old_visits(integer)",
  [
    "T:visits",
    "T:audit_log",
    ...cols("visits", "visit_date"),
    ...cols("audit_log", "entity_name entity_id action changed_at"),
  ],
  { only: "v1" },
);

// --- External libraries ------------------------------------------------------------------------

extClass("java.lang.String", "jre", "class", [
  "format(String,Object...)",
  "trim()",
  "isEmpty()",
  "equalsIgnoreCase(String)",
]);
extClass("java.lang.RuntimeException", "jre", "class");
extClass("java.lang.Throwable", "jre", "class", ["getCause()"]);
extClass("java.lang.Class", "jre", "class", ["isAssignableFrom(Class)"]);
extClass("java.util.List", "jre", "interface", ["add(Object)", "isEmpty()", "stream()"]);
extClass("java.util.Set", "jre", "interface", ["add(Object)", "size()"]);
extClass("java.util.Map", "jre", "interface", ["put(Object,Object)"]);
extClass("java.util.Optional", "jre", "class", ["orElseThrow(Supplier)", "map(Function)"]);
extClass("java.util.Collections", "jre", "class", ["unmodifiableList(List)", "sort(List,Comparator)"]);
extClass("java.time.LocalDate", "jre", "class", [
  "now()",
  "plusDays(long)",
  "plusYears(long)",
  "getDayOfWeek()",
  "parse(CharSequence)",
  "format(DateTimeFormatter)",
]);
extClass("java.time.LocalDateTime", "jre", "class", ["isBefore(ChronoLocalDateTime)"]);
extClass("java.time.format.DateTimeFormatter", "jre", "class", ["ofPattern(String)"]);
extClass("java.math.BigDecimal", "jre", "class", [
  "add(BigDecimal)",
  "multiply(BigDecimal)",
  "setScale(int,RoundingMode)",
  "valueOf(long)",
]);
extClass("java.sql.ResultSet", "jre", "interface", ["getInt(String)", "getString(String)", "getBigDecimal(String)"]);

extClass("org.springframework.ui.Model", "spring", "interface", ["addAttribute(String,Object)"]);
extClass("org.springframework.ui.ModelMap", "spring", "class", ["put(String,Object)"]);
extClass("org.springframework.validation.BindingResult", "spring", "interface", [
  "hasErrors()",
  "rejectValue(String,String,String)",
]);
extClass("org.springframework.validation.Errors", "spring", "interface", ["rejectValue(String,String)"]);
extClass("org.springframework.validation.Validator", "spring", "interface");
extClass("org.springframework.web.bind.WebDataBinder", "spring", "class", [
  "setDisallowedFields(String...)",
  "setValidator(Validator)",
]);
extClass("org.springframework.data.jpa.repository.JpaRepository", "spring", "interface");
extClass("org.springframework.data.domain.PageRequest", "spring", "class", ["of(int,int)"]);
extClass("org.springframework.jdbc.core.JdbcTemplate", "spring", "class", [
  "query(String,RowMapper,Object...)",
  "update(String,Object...)",
  "queryForObject(String,Class,Object...)",
]);
extClass("org.springframework.jdbc.core.simple.SimpleJdbcCall", "spring", "class", [
  "withProcedureName(String)",
  "execute(Object...)",
]);
extClass("org.springframework.http.ResponseEntity", "spring", "class", [
  "ok(Object)",
  "created(URI)",
  "notFound()",
  "noContent()",
]);
extClass("org.springframework.web.util.UriComponentsBuilder", "spring", "class", ["path(String)"]);
extClass("org.springframework.mail.javamail.JavaMailSender", "spring", "interface", [
  "send(MimeMessage)!end",
  "createMimeMessage()",
]);
extClass("org.springframework.mail.javamail.MimeMessageHelper", "spring", "class", [
  "setTo(String)",
  "setSubject(String)",
  "setText(String,boolean)",
]);
extClass("org.springframework.security.crypto.password.PasswordEncoder", "spring", "interface");
extClass("org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder", "spring", "class");
extClass("org.springframework.security.core.userdetails.UserDetailsService", "spring", "interface");
extClass("org.springframework.security.core.context.SecurityContextHolder", "spring", "class", ["getContext()"]);
extClass("org.springframework.security.config.annotation.web.builders.HttpSecurity", "spring", "class", [
  "authorizeHttpRequests(Customizer)",
  "formLogin(Customizer)",
  "build()",
]);
extClass("org.springframework.boot.SpringApplication", "spring", "class", ["run(Class,String...)"]);
extClass("org.springframework.boot.CommandLineRunner", "spring", "interface");
extClass("org.springframework.format.Formatter", "spring", "interface");
extClass("org.springframework.format.FormatterRegistry", "spring", "interface", ["addFormatter(Formatter)"]);
extClass("org.springframework.web.servlet.config.annotation.WebMvcConfigurer", "spring", "interface");
extClass("org.springframework.web.servlet.config.annotation.ViewControllerRegistry", "spring", "class", [
  "addViewController(String)",
]);
extClass("org.springframework.util.StringUtils", "spring", "class", ["hasText(String)"]);
extClass("org.springframework.core.style.ToStringCreator", "spring", "class", ["append(String,Object)"]);

extClass("org.hibernate.Hibernate", "hib", "class", ["initialize(Object)"]);
extClass("org.hibernate.Session", "hib", "interface", ["setJdbcBatchSize(Integer)"]);

extClass("org.slf4j.Logger", "logging", "interface", [
  "debug(String,Object...)",
  "info(String,Object...)",
  "warn(String,Object...)",
  "error(String,Throwable)",
]);
extClass("org.slf4j.LoggerFactory", "logging", "class", ["getLogger(Class)"]);

extClass("jakarta.persistence.EntityManager", "jakarta", "interface", ["flush()", "clear()", "unwrap(Class)"]);
extClass("jakarta.servlet.http.HttpServletResponse", "jakarta", "interface", [
  "setContentType(String)",
  "getOutputStream()!end",
]);

// --- Domain model ----------------------------------------------------------------------------

entity({
  name: "BaseEntity",
  impl: [],
  fields: [{ name: "id", type: "Integer", ann: ["@Id", "@GeneratedValue(strategy = GenerationType.IDENTITY)"] }],
  extra: [M("boolean isNew()", ["ACCESS .id"], { len: 3 })],
});
entity({
  name: "NamedEntity",
  sup: "BaseEntity",
  fields: [{ name: "name", type: "String", ann: ['@Column(name = "name")', "@NotBlank"] }],
  extra: [M("String toString()", [".getName"], { ann: ["@Override"], len: 3 })],
});
entity({
  name: "Person",
  sup: "BaseEntity",
  fields: [
    { name: "firstName", type: "String", ann: ['@Column(name = "first_name")', "@NotBlank"] },
    { name: "lastName", type: "String", ann: ['@Column(name = "last_name")', "@NotBlank"] },
  ],
});
entity({
  name: "Owner",
  sup: "Person",
  table: "owners",
  fields: [
    { name: "address", type: "String", col: "address", ann: ['@Column(name = "address")', "@NotBlank"] },
    { name: "city", type: "String", col: "city", ann: ['@Column(name = "city")', "@NotBlank"] },
    {
      name: "telephone",
      type: "String",
      col: "telephone",
      ann: ['@Column(name = "telephone")', "@NotBlank", "@Digits(fraction = 0, integer = 10)"],
      tags: ["pii"],
    },
    { name: "email", type: "String", col: "email", ann: ['@Column(name = "email")', "@Email"], tags: ["pii"] },
    {
      name: "pets",
      type: "List<Pet>",
      ann: [
        "@OneToMany(cascade = CascadeType.ALL, fetch = FetchType.EAGER)",
        '@JoinColumn(name = "owner_id")',
        '@OrderBy("name")',
      ],
      acc: "g",
    },
  ],
  extra: [
    M("void addPet(Pet)", ["BaseEntity.isNew", "X:List.add", "Pet.setOwner", "ACCESS .pets"], { len: 6 }),
    M(
      "Pet getPet(String,boolean)",
      ["ACCESS .pets", "NamedEntity.getName", "X:String.equalsIgnoreCase", "BaseEntity.isNew"],
      { len: 11 },
    ),
    M("Pet getPet(Integer)", ["ACCESS .pets", "BaseEntity.getId", "BaseEntity.isNew"], { key: "getPetById", len: 9 }),
    M(
      "String toString()",
      ["X:ToStringCreator.append", "BaseEntity.getId", "BaseEntity.isNew", "Person.getLastName", "Person.getFirstName"],
      { ann: ["@Override"], len: 10 },
    ),
  ],
});
entity({
  name: "PetType",
  sup: "NamedEntity",
  table: "types",
  fields: [],
});
entity({
  name: "Pet",
  sup: "NamedEntity",
  table: "pets",
  fields: [
    {
      name: "birthDate",
      type: "LocalDate",
      col: "birth_date",
      ann: ['@Column(name = "birth_date")', '@DateTimeFormat(pattern = "yyyy-MM-dd")'],
    },
    { name: "type", type: "PetType", col: "type_id", ann: ["@ManyToOne", '@JoinColumn(name = "type_id")'] },
    { name: "owner", type: "Owner", col: "owner_id", ann: ["@ManyToOne", '@JoinColumn(name = "owner_id")'] },
    {
      name: "visits",
      type: "List<Visit>",
      ann: [
        '@OneToMany(cascade = CascadeType.ALL, mappedBy = "pet", fetch = FetchType.EAGER)',
        '@OrderBy("visit_date ASC")',
      ],
      acc: "g",
    },
  ],
  extra: [M("void addVisit(Visit)", ["ACCESS .visits", "X:List.add", "Visit.setPet"], { len: 4 })],
});
entity({
  name: "Visit",
  sup: "BaseEntity",
  table: "visits",
  fields: [
    {
      name: "date",
      type: "LocalDate",
      col: "visit_date",
      ann: ['@Column(name = "visit_date")', '@DateTimeFormat(pattern = "yyyy-MM-dd")'],
    },
    { name: "description", type: "String", col: "description", ann: ["@NotBlank"] },
    { name: "pet", type: "Pet", col: "pet_id", ann: ["@ManyToOne", '@JoinColumn(name = "pet_id")'] },
    { name: "vet", type: "Vet", col: "vet_id", ann: ["@ManyToOne", '@JoinColumn(name = "vet_id")'] },
  ],
  extra: [Ctor("", ["ACCESS .date", "X:LocalDate.now"], { len: 3 })],
});
entity({
  name: "Specialty",
  sup: "NamedEntity",
  table: "specialties",
  fields: [],
});
entity({
  name: "Vet",
  sup: "Person",
  table: "vets",
  fields: [
    {
      name: "specialties",
      type: "Set<Specialty>",
      ann: [
        "@ManyToMany(fetch = FetchType.EAGER)",
        '@JoinTable(name = "vet_specialties", joinColumns = @JoinColumn(name = "vet_id"), inverseJoinColumns = @JoinColumn(name = "specialty_id"))',
      ],
      acc: "",
    },
  ],
  extra: [
    M("Set<Specialty> getSpecialtiesInternal()", ["ACCESS .specialties"], { len: 6 }),
    M(
      "List<Specialty> getSpecialties()",
      [".getSpecialtiesInternal", "X:Collections.sort", "X:Collections.unmodifiableList"],
      { ann: ["@XmlElement"], len: 5, mod: true },
    ),
    M("int getNrOfSpecialties()", [".getSpecialtiesInternal", "X:Set.size"], { len: 3 }),
    M("void addSpecialty(Specialty)", [".getSpecialtiesInternal", "X:Set.add"], { len: 3 }),
  ],
});
javaClass({
  name: "AppointmentStatus",
  pkg: "model",
  sub: "model",
  kind: "enum",
  members: [Item("REQUESTED"), Item("CONFIRMED"), Item("CANCELLED"), Item("COMPLETED")],
});
entity({
  name: "Appointment",
  sup: "BaseEntity",
  table: "appointments",
  fields: [
    { name: "startTime", type: "LocalDateTime", col: "start_time", ann: ['@Column(name = "start_time")', "@NotNull"] },
    { name: "endTime", type: "LocalDateTime", col: "end_time", ann: ['@Column(name = "end_time")', "@NotNull"] },
    { name: "status", type: "AppointmentStatus", col: "status", ann: ["@Enumerated(EnumType.STRING)"] },
    { name: "notes", type: "String", col: "notes", ann: ["@Size(max = 1000)"] },
    { name: "pet", type: "Pet", col: "pet_id", ann: ["@ManyToOne(optional = false)", '@JoinColumn(name = "pet_id")'] },
    { name: "vet", type: "Vet", col: "vet_id", ann: ["@ManyToOne(optional = false)", '@JoinColumn(name = "vet_id")'] },
  ],
  extra: [
    M("boolean isOverlapping(Appointment)", [".getStartTime", ".getEndTime", "X:LocalDateTime.isBefore"], {
      len: 5,
      mod: true,
    }),
    M("void cancel()", [".setStatus", "USE AppointmentStatus.CANCELLED"], { len: 6 }),
  ],
});
entity({
  name: "Invoice",
  sup: "BaseEntity",
  table: "invoices",
  fields: [
    { name: "number", type: "String", col: "number", ann: ['@Column(name = "number", unique = true)'] },
    { name: "issueDate", type: "LocalDate", col: "issue_date", ann: ['@Column(name = "issue_date")'] },
    { name: "total", type: "BigDecimal", col: "total", ann: ["@Digits(integer = 8, fraction = 2)"] },
    { name: "paid", type: "boolean", col: "paid" },
    { name: "owner", type: "Owner", col: "owner_id", ann: ["@ManyToOne", '@JoinColumn(name = "owner_id")'] },
    {
      name: "lines",
      type: "List<InvoiceLine>",
      ann: ['@OneToMany(cascade = CascadeType.ALL, mappedBy = "invoice", orphanRemoval = true)'],
      acc: "g",
    },
  ],
  extra: [
    M("void addLine(InvoiceLine)", ["ACCESS .lines", "X:List.add", "InvoiceLine.setInvoice"], { len: 4 }),
    M(
      "BigDecimal computeTotal()",
      ["ACCESS .lines", "ACCESS .total", "InvoiceLine.getAmount", "MoneyUtils.sum", "X:List.stream"],
      { len: 7 },
    ),
  ],
});
entity({
  name: "InvoiceLine",
  sup: "BaseEntity",
  table: "invoice_lines",
  fields: [
    { name: "description", type: "String", col: "description", ann: ["@NotBlank"] },
    { name: "quantity", type: "int", col: "quantity", ann: ["@Min(1)"] },
    { name: "unitPrice", type: "BigDecimal", col: "unit_price", ann: ['@Column(name = "unit_price")'] },
    { name: "invoice", type: "Invoice", col: "invoice_id", ann: ["@ManyToOne", '@JoinColumn(name = "invoice_id")'] },
  ],
  extra: [
    M(
      "BigDecimal getAmount()",
      ["ACCESS .unitPrice", "ACCESS .quantity", "X:BigDecimal.valueOf", "X:BigDecimal.multiply", "MoneyUtils.round"],
      { len: 4, mod: true },
    ),
  ],
});
entity({
  name: "User",
  table: "users",
  ann: ["@Entity", '@Table(name = "users")'],
  fields: [
    { name: "username", type: "String", col: "username", ann: ["@Id"] },
    { name: "password", type: "String", col: "password", tags: ["security"] },
    { name: "enabled", type: "boolean", col: "enabled" },
    {
      name: "authorities",
      type: "Set<String>",
      ann: [
        "@ElementCollection(fetch = FetchType.EAGER)",
        '@CollectionTable(name = "authorities", joinColumns = @JoinColumn(name = "username"))',
        '@Column(name = "authority")',
      ],
      acc: "g",
    },
  ],
});
entity({
  name: "VaccinationReminder",
  sup: "BaseEntity",
  table: "vaccination_reminders",
  only: "v2",
  fields: [
    {
      name: "pet",
      type: "Pet",
      col: "pet_id",
      ann: ["@ManyToOne(optional = false)", '@JoinColumn(name = "pet_id")'],
      acc: "g",
    },
    { name: "vaccine", type: "String", col: "vaccine", ann: ["@NotBlank"], acc: "g" },
    { name: "dueDate", type: "LocalDate", col: "due_date", ann: ['@Column(name = "due_date")'], acc: "g" },
    { name: "sentAt", type: "LocalDateTime", col: "sent_at", ann: ['@Column(name = "sent_at")'], acc: "" },
  ],
  extra: [M("void markSent(LocalDateTime)", ["ACCESS .sentAt"], { len: 3 })],
});

// --- Data access -------------------------------------------------------------------------------

const JPA = "X:JpaRepository";
javaClass({
  name: "OwnerRepository",
  pkg: "owner",
  sub: "dao",
  kind: "interface",
  impl: [JPA],
  members: [
    M("Page<Owner> findByLastNameStartingWith(String,Pageable)", ["T:owners", "T:pets"], {
      ann: [
        '@Query("SELECT DISTINCT owner FROM Owner owner left join owner.pets WHERE owner.lastName LIKE :lastName%")',
        "@Transactional(readOnly = true)",
      ],
      tags: ["hot path"],
      mod: true,
    }),
    M("Optional<Owner> findById(Integer)", ["T:owners", "T:pets", "T:visits"], {
      ann: [
        '@Query("SELECT owner FROM Owner owner left join fetch owner.pets WHERE owner.id =:id")',
        "@Transactional(readOnly = true)",
      ],
    }),
    M("Owner save(Owner)", ["T:owners", "T:pets"]),
    M("Page<Owner> findAll(Pageable)", ["T:owners"], { ann: ["@Transactional(readOnly = true)"] }),
  ],
});
javaClass({
  name: "PetTypeRepository",
  pkg: "owner",
  sub: "dao",
  kind: "interface",
  impl: [JPA],
  members: [
    M("List<PetType> findPetTypes()", ["T:types"], {
      ann: ['@Query("SELECT ptype FROM PetType ptype ORDER BY ptype.name")', "@Transactional(readOnly = true)"],
    }),
    M("Optional<PetType> findById(Integer)", ["T:types"]),
  ],
});
javaClass({
  name: "PetRepository",
  pkg: "owner",
  sub: "dao",
  kind: "interface",
  impl: [JPA],
  members: [
    M("Optional<Pet> findById(Integer)", ["T:pets", "T:types", "T:visits"]),
    M("Pet save(Pet)", ["T:pets"]),
    M("List<Pet> findByOwnerId(Integer)", ["T:pets", "T:types"]),
  ],
});
javaClass({
  name: "VisitRepository",
  pkg: "owner",
  sub: "dao",
  kind: "interface",
  impl: [JPA],
  members: [
    M("List<Visit> findByPetId(Integer)", ["T:visits"]),
    M("Visit save(Visit)", ["T:visits"]),
    M("List<Visit> findByVetIdAndDateBetween(Integer,LocalDate,LocalDate)", ["T:visits", "T:vets"]),
  ],
});
javaClass({
  name: "VetRepository",
  pkg: "vet",
  sub: "dao",
  kind: "interface",
  impl: [JPA],
  members: [
    M("Collection<Vet> findAll()", ["T:vets", "T:vet_specialties", "T:specialties"], {
      ann: ["@Transactional(readOnly = true)", '@Cacheable("vets")'],
    }),
    M("Page<Vet> findAll(Pageable)", ["T:vets", "T:vet_specialties", "T:specialties"], {
      key: "findAllPaged",
      ann: ["@Transactional(readOnly = true)", '@Cacheable("vets")'],
    }),
    M("List<Vet> findBySpecialty(String)", ["T:vets", "T:vet_specialties", "T:specialties"], {
      ann: ['@Query("SELECT v FROM Vet v JOIN v.specialties s WHERE s.name = :name")'],
    }),
  ],
});
javaClass({
  name: "SpecialtyRepository",
  pkg: "vet",
  sub: "dao",
  kind: "interface",
  impl: [JPA],
  members: [
    M("List<Specialty> findAll()", ["T:specialties"]),
    M("Optional<Specialty> findByName(String)", ["T:specialties"]),
  ],
});
javaClass({
  name: "AppointmentRepository",
  pkg: "appointment",
  sub: "dao",
  kind: "interface",
  impl: [JPA],
  members: [
    M("List<Appointment> findByVetIdAndDay(Integer,LocalDateTime,LocalDateTime)", ["T:appointments", "T:pets"], {
      ann: [
        '@Query("SELECT a FROM Appointment a WHERE a.vet.id = :vetId AND a.startTime >= :from AND a.startTime < :to ORDER BY a.startTime")',
      ],
    }),
    M("List<Appointment> findByPetId(Integer)", ["T:appointments"]),
    M("Appointment save(Appointment)", ["T:appointments"]),
    M("List<Appointment> findOverlapping(Integer,LocalDateTime,LocalDateTime)", ["T:appointments"], {
      ann: [
        "@Query(\"SELECT a FROM Appointment a WHERE a.vet.id = :vetId AND a.status <> 'CANCELLED' AND a.startTime < :end AND a.endTime > :start\")",
      ],
      mod: true,
    }),
    M("Optional<Appointment> findById(Integer)", ["T:appointments", "T:pets", "T:vets"]),
  ],
});
javaClass({
  name: "InvoiceRepository",
  pkg: "billing",
  sub: "dao",
  kind: "interface",
  impl: [JPA],
  members: [
    M("List<Invoice> findByOwnerId(Integer)", ["T:invoices"]),
    M("Optional<Invoice> findByNumber(String)", ["T:invoices", "T:invoice_lines"]),
    M("Invoice save(Invoice)", ["T:invoices", "T:invoice_lines"]),
    M("List<Invoice> findUnpaidOlderThan(LocalDate)", ["T:invoices"], {
      ann: ['@Query("SELECT i FROM Invoice i WHERE i.paid = false AND i.issueDate < :date")'],
    }),
    M("Optional<Invoice> findById(Integer)", ["T:invoices", "T:invoice_lines"]),
  ],
});
javaClass({
  name: "UserRepository",
  pkg: "security",
  sub: "dao",
  kind: "interface",
  impl: [JPA],
  tags: ["security"],
  members: [
    M("Optional<User> findByUsername(String)", ["T:users", "T:authorities"]),
    M("User save(User)", ["T:users", "T:authorities"]),
  ],
});
javaClass({
  name: "VaccinationReminderRepository",
  pkg: "reminder",
  sub: "dao",
  kind: "interface",
  impl: [JPA],
  only: "v2",
  members: [
    M("List<VaccinationReminder> findDueBefore(LocalDate)", ["T:vaccination_reminders", "T:pets", "T:owners"], {
      ann: [
        '@Query("SELECT r FROM VaccinationReminder r JOIN FETCH r.pet p JOIN FETCH p.owner WHERE r.sentAt IS NULL AND r.dueDate <= :date")',
      ],
    }),
    M("List<VaccinationReminder> findByPetOwnerId(Integer)", ["T:vaccination_reminders", "T:pets"]),
    M("VaccinationReminder save(VaccinationReminder)", ["T:vaccination_reminders"]),
  ],
});
javaClass({
  name: "ReportRepository",
  pkg: "report",
  sub: "dao",
  kind: "interface",
  members: [
    M("List<VetWorkload> vetWorkload(YearMonth)"),
    M("BigDecimal ownerBalance(int)"),
    M("Map<YearMonth,BigDecimal> monthlyRevenue(int)"),
  ],
});
javaClass({
  name: "JdbcReportRepository",
  log: true,
  pkg: "report",
  sub: "dao",
  impl: ["ReportRepository"],
  ann: ["@Repository"],
  lens: [6, 18],
  members: [
    F("jdbcTemplate", "JdbcTemplate", { ann: [] }),
    F("workloadCall", "SimpleJdbcCall"),
    Ctor("DataSource", ["ACCESS .jdbcTemplate", "ACCESS .workloadCall", "X:SimpleJdbcCall.withProcedureName"], {
      len: 5,
    }),
    M("List<VetWorkload> vetWorkload(YearMonth)", ["X:SimpleJdbcCall.execute", "P:sp_vet_workload", ".mapWorkload"]),
    M("BigDecimal ownerBalance(int)", ["X:JdbcTemplate.queryForObject", "V:v_owner_balance"]),
    M(
      "Map<YearMonth,BigDecimal> monthlyRevenue(int)",
      ["X:JdbcTemplate.query", "T:invoices", "T:invoice_lines", "X:ResultSet.getBigDecimal", "X:ResultSet.getInt"],
      { mod: true },
    ),
    M("VetWorkload mapWorkload(ResultSet,int)", ["X:ResultSet.getInt", "X:ResultSet.getString"], { len: 7 }),
  ],
});
javaClass({
  name: "AuditLogWriter",
  log: true,
  pkg: "util",
  sub: "dao",
  ann: ["@Component"],
  members: [
    F("jdbcTemplate", "JdbcTemplate"),
    Ctor("JdbcTemplate", ["ACCESS .jdbcTemplate"]),
    M(
      "void write(String,Integer,String)",
      ["X:JdbcTemplate.update", "T:audit_log", "X:SecurityContextHolder.getContext"],
      { len: 9, mod: true },
    ),
  ],
});

// --- Business services ---------------------------------------------------------------------------

javaClass({
  name: "ClinicService",
  pkg: "service",
  sub: "biz",
  kind: "interface",
  members: [
    M("Owner findOwnerById(int)"),
    M("Page<Owner> findOwnersByLastName(String,Pageable)"),
    M("void saveOwner(Owner)"),
    M("Pet findPetById(int)"),
    M("void savePet(Pet)"),
    M("List<PetType> findPetTypes()"),
    M("void saveVisit(Visit)"),
    M("List<Visit> findVisitsByPetId(int)"),
    M("Collection<Vet> findVets()"),
  ],
});
javaClass({
  name: "ClinicServiceImpl",
  log: true,
  pkg: "service",
  sub: "biz",
  impl: ["ClinicService"],
  ann: ["@Service", "@Transactional(readOnly = true)"],
  lens: [4, 14],
  members: [
    F("ownerRepository", "OwnerRepository"),
    F("petRepository", "PetRepository"),
    F("petTypeRepository", "PetTypeRepository"),
    F("visitRepository", "VisitRepository"),
    F("vetRepository", "VetRepository"),
    F("auditLogWriter", "AuditLogWriter"),
    F("reminderService", "ReminderService", { ann: ["@Autowired"], only: "v2" }),
    Ctor("OwnerRepository,PetRepository,PetTypeRepository,VisitRepository,VetRepository,AuditLogWriter", [
      "ACCESS .ownerRepository",
      "ACCESS .petRepository",
      "ACCESS .petTypeRepository",
      "ACCESS .visitRepository",
      "ACCESS .vetRepository",
      "ACCESS .auditLogWriter",
    ]),
    M(
      "Owner findOwnerById(int)",
      ["OwnerRepository.findById", "X:Optional.orElseThrow", "ResourceNotFoundException.new", "X:Hibernate.initialize"],
      { tags: ["hot path"] },
    ),
    M("Page<Owner> findOwnersByLastName(String,Pageable)", ["OwnerRepository.findByLastNameStartingWith"]),
    M(
      "void saveOwner(Owner)",
      ["OwnerRepository.save", "AuditLogWriter.write", "BaseEntity.isNew", "BaseEntity.getId"],
      { ann: ["@Transactional"] },
    ),
    M("Pet findPetById(int)", ["PetRepository.findById", "X:Optional.orElseThrow", "ResourceNotFoundException.new"]),
    M("void savePet(Pet)", ["PetRepository.save", "AuditLogWriter.write", "BaseEntity.getId"], {
      ann: ["@Transactional"],
    }),
    M("List<PetType> findPetTypes()", ["PetTypeRepository.findPetTypes"]),
    M(
      "void saveVisit(Visit)",
      ["VisitRepository.save", "AuditLogWriter.write", "Visit.getPet", "v2|ReminderService.scheduleFor"],
      { ann: ["@Transactional"] },
    ),
    M("List<Visit> findVisitsByPetId(int)", ["VisitRepository.findByPetId"]),
    M("Collection<Vet> findVets()", ["VetRepository.findAll"]),
  ],
});
javaClass({
  name: "VetService",
  log: true,
  pkg: "vet",
  sub: "biz",
  ann: ["@Service", "@Transactional(readOnly = true)"],
  members: [
    F("vetRepository", "VetRepository"),
    F("specialtyRepository", "SpecialtyRepository"),
    Ctor("VetRepository,SpecialtyRepository", ["ACCESS .vetRepository", "ACCESS .specialtyRepository"]),
    M("Collection<Vet> allVets()", ["VetRepository.findAll", "X:Hibernate.initialize"], {
      ann: ['@Cacheable("vets")'],
      mod: true,
    }),
    M("Page<Vet> vetsPage(int,int)", ["VetRepository.findAllPaged", "X:PageRequest.of"]),
    M("List<Vet> vetsBySpecialty(String)", [
      "SpecialtyRepository.findByName",
      "VetRepository.findBySpecialty",
      "X:Optional.map",
    ]),
    M("List<Specialty> findSpecialties()", ["SpecialtyRepository.findAll"], { ann: ['@Cacheable("specialties")'] }),
  ],
});
javaClass({
  name: "AppointmentService",
  log: true,
  pkg: "appointment",
  sub: "biz",
  ann: ["@Service"],
  lens: [5, 22],
  members: [
    F("appointmentRepository", "AppointmentRepository"),
    F("notificationService", "NotificationService"),
    F("clinicService", "ClinicService"),
    Ctor("AppointmentRepository,NotificationService,ClinicService", [
      "ACCESS .appointmentRepository",
      "ACCESS .notificationService",
      "ACCESS .clinicService",
    ]),
    M(
      "Appointment book(Appointment)",
      [
        ".checkAvailability",
        "AppointmentRepository.save",
        "Appointment.setStatus",
        "USE AppointmentStatus.CONFIRMED",
        "NotificationService.sendAppointmentConfirmation",
        "ClinicService.findPetById",
      ],
      { ann: ["@Transactional"] },
    ),
    M(
      "void cancel(int)",
      ["AppointmentRepository.findById", "X:Optional.orElseThrow", "Appointment.cancel", "AppointmentRepository.save"],
      { ann: ["@Transactional"] },
    ),
    M(
      "List<Appointment> findForVetOnDay(int,LocalDate)",
      ["AppointmentRepository.findByVetIdAndDay", "X:LocalDate.plusDays"],
      { ann: ["@Transactional(readOnly = true)"] },
    ),
    M("List<Appointment> findForPet(int)", ["AppointmentRepository.findByPetId"], {
      ann: ["@Transactional(readOnly = true)"],
    }),
    M(
      "void checkAvailability(Appointment)",
      [
        "AppointmentRepository.findOverlapping",
        "Appointment.isOverlapping",
        "Appointment.getStartTime",
        "Appointment.getEndTime",
        "Appointment.getVet",
        "X:List.isEmpty",
        "DateUtils.addBusinessDays",
      ],
      { mod: true },
    ),
  ],
});
javaClass({
  name: "BillingService",
  log: true,
  pkg: "billing",
  sub: "biz",
  ann: ["@Service"],
  lens: [6, 24],
  members: [
    F("invoiceRepository", "InvoiceRepository"),
    F("notificationService", "NotificationService"),
    F("jdbcTemplate", "JdbcTemplate"),
    F("entityManager", "EntityManager", { ann: ["@PersistenceContext"] }),
    Ctor("InvoiceRepository,NotificationService,JdbcTemplate", [
      "ACCESS .invoiceRepository",
      "ACCESS .notificationService",
      "ACCESS .jdbcTemplate",
    ]),
    M(
      "Invoice createInvoiceForVisit(Visit)",
      [
        "X:JdbcTemplate.queryForObject",
        "P:fn_next_invoice_number",
        "Invoice.setNumber",
        "Invoice.setOwner",
        "Invoice.setIssueDate",
        "InvoiceLine.setDescription",
        "InvoiceLine.setQuantity",
        "InvoiceLine.setUnitPrice",
        "Invoice.addLine",
        "Invoice.computeTotal",
        "Invoice.setTotal",
        "InvoiceRepository.save",
        "Visit.getPet",
        "Pet.getOwner",
        "Visit.getDescription",
        "X:LocalDate.now",
      ],
      { ann: ["@Transactional"], len: 24 },
    ),
    M(
      "void markPaid(int)",
      [
        "InvoiceRepository.findById",
        "X:Optional.orElseThrow",
        "Invoice.setPaid",
        "InvoiceRepository.save",
        "AuditLogWriter.write",
      ],
      { ann: ["@Transactional"] },
    ),
    M("List<Invoice> findInvoicesForOwner(int)", ["InvoiceRepository.findByOwnerId"], {
      ann: ["@Transactional(readOnly = true)"],
    }),
    M(
      "Invoice findInvoice(int)",
      ["InvoiceRepository.findById", "X:Optional.orElseThrow", "ResourceNotFoundException.new"],
      { ann: ["@Transactional(readOnly = true)"] },
    ),
    M(
      "int generateMonthlyInvoices(YearMonth)",
      [
        "X:EntityManager.flush",
        "X:EntityManager.unwrap",
        "X:Session.setJdbcBatchSize",
        "X:SimpleJdbcCall.withProcedureName",
        "X:SimpleJdbcCall.execute",
        "P:sp_generate_monthly_invoices",
        "X:EntityManager.clear",
      ],
      { ann: ["@Transactional"], mod: true, tags: ["batch"] },
    ),
    M("void sendInvoice(int)", [".findInvoice", "NotificationService.sendInvoice"]),
    M(
      "int remindUnpaid()",
      ["InvoiceRepository.findUnpaidOlderThan", "NotificationService.sendPaymentReminder", "X:LocalDate.now"],
      { only: "v1" },
    ),
  ],
});
javaClass({
  name: "NotificationService",
  log: true,
  pkg: "service",
  sub: "biz",
  ann: ["@Service"],
  lens: [6, 14],
  members: [
    F("mailSender", "JavaMailSender"),
    Ctor("JavaMailSender", ["ACCESS .mailSender"]),
    M(
      "void sendAppointmentConfirmation(Appointment)",
      [
        ".buildMessage",
        "X:JavaMailSender.send",
        "Appointment.getPet",
        "Appointment.getStartTime",
        "Pet.getOwner",
        "Owner.getEmail",
        "DateUtils.formatDate",
      ],
      { ann: ["@Async"] },
    ),
    M("void sendInvoice(Invoice)", [
      ".buildMessage",
      "X:JavaMailSender.send",
      "Invoice.getOwner",
      "Owner.getEmail",
      "Invoice.getNumber",
      "MoneyUtils.format",
    ]),
    M("void sendPaymentReminder(Invoice)", [
      ".buildMessage",
      "X:JavaMailSender.send",
      "Invoice.getOwner",
      "Owner.getEmail",
      "Invoice.getTotal",
      "MoneyUtils.format",
    ]),
    M(
      "void sendVaccinationReminder(VaccinationReminder)",
      [
        ".buildMessage",
        "X:JavaMailSender.send",
        "VaccinationReminder.getPet",
        "VaccinationReminder.getVaccine",
        "VaccinationReminder.getDueDate",
        "Pet.getOwner",
        "Owner.getEmail",
        "DateUtils.formatDate",
      ],
      { only: "v2" },
    ),
    M(
      "MimeMessage buildMessage(String,String,String)",
      [
        "X:JavaMailSender.createMimeMessage",
        "X:MimeMessageHelper.setTo",
        "X:MimeMessageHelper.setSubject",
        "X:MimeMessageHelper.setText",
        "X:String.format",
      ],
      { mod: true },
    ),
  ],
});
javaClass({
  name: "ReportService",
  log: true,
  pkg: "report",
  sub: "biz",
  ann: ["@Service", "@Transactional(readOnly = true)"],
  members: [
    F("reportRepository", "ReportRepository"),
    Ctor("ReportRepository", ["ACCESS .reportRepository"]),
    M("List<VetWorkload> vetWorkloadReport(YearMonth)", ["ReportRepository.vetWorkload"]),
    M("BigDecimal ownerBalance(int)", ["ReportRepository.ownerBalance", "MoneyUtils.round"]),
    M("Map<YearMonth,BigDecimal> revenueByMonth(int)", ["ReportRepository.monthlyRevenue", "MoneyUtils.sum"], {
      mod: true,
    }),
  ],
});
javaClass({
  name: "PetclinicUserDetailsService",
  log: true,
  pkg: "security",
  sub: "biz",
  impl: ["X:UserDetailsService"],
  ann: ["@Service"],
  tags: ["security"],
  members: [
    F("userRepository", "UserRepository"),
    Ctor("UserRepository", ["ACCESS .userRepository"]),
    M(
      "UserDetails loadUserByUsername(String)",
      [
        "UserRepository.findByUsername",
        "X:Optional.orElseThrow",
        ".toAuthorities",
        "User.getPassword",
        "User.isEnabled",
        "User.getAuthorities",
      ],
      { ann: ["@Override", "@Transactional(readOnly = true)"], tags: ["security"] },
    ),
    M("List<GrantedAuthority> toAuthorities(Set<String>)", ["X:List.add"], { len: 6 }),
  ],
});
javaClass({
  name: "ReminderService",
  log: true,
  pkg: "reminder",
  sub: "biz",
  ann: ["@Service"],
  only: "v2",
  lens: [6, 16],
  members: [
    F("reminderRepository", "VaccinationReminderRepository", { ann: ["@Autowired"] }),
    F("notificationService", "NotificationService", { ann: ["@Autowired"] }),
    M(
      "void scheduleFor(Visit)",
      [
        "Visit.getPet",
        "Visit.getDescription",
        "Visit.getDate",
        "X:LocalDate.plusYears",
        "VaccinationReminderRepository.save",
        "USE VaccinationReminder",
      ],
      { ann: ["@Transactional"] },
    ),
    M(
      "int sendDueReminders()",
      [
        "VaccinationReminderRepository.findDueBefore",
        "X:LocalDate.now",
        "NotificationService.sendVaccinationReminder",
        "VaccinationReminder.markSent",
      ],
      { ann: ['@Scheduled(cron = "0 0 7 * * *")', "@Transactional"], role: "start" },
    ),
  ],
});

// --- Web controllers (JSP) --------------------------------------------------------------------

javaClass({
  name: "OwnerController",
  log: true,
  pkg: "owner",
  sub: "ctrl",
  ann: ["@Controller"],
  lens: [4, 16],
  members: [
    F("clinicService", "ClinicService"),
    F("reminderRepository", "VaccinationReminderRepository", { ann: ["@Autowired"], only: "v2" }),
    Ctor("ClinicService", ["ACCESS .clinicService"]),
    M("void setAllowedFields(WebDataBinder)", ["X:WebDataBinder.setDisallowedFields"], {
      ann: ["@InitBinder"],
      len: 3,
    }),
    M("String initCreationForm(Map<String,Object>)", ["X:Map.put"], { ann: ['@GetMapping("/owners/new")'], len: 5 }),
    M(
      "String processCreationForm(Owner,BindingResult,RedirectAttributes)",
      ["X:BindingResult.hasErrors", "ClinicService.saveOwner", "BaseEntity.getId"],
      { ann: ['@PostMapping("/owners/new")'] },
    ),
    M("String initFindForm()", [], { ann: ['@GetMapping("/owners/find")'], len: 3 }),
    M(
      "String processFindForm(int,Owner,BindingResult,Model)",
      [
        "Person.getLastName",
        ".findPaginatedForOwnersLastName",
        "X:BindingResult.rejectValue",
        "X:Model.addAttribute",
        "X:String.isEmpty",
        ".addPaginationModel",
      ],
      { ann: ['@GetMapping("/owners")'], tags: ["hot path"], mod: true },
    ),
    M("String addPaginationModel(int,Model,Page<Owner>)", ["X:Model.addAttribute"], { len: 8 }),
    M(
      "Page<Owner> findPaginatedForOwnersLastName(int,String)",
      ["ClinicService.findOwnersByLastName", "X:PageRequest.of"],
      { len: 5 },
    ),
    M("String initUpdateOwnerForm(int,Model)", ["ClinicService.findOwnerById", "X:Model.addAttribute"], {
      ann: ['@GetMapping("/owners/{ownerId}/edit")'],
    }),
    M(
      "String processUpdateOwnerForm(Owner,BindingResult,int,RedirectAttributes)",
      ["X:BindingResult.hasErrors", "BaseEntity.setId", "ClinicService.saveOwner"],
      { ann: ['@PostMapping("/owners/{ownerId}/edit")'] },
    ),
    M(
      "ModelAndView showOwner(int)",
      ["ClinicService.findOwnerById", "X:Model.addAttribute", "v2|VaccinationReminderRepository.findByPetOwnerId"],
      { ann: ['@GetMapping("/owners/{ownerId}")'] },
    ),
  ],
});
javaClass({
  name: "PetController",
  log: true,
  pkg: "owner",
  sub: "ctrl",
  ann: ["@Controller", '@RequestMapping("/owners/{ownerId}")'],
  lens: [4, 16],
  members: [
    F("clinicService", "ClinicService"),
    Ctor("ClinicService", ["ACCESS .clinicService"]),
    M("Collection<PetType> populatePetTypes()", ["ClinicService.findPetTypes"], {
      ann: ['@ModelAttribute("types")'],
      len: 3,
    }),
    M("Owner findOwner(int)", ["ClinicService.findOwnerById"], { ann: ['@ModelAttribute("owner")'], len: 3 }),
    M("void initOwnerBinder(WebDataBinder)", ["X:WebDataBinder.setDisallowedFields"], {
      ann: ['@InitBinder("owner")'],
      len: 3,
    }),
    M("void initPetBinder(WebDataBinder)", ["X:WebDataBinder.setValidator", "USE PetValidator"], {
      ann: ['@InitBinder("pet")'],
      len: 3,
    }),
    M("String initCreationForm(Owner,ModelMap)", ["Owner.addPet", "X:ModelMap.put"], {
      ann: ['@GetMapping("/pets/new")'],
      len: 6,
    }),
    M(
      "String processCreationForm(Owner,Pet,BindingResult,ModelMap)",
      [
        "NamedEntity.getName",
        "Owner.getPet",
        "X:BindingResult.rejectValue",
        "X:BindingResult.hasErrors",
        "Owner.addPet",
        "ClinicService.savePet",
        "X:ModelMap.put",
        "X:StringUtils.hasText",
      ],
      { ann: ['@PostMapping("/pets/new")'], mod: true },
    ),
    M("String initUpdateForm(int,ModelMap)", ["ClinicService.findPetById", "X:ModelMap.put"], {
      ann: ['@GetMapping("/pets/{petId}/edit")'],
      len: 5,
    }),
    M(
      "String processUpdateForm(Pet,BindingResult,Owner,ModelMap)",
      ["X:BindingResult.hasErrors", "Owner.addPet", "ClinicService.savePet", "X:ModelMap.put"],
      { ann: ['@PostMapping("/pets/{petId}/edit")'] },
    ),
  ],
});
javaClass({
  name: "VisitController",
  log: true,
  pkg: "owner",
  sub: "ctrl",
  ann: ["@Controller"],
  lens: [4, 14],
  members: [
    F("clinicService", "ClinicService"),
    F("billingService", "BillingService"),
    Ctor("ClinicService,BillingService", ["ACCESS .clinicService", "ACCESS .billingService"]),
    M("void setAllowedFields(WebDataBinder)", ["X:WebDataBinder.setDisallowedFields"], {
      ann: ["@InitBinder"],
      len: 3,
    }),
    M(
      "Visit loadPetWithVisit(int,int,Map<String,Object>)",
      ["ClinicService.findOwnerById", "Owner.getPetById", "Pet.addVisit", "Visit.new", "X:Map.put"],
      { ann: ['@ModelAttribute("visit")'], len: 9 },
    ),
    M("String initNewVisitForm()", [], { ann: ['@GetMapping("/owners/{ownerId}/pets/{petId}/visits/new")'], len: 3 }),
    M(
      "String processNewVisitForm(Owner,int,Visit,BindingResult,RedirectAttributes)",
      ["X:BindingResult.hasErrors", "ClinicService.saveVisit", "BillingService.createInvoiceForVisit", "Owner.addPet"],
      { ann: ['@PostMapping("/owners/{ownerId}/pets/{petId}/visits/new")'], mod: true },
    ),
  ],
});
javaClass({
  name: "VetController",
  pkg: "vet",
  sub: "ctrl",
  ann: ["@Controller"],
  members: [
    F("vetService", "VetService"),
    Ctor("VetService", ["ACCESS .vetService"]),
    M("String showVetList(int,Model)", ["VetService.vetsPage", "X:Model.addAttribute"], {
      ann: ['@GetMapping("/vets.html")'],
      len: 9,
    }),
    M("Vets showResourcesVetList()", ["VetService.allVets"], {
      ann: ['@GetMapping({ "/vets" })', "@ResponseBody"],
      len: 5,
    }),
  ],
});
javaClass({
  name: "AppointmentController",
  log: true,
  pkg: "appointment",
  sub: "ctrl",
  ann: ["@Controller", '@RequestMapping("/appointments")'],
  members: [
    F("appointmentService", "AppointmentService"),
    F("clinicService", "ClinicService"),
    Ctor("AppointmentService,ClinicService", ["ACCESS .appointmentService", "ACCESS .clinicService"]),
    M(
      "String showCalendar(int,LocalDate,Model)",
      ["AppointmentService.findForVetOnDay", "ClinicService.findVets", "X:Model.addAttribute", "X:LocalDate.now"],
      { ann: ["@GetMapping"] },
    ),
    M(
      "String initBookingForm(int,Model)",
      ["ClinicService.findPetById", "ClinicService.findVets", "X:Model.addAttribute"],
      { ann: ['@GetMapping("/new")'] },
    ),
    M(
      "String processBookingForm(Appointment,BindingResult,Model)",
      ["X:BindingResult.hasErrors", "AppointmentService.book", "X:BindingResult.rejectValue"],
      { ann: ['@PostMapping("/new")'] },
    ),
    M("String cancelAppointment(int)", ["AppointmentService.cancel"], {
      ann: ['@PostMapping("/{appointmentId}/cancel")'],
      len: 4,
    }),
  ],
});
javaClass({
  name: "InvoiceController",
  log: true,
  pkg: "billing",
  sub: "ctrl",
  ann: ["@Controller", '@RequestMapping("/invoices")'],
  members: [
    F("billingService", "BillingService"),
    Ctor("BillingService", ["ACCESS .billingService"]),
    M("String listInvoices(int,Model)", ["BillingService.findInvoicesForOwner", "X:Model.addAttribute"], {
      ann: ["@GetMapping"],
    }),
    M("String showInvoice(int,Model)", ["BillingService.findInvoice", "X:Model.addAttribute"], {
      ann: ['@GetMapping("/{invoiceId}")'],
    }),
    M("String markPaid(int,RedirectAttributes)", ["BillingService.markPaid"], {
      ann: ['@PostMapping("/{invoiceId}/paid")', "@PreAuthorize(\"hasRole('ADMIN')\")"],
      mod: true,
    }),
    M(
      "void downloadPdf(int,HttpServletResponse)",
      ["BillingService.findInvoice", "X:HttpServletResponse.setContentType", "X:HttpServletResponse.getOutputStream"],
      { ann: ['@GetMapping("/{invoiceId}/pdf")'], len: 18 },
    ),
    M("String sendByMail(int)", ["BillingService.sendInvoice"], { ann: ['@PostMapping("/{invoiceId}/send")'], len: 4 }),
  ],
});
javaClass({
  name: "ReportController",
  pkg: "report",
  sub: "ctrl",
  ann: ["@Controller", '@RequestMapping("/reports")', "@PreAuthorize(\"hasRole('ADMIN')\")"],
  tags: ["security"],
  members: [
    F("reportService", "ReportService"),
    Ctor("ReportService", ["ACCESS .reportService"]),
    M("String vetWorkload(YearMonth,Model)", ["ReportService.vetWorkloadReport", "X:Model.addAttribute"], {
      ann: ['@GetMapping("/workload")'],
    }),
    M("String revenue(int,Model)", ["ReportService.revenueByMonth", "X:Model.addAttribute"], {
      ann: ['@GetMapping("/revenue")'],
    }),
  ],
});
javaClass({
  name: "WelcomeController",
  pkg: "system",
  sub: "ctrl",
  ann: ["@Controller"],
  members: [M("String welcome()", [], { ann: ['@GetMapping("/")'], len: 3 })],
});
javaClass({
  name: "LoginController",
  pkg: "security",
  sub: "ctrl",
  ann: ["@Controller"],
  tags: ["security"],
  members: [
    M("String login()", [], { ann: ['@GetMapping("/login")'], len: 3 }),
    M("String accessDenied(Model)", ["X:Model.addAttribute"], { ann: ['@GetMapping("/access-denied")'], len: 4 }),
  ],
});
javaClass({
  name: "CrashController",
  pkg: "system",
  sub: "ctrl",
  ann: ["@Controller"],
  only: "v1",
  tags: ["deprecated"],
  members: [M("String triggerException()", ["USE X:RuntimeException"], { ann: ['@GetMapping("/oups")'], len: 4 })],
});
javaClass({
  name: "GlobalExceptionHandler",
  log: true,
  pkg: "system",
  sub: "ctrl",
  ann: ["@ControllerAdvice"],
  members: [
    M("String handleNotFound(ResourceNotFoundException,Model)", ["X:Model.addAttribute", "X:Throwable.getCause"], {
      ann: ["@ExceptionHandler(ResourceNotFoundException.class)", "@ResponseStatus(HttpStatus.NOT_FOUND)"],
      len: 4,
    }),
    M("String handleGeneric(Exception,Model)", [".rootCause", "X:Model.addAttribute"], {
      ann: ["@ExceptionHandler(Exception.class)", "@ResponseStatus(HttpStatus.INTERNAL_SERVER_ERROR)"],
      len: 6,
      mod: true,
    }),
    M("Throwable rootCause(Throwable)", ["X:Throwable.getCause", ".rootCause"], { len: 4 }),
  ],
});

// --- REST API ---------------------------------------------------------------------------------

const REST = { role: "start" as Role };
javaClass({
  name: "OwnerRestController",
  log: true,
  pkg: "api",
  sub: "rest",
  ann: ["@RestController", '@RequestMapping("/api/owners")'],
  lens: [4, 12],
  members: [
    F("clinicService", "ClinicService"),
    Ctor("ClinicService", ["ACCESS .clinicService"]),
    M(
      "ResponseEntity<Page<Owner>> listOwners(String,int)",
      ["ClinicService.findOwnersByLastName", "X:PageRequest.of", "X:ResponseEntity.ok"],
      { ...REST, ann: ["@GetMapping"] },
    ),
    M(
      "ResponseEntity<Owner> getOwner(int)",
      ["ClinicService.findOwnerById", "X:ResponseEntity.ok", "v2|X:ResponseEntity.notFound"],
      { ...REST, ann: ['@GetMapping("/{ownerId}")'] },
    ),
    M(
      "ResponseEntity<Owner> createOwner(Owner,UriComponentsBuilder)",
      ["ClinicService.saveOwner", "X:UriComponentsBuilder.path", "X:ResponseEntity.created", "BaseEntity.getId"],
      { ...REST, ann: ["@PostMapping", "@PreAuthorize(\"hasRole('OWNER_ADMIN')\")"] },
    ),
    M(
      "ResponseEntity<Owner> updateOwner(int,Owner)",
      [
        "ClinicService.findOwnerById",
        "Person.setFirstName",
        "Person.setLastName",
        "Owner.setAddress",
        "Owner.setCity",
        "Owner.setTelephone",
        "Owner.setEmail",
        "ClinicService.saveOwner",
        "X:ResponseEntity.ok",
      ],
      { ...REST, ann: ['@PutMapping("/{ownerId}")', "@PreAuthorize(\"hasRole('OWNER_ADMIN')\")"], len: 14 },
    ),
    M(
      "ResponseEntity<List<Pet>> getOwnerPets(int)",
      ["ClinicService.findOwnerById", "Owner.getPets", "X:ResponseEntity.ok"],
      { ...REST, ann: ['@GetMapping("/{ownerId}/pets")'] },
    ),
  ],
});
javaClass({
  name: "PetRestController",
  log: true,
  pkg: "api",
  sub: "rest",
  ann: ["@RestController", '@RequestMapping("/api/pets")'],
  lens: [4, 12],
  members: [
    F("clinicService", "ClinicService"),
    Ctor("ClinicService", ["ACCESS .clinicService"]),
    M(
      "ResponseEntity<Pet> getPet(int)",
      ["ClinicService.findPetById", "X:ResponseEntity.ok", "X:ResponseEntity.notFound"],
      { ...REST, ann: ['@GetMapping("/{petId}")'] },
    ),
    M(
      "ResponseEntity<Pet> addPet(int,Pet,UriComponentsBuilder)",
      [
        "ClinicService.findOwnerById",
        "Owner.addPet",
        "ClinicService.savePet",
        "X:UriComponentsBuilder.path",
        "X:ResponseEntity.created",
      ],
      { ...REST, ann: ['@PostMapping("/owner/{ownerId}")'] },
    ),
    M(
      "ResponseEntity<List<Visit>> getPetVisits(int)",
      ["ClinicService.findVisitsByPetId", "X:ResponseEntity.ok", "v2|X:List.stream"],
      { ...REST, ann: ['@GetMapping("/{petId}/visits")'] },
    ),
    M(
      "ResponseEntity<Visit> addVisit(int,Visit,UriComponentsBuilder)",
      ["ClinicService.findPetById", "Pet.addVisit", "ClinicService.saveVisit", "X:ResponseEntity.created"],
      { ...REST, ann: ['@PostMapping("/{petId}/visits")'] },
    ),
  ],
});
javaClass({
  name: "VetRestController",
  pkg: "api",
  sub: "rest",
  ann: ["@RestController", '@RequestMapping("/api/vets")'],
  members: [
    F("vetService", "VetService"),
    Ctor("VetService", ["ACCESS .vetService"]),
    M("ResponseEntity<Collection<Vet>> listVets()", ["VetService.allVets", "X:ResponseEntity.ok"], {
      ...REST,
      ann: ["@GetMapping"],
      tags: ["hot path"],
      len: 4,
    }),
    M("ResponseEntity<List<Specialty>> listSpecialties()", ["VetService.findSpecialties", "X:ResponseEntity.ok"], {
      ...REST,
      ann: ['@GetMapping("/specialties")'],
      len: 4,
    }),
    M("ResponseEntity<List<Vet>> listBySpecialty(String)", ["VetService.vetsBySpecialty", "X:ResponseEntity.ok"], {
      ...REST,
      ann: ['@GetMapping("/specialties/{name}")'],
      len: 4,
    }),
  ],
});
javaClass({
  name: "AppointmentRestController",
  log: true,
  pkg: "api",
  sub: "rest",
  ann: ["@RestController", '@RequestMapping("/api/appointments")'],
  members: [
    F("appointmentService", "AppointmentService"),
    Ctor("AppointmentService", ["ACCESS .appointmentService"]),
    M(
      "ResponseEntity<List<Appointment>> listForVet(int,LocalDate)",
      ["AppointmentService.findForVetOnDay", "X:ResponseEntity.ok"],
      { ...REST, ann: ['@GetMapping("/vet/{vetId}")'] },
    ),
    M(
      "ResponseEntity<Appointment> book(Appointment,UriComponentsBuilder)",
      ["AppointmentService.book", "X:UriComponentsBuilder.path", "X:ResponseEntity.created", "BaseEntity.getId"],
      { ...REST, ann: ["@PostMapping"] },
    ),
    M("ResponseEntity<Void> cancel(int)", ["AppointmentService.cancel", "X:ResponseEntity.noContent"], {
      ...REST,
      ann: ['@DeleteMapping("/{appointmentId}")'],
      len: 4,
    }),
  ],
});
javaClass({
  name: "InvoiceRestController",
  pkg: "api",
  sub: "rest",
  ann: ["@RestController", '@RequestMapping("/api/invoices")'],
  members: [
    F("billingService", "BillingService"),
    Ctor("BillingService", ["ACCESS .billingService"]),
    M("ResponseEntity<Invoice> getInvoice(int)", ["BillingService.findInvoice", "X:ResponseEntity.ok"], {
      ...REST,
      ann: ['@GetMapping("/{invoiceId}")'],
      len: 4,
    }),
    M(
      "ResponseEntity<List<Invoice>> listForOwner(int)",
      ["BillingService.findInvoicesForOwner", "X:ResponseEntity.ok"],
      { ...REST, ann: ['@GetMapping("/owner/{ownerId}")'], len: 4 },
    ),
  ],
});

// --- Infrastructure and utilities --------------------------------------------------------------

javaClass({
  name: "PetClinicApplication",
  pkg: "",
  sub: "infra",
  ann: ["@SpringBootApplication", "@EnableScheduling"],
  members: [M("void main(String[])", ["X:SpringApplication.run"], { ann: [], role: "start", len: 3 })],
});
javaClass({
  name: "DateUtils",
  pkg: "util",
  sub: "infra",
  ann: [],
  members: [
    F("DISPLAY", "DateTimeFormatter", { calls: ["X:DateTimeFormatter.ofPattern"] }),
    M("String formatDate(LocalDate)", ["X:LocalDate.format", "ACCESS .DISPLAY"], { len: 3 }),
    M("LocalDate parseDate(String)", ["X:LocalDate.parse", "X:String.trim", "ACCESS .DISPLAY"], { len: 6 }),
    M(
      "LocalDate addBusinessDays(LocalDate,int)",
      ["X:LocalDate.plusDays", ".addBusinessDays", "v1|.isWeekend", "v2|X:LocalDate.getDayOfWeek"],
      { len: 8 },
    ),
    M("boolean isWeekend(LocalDate)", ["X:LocalDate.getDayOfWeek"], { len: 4, only: "v1" }),
  ],
});
javaClass({
  name: "MoneyUtils",
  pkg: "util",
  sub: "infra",
  ann: [],
  members: [
    M("BigDecimal round(BigDecimal)", ["X:BigDecimal.setScale"], { len: 3, mod: true }),
    M("BigDecimal sum(Collection<BigDecimal>)", ["X:BigDecimal.add", "X:List.stream"], { len: 4 }),
    M("String format(BigDecimal)", [".round", "X:String.format"], { len: 3 }),
  ],
});
javaClass({
  name: "EntityUtils",
  pkg: "util",
  sub: "infra",
  ann: [],
  members: [
    M(
      "T getById(Collection<T>,Class<T>,int)",
      ["BaseEntity.getId", "X:Class.isAssignableFrom", "ResourceNotFoundException.new"],
      { len: 9 },
    ),
  ],
});
javaClass({
  name: "ResourceNotFoundException",
  pkg: "system",
  sub: "infra",
  ext: "X:RuntimeException",
  ann: ["@ResponseStatus(HttpStatus.NOT_FOUND)"],
  members: [Ctor("String,Object...", ["X:String.format"], { len: 3 })],
});
javaClass({
  name: "PetValidator",
  pkg: "owner",
  sub: "infra",
  impl: ["X:Validator"],
  members: [
    M("boolean supports(Class<?>)", ["X:Class.isAssignableFrom", "USE Pet"], { ann: ["@Override"], len: 3 }),
    M(
      "void validate(Object,Errors)",
      [
        "NamedEntity.getName",
        "Pet.getType",
        "Pet.getBirthDate",
        "BaseEntity.isNew",
        "X:Errors.rejectValue",
        "X:LocalDate.now",
        "X:LocalDate.plusYears",
        "X:StringUtils.hasText",
        "USE Pet",
      ],
      { ann: ["@Override"], len: 18, mod: true },
    ),
  ],
});
javaClass({
  name: "PetTypeFormatter",
  pkg: "owner",
  sub: "infra",
  impl: ["X:Formatter"],
  ann: ["@Component"],
  members: [
    F("petTypeRepository", "PetTypeRepository"),
    Ctor("PetTypeRepository", ["ACCESS .petTypeRepository"]),
    M("String print(PetType,Locale)", ["NamedEntity.getName"], { ann: ["@Override"], len: 3 }),
    M("PetType parse(String,Locale)", ["PetTypeRepository.findPetTypes", "NamedEntity.getName"], {
      ann: ["@Override"],
      len: 9,
      mod: true,
    }),
  ],
});
javaClass({
  name: "WebConfiguration",
  pkg: "system",
  sub: "infra",
  impl: ["X:WebMvcConfigurer"],
  ann: ["@Configuration"],
  members: [
    F("petTypeFormatter", "PetTypeFormatter"),
    Ctor("PetTypeFormatter", ["ACCESS .petTypeFormatter"]),
    M("void addFormatters(FormatterRegistry)", ["X:FormatterRegistry.addFormatter", "ACCESS .petTypeFormatter"], {
      ann: ["@Override"],
      len: 3,
    }),
    M("void addViewControllers(ViewControllerRegistry)", ["X:ViewControllerRegistry.addViewController"], {
      ann: ["@Override"],
      len: 4,
    }),
  ],
});
javaClass({
  name: "CacheConfiguration",
  pkg: "system",
  sub: "infra",
  ann: ["@Configuration(proxyBeanMethods = false)", "@EnableCaching"],
  members: [
    M("JCacheManagerCustomizer petclinicCacheConfigurationCustomizer()", [".cacheConfiguration"], {
      ann: ["@Bean"],
      len: 6,
    }),
    M("Configuration<Object,Object> cacheConfiguration()", [], { len: 3 }),
  ],
});
javaClass({
  name: "SecurityConfig",
  pkg: "security",
  sub: "infra",
  ann: ["@Configuration", "@EnableWebSecurity", "@EnableMethodSecurity"],
  tags: ["security"],
  members: [
    M(
      "SecurityFilterChain securityFilterChain(HttpSecurity)",
      ["X:HttpSecurity.authorizeHttpRequests", "X:HttpSecurity.formLogin", "X:HttpSecurity.build"],
      { ann: ["@Bean"], len: 16, tags: ["security"], mod: true },
    ),
    M("PasswordEncoder passwordEncoder()", ["USE X:BCryptPasswordEncoder"], { ann: ["@Bean"], len: 3 }),
  ],
});

// --- Batch ------------------------------------------------------------------------------------

javaClass({
  name: "MonthlyBillingJob",
  log: true,
  pkg: "batch",
  sub: "batch",
  impl: ["X:CommandLineRunner"],
  ann: ['@SpringBootApplication(scanBasePackages = "org.springframework.samples.petclinic")'],
  tags: ["batch"],
  members: [
    F("billingService", "BillingService"),
    F("notificationService", "NotificationService"),
    F("invoiceRepository", "InvoiceRepository"),
    F("jdbcTemplate", "JdbcTemplate"),
    M("void main(String[])", ["X:SpringApplication.run", ".run"], { role: "start", len: 3 }),
    Ctor("BillingService,NotificationService,InvoiceRepository,JdbcTemplate", [
      "ACCESS .billingService",
      "ACCESS .notificationService",
      "ACCESS .invoiceRepository",
      "ACCESS .jdbcTemplate",
    ]),
    M("void run(String...)", [".invoiceStep", ".reminderStep", ".closeDayStep", "X:LocalDate.now"], {
      ann: ["@Override"],
      len: 12,
    }),
    M("int invoiceStep(YearMonth)", ["BillingService.generateMonthlyInvoices"], { len: 7 }),
    M(
      "int reminderStep()",
      [
        "v1|BillingService.remindUnpaid",
        "v2|InvoiceRepository.findUnpaidOlderThan",
        "v2|NotificationService.sendPaymentReminder",
        "v2|X:LocalDate.now",
      ],
      { len: 6 },
    ),
    M("void closeDayStep(LocalDate)", ["X:JdbcTemplate.update", "P:sp_close_day", "v1|P:sp_purge_old_visits"], {
      len: 9,
    }),
  ],
});

// --- Web pages ----------------------------------------------------------------------------------

page("fragments/layout.jsp", ["INCLUDE J:fragments/menu", "INCLUDE J:fragments/footer"]);
page(
  "fragments/menu.jsp",
  [
    "OwnerController.initFindForm",
    "VetController.showVetList",
    "AppointmentController.showCalendar",
    "ReportController.vetWorkload",
    "LoginController.login",
  ],
  { mod: true },
);
page("fragments/footer.jsp", []);
page("inputField.tag", []);
page("selectField.tag", []);
page("welcome.jsp", ["INCLUDE J:fragments/layout", "WelcomeController.welcome"], { mod: true });
page("login.jsp", ["INCLUDE J:fragments/layout", "LoginController.login"], { tags: ["security"] });
page("accessDenied.jsp", ["INCLUDE J:fragments/layout", "LoginController.accessDenied"], { tags: ["security"] });
page("error.jsp", [
  "INCLUDE J:fragments/layout",
  "GlobalExceptionHandler.handleGeneric",
  "GlobalExceptionHandler.handleNotFound",
]);
page(
  "owners/findOwners.jsp",
  [
    "INCLUDE J:fragments/layout",
    "OwnerController.initFindForm",
    "OwnerController.processFindForm",
    "OwnerController.initCreationForm",
  ],
  { tags: ["hot path"] },
);
page("owners/ownersList.jsp", [
  "INCLUDE J:fragments/layout",
  "OwnerController.processFindForm",
  "OwnerController.showOwner",
  "Person.getFirstName",
  "Person.getLastName",
  "Owner.getAddress",
  "Owner.getCity",
  "Owner.getTelephone",
  "Owner.getPets",
  "NamedEntity.getName",
]);
page(
  "owners/ownersListLegacy.jsp",
  ["INCLUDE J:fragments/layout", "OwnerController.processFindForm", "Person.getLastName", "Owner.getCity"],
  { only: "v1" },
);
page("owners/ownerDetails.jsp", [
  "INCLUDE J:fragments/layout",
  "OwnerController.showOwner",
  "OwnerController.initUpdateOwnerForm",
  "PetController.initCreationForm",
  "PetController.initUpdateForm",
  "VisitController.initNewVisitForm",
  "InvoiceController.listInvoices",
  "AppointmentController.initBookingForm",
  "Person.getFirstName",
  "Person.getLastName",
  "Owner.getAddress",
  "Owner.getCity",
  "Owner.getTelephone",
  "Owner.getPets",
  "Pet.getBirthDate",
  "Pet.getType",
  "Pet.getVisits",
  "Visit.getDate",
  "Visit.getDescription",
  "v2|VaccinationReminder.getVaccine",
  "v2|VaccinationReminder.getDueDate",
]);
page(
  "owners/createOrUpdateOwnerForm.jsp",
  [
    "INCLUDE J:fragments/layout",
    "INCLUDE J:inputField",
    "OwnerController.processCreationForm",
    "OwnerController.processUpdateOwnerForm",
    "BaseEntity.isNew",
  ],
  { mod: true },
);
page("pets/createOrUpdatePetForm.jsp", [
  "INCLUDE J:fragments/layout",
  "INCLUDE J:inputField",
  "INCLUDE J:selectField",
  "PetController.processCreationForm",
  "PetController.processUpdateForm",
  "BaseEntity.isNew",
  "Person.getFirstName",
  "Person.getLastName",
]);
page("pets/createOrUpdateVisitForm.jsp", [
  "INCLUDE J:fragments/layout",
  "INCLUDE J:inputField",
  "VisitController.processNewVisitForm",
  "NamedEntity.getName",
  "Pet.getBirthDate",
  "Pet.getType",
  "Pet.getVisits",
  "Visit.getDate",
  "Visit.getDescription",
]);
page("vets/vetList.jsp", [
  "INCLUDE J:fragments/layout",
  "VetController.showVetList",
  "Person.getFirstName",
  "Person.getLastName",
  "Vet.getSpecialties",
  "Vet.getNrOfSpecialties",
]);
page("appointments/calendar.jsp", [
  "INCLUDE J:fragments/layout",
  "AppointmentController.showCalendar",
  "AppointmentController.cancelAppointment",
  "Appointment.getStartTime",
  "Appointment.getEndTime",
  "Appointment.getStatus",
  "Appointment.getPet",
]);
page("appointments/bookAppointment.jsp", [
  "INCLUDE J:fragments/layout",
  "INCLUDE J:inputField",
  "INCLUDE J:selectField",
  "AppointmentController.processBookingForm",
  "Appointment.getNotes",
]);
page("billing/invoiceList.jsp", [
  "INCLUDE J:fragments/layout",
  "InvoiceController.showInvoice",
  "Invoice.getNumber",
  "Invoice.getIssueDate",
  "Invoice.getTotal",
  "Invoice.isPaid",
]);
page(
  "billing/invoiceDetails.jsp",
  [
    "INCLUDE J:fragments/layout",
    "InvoiceController.markPaid",
    "InvoiceController.downloadPdf",
    "InvoiceController.sendByMail",
    "Invoice.getLines",
    "InvoiceLine.getDescription",
    "InvoiceLine.getQuantity",
    "InvoiceLine.getUnitPrice",
    "InvoiceLine.getAmount",
  ],
  { mod: true },
);
page("reports/vetWorkload.jsp", ["INCLUDE J:fragments/layout", "ReportController.vetWorkload"], { tags: ["security"] });
page("reports/revenue.jsp", ["INCLUDE J:fragments/layout", "ReportController.revenue"], { tags: ["security"] });

// Handlers name the view they render: the Spring MVC analyzer links them to the JSP.
const RENDERS: Record<string, string[]> = {
  "OwnerController.initCreationForm": ["owners/createOrUpdateOwnerForm"],
  "OwnerController.processCreationForm": ["owners/createOrUpdateOwnerForm"],
  "OwnerController.initFindForm": ["owners/findOwners"],
  "OwnerController.processFindForm": ["owners/findOwners", "owners/ownersList", "v1|owners/ownersListLegacy"],
  "OwnerController.initUpdateOwnerForm": ["owners/createOrUpdateOwnerForm"],
  "OwnerController.processUpdateOwnerForm": ["owners/createOrUpdateOwnerForm"],
  "OwnerController.showOwner": ["owners/ownerDetails"],
  "PetController.initCreationForm": ["pets/createOrUpdatePetForm"],
  "PetController.processCreationForm": ["pets/createOrUpdatePetForm"],
  "PetController.initUpdateForm": ["pets/createOrUpdatePetForm"],
  "PetController.processUpdateForm": ["pets/createOrUpdatePetForm"],
  "VisitController.initNewVisitForm": ["pets/createOrUpdateVisitForm"],
  "VisitController.processNewVisitForm": ["pets/createOrUpdateVisitForm"],
  "VetController.showVetList": ["vets/vetList"],
  "AppointmentController.showCalendar": ["appointments/calendar"],
  "AppointmentController.initBookingForm": ["appointments/bookAppointment"],
  "AppointmentController.processBookingForm": ["appointments/bookAppointment"],
  "InvoiceController.listInvoices": ["billing/invoiceList"],
  "InvoiceController.showInvoice": ["billing/invoiceDetails"],
  "ReportController.vetWorkload": ["reports/vetWorkload"],
  "ReportController.revenue": ["reports/revenue"],
  "WelcomeController.welcome": ["welcome"],
  "LoginController.login": ["login"],
  "LoginController.accessDenied": ["accessDenied"],
  "GlobalExceptionHandler.handleNotFound": ["error"],
  "GlobalExceptionHandler.handleGeneric": ["error"],
};
for (const [handler, views] of Object.entries(RENDERS)) {
  const h = byRef.get(handler);
  if (!h) throw new Error(`unknown handler ${handler}`);
  for (const v of views) h.specs.push(v.startsWith("v1|") ? `v1|REFER J:${v.slice(3)}` : `REFER J:${v}`);
}

// --- Post-its ---------------------------------------------------------------------------------

const POST_ITS: Array<{ object: string; title: string; text?: string }> = [
  {
    object: "OwnerRepository.findByLastNameStartingWith",
    title: "LIKE search without an index on owners.last_name",
    text: "Full scan past ~50k owners; the index is planned (PC-412).",
  },
  {
    object: "P:sp_generate_monthly_invoices",
    title: "Runs about 35 minutes at month end",
    text: "Locks invoices: keep it in the 02:00-04:00 batch window.",
  },
  { object: "CrashController", title: "Demo endpoint: remove before go-live" },
  {
    object: "ReminderService.sendDueReminders",
    title: "SMTP relay quota: 500 mails a day",
    text: "Reminders beyond the quota wait for the next run.",
  },
];

// =============================================================================================
// Links.

interface Link {
  from: Obj;
  to: Obj;
  type: string;
  only: Presence;
  escalated: boolean;
}
const links: Link[] = [];

function resolveRef(target: string, scope: string): Obj {
  const ref = target.startsWith(".") ? `${scope}${target}` : target;
  const o = byRef.get(ref);
  if (!o) throw new Error(`unresolved link target ${target} (scope ${scope})`);
  return o;
}
const isClassLike = (o: Obj): boolean =>
  o.typeId === "JV_CLASS" || o.typeId === "JV_INTERFACE" || o.typeId === "JV_ENUM";

// Declared links.
for (const o of objects) {
  for (const s of o.specs) {
    const m = /^(?:(v1|v2)\|)?(?:([A-Z_]+) )?(\S+)$/.exec(s);
    if (!m) throw new Error(`bad link spec ${s}`);
    const to = resolveRef(m[3], o.scope);
    const type = m[2] ?? (/^[TV]:/.test(m[3]) ? "ACCESS" : "CALL");
    links.push({ from: o, to, type, only: (m[1] as Presence | undefined) ?? "both", escalated: false });
  }
}
// USE links from signatures (domain classes) and from fields to their declared type.
for (const o of objects) {
  for (const t of o.sigTypes) {
    const target = byRef.get(t) ?? byRef.get(`X:${t}`);
    if (!target || !isClassLike(target) || target === o.parent) continue;
    links.push({ from: o, to: target, type: "USE", only: "both", escalated: false });
  }
}
// Overrides of in-house interface methods (INHERIT), and calls resolved to the implementation too.
const implOf = new Map<Obj, Obj>();
for (const c of objects) {
  if (c.typeId !== "JV_CLASS") continue;
  for (const l of links) {
    if (l.from !== c || l.type !== "INHERIT" || l.to.external || l.to.typeId !== "JV_INTERFACE") continue;
    for (const im of l.to.children) {
      const impl = c.children.find((m) => m.typeId === "JV_METHOD" && m.name === im.name && m.mangling === im.mangling);
      if (!impl) continue;
      implOf.set(im, impl);
      links.push({ from: impl, to: im, type: "INHERIT", only: "both", escalated: false });
      if (!impl.annotations.includes("@Override")) impl.annotations.unshift("@Override");
    }
  }
}
for (const l of [...links]) {
  const impl = implOf.get(l.to);
  if (l.type === "CALL" && impl) links.push({ ...l, to: impl });
}
// Calls through an injected dependency read the field that holds it.
for (const l of [...links]) {
  if (l.type !== "CALL" || !l.from.parent || !l.to.parent || l.from.typeId === "JV_FIELD") continue;
  const holder = l.from.parent.children.find(
    (f) => f.typeId === "JV_FIELD" && f.sigTypes.includes(l.to.parent?.name ?? ""),
  );
  if (holder) links.push({ from: l.from, to: holder, type: "ACCESS", only: l.only, escalated: false });
}

// =============================================================================================
// What June changed: the explicit modifications, plus every object whose links changed, plus every
// parent of something added, deleted or modified.

for (const l of links) {
  if (l.from.external || l.from.presence !== "both") continue;
  if (l.only !== "both" || l.to.presence !== "both") l.from.modified = true;
}
for (let changed = true; changed; ) {
  changed = false;
  for (const o of objects) {
    const p = o.parent;
    if (p?.presence !== "both" || p.modified) continue;
    if (o.presence !== "both" || o.modified) {
      p.modified = true;
      changed = true;
    }
  }
}

// Ids: objects of the first analysis in declaration order, then the ones June added (ids are never reused).
let nextId = 10001;
for (const o of objects) if (o.presence !== "v2") o.id = String(nextId++);
nextId = Math.ceil(nextId / 1000) * 1000 + 1;
for (const o of objects) if (o.presence === "v2") o.id = String(nextId++);
const filePresence = (f: SrcFile): Presence => {
  const ps = new Set(f.roots.map((r) => r.presence));
  return ps.has("both") || (ps.has("v1") && ps.has("v2")) ? "both" : ps.has("v1") ? "v1" : "v2";
};
let nextFile = 1;
let nextSql = -1;
for (const pass of ["old", "new"]) {
  for (const f of files) {
    if ((filePresence(f) === "v2") !== (pass === "new")) continue;
    f.id = String(f.sql ? nextSql-- : nextFile++);
  }
}

// =============================================================================================
// Emission.

interface Loc {
  fileId: string;
  startLine: number;
  endLine: number;
}

/** Line ranges of every object with source in version v. */
function layout(v: Version): Map<Obj, Loc> {
  const locs = new Map<Obj, Loc>();
  const present = (o: Obj): boolean => inVersion(o.presence, v);
  const ownLen = (o: Obj): number => o.len + (v === 2 && o.modified ? o.grow : 0);
  for (const f of files) {
    const roots = f.roots.filter(present);
    if (roots.length === 0) continue;
    if (f.language === "Java") {
      const cls = roots[0];
      const members = cls.children.filter(present);
      let line = 3 + 3 + Math.min(22, Math.floor(members.length / 2) + pick(f.path, 1, 6)) + 1;
      if (members.length > 6) line += 4; // class javadoc
      const start = line;
      line += cls.annotations.length + 1; // annotations, then the declaration line
      let previous = "";
      for (const m of members) {
        if (!(m.typeId === "JV_FIELD" && previous === "JV_FIELD" && m.annotations.length === 0)) line += 1;
        previous = m.typeId;
        const s = line;
        line += m.annotations.length + ownLen(m);
        locs.set(m, { fileId: f.id, startLine: s, endLine: line - 1 });
      }
      locs.set(cls, { fileId: f.id, startLine: start, endLine: line + 1 });
    } else if (f.language === "JSP") {
      const p = roots[0];
      locs.set(p, { fileId: f.id, startLine: 1, endLine: ownLen(p) });
    } else {
      let line = 4; // header comment and a blank line
      for (const r of roots) {
        const s = line;
        if (r.layout === "table") {
          line += 1; // CREATE TABLE
          for (const c of r.children.filter(present)) {
            locs.set(c, { fileId: f.id, startLine: line, endLine: line });
            line += 1;
          }
          line += ownLen(r) - 1; // constraints
          locs.set(r, { fileId: f.id, startLine: s, endLine: line });
          line += 1 + r.trailer;
        } else {
          line += ownLen(r) - 1;
          locs.set(r, { fileId: f.id, startLine: s, endLine: line });
          line += 1 + r.trailer;
        }
      }
    }
  }
  return locs;
}

function checksum(o: Obj, v: Version): string {
  const rev = v === 2 && o.modified ? "|2026-06" : "";
  return createHash("sha1")
    .update(`${o.type}|${o.fullName}|${o.mangling}${rev}`)
    .digest("hex")
    .slice(0, 16)
    .toUpperCase();
}

function build(v: Version, analyzedAt: string): unknown {
  const present = (o: Obj): boolean => inVersion(o.presence, v);
  const locs = layout(v);
  const objs = objects.filter(present).sort((a, b) => Number(a.id) - Number(b.id));
  const usedFiles = files.filter((f) => f.roots.some(present));

  const out: Array<{ from: string; to: string; type: string; escalated?: boolean }> = [];
  const seen = new Set<string>();
  const emit = (from: Obj, to: Obj, type: string, escalated: boolean): void => {
    const k = `${from.id}|${to.id}|${type}|${escalated}`;
    if (seen.has(k)) return;
    seen.add(k);
    out.push(escalated ? { from: from.id, to: to.id, type, escalated } : { from: from.id, to: to.id, type });
  };
  const live = links.filter((l) => inVersion(l.only, v) && present(l.from) && present(l.to));
  for (const l of live) emit(l.from, l.to, l.type, false);
  // Escalated links: calls between methods of different in-house classes lifted to the classes,
  // table accesses of methods lifted to their class, page calls lifted to the controller class.
  for (const l of live) {
    const fp = l.from.parent;
    const tp = l.to.parent;
    const isMember = l.from.layout === "member";
    if (l.type === "CALL" && isMember && fp && tp && fp !== tp) emit(fp, tp, "CALL", true);
    else if (l.type === "CALL" && l.from.layout === "page" && tp) emit(l.from, tp, "CALL", true);
    else if (l.type === "ACCESS" && isMember && fp && l.to.layout === "table") emit(fp, l.to, "ACCESS", true);
    else if (l.type === "USE" && isMember && fp) {
      const t = isClassLike(l.to) ? l.to : tp;
      if (t && t !== fp) emit(fp, t, "USE", true);
    }
  }

  return {
    format: "appstruct.analysis/1",
    application: "Spring PetClinic",
    analyzedAt,
    analyzer: { name: "appstruct sample", version: "1" },
    files: usedFiles
      .sort(
        (a, b) =>
          (Number(a.id) < 0 ? 1e9 - Number(a.id) : Number(a.id)) -
          (Number(b.id) < 0 ? 1e9 - Number(b.id) : Number(b.id)),
      )
      .map((f) => ({ id: f.id, path: f.path, language: f.language })),
    taxonomy: [...taxonomy].sort((a, b) => a.level - b.level),
    objects: objs.map((o) => {
      const r: Record<string, unknown> = {
        id: o.id,
        name: o.name,
        fullName: o.fullName,
        type: o.type,
        typeId: o.typeId,
        level5: o.level5,
        language: o.language,
      };
      if (o.parent) r.parent = o.parent.id;
      if (o.file) r.filePath = o.file.path;
      if (o.mangling) r.mangling = o.mangling;
      if (o.external) r.external = true;
      if (o.role) r.role = o.role;
      if (o.annotations.length) r.annotations = o.annotations;
      if (o.tags.length) r.tags = o.tags;
      if (!o.external) r.checksum = checksum(o, v);
      const loc = locs.get(o);
      if (loc) r.sourceLocations = [loc];
      return r;
    }),
    links: out,
    postIts: POST_ITS.filter((p) => present(resolveRef(p.object, ""))).map((p) => ({
      ...p,
      object: resolveRef(p.object, "").id,
    })),
  };
}

const here = import.meta.dirname;
const targets: Array<[Version, string, string]> = [
  [1, "2026-05-01T09:00:00Z", "petclinic-2026-05-01.json"],
  [2, "2026-06-01T09:00:00Z", "petclinic-2026-06-01.json"],
];
for (const [v, at, name] of targets) {
  const doc = build(v, at) as { objects: unknown[]; links: unknown[] };
  writeFileSync(join(here, name), `${JSON.stringify(doc, null, 1)}\n`);
  console.log(`${name}: ${doc.objects.length} objects, ${doc.links.length} links`);
}
const count = (p: (o: Obj) => boolean): number => objects.filter(p).length;
console.log(
  `June against May: ${count((o) => o.presence === "v2")} added, ` +
    `${count((o) => o.presence === "both" && o.modified)} modified, ` +
    `${count((o) => o.presence === "both" && !o.modified && !o.external)} unchanged in-house ` +
    `(+${count((o) => o.external)} external), ${count((o) => o.presence === "v1")} deleted`,
);
