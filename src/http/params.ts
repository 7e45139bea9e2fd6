// @module parseParams: a request's query pairs checked against its route's parameter specs (unknown, repeated, missing, malformed: 400).
import { ApiError } from "../contract/errors.ts";
import { MAX_VALUE_LENGTH, MAX_VALUES_PER_PARAMETER, type ParamSpec, type ParamSpecs } from "../contract/params.ts";

/** Parameters every route accepts (docs/api.md#access-api-keys: the API key may come in the query). */
const ALWAYS_ALLOWED = new Set(["api-key"]);

type Parsed<S extends ParamSpecs> = {
  [K in keyof S]: S[K] extends ParamSpec<infer T>
    ? S[K]["repeatable"] extends true
      ? T[]
      : S[K]["required"] extends true
        ? T
        : S[K]["default"] extends string
          ? T
          : T | undefined
    : never;
};

/** Validates `pairs` against `specs`: unknown names, repeats, missing and malformed values become 400s. */
export function parseParams<S extends ParamSpecs>(pairs: readonly [string, string][], specs: S): Parsed<S> {
  const grouped = new Map<string, string[]>();
  for (const [name, value] of pairs) {
    if (ALWAYS_ALLOWED.has(name)) continue;
    if (!Object.hasOwn(specs, name)) {
      const suggestion = closest(name, Object.keys(specs));
      throw new ApiError(
        "unknown_parameter",
        `unknown parameter ${JSON.stringify(name)}${suggestion ? `; did you mean \`${suggestion}\`?` : Object.keys(specs).length ? `; known parameters: ${Object.keys(specs).join(", ")}` : "; this route takes no query parameters"}`,
        {
          parameter: name,
        },
      );
    }
    if (value.length > MAX_VALUE_LENGTH)
      throw new ApiError(
        "invalid_parameter",
        `${name} may be at most ${MAX_VALUE_LENGTH} characters long, got ${value.length}`,
        { parameter: name },
      );
    const values = grouped.get(name) ?? [];
    if (values.length === MAX_VALUES_PER_PARAMETER)
      throw new ApiError(
        "invalid_parameter",
        `${name} may be given at most ${MAX_VALUES_PER_PARAMETER} times in one request`,
        { parameter: name },
      );
    values.push(value);
    grouped.set(name, values);
  }
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const given = grouped.get(name);
    if (given === undefined && spec.default !== undefined) {
      out[name] = spec.repeatable ? [defaultOf(spec)] : defaultOf(spec);
      continue;
    }
    const values = given ?? [];
    if (values.length > 1 && !spec.repeatable)
      throw new ApiError("invalid_parameter", `${name} may be given only once, got ${values.length} values`, {
        parameter: name,
      });
    if (values.length === 0 && spec.required)
      throw new ApiError("missing_parameter", `${name} is required`, { parameter: name });
    const parsed = values.map((v) => {
      const result = spec.schema.safeParse(v);
      if (!result.success)
        throw new ApiError(
          "invalid_parameter",
          `${name} ${result.error.issues[0].message}, got ${JSON.stringify(v.length > 100 ? `${v.slice(0, 100)}…` : v)}`,
          { parameter: name },
        );
      return result.data;
    });
    out[name] = spec.repeatable ? parsed : parsed[0];
  }
  return out as Parsed<S>;
}

/** Each spec's default as parsed: the same value every time, parsed once (checked against the schema like any value). */
const parsedDefaults = new WeakMap<ParamSpec, unknown>();

function defaultOf(spec: ParamSpec): unknown {
  if (parsedDefaults.has(spec)) return parsedDefaults.get(spec);
  const result = spec.schema.safeParse(spec.default);
  if (!result.success) throw new Error(`the default ${JSON.stringify(spec.default)} does not satisfy its own schema`);
  parsedDefaults.set(spec, result.data);
  return result.data;
}

/** The known name nearest to `name`: same letters ignoring case, or at most two edits away. */
export function closest(name: string, known: readonly string[]): string | null {
  const lower = name.toLowerCase();
  const exact = known.find((k) => k.toLowerCase() === lower);
  if (exact) return exact;
  let best: string | null = null;
  let bestDistance = 3;
  for (const k of known) {
    const d = editDistance(lower, k.toLowerCase());
    if (d < bestDistance) (best = k), (bestDistance = d);
  }
  return best;
}

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length];
}
