// @module Route parameters: which a route knows, which repeat, which are required, and each value's zod schema.
import { z } from "zod";
import { ApiError } from "../api-error.ts";

export interface ParamSpec<T = unknown> {
  schema: z.ZodType<T>;
  repeatable?: boolean;
  required?: boolean;
  /** The value (as sent on the wire) used when the parameter is absent; parsed with `schema`. */
  default?: string;
  /** What the parameter means, for the API description (openapi.ts). */
  description?: string;
}
export type ParamSpecs = Record<string, ParamSpec>;

/** Bounds on what one request may ask for: beyond them a request costs more than any real client needs. */
export const MAX_VALUES_PER_PARAMETER = 50;
export const MAX_VALUE_LENGTH = 1000;

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
    const values = grouped.get(name) ?? (spec.default === undefined ? [] : [spec.default]);
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

// Value schemas (docs/api.md#requests). Integers: decimal digits only, at most 15 — no sign, spaces, exponent or hex.
// Each carries OpenAPI metadata (`.meta`): z.toJSONSchema(schema, { io: "input" }) then describes the wire form.
export const INTEGER_PATTERN = /^[0-9]{1,15}$/;

export const integer = (min: number, max: number) =>
  z
    .string()
    .regex(INTEGER_PATTERN, { error: `must be an integer from ${min} to ${max}` })
    .transform(Number)
    .refine((n) => n >= min && n <= max, { error: `must be an integer from ${min} to ${max}` })
    .meta({
      description: `An integer from ${min} to ${max}: decimal digits only (no sign, spaces or exponent), at most 15 digits.`,
    });

/** Meta key carrying an enumeration's canonical spellings (zod leaves `examples` out of transformed schemas); the document shows them as `examples`. */
export const CANONICAL_VALUES = "x-canonical-values";

/**
 * A pattern matching `values` in any letter case: the document must accept what the API accepts
 * (docs/api.md#requests), and JSON Schema has no case-insensitive enum. The canonical spellings are the
 * schema's `examples`.
 */
export function caseBlindPattern(values: readonly string[]): string {
  const letter = (ch: string) =>
    ch.toLowerCase() !== ch.toUpperCase()
      ? `[${ch.toLowerCase()}${ch.toUpperCase()}]`
      : /[.*+?^${}()|[\]\\/]/.test(ch)
        ? `\\${ch}`
        : ch;
  return `^(?:${values.map((v) => [...v].map(letter).join("")).join("|")})$`;
}

export const boolean = z
  .string()
  .transform((v) => v.toLowerCase())
  .refine((v) => v === "true" || v === "false", { error: "must be true or false" })
  .transform((v) => v === "true")
  .meta({
    pattern: caseBlindPattern(["true", "false"]),
    [CANONICAL_VALUES]: ["true", "false"],
    description: "true or false, case-insensitive.",
  });

export const oneOf = <const T extends readonly string[]>(values: T) =>
  z
    .string()
    .transform((v) => v.toLowerCase())
    .refine((v): v is T[number] => (values as readonly string[]).includes(v), {
      error: `must be one of ${values.join(", ")}`,
    })
    .meta({
      pattern: caseBlindPattern(values),
      [CANONICAL_VALUES]: [...values],
      description: `One of ${values.join(", ")}, case-insensitive.`,
    }) as unknown as z.ZodType<T[number]>;

export const text = z.string();
