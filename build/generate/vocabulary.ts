// @module The generator's words: a vocabulary of real and made-up words, verbs by layer, parameter and field types, suffixes, tags, post-its and subsystems.
import { Rng } from "./random.ts";

const REAL_WORDS = (
  "invoice customer order account payment product price item line tax discount address contract policy claim " +
  "report user role session ticket shipment delivery stock warehouse supplier vendor catalog category currency " +
  "balance ledger entry journal transaction transfer card bank branch employee department schedule event message " +
  "notification document attachment template rule rate fee charge credit debit refund quote cart basket coupon " +
  "promotion campaign channel region country status history audit batch job task request response result summary " +
  "detail total amount count date period month year limit threshold score risk fraud alert approval workflow step " +
  "state config setting profile preference token permission group member partner agent broker premium coverage " +
  "benefit plan subscription renewal term note comment label code reference number identifier version revision " +
  "snapshot export import file record value metric forecast budget cost margin revenue expense asset portfolio " +
  "position trade settlement fund loan mortgage collateral interest instalment penalty reminder dunning statement " +
  "receipt voucher parcel route carrier tracking owner contact phone email language locale holiday calendar " +
  "booking reservation room slot capacity unit measure weight volume lot serial barcode inspection defect repair " +
  "maintenance contractor invoiceline payroll salary bonus commission pension beneficiary"
).split(" ");

const ONSETS = [
  "b",
  "c",
  "d",
  "f",
  "g",
  "h",
  "j",
  "k",
  "l",
  "m",
  "n",
  "p",
  "r",
  "s",
  "t",
  "v",
  "w",
  "z",
  "br",
  "cr",
  "dr",
  "fl",
  "gr",
  "pl",
  "pr",
  "st",
  "tr",
  "ch",
  "sh",
  "th",
  "qu",
  "sl",
  "sp",
  "cl",
  "bl",
  "gl",
];
const VOWELS = ["a", "e", "i", "o", "u", "a", "e", "o", "ai", "ea", "io", "ou", "ee", "au"];
const CODAS = ["", "", "", "n", "r", "s", "t", "l", "m", "x", "nd", "rt", "st", "ck", "ng", "lt", "mp"];

const VOCAB_SIZE = 3000;

export interface Vocabulary {
  words: string[];
  cumulative: Float64Array;
}

let vocabulary: Vocabulary | undefined;

/** ~3000 distinct lowercase words, real domain words interleaved in the top ranks; fixed for all seeds. */
export function getVocabulary(): Vocabulary {
  if (vocabulary) return vocabulary;
  const rng = new Rng(0x9e3779b9);
  const seen = new Set<string>();
  const real: string[] = [];
  for (const w of REAL_WORDS)
    if (!seen.has(w)) {
      seen.add(w);
      real.push(w);
    }
  for (let i = real.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    const t = real[i];
    real[i] = real[j];
    real[j] = t;
  }
  const generated: string[] = [];
  const target = VOCAB_SIZE - real.length;
  while (generated.length < target) {
    const syl = rng.chance(0.55) ? 2 : rng.chance(0.8) ? 3 : 1;
    let w = "";
    for (let k = 0; k < syl; k++)
      w += rng.pick(ONSETS) + rng.pick(VOWELS) + (k === syl - 1 || rng.chance(0.3) ? rng.pick(CODAS) : "");
    if (w.length < 4 || w.length > 11 || seen.has(w)) continue;
    seen.add(w);
    generated.push(w);
  }
  const words: string[] = [];
  let ri = 0,
    gi = 0;
  for (let r = 0; r < VOCAB_SIZE; r++) {
    if (r % 3 === 0 && ri < real.length) words.push(real[ri++]);
    else if (gi < generated.length) words.push(generated[gi++]);
    else words.push(real[ri++]);
  }
  // Zipf-like frequency, exponent 1.
  const cumulative = new Float64Array(VOCAB_SIZE);
  let sum = 0;
  for (let r = 0; r < VOCAB_SIZE; r++) {
    sum += 1 / (r + 1);
    cumulative[r] = sum;
  }
  for (let r = 0; r < VOCAB_SIZE; r++) cumulative[r] /= sum;
  vocabulary = { words, cumulative };
  return vocabulary;
}

export const cap = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);

export const VERBS_SVC = [
  "process",
  "compute",
  "calculate",
  "validate",
  "create",
  "update",
  "find",
  "load",
  "apply",
  "register",
  "approve",
  "cancel",
  "submit",
  "notify",
  "prepare",
  "generate",
  "check",
  "resolve",
  "assign",
  "close",
  "open",
  "handle",
  "execute",
  "import",
  "export",
  "merge",
  "refresh",
  "schedule",
  "archive",
  "send",
  "reconcile",
  "publish",
];
export const VERBS_CTRL = [
  "show",
  "list",
  "create",
  "edit",
  "update",
  "delete",
  "search",
  "view",
  "export",
  "submit",
  "save",
  "handle",
  "download",
  "upload",
  "confirm",
];
export const VERBS_REPO = [
  "findBy",
  "findAllBy",
  "countBy",
  "existsBy",
  "deleteBy",
  "save",
  "update",
  "insert",
  "delete",
  "load",
  "fetch",
  "lock",
  "findAll",
];
export const VERBS_MISC = [
  "to",
  "from",
  "parse",
  "format",
  "convert",
  "map",
  "is",
  "has",
  "build",
  "create",
  "normalize",
  "validate",
  "check",
  "resolve",
  "apply",
  "on",
  "get",
  "compute",
  "wrap",
  "sanitize",
  "split",
  "merge",
  "compare",
  "copy",
];
export const PARAM_TYPES = [
  "String",
  "long",
  "int",
  "boolean",
  "BigDecimal",
  "LocalDate",
  "Long",
  "List<String>",
  "Map<String,Object>",
  "Object",
  "Integer",
  "LocalDateTime",
];
export const FIELD_TYPES = [
  "String",
  "Long",
  "BigDecimal",
  "LocalDate",
  "Integer",
  "boolean",
  "int",
  "long",
  "LocalDateTime",
  "String",
  "String",
];
export const JSP_SUFFIXES = [
  "List",
  "Detail",
  "Edit",
  "Search",
  "Form",
  "Summary",
  "View",
  "Index",
  "Confirm",
  "Report",
  "Wizard",
];
export const COL_SUFFIXES = [
  "ID",
  "CODE",
  "NAME",
  "DATE",
  "AMOUNT",
  "STATUS",
  "TYPE",
  "DESC",
  "NUM",
  "FLAG",
  "AT",
  "BY",
  "COUNT",
  "RATE",
  "REF",
  "",
  "",
  "",
];
export const TAGS = ["Hot Path", "security", "deprecated", "GDPR", "search", "legacy", "performance", "todo"];
export const POSTIT_TITLES = [
  "Slow on large & old databases",
  "TODO: split this class",
  "Check with the DBA before changing",
  "Legacy code \u2014 do not touch",
  'Called from the "night batch"',
  "Owned by team \u03a9",
  "Refactor <urgent>",
  "R\u00e9vision n\u00e9cessaire",
  "Security review pending",
  "Hot spot: 40% of CPU",
  "Duplicate of the billing logic",
  "Deprecated in 2025, remove after migration",
];
export const POSTIT_TEXTS = [
  "See ticket ARCH-1234.\nDiscussed in the architecture board.",
  "Measured at 3.2 s p95 under month-end load.",
  "Back-slash \\ and tab\tin the text, on purpose.",
];

export const SUBSYSTEMS: readonly [string, string][] = [
  ["billing", "Billing"],
  ["customer", "Customer Management"],
  ["order", "Order Management"],
  ["inventory", "Inventory"],
  ["shipping", "Shipping"],
  ["payment", "Payments"],
  ["catalog", "Product Catalog"],
  ["pricing", "Pricing"],
  ["account", "Accounts"],
  ["reporting", "Reporting"],
  ["security", "Security"],
  ["notification", "Notifications"],
  ["audit", "Audit"],
  ["scheduling", "Scheduling"],
  ["claims", "Claims"],
  ["document", "Document Management"],
];
