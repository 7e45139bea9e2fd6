// @module The parameters of the API's routes: what a parameter spec says, the bounds on values, and the value schemas and vocabularies they use.
import { z } from "zod";

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

/** Filter parameters of find objects (docs/api.md, "Find objects"). */
export const FILTER_NAMES = [
  "name",
  "fullname",
  "type",
  "filepath",
  "mangling",
  "annotation",
  "tag",
  "post-it",
] as const;
export type FilterName = (typeof FILTER_NAMES)[number];

/** How a filter value matches (the `operator` parameter). */
export const OPERATORS = ["contains", "equals", "startswith", "endswith"] as const;
export type Operator = (typeof OPERATORS)[number];

/** Which objects find objects considers (the `searchtype` parameter). */
export const SEARCH_TYPES = ["all", "internal", "external"] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

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
function caseBlindPattern(values: readonly string[]): string {
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
