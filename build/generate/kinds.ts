// @module What the generator writes of each object and link: object types, categories and roles, link types, and the tables of what each layer calls.

const tf = (type: string, typeId: string, language: string): string =>
  `"type":"${type}","typeId":"${typeId}","language":"${language}"`;
export const T_CLASS = tf("Java Class", "JV_CLASS", "Java");
export const T_IFACE = tf("Java Interface", "JV_INTERFACE", "Java");
export const T_METHOD = tf("Java Method", "JV_METHOD", "Java");
export const T_CTOR = tf("Java Constructor", "JV_CTOR", "Java");
export const T_FIELD = tf("Java Field", "JV_FIELD", "Java");
export const T_JSP = tf("JSP Page", "JSP_PAGE", "JSP");
export const T_JSPF = tf("JSP Fragment", "JSP_PAGE", "JSP"); // shares its typeId with JSP Page
export const T_TABLE = tf("Oracle Table", "ORA_TABLE", "PL/SQL");
export const T_COLUMN = tf("Oracle Column", "ORA_COLUMN", "PL/SQL");
export const T_VIEW = tf("Oracle View", "ORA_VIEW", "PL/SQL");
export const T_PROC = tf("Oracle Procedure", "ORA_PROCEDURE", "PL/SQL");

/* Object categories: drive the link generator (lists of candidates per category). */
export const C_CLASS = 0,
  C_BASE = 1,
  C_EXC = 2,
  C_IFACE = 3,
  C_CTRL_M = 4,
  C_SVC_M = 5,
  C_REPO_M = 6,
  C_MISC_M = 7,
  C_MODEL_M = 8,
  C_ACC_M = 9,
  C_IFACE_M = 10,
  C_BATCH_M = 11,
  C_CTOR = 12,
  C_FIELD = 13,
  C_TABLE = 14,
  C_COLUMN = 15,
  C_VIEW = 16,
  C_PROC = 17,
  C_JSP = 18,
  C_JSPF = 19,
  C_EXT_CLASS = 20,
  C_EXT_M = 21;
export const NCAT = 22;

/* Class roles. */
export const R_CTRL = 0,
  R_SVC = 1,
  R_REPO = 2,
  R_ENTITY = 3,
  R_DTO = 4,
  R_MISC = 5,
  R_EXC = 6,
  R_BASE = 7,
  R_BATCH = 8;
export const ROLE_WEIGHTS: readonly [number, number][] = [
  [R_CTRL, 9],
  [R_SVC, 16],
  [R_REPO, 10],
  [R_ENTITY, 13],
  [R_DTO, 10],
  [R_MISC, 28],
  [R_EXC, 5],
  [R_BASE, 4],
];
export const MISC_KINDS: readonly [string, string][] = [
  ["Util", "util"],
  ["Helper", "util"],
  ["Mapper", "mapper"],
  ["Validator", "validation"],
  ["Factory", "factory"],
  ["Handler", "handler"],
  ["Adapter", "integration"],
  ["Client", "integration"],
  ["Listener", "event"],
  ["Config", "config"],
  ["Converter", "mapper"],
  ["Manager", "service"],
  ["Builder", "factory"],
  ["Provider", "support"],
];

/* Link types. */
export const L_CALL = 0,
  L_USE = 1,
  L_ACCESS = 2,
  L_INHERIT = 3,
  L_REFER = 4,
  L_INCLUDE = 5;
export const LINK_TYPES = ["CALL", "USE", "ACCESS", "INHERIT", "REFER", "INCLUDE"];

/* Link actions. */
export const A_CALL_CTRL = 0,
  A_CALL_SVC = 1,
  A_CALL_IFM = 2,
  A_CALL_REPO = 3,
  A_CALL_MISC = 4,
  A_CALL_ACC = 5,
  A_CALL_EXT = 6,
  A_MEMBER = 7,
  A_ACCESS_TABLE = 8,
  A_ACCESS_VIEW = 9,
  A_CALL_PROC = 10,
  A_USE_CLASS = 11,
  A_USE_FIELD = 12,
  A_MEMBER_FIELD = 13;

/** Scales the mean out-degree of methods; tuned so that links ≈ 5 × objects. */
export const DEG = 1.95;

export interface ActionTable {
  cum: Float64Array;
  acts: Uint8Array;
}
function actionTable(entries: readonly [number, number][]): ActionTable {
  const cum = new Float64Array(entries.length);
  const acts = new Uint8Array(entries.length);
  let s = 0;
  for (const [, w] of entries) s += w;
  let c = 0;
  entries.forEach(([a, w], k) => {
    c += w / s;
    cum[k] = c;
    acts[k] = a;
  });
  cum[entries.length - 1] = 1;
  return { cum, acts };
}
export const ACT_CTRL = actionTable([
  [A_CALL_SVC, 30],
  [A_CALL_IFM, 20],
  [A_CALL_MISC, 8],
  [A_CALL_ACC, 10],
  [A_CALL_EXT, 15],
  [A_MEMBER, 10],
  [A_USE_CLASS, 5],
  [A_CALL_CTRL, 2],
]);
export const ACT_SVC = actionTable([
  [A_CALL_SVC, 18],
  [A_CALL_IFM, 10],
  [A_CALL_REPO, 18],
  [A_CALL_MISC, 10],
  [A_CALL_ACC, 10],
  [A_CALL_EXT, 14],
  [A_MEMBER, 12],
  [A_USE_CLASS, 3],
  [A_USE_FIELD, 2],
  [A_ACCESS_TABLE, 3],
]);
export const ACT_REPO = actionTable([
  [A_ACCESS_TABLE, 35],
  [A_ACCESS_VIEW, 5],
  [A_CALL_PROC, 4],
  [A_CALL_EXT, 30],
  [A_MEMBER, 12],
  [A_CALL_ACC, 8],
  [A_USE_CLASS, 6],
]);
export const ACT_MISC = actionTable([
  [A_CALL_EXT, 35],
  [A_MEMBER, 25],
  [A_CALL_MISC, 15],
  [A_CALL_ACC, 15],
  [A_USE_CLASS, 5],
  [A_USE_FIELD, 5],
]);
export const ACT_MODEL = actionTable([
  [A_MEMBER_FIELD, 60],
  [A_CALL_EXT, 40],
]);
