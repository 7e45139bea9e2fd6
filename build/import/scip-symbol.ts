// @module SCIP symbol strings parsed by the grammar of scip.proto ("Symbol"): scheme, package, and descriptors.

export type DescriptorSuffix =
  | "namespace"
  | "type"
  | "term"
  | "method"
  | "typeParameter"
  | "parameter"
  | "meta"
  | "macro";

export interface Descriptor {
  name: string;
  /** A method's disambiguator (`+1` in `f(+1).`), else "". */
  disambiguator: string;
  suffix: DescriptorSuffix;
}

export interface GlobalSymbol {
  scheme: string;
  manager: string;
  /** The package name, "" when the symbol gives `.` (no package). */
  packageName: string;
  version: string;
  descriptors: Descriptor[];
}

class ScipSymbolError extends Error {}

const SUFFIXES: Record<string, DescriptorSuffix> = {
  "/": "namespace",
  "#": "type",
  ".": "term",
  ":": "meta",
  "!": "macro",
};

const isIdentifierCharacter = (c: string) => /[A-Za-z0-9_+\-$]/.test(c);

/** Whether a symbol is document-local (`local <id>`): such symbols never leave their document. */
export const isLocalSymbol = (symbol: string) => symbol.startsWith("local ");

/** Parses a global symbol; throws ScipSymbolError saying where the string leaves the grammar. */
export function parseSymbol(symbol: string): GlobalSymbol {
  let at = 0;
  const fail = (what: string): never => {
    throw new ScipSymbolError(`symbol "${symbol}" is not a SCIP symbol: ${what} at character ${at + 1}`);
  };
  // Header parts are space-separated; a space inside one is written twice.
  const headerPart = (): string => {
    let part = "";
    while (at < symbol.length) {
      if (symbol[at] === " ") {
        if (symbol[at + 1] !== " ") break;
        at++;
      }
      part += symbol[at++];
    }
    if (part === "") fail("an empty scheme, manager, package name or version");
    if (symbol[at] !== " ") fail("a symbol that ends before its descriptors");
    at++;
    return part;
  };
  const identifier = (): string => {
    if (symbol[at] === "`") {
      let name = "";
      at++;
      for (;;) {
        if (at >= symbol.length) fail("an unterminated `escaped` name");
        if (symbol[at] === "`") {
          if (symbol[at + 1] !== "`") break;
          at++;
        }
        name += symbol[at++];
      }
      at++;
      return name;
    }
    const start = at;
    while (at < symbol.length && isIdentifierCharacter(symbol[at])) at++;
    if (at === start) fail(`a name expected, found "${symbol[at] ?? "the end"}"`);
    return symbol.slice(start, at);
  };

  if (isLocalSymbol(symbol)) fail("a local symbol where a global one is needed");
  const scheme = headerPart();
  const manager = headerPart();
  const packageName = headerPart();
  const version = headerPart();
  const descriptors: Descriptor[] = [];
  while (at < symbol.length) {
    if (symbol[at] === "[" || symbol[at] === "(") {
      const close = symbol[at] === "[" ? "]" : ")";
      at++;
      const name = identifier();
      if (symbol[at] !== close) fail(`"${close}" expected`);
      at++;
      descriptors.push({ name, disambiguator: "", suffix: close === "]" ? "typeParameter" : "parameter" });
      continue;
    }
    const name = identifier();
    if (symbol[at] === "(") {
      const start = ++at;
      while (at < symbol.length && isIdentifierCharacter(symbol[at])) at++;
      const disambiguator = symbol.slice(start, at);
      if (symbol.slice(at, at + 2) !== ").") fail('")." expected after a method name');
      at += 2;
      descriptors.push({ name, disambiguator, suffix: "method" });
      continue;
    }
    const suffix = SUFFIXES[symbol[at]];
    if (!suffix) fail(`a descriptor suffix (/ # . : ! or a method's "().") expected after "${name}"`);
    at++;
    descriptors.push({ name, disambiguator: "", suffix });
  }
  if (descriptors.length === 0) fail("no descriptor");
  return {
    scheme,
    manager: manager === "." ? "" : manager,
    packageName: packageName === "." ? "" : packageName,
    version: version === "." ? "" : version,
    descriptors,
  };
}

/** The symbol of the descriptor path minus its last descriptor (the syntactic owner), or null for a one-descriptor symbol. */
export function ownerSymbol(symbol: string, parsed: GlobalSymbol): string | null {
  if (parsed.descriptors.length < 2) return null;
  // Descriptors are written one after another, so the owner is a prefix of the string: cut the last one's text.
  const last = parsed.descriptors[parsed.descriptors.length - 1];
  let text = last.name;
  if (!/^[A-Za-z0-9_+\-$]+$/.test(text)) text = `\`${text.replaceAll("`", "``")}\``;
  const written =
    last.suffix === "method"
      ? `${text}(${last.disambiguator}).`
      : last.suffix === "parameter"
        ? `(${text})`
        : last.suffix === "typeParameter"
          ? `[${text}]`
          : `${text}${Object.entries(SUFFIXES).find(([, s]) => s === last.suffix)![0]}`;
  return symbol.endsWith(written) ? symbol.slice(0, -written.length) : null;
}
