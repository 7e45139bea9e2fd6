// @module Deterministic synthetic analysis generator: streams a realistic NDJSON analysis (appstruct.analysis/1) for scale work
import {
  A_ACCESS_TABLE,
  A_ACCESS_VIEW,
  A_CALL_ACC,
  A_CALL_CTRL,
  A_CALL_EXT,
  A_CALL_IFM,
  A_CALL_MISC,
  A_CALL_PROC,
  A_CALL_REPO,
  A_CALL_SVC,
  A_MEMBER,
  A_MEMBER_FIELD,
  A_USE_CLASS,
  A_USE_FIELD,
  ACT_CTRL,
  ACT_MISC,
  ACT_MODEL,
  ACT_REPO,
  ACT_SVC,
  type ActionTable,
  C_ACC_M,
  C_BASE,
  C_BATCH_M,
  C_CLASS,
  C_COLUMN,
  C_CTOR,
  C_CTRL_M,
  C_EXC,
  C_EXT_CLASS,
  C_EXT_M,
  C_FIELD,
  C_IFACE,
  C_IFACE_M,
  C_JSP,
  C_JSPF,
  C_MISC_M,
  C_MODEL_M,
  C_PROC,
  C_REPO_M,
  C_SVC_M,
  C_TABLE,
  C_VIEW,
  DEG,
  L_ACCESS,
  L_CALL,
  L_INCLUDE,
  L_INHERIT,
  L_REFER,
  L_USE,
  LINK_TYPES,
  MISC_KINDS,
  NCAT,
  R_BASE,
  R_BATCH,
  R_CTRL,
  R_DTO,
  R_ENTITY,
  R_EXC,
  R_MISC,
  R_REPO,
  R_SVC,
  ROLE_WEIGHTS,
  T_CLASS,
  T_COLUMN,
  T_CTOR,
  T_FIELD,
  T_IFACE,
  T_JSP,
  T_JSPF,
  T_METHOD,
  T_PROC,
  T_TABLE,
  T_VIEW,
} from "./generate/kinds.ts";
import { LIB_GROUPS, LIBS, type LibClass } from "./generate/libraries.ts";
import { hash32, Rng } from "./generate/random.ts";
import { Sink } from "./generate/sink.ts";
import {
  COL_SUFFIXES,
  cap,
  FIELD_TYPES,
  getVocabulary,
  JSP_SUFFIXES,
  PARAM_TYPES,
  POSTIT_TEXTS,
  POSTIT_TITLES,
  SUBSYSTEMS,
  TAGS,
  VERBS_CTRL,
  VERBS_MISC,
  VERBS_REPO,
  VERBS_SVC,
  type Vocabulary,
} from "./generate/vocabulary.ts";

export interface GenerateOptions {
  objects: number;
  seed?: number;
  application?: string;
  analyzedAt?: string;
}

export interface GenerateResult {
  objects: number;
  links: number;
  files: number;
  taxonomyNodes: number;
  postIts: number;
}

interface ObjSpec {
  name: string;
  fullName: string;
  t: string; // pre-serialized type, typeId, language
  l5: string;
  cat: number;
  parent?: number; // object index
  filePath?: string | null;
  mangling?: string;
  external?: boolean;
  ann?: string; // pre-serialized JSON (array or null)
  role?: number; // 1 start, 2 end
  checksum?: boolean;
  fileId?: number;
  start?: number;
  end?: number;
}

interface MemberPlan {
  cat: number;
  t: string;
  name: string;
  mangling?: string; // methods and constructors only
  ann?: string;
  role?: number;
  len: number;
}

class Generator {
  rng: Rng;
  sink: Sink;
  N: number;
  S: number;
  seedHash: number;
  vocab: Vocabulary;
  cat: Uint8Array;
  sub: Uint8Array;
  parent: Int32Array;
  memberEnd: Int32Array;
  n = 0;
  limit = 0;
  curSub = 0;
  files = 0;
  links = 0;
  progressDone = 0;
  lastProgress = 0;
  onProgress: ((done: number, total: number) => void) | undefined;
  usedNames = new Set<string>();
  excBase: number[] = [];
  lists: Int32Array[] = [];
  offsets: Int32Array[] = [];
  // per-subsystem data-tier file state
  sqlFile = 0;
  sqlPath = "";
  sqlLine = 0;
  sqlLeft = 0;
  viewFile = 0;
  viewPath = "";
  viewLine = 0;
  procFile = 0;
  procPath = "";
  procLine = 0;
  procLeft = 0;

  constructor(out: NodeJS.WritableStream, N: number, seed: number, onProgress?: (done: number, total: number) => void) {
    this.rng = new Rng(hash32(seed ^ 0x5bd1e995) ^ seed);
    this.sink = new Sink(out);
    this.N = N;
    this.S = Math.max(2, Math.min(SUBSYSTEMS.length, Math.floor(Math.log2(Math.max(2, N))) - 8));
    this.seedHash = hash32(seed + 0x27d4eb2f);
    this.vocab = getVocabulary();
    this.cat = new Uint8Array(N);
    this.sub = new Uint8Array(N);
    this.parent = new Int32Array(N).fill(-1);
    this.memberEnd = new Int32Array(N);
    this.onProgress = onProgress;
  }

  /* ids */
  id(i: number): string {
    return String(1000 + 3 * i + (hash32(i ^ this.seedHash) % 3));
  }
  fileId(f: number): string {
    return f % 50 === 7 ? String(-f) : String(f);
  }

  progress(units: number): void {
    this.progressDone += units;
    if (this.onProgress && this.progressDone - this.lastProgress >= 65536) {
      this.lastProgress = this.progressDone;
      this.onProgress(this.progressDone, 2 * this.N);
    }
  }

  /* words */
  word(): string {
    const u = this.rng.next();
    const c = this.vocab.cumulative;
    let lo = 0,
      hi = c.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (c[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    return this.vocab.words[lo];
  }
  words(min: number, max: number): string[] {
    const k = this.rng.range(min, max);
    const out: string[] = [];
    for (let i = 0; i < k; i++) out.push(this.word());
    return out;
  }
  pascal(min = 1, max = 2): string {
    return this.words(min, max).map(cap).join("");
  }
  camel(min = 1, max = 2): string {
    const w = this.words(min, max);
    return w[0] + w.slice(1).map(cap).join("");
  }
  upper(min = 1, max = 2): string {
    return this.words(min, max).join("_").toUpperCase();
  }
  params(): string {
    const r = this.rng.next();
    const k = r < 0.25 ? 0 : r < 0.65 ? 1 : r < 0.9 ? 2 : 3;
    const ps: string[] = [];
    for (let i = 0; i < k; i++) {
      const q = this.rng.next();
      ps.push(q < 0.7 ? this.rng.pickSkew(PARAM_TYPES) : q < 0.9 ? cap(this.word()) : `${cap(this.word())}Dto`);
    }
    return ps.join(",");
  }
  /** make(suffix) builds a candidate; numbered suffixes are tried until the name is new. */
  unique(make: (suffix: string) => string): string {
    let name = make("");
    for (let k = 2; this.usedNames.has(name); k++) name = make(String(k));
    this.usedNames.add(name);
    return name;
  }
  lineLen(mean: number): number {
    return 1 + this.rng.lomax(mean, 400, 2.8);
  }
  annOrNone(list: string[]): string | undefined {
    return list.length ? JSON.stringify(list) : undefined;
  }

  /* emission */
  newFile(path: string, language: string): number {
    const f = ++this.files;
    this.sink.line(`{"kind":"file","id":"${this.fileId(f)}","path":"${path}","language":"${language}"}`);
    return f;
  }

  room(): boolean {
    return this.n < this.limit;
  }

  emit(o: ObjSpec): number {
    const i = this.n++;
    const rng = this.rng;
    this.cat[i] = o.cat;
    this.sub[i] = this.curSub;
    let s = `{"kind":"object","id":"${this.id(i)}","name":"${o.name}","fullName":"${o.fullName}",${o.t}`;
    if (o.filePath !== undefined) s += o.filePath === null ? `,"filePath":null` : `,"filePath":"${o.filePath}"`;
    if (o.mangling !== undefined) s += `,"mangling":"${o.mangling}"`;
    if (o.external) s += `,"external":true`;
    if (o.ann !== undefined) s += `,"annotations":${o.ann}`;
    if (!o.external && rng.next() < 0.01) {
      s += rng.chance(0.7) ? `,"tags":["${rng.pick(TAGS)}"]` : `,"tags":["${rng.pick(TAGS)}","${rng.pick(TAGS)}"]`;
    }
    if (o.parent !== undefined && o.parent >= 0) {
      this.parent[i] = o.parent;
      s += `,"parent":"${this.id(o.parent)}"`;
    }
    s += `,"level5":"${o.l5}"`;
    if (o.role === 1) s += `,"role":"start"`;
    else if (o.role === 2) s += `,"role":"end"`;
    if (o.checksum !== false && !o.external && rng.next() < 0.96) {
      const h1 = hash32(i * 2 + 1 + this.seedHash),
        h2 = hash32(h1 ^ (i + 0x1000193));
      s += `,"checksum":"${h1.toString(16).padStart(8, "0")}${h2.toString(16).padStart(8, "0")}"`;
    }
    if (o.fileId) {
      s += `,"sourceLocations":[{"fileId":"${this.fileId(o.fileId)}","startLine":${o.start},"endLine":${o.end}}]`;
    }
    this.sink.line(`${s}}`);
    this.progress(1);
    return i;
  }

  /* taxonomy */
  taxonomy(): number {
    let count = 0;
    const node = (key: string, level: number, name: string, parent: string | null): void => {
      this.sink.line(
        `{"kind":"taxonomy","key":"${key}","level":${level},"name":"${name}","parent":${parent === null ? "null" : `"${parent}"`}}`,
      );
      count++;
    };
    node("S", 1, "Services", null);
    node("X", 1, "External", null);
    node("S.ui", 2, "User Interaction Services", "S");
    node("S.logic", 2, "Logic Services", "S");
    node("S.data", 2, "Database Services", "S");
    node("S.batch", 2, "Batch Services", "S");
    node("X.lib", 2, "Libraries", "X");
    const tiers: [string, string, string, [string, string][]][] = [
      [
        "S.ui",
        "jsp",
        "JSP",
        [
          ["page", "JSP Page"],
          ["frag", "JSP Fragment"],
        ],
      ],
      [
        "S.logic",
        "java",
        "Java",
        [
          ["cls", "Java Class"],
          ["itf", "Java Interface"],
          ["meth", "Java Method"],
          ["ctor", "Java Constructor"],
          ["fld", "Java Field"],
        ],
      ],
      [
        "S.data",
        "ora",
        "Oracle",
        [
          ["tbl", "Oracle Table"],
          ["col", "Oracle Column"],
          ["view", "Oracle View"],
          ["proc", "Oracle Procedure"],
        ],
      ],
      [
        "S.batch",
        "java",
        "Java Batch",
        [
          ["cls", "Java Class"],
          ["meth", "Java Method"],
          ["ctor", "Java Constructor"],
          ["fld", "Java Field"],
        ],
      ],
    ];
    for (const [tier, tech, techName, kinds] of tiers) {
      for (let s = 0; s < this.S; s++) {
        const [code, display] = SUBSYSTEMS[s];
        const l3 = `${tier}.${code}`,
          l4 = `${l3}.${tech}`;
        node(l3, 3, display, tier);
        node(l4, 4, techName, l3);
        for (const [k, kn] of kinds) node(`${l4}.${k}`, 5, kn, l4);
      }
    }
    for (const [g, gn] of LIB_GROUPS) {
      const l3 = `X.lib.${g}`,
        l4 = `${l3}.java`;
      node(l3, 3, gn, "X.lib");
      node(l4, 4, "Java", l3);
      node(`${l4}.cls`, 5, "Java Class", l4);
      node(`${l4}.itf`, 5, "Java Interface", l4);
      node(`${l4}.meth`, 5, "Java Method", l4);
    }
    return count;
  }

  /* externals */
  externals(budget: number): void {
    this.limit = budget;
    this.curSub = this.S;
    const libClass = (lib: LibClass): void => {
      if (!this.room()) return;
      const g = LIB_GROUPS[lib.group][0];
      const l4 = `X.lib.${g}.java`;
      const dot = lib.fullName.lastIndexOf(".");
      const simple = lib.fullName.slice(dot + 1);
      const c = this.emit({
        name: simple,
        fullName: lib.fullName,
        t: lib.iface ? T_IFACE : T_CLASS,
        l5: lib.iface ? `${l4}.itf` : `${l4}.cls`,
        cat: C_EXT_CLASS,
        external: true,
      });
      if (simple === "RuntimeException" || simple === "Exception") this.excBase.push(c);
      for (const m of lib.methods) {
        if (!this.room()) break;
        const name = m.slice(0, m.indexOf("("));
        this.emit({
          name,
          fullName: `${lib.fullName}.${name}`,
          t: T_METHOD,
          l5: `${l4}.meth`,
          cat: C_EXT_M,
          parent: c,
          mangling: m,
          external: true,
          role: lib.end && this.rng.chance(0.8) ? 2 : 0,
        });
      }
      this.memberEnd[c] = this.n;
    };
    for (const lib of LIBS) libClass(lib);
    while (this.room()) {
      const vendor = this.word();
      const cls = this.unique(
        (sfx) =>
          `com.${vendor}.sdk.${cap(this.word())}${this.rng.pick(["Client", "Api", "Service", "Gateway", "Connector"])}${sfx}`,
      );
      const ms: string[] = [];
      const k = 3 + this.rng.lomax(5, 40);
      for (let j = 0; j < k; j++) ms.push(`${this.rng.pick(VERBS_SVC)}${this.pascal(1, 2)}(${this.params()})`);
      libClass({ group: 6, fullName: cls, iface: false, end: this.rng.chance(0.5), methods: ms });
    }
  }

  /* ---------------------------------------------------- internal blocks */

  javaFile(pkg: string, cls: string): [number, string] {
    const path = `modules/${SUBSYSTEMS[this.curSub][0]}/src/main/java/${pkg.replace(/\./g, "/")}/${cls}.java`;
    return [this.newFile(path, "Java"), path];
  }

  /** Emit a class (or interface) plus its members, truncated to the room left. */
  emitClassBlock(spec: {
    name: string;
    pkg: string;
    t: string;
    cat: number;
    l5base: string;
    ann?: string;
    members: MemberPlan[];
    memberL5: (m: MemberPlan) => string;
  }): void {
    if (!this.room()) return;
    const fullName = `${spec.pkg}.${spec.name}`;
    const [fileId, path] = this.javaFile(spec.pkg, spec.name);
    const start = this.rng.range(3, 30);
    let cursor = start + 1;
    const lines: number[] = [];
    for (const m of spec.members) {
      lines.push(cursor);
      cursor += m.len + (m.len > 1 ? 1 : 0);
    }
    const end = cursor;
    const c = this.emit({
      name: spec.name,
      fullName,
      t: spec.t,
      l5: spec.l5base,
      cat: spec.cat,
      filePath: path,
      ann: spec.ann ?? (this.rng.chance(0.15) ? "null" : undefined),
      fileId,
      start,
      end,
    });
    for (let k = 0; k < spec.members.length && this.room(); k++) {
      const m = spec.members[k];
      this.emit({
        name: m.name,
        fullName: `${fullName}.${m.name}`,
        t: m.t,
        l5: spec.memberL5(m),
        cat: m.cat,
        parent: c,
        filePath: path,
        mangling: m.mangling,
        ann: m.ann,
        role: m.role,
        fileId,
        start: lines[k],
        end: lines[k] + m.len - 1,
      });
    }
    this.memberEnd[c] = this.n;
  }

  fieldPlan(name: string, ann?: string): MemberPlan {
    return { cat: C_FIELD, t: T_FIELD, name, ann, len: 1 };
  }

  classBlock(batch: boolean): void {
    const rng = this.rng;
    const [code] = SUBSYSTEMS[this.curSub];
    let role = R_BATCH;
    if (!batch) {
      let r = rng.next() * 95;
      for (const [ro, w] of ROLE_WEIGHTS) {
        if ((r -= w) < 0) {
          role = ro;
          break;
        }
      }
      if (role === R_BATCH) role = R_MISC;
    }
    const noun = this.pascal(1, 2);
    let suffix = "",
      layer = "",
      cat = C_CLASS,
      mcat = C_MISC_M;
    const clsAnn: string[] = [];
    switch (role) {
      case R_CTRL:
        suffix = rng.pick(["Controller", "Controller", "Resource", "Action"]);
        layer = "web";
        mcat = C_CTRL_M;
        if (rng.chance(0.5)) clsAnn.push("@Controller");
        else clsAnn.push("@RestController", `@RequestMapping("/api/${code}")`);
        break;
      case R_SVC:
        suffix = rng.pick(["Service", "ServiceImpl", "Service", "Facade", "Processor"]);
        layer = "service";
        mcat = C_SVC_M;
        clsAnn.push("@Service");
        if (rng.chance(0.2)) clsAnn.push("@Transactional");
        break;
      case R_REPO:
        suffix = rng.pick(["Repository", "Dao", "DaoImpl", "Repository"]);
        layer = suffix.startsWith("Dao") ? "dao" : "repository";
        mcat = C_REPO_M;
        clsAnn.push("@Repository");
        break;
      case R_ENTITY:
        suffix = "";
        layer = "domain";
        mcat = C_MODEL_M;
        clsAnn.push("@Entity", `@Table(name = "${noun.toUpperCase()}S")`);
        break;
      case R_DTO:
        suffix = rng.pick(["Dto", "Request", "Response", "View", "Dto"]);
        layer = "dto";
        mcat = C_MODEL_M;
        break;
      case R_MISC: {
        const [sfx, ly] = rng.pick(MISC_KINDS);
        suffix = sfx;
        layer = ly;
        if (sfx === "Config") clsAnn.push("@Configuration");
        else if (rng.chance(0.3)) clsAnn.push("@Component");
        break;
      }
      case R_EXC:
        suffix = "Exception";
        layer = "exception";
        cat = C_EXC;
        break;
      case R_BASE:
        suffix = rng.pick(["Service", "Controller", "Repository", "Handler", "Entity"]);
        layer = "common";
        cat = C_BASE;
        mcat = C_SVC_M;
        break;
      case R_BATCH:
        suffix = rng.pick(["Job", "Batch", "Launcher", "Importer", "Exporter", "Job"]);
        layer = "batch";
        mcat = C_BATCH_M;
        clsAnn.push("@Component");
        break;
    }
    const pkgBase = `com.acme.${code}.${layer}`;
    const pkg = rng.chance(0.3) ? `${pkgBase}.${this.word()}` : pkgBase;
    const prefix = role === R_BASE ? rng.pick(["Abstract", "Base", "Abstract"]) : "";
    const name = this.unique((sfx) => `${pkg}.${prefix}${noun}${suffix}${sfx}`).slice(pkg.length + 1);

    const members: MemberPlan[] = [];
    const fields: [string, string][] = [];
    // fields
    const injected = role === R_CTRL || role === R_SVC || role === R_BATCH || (role === R_MISC && rng.chance(0.4));
    if ((role === R_SVC || role === R_CTRL || role === R_BATCH || role === R_REPO) && rng.chance(0.5)) {
      members.push(this.fieldPlan("LOG"));
    }
    if (role === R_EXC && rng.chance(0.7)) members.push(this.fieldPlan("serialVersionUID"));
    let nf = 0;
    switch (role) {
      case R_ENTITY:
        nf = 2 + rng.lomax(5, 60);
        break;
      case R_DTO:
        nf = 1 + rng.lomax(4, 40);
        break;
      case R_CTRL:
      case R_SVC:
      case R_BATCH:
        nf = rng.range(1, 4);
        break;
      case R_REPO:
        nf = rng.range(0, 2);
        break;
      case R_MISC:
      case R_BASE:
        nf = rng.lomax(1.5, 20);
        break;
    }
    for (let k = 0; k < nf; k++) {
      if (injected && k < 4 && rng.chance(0.7)) {
        const dep = this.pascal(1, 1) + rng.pick(["Service", "Repository", "Mapper", "Client", "Validator"]);
        const fname = dep.charAt(0).toLowerCase() + dep.slice(1);
        members.push(this.fieldPlan(fname, rng.chance(0.4) ? `["@Autowired"]` : undefined));
      } else if (rng.chance(0.08)) {
        members.push(this.fieldPlan(this.upper(1, 3)));
      } else {
        const fname = this.camel(1, 2);
        const ftype = rng.pick(FIELD_TYPES);
        let ann: string | undefined;
        if (role === R_ENTITY) {
          if (k === 0) ann = `["@Id","@Column(name = \\"${fname.toUpperCase()}_ID\\")"]`;
          else if (rng.chance(0.5))
            ann = `["@Column(name = \\"${fname.replace(/[A-Z]/g, (x) => `_${x}`).toUpperCase()}\\")"]`;
        }
        members.push(this.fieldPlan(fname, ann));
        fields.push([fname, ftype]);
      }
    }
    // constructors
    let nc = 0;
    if (role === R_EXC) nc = rng.range(1, 3);
    else if (role === R_ENTITY || role === R_DTO) nc = rng.chance(0.5) ? 1 : 0;
    else if (role === R_SVC || role === R_CTRL || role === R_BATCH) nc = rng.chance(0.6) ? 1 : 0;
    else nc = rng.chance(0.3) ? 1 : 0;
    for (let k = 0; k < nc; k++) {
      const simple = name;
      members.push({
        cat: C_CTOR,
        t: T_CTOR,
        name: simple,
        mangling: `${simple}(${k === 0 && role === R_EXC ? "String" : this.params()})`,
        len: this.lineLen(4),
      });
    }
    // methods
    if (role === R_ENTITY || role === R_DTO) {
      for (const [fname, ftype] of fields) {
        const P = cap(fname);
        const getter = ftype === "boolean" ? `is${P}` : `get${P}`;
        members.push({ cat: C_ACC_M, t: T_METHOD, name: getter, mangling: `${getter}()`, len: 3 });
        if (rng.chance(0.75))
          members.push({ cat: C_ACC_M, t: T_METHOD, name: `set${P}`, mangling: `set${P}(${ftype})`, len: 3 });
      }
      if (rng.chance(0.5)) {
        for (const [mn, mg] of [
          ["equals", "equals(Object)"],
          ["hashCode", "hashCode()"],
          ["toString", "toString()"],
        ]) {
          members.push({
            cat: C_MODEL_M,
            t: T_METHOD,
            name: mn,
            mangling: mg,
            ann: `["@Override"]`,
            len: this.lineLen(6),
          });
        }
      }
    } else {
      let nm = 0;
      switch (role) {
        case R_CTRL:
          nm = 1 + rng.lomax(5, 80);
          break;
        case R_SVC:
          nm = 1 + rng.lomax(8, 200);
          break;
        case R_REPO:
          nm = 1 + rng.lomax(6, 120);
          break;
        case R_BATCH:
          nm = 1 + rng.lomax(4, 40);
          break;
        case R_EXC:
          nm = rng.chance(0.3) ? 1 : 0;
          break;
        default:
          nm = 1 + rng.lomax(5, 150);
          break;
      }
      if (role === R_BATCH && (suffix === "Launcher" || rng.chance(0.6))) {
        members.push({
          cat: C_BATCH_M,
          t: T_METHOD,
          name: "main",
          mangling: "main(String[])",
          role: 1,
          len: this.lineLen(12),
        });
      }
      for (let k = 0; k < nm; k++) {
        let mname: string;
        let ann: string | undefined;
        let mrole = 0;
        switch (role) {
          case R_CTRL: {
            mname = rng.pickSkew(VERBS_CTRL) + this.pascal(1, 2);
            if (rng.chance(0.7)) {
              const path = `/${code}/${this.word()}${rng.chance(0.3) ? "/{id}" : ""}`;
              ann = JSON.stringify([`@${rng.chance(0.65) ? "Get" : "Post"}Mapping("${path}")`]);
              mrole = 1;
            }
            break;
          }
          case R_REPO: {
            const v = rng.pickSkew(VERBS_REPO);
            mname = v.endsWith("By")
              ? v + this.pascal(1, 1) + (rng.chance(0.25) ? `And${this.pascal(1, 1)}` : "")
              : v === "findAll"
                ? v
                : v + this.pascal(1, 2);
            if (rng.chance(0.1)) ann = `["@Transactional(readOnly = true)"]`;
            break;
          }
          case R_SVC:
          case R_BASE:
          case R_BATCH:
            mname = rng.pickSkew(VERBS_SVC) + this.pascal(1, 2);
            if (role === R_SVC && rng.chance(0.3)) ann = `["@Transactional"]`;
            else if (role === R_BATCH && rng.chance(0.2)) ann = `["@Scheduled(cron = \\"0 0 2 * * *\\")"]`;
            else if (rng.chance(0.1)) ann = `["@Override"]`;
            break;
          default:
            mname = rng.pickSkew(VERBS_MISC) + this.pascal(1, 2);
            if (rng.chance(0.1)) ann = `["@Override"]`;
            else if (rng.chance(0.01)) ann = `["@Deprecated"]`;
        }
        members.push({
          cat: role === R_EXC ? C_MISC_M : mcat,
          t: T_METHOD,
          name: mname,
          mangling: `${mname}(${this.params()})`,
          ann,
          role: mrole,
          len: this.lineLen(14),
        });
      }
    }
    const l5 = `S.${batch ? "batch" : "logic"}.${code}.java`;
    this.emitClassBlock({
      name,
      pkg,
      t: T_CLASS,
      cat,
      l5base: `${l5}.cls`,
      ann: this.annOrNone(clsAnn),
      members,
      memberL5: (m) => `${l5}.${m.t === T_FIELD ? "fld" : m.t === T_CTOR ? "ctor" : "meth"}`,
    });
  }

  interfaceBlock(): void {
    const rng = this.rng;
    const [code] = SUBSYSTEMS[this.curSub];
    const kind = rng.pick(["Service", "Repository", "Gateway", "Port", "Handler", "Strategy", "Listener", ""]);
    const pkg = `com.acme.${code}.${kind === "Repository" ? "repository" : kind === "" ? "api" : "service"}`;
    const name = this.unique((sfx) => `${pkg}.${this.pascal(1, 2)}${kind}${sfx}`).slice(pkg.length + 1);
    const members: MemberPlan[] = [];
    const nm = 1 + rng.lomax(4, 60);
    for (let k = 0; k < nm; k++) {
      const mname = rng.pickSkew(kind === "Repository" ? VERBS_REPO : VERBS_SVC) + this.pascal(1, 2);
      members.push({ cat: C_IFACE_M, t: T_METHOD, name: mname, mangling: `${mname}(${this.params()})`, len: 1 });
    }
    const l5 = `S.logic.${code}.java`;
    this.emitClassBlock({
      name,
      pkg,
      t: T_IFACE,
      cat: C_IFACE,
      l5base: `${l5}.itf`,
      members,
      ann: rng.chance(0.1) ? `["@FunctionalInterface"]` : undefined,
      memberL5: () => `${l5}.meth`,
    });
  }

  jspBlock(fragment: boolean): void {
    if (!this.room()) return;
    const rng = this.rng;
    const [code] = SUBSYSTEMS[this.curSub];
    const dir = `web/${code}${fragment ? "/fragments" : rng.chance(0.2) ? `/${this.word()}` : ""}`;
    const ext = fragment ? "jspf" : "jsp";
    const path = this.unique(
      (sfx) => `${dir}/${this.camel(1, 2)}${fragment ? "" : rng.pick(JSP_SUFFIXES)}${sfx}.${ext}`,
    );
    const f = this.newFile(path, "JSP");
    this.emit({
      name: path.slice(dir.length + 1),
      fullName: path,
      t: fragment ? T_JSPF : T_JSP,
      l5: `S.ui.${code}.jsp.${fragment ? "frag" : "page"}`,
      cat: fragment ? C_JSPF : C_JSP,
      filePath: path,
      role: fragment ? 0 : 1,
      fileId: f,
      start: 1,
      end: this.lineLen(fragment ? 30 : 120),
    });
  }

  tableBlock(): void {
    if (!this.room()) return;
    const rng = this.rng;
    const [code] = SUBSYSTEMS[this.curSub];
    const schema = code.toUpperCase();
    if (this.sqlLeft <= 0) {
      this.sqlLeft = rng.range(10, 40);
      this.sqlPath = `db/oracle/${code}/tables_${String(this.files + 1).padStart(4, "0")}.sql`;
      this.sqlFile = this.newFile(this.sqlPath, "PL/SQL");
      this.sqlLine = 1;
    }
    this.sqlLeft--;
    const base = this.upper(1, 2);
    const plural =
      base.endsWith("S") || base.endsWith("X")
        ? `${base}ES`
        : base.endsWith("Y")
          ? `${base.slice(0, -1)}IES`
          : `${base}S`;
    const fullName = this.unique((sfx) => `ACME.${schema}.${plural}${sfx ? `_${sfx}` : ""}`);
    const tname = fullName.slice(`ACME.${schema}.`.length);
    const ncol = 2 + rng.lomax(10, 150);
    const start = this.sqlLine;
    const end = start + ncol + 2;
    this.sqlLine = end + 2;
    const t = this.emit({
      name: tname,
      fullName,
      t: T_TABLE,
      l5: `S.data.${code}.ora.tbl`,
      cat: C_TABLE,
      filePath: this.sqlPath,
      role: 2,
      fileId: this.sqlFile,
      start,
      end,
    });
    const cols = new Set<string>();
    for (let k = 0; k < ncol && this.room(); k++) {
      let col =
        k === 0
          ? `${base}_ID`
          : `${this.upper(1, 1)}${(() => {
              const s = rng.pick(COL_SUFFIXES);
              return s ? `_${s}` : "";
            })()}`;
      for (let j = 2; cols.has(col); j++) col = `${col}_${j}`;
      cols.add(col);
      this.emit({
        name: col,
        fullName: `${fullName}.${col}`,
        t: T_COLUMN,
        l5: `S.data.${code}.ora.col`,
        cat: C_COLUMN,
        parent: t,
        filePath: null,
      });
    }
    this.memberEnd[t] = this.n;
  }

  viewBlock(): void {
    if (!this.room()) return;
    const [code] = SUBSYSTEMS[this.curSub];
    if (!this.viewFile) {
      this.viewPath = `db/oracle/${code}/views.sql`;
      this.viewFile = this.newFile(this.viewPath, "PL/SQL");
      this.viewLine = 1;
    }
    const fullName = this.unique((sfx) => `ACME.${code.toUpperCase()}.V_${this.upper(1, 3)}${sfx ? `_${sfx}` : ""}`);
    const start = this.viewLine,
      end = start + this.lineLen(15);
    this.viewLine = end + 2;
    this.emit({
      name: fullName.slice(fullName.lastIndexOf(".") + 1),
      fullName,
      t: T_VIEW,
      l5: `S.data.${code}.ora.view`,
      cat: C_VIEW,
      filePath: this.viewPath,
      fileId: this.viewFile,
      start,
      end,
    });
  }

  procBlock(): void {
    if (!this.room()) return;
    const rng = this.rng;
    const [code] = SUBSYSTEMS[this.curSub];
    if (this.procLeft <= 0) {
      this.procLeft = rng.range(5, 25);
      this.procPath = `db/oracle/${code}/pkg_${code}_${String(this.files + 1).padStart(4, "0")}.sql`;
      this.procFile = this.newFile(this.procPath, "PL/SQL");
      this.procLine = 1;
    }
    this.procLeft--;
    const fullName = this.unique(
      (sfx) =>
        `ACME.${code.toUpperCase()}.${rng.chance(0.5) ? "SP_" : ""}${rng.pickSkew(VERBS_SVC).toUpperCase()}_${this.upper(1, 2)}${sfx ? `_${sfx}` : ""}`,
    );
    const start = this.procLine,
      end = start + this.lineLen(60);
    this.procLine = end + 2;
    this.emit({
      name: fullName.slice(fullName.lastIndexOf(".") + 1),
      fullName,
      t: T_PROC,
      l5: `S.data.${code}.ora.proc`,
      cat: C_PROC,
      filePath: this.procPath,
      mangling: `(${rng.pick(["", "NUMBER", "VARCHAR2", "NUMBER,VARCHAR2", "NUMBER,DATE,VARCHAR2"])})`,
      fileId: this.procFile,
      start,
      end,
    });
  }

  async objects(): Promise<void> {
    const N = this.N;
    const extBudget = N === 0 ? 0 : Math.min(N, Math.max(Math.min(20, N), Math.round(N * 0.03)));
    this.externals(extBudget);
    await this.sink.flush();
    const S = this.S;
    const w: number[] = [];
    let wsum = 0;
    for (let s = 0; s < S; s++) {
      w.push(1 / (s + 1) ** 0.7);
      wsum += w[s];
    }
    const internal = N - this.n;
    const budgets = w.map((x) => Math.floor((internal * x) / wsum));
    budgets[0] += internal - budgets.reduce((a, b) => a + b, 0);
    const blockWeights: [number, number][] = [
      [0, 50],
      [1, 6],
      [2, 2],
      [3, 12],
      [4, 3],
      [5, 8],
      [6, 1.5],
      [7, 2],
    ];
    const bsum = blockWeights.reduce((a, [, x]) => a + x, 0);
    for (let s = 0; s < S; s++) {
      this.curSub = s;
      this.limit = this.n + budgets[s];
      this.sqlLeft = 0;
      this.viewFile = 0;
      this.procLeft = 0;
      while (this.room()) {
        let r = this.rng.next() * bsum,
          kind = 0;
        for (const [k, x] of blockWeights) {
          if ((r -= x) < 0) {
            kind = k;
            break;
          }
        }
        switch (kind) {
          case 0:
            this.classBlock(false);
            break;
          case 1:
            this.interfaceBlock();
            break;
          case 2:
            this.classBlock(true);
            break;
          case 3:
            this.jspBlock(false);
            break;
          case 4:
            this.jspBlock(true);
            break;
          case 5:
            this.tableBlock();
            break;
          case 6:
            this.viewBlock();
            break;
          default:
            this.procBlock();
            break;
        }
        if (this.sink.full) await this.sink.flush();
      }
    }
    await this.sink.flush();
  }

  /* ---------------------------------------------------------------- links */

  buildLists(): void {
    const S1 = this.S + 1;
    const counts = new Int32Array(NCAT * S1);
    for (let i = 0; i < this.N; i++) counts[this.cat[i] * S1 + this.sub[i]]++;
    for (let c = 0; c < NCAT; c++) {
      const off = new Int32Array(S1 + 1);
      for (let s = 0; s < S1; s++) off[s + 1] = off[s] + counts[c * S1 + s];
      this.offsets.push(off);
      this.lists.push(new Int32Array(off[S1]));
    }
    const fill = new Int32Array(NCAT);
    for (let i = 0; i < this.N; i++) {
      const c = this.cat[i];
      this.lists[c][fill[c]++] = i;
    }
  }

  /** A candidate of category c, in subsystem s with probability `local`, skewed towards hubs. */
  pick(c: number, s: number, local: number): number {
    const L = this.lists[c];
    if (L.length === 0) return -1;
    const u = this.rng.next();
    if (this.rng.next() < local) {
      const off = this.offsets[c];
      const lo = off[s],
        hi = off[s + 1];
      if (hi > lo) return L[lo + Math.floor((hi - lo) * u * u)];
    }
    return L[Math.floor(L.length * u * u)];
  }
  /** A candidate of category c with an index below `before` (acyclic inheritance). */
  pickEarlier(c: number, s: number, before: number): number {
    const L = this.lists[c],
      off = this.offsets[c];
    let lo = off[s],
      hi = off[s + 1];
    // upper bound of `before` in L[lo, hi)
    let a = lo,
      b = hi;
    while (a < b) {
      const m = (a + b) >>> 1;
      if (L[m] < before) a = m + 1;
      else b = m;
    }
    hi = a;
    if (hi <= lo) {
      lo = 0;
      a = 0;
      b = L.length;
      while (a < b) {
        const m = (a + b) >>> 1;
        if (L[m] < before) a = m + 1;
        else b = m;
      }
      hi = a;
    }
    if (hi <= lo) return -1;
    const u = this.rng.next();
    return L[lo + Math.floor((hi - lo) * u * u)];
  }

  seen = new Float64Array(4096);
  nSeen = 0;
  fromId = "";
  escClass = -1;
  escSeen = new Set<number>();

  write(from: string, to: number, type: number, escalated: boolean): void {
    const line = `{"kind":"link","from":"${from}","to":"${this.id(to)}","type":"${LINK_TYPES[type]}"${escalated ? `,"escalated":true` : ""}}`;
    this.sink.line(line);
    this.links++;
    if (this.rng.next() < 0.0003) {
      this.sink.line(line);
      this.links++;
    } // a few exact duplicates
  }
  /** Link from the current source, deduplicated per source; false when a duplicate or no target. */
  link(to: number, type: number, escalated = false): boolean {
    if (to < 0) return false;
    const key = to * 16 + type * 2 + (escalated ? 1 : 0);
    const seen = this.seen;
    for (let k = 0; k < this.nSeen; k++) if (seen[k] === key) return false;
    if (this.nSeen < seen.length) seen[this.nSeen++] = key;
    this.write(this.fromId, to, type, escalated);
    return true;
  }
  call(i: number, t: number): boolean {
    if (t < 0 || t === i) return false;
    if (!this.link(t, L_CALL)) return false;
    const pc = this.parent[i],
      pt = this.parent[t];
    if (pc >= 0 && pt >= 0 && pc !== pt) {
      const r = this.rng.next();
      if (r < 0.03) {
        if (this.escClass !== pc) {
          this.escClass = pc;
          this.escSeen.clear();
        }
        if (!this.escSeen.has(pt)) {
          this.escSeen.add(pt);
          this.write(this.id(pc), pt, L_CALL, true);
        }
      } else if (r < 0.037) {
        this.link(pt, L_USE, true);
      }
    }
    return true;
  }
  member(i: number, fieldsOnly: boolean): boolean {
    const p = this.parent[i];
    if (p < 0) return false;
    const lo = p + 1,
      hi = this.memberEnd[p];
    if (hi - lo < 2) return false;
    for (let tries = 0; tries < 4; tries++) {
      const t = lo + this.rng.int(hi - lo);
      if (t === i) continue;
      const c = this.cat[t];
      if (c === C_FIELD) return this.link(t, L_USE);
      if (!fieldsOnly) return this.call(i, t);
    }
    return false;
  }
  act(i: number, s: number, a: number): boolean {
    switch (a) {
      case A_CALL_CTRL:
        return this.call(i, this.pick(C_CTRL_M, s, 0.9));
      case A_CALL_SVC:
        return this.call(i, this.pick(C_SVC_M, s, 0.8));
      case A_CALL_IFM:
        return this.call(i, this.pick(C_IFACE_M, s, 0.8));
      case A_CALL_REPO:
        return this.call(i, this.pick(C_REPO_M, s, 0.85));
      case A_CALL_MISC:
        return this.call(i, this.pick(C_MISC_M, s, 0.7));
      case A_CALL_ACC:
        return this.call(i, this.pick(C_ACC_M, s, 0.8));
      case A_CALL_EXT: {
        const L = this.lists[C_EXT_M];
        if (L.length === 0) return false;
        const u = this.rng.next();
        return this.call(i, L[Math.floor(L.length * u * u * u)]);
      }
      case A_MEMBER:
        return this.member(i, false);
      case A_MEMBER_FIELD:
        return this.member(i, true);
      case A_ACCESS_TABLE:
        return this.link(this.pick(C_TABLE, s, 0.9), L_ACCESS);
      case A_ACCESS_VIEW:
        return this.link(this.pick(C_VIEW, s, 0.9), L_ACCESS);
      case A_CALL_PROC:
        return this.link(this.pick(C_PROC, s, 0.9), L_CALL);
      case A_USE_CLASS:
        return this.link(this.pick(C_CLASS, s, 0.8), L_USE);
      case A_USE_FIELD:
        return this.link(this.pick(C_FIELD, s, 0.8), L_USE);
    }
    return false;
  }
  fanOut(i: number, s: number, table: ActionTable, degree: number): void {
    const { cum, acts } = table;
    let added = 0;
    for (let attempts = 0; added < degree && attempts < degree * 3 + 2; attempts++) {
      const r = this.rng.next();
      let k = 0;
      while (cum[k] < r) k++;
      if (this.act(i, s, acts[k])) added++;
    }
  }

  sourceLinks(i: number): void {
    const rng = this.rng;
    const c = this.cat[i];
    const s = this.sub[i];
    this.nSeen = 0;
    this.fromId = this.id(i);
    const isMethod = c >= C_CTRL_M && c <= C_BATCH_M && c !== C_IFACE_M;
    if (isMethod && rng.next() < 0.01) this.link(i, L_CALL); // recursion: self link
    switch (c) {
      case C_CTRL_M:
        this.fanOut(i, s, ACT_CTRL, rng.lomax(DEG * 7, 400));
        break;
      case C_SVC_M:
      case C_BATCH_M:
        this.fanOut(i, s, ACT_SVC, rng.lomax(DEG * 9, 400) + (c === C_BATCH_M ? 1 : 0));
        break;
      case C_REPO_M:
        this.fanOut(i, s, ACT_REPO, rng.lomax(DEG * 6, 400));
        break;
      case C_MISC_M:
        this.fanOut(i, s, ACT_MISC, rng.lomax(DEG * 6, 400));
        break;
      case C_MODEL_M:
        this.fanOut(i, s, ACT_MODEL, rng.range(2, 6));
        break;
      case C_ACC_M:
        this.member(i, true);
        if (rng.next() < 0.1) this.act(i, s, A_CALL_EXT);
        break;
      case C_CTOR: {
        const d = rng.lomax(2.5, 40);
        for (let k = 0; k < d; k++) this.member(i, true);
        if (rng.next() < 0.2) this.act(i, s, A_CALL_EXT);
        break;
      }
      case C_CLASS:
      case C_BASE:
      case C_EXC: {
        if (c === C_EXC) {
          if (this.excBase.length && rng.next() < 0.6) this.link(rng.pick(this.excBase), L_INHERIT);
          else this.link(this.pickEarlier(C_EXC, s, i), L_INHERIT);
        } else {
          if (rng.next() < 0.35) this.link(this.pickEarlier(C_BASE, s, i), L_INHERIT);
          else if (rng.next() < 0.1) this.link(this.pickEarlier(C_CLASS, s, i), L_INHERIT);
          if (rng.next() < 0.35) this.link(this.pick(C_IFACE, s, 0.9), L_INHERIT);
        }
        break;
      }
      case C_IFACE:
        if (rng.next() < 0.1) this.link(this.pickEarlier(C_IFACE, s, i), L_INHERIT);
        break;
      case C_JSP: {
        const d = 1 + rng.lomax(2.5, 30);
        for (let k = 0; k < d; k++) this.call(i, this.pick(C_CTRL_M, s, 0.9));
        const inc = rng.range(0, 2);
        for (let k = 0; k < inc; k++) this.link(this.pick(C_JSPF, s, 0.9), L_INCLUDE);
        if (rng.next() < 0.3) this.link(this.pick(C_JSP, s, 0.95), L_REFER);
        break;
      }
      case C_JSPF: {
        const d = rng.range(0, 2);
        for (let k = 0; k < d; k++) this.call(i, this.pick(C_CTRL_M, s, 0.9));
        break;
      }
      case C_TABLE:
        if (rng.next() < 0.4) {
          const d = rng.range(1, 3);
          for (let k = 0; k < d; k++) {
            const t = this.pick(C_TABLE, s, 0.95);
            if (t !== i) this.link(t, L_REFER);
          }
        }
        break;
      case C_VIEW: {
        const d = rng.range(1, 4);
        for (let k = 0; k < d; k++) this.link(this.pick(C_TABLE, s, 0.95), L_USE);
        break;
      }
      case C_PROC: {
        const d = 1 + rng.lomax(3, 40);
        for (let k = 0; k < d; k++) this.link(this.pick(C_TABLE, s, 0.9), L_ACCESS);
        if (rng.next() < 0.3) {
          const t = this.pick(C_PROC, s, 0.9);
          if (t !== i) this.link(t, L_CALL);
        }
        break;
      }
      default:
        break; // fields, columns, interface methods, externals: no outgoing links
    }
  }

  async linksPhase(): Promise<void> {
    this.buildLists();
    for (let i = 0; i < this.N; i++) {
      this.sourceLinks(i);
      this.progress(1);
      if (this.sink.full) await this.sink.flush();
    }
    await this.sink.flush();
  }

  async postIts(): Promise<number> {
    if (this.N === 0) return 0;
    const count = Math.max(3, Math.min(200, Math.round(this.N / 25000)));
    const lo =
      this.lists[C_EXT_M].length + this.lists[C_EXT_CLASS].length < this.N
        ? this.lists[C_EXT_M].length + this.lists[C_EXT_CLASS].length
        : 0;
    for (let k = 0; k < count; k++) {
      const obj = lo + this.rng.int(this.N - lo);
      const title = this.rng.pick(POSTIT_TITLES);
      const text = this.rng.chance(0.4) ? `,"text":${JSON.stringify(this.rng.pick(POSTIT_TEXTS))}` : "";
      this.sink.line(`{"kind":"postIt","object":"${this.id(obj)}","title":${JSON.stringify(title)}${text}}`);
    }
    await this.sink.flush();
    return count;
  }
}

/**
 * Writes an NDJSON analysis (header line first, then taxonomy, files and objects, links, post-its) to `out`;
 * resolves when everything was handed to the stream (it does not end the stream). Deterministic for a seed.
 * `onProgress(done, total)`: total is 2 × objects (each object is counted once when written, once when its
 * outgoing links are written).
 */
export async function generateAnalysis(
  out: NodeJS.WritableStream,
  options: GenerateOptions,
  onProgress?: (done: number, total: number) => void,
): Promise<GenerateResult> {
  const N = options.objects;
  if (!Number.isSafeInteger(N) || N < 0) throw new RangeError(`objects must be a non-negative integer, got ${N}`);
  const seed = options.seed ?? 1;
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  const g = new Generator(out, N, (seed >>> 0) ^ Math.floor(seed / 4294967296), onProgress);
  g.sink.line(
    JSON.stringify({
      format: "appstruct.analysis/1",
      application: options.application ?? "Synthetic Enterprise",
      analyzedAt: options.analyzedAt ?? "2026-01-01T00:00:00Z",
      analyzer: { name: "appstruct generate", version: "1" },
    }),
  );
  const taxonomyNodes = g.taxonomy();
  await g.objects();
  await g.linksPhase();
  const postIts = await g.postIts();
  onProgress?.(2 * N, 2 * N);
  return { objects: g.n, links: g.links, files: g.files, taxonomyNodes, postIts };
}
