// @module Query-string checks of the SQLite server: integers, booleans, enumerations and unknown names, answered as 400 problems.
import type { FindRequest } from "./sqlite-find.ts";
import { OPERATORS, type Operator } from "./text-filter.ts";

export class BadRequest extends Error {
  readonly status: number;
  readonly code: string;
  constructor(code: string, detail: string, status = 400) {
    super(detail);
    this.code = code;
    this.status = status;
  }
}

/** Throws unless every parameter name is in `known` and none but `repeatable` ones is repeated. */
export function checkNames(query: URLSearchParams, known: readonly string[], repeatable: readonly string[]): void {
  for (const key of new Set(query.keys())) {
    if (!known.includes(key))
      throw new BadRequest("unknown_parameter", `${key} is not a parameter of this route (known: ${known.join(", ")})`);
    if (!repeatable.includes(key) && query.getAll(key).length > 1)
      throw new BadRequest("invalid_parameter", `${key} may be given once`);
  }
}

export function integer(query: URLSearchParams, key: string, min: number, max: number, fallback?: number): number {
  const raw = query.get(key);
  if (raw === null) {
    if (fallback === undefined) throw new BadRequest("missing_parameter", `${key} is required`);
    return fallback;
  }
  const n = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= min && n <= max))
    throw new BadRequest(
      "invalid_parameter",
      `${key} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`,
    );
  return n;
}

export function oneOf<T extends string>(query: URLSearchParams, key: string, allowed: readonly T[], fallback: T): T {
  const raw = query.get(key);
  if (raw === null) return fallback;
  const value = raw.toLowerCase() as T;
  if (!allowed.includes(value))
    throw new BadRequest(
      "invalid_parameter",
      `${key} must be one of ${allowed.join(", ")}, got ${JSON.stringify(raw)}`,
    );
  return value;
}

export function findRequest(query: URLSearchParams): FindRequest {
  checkNames(
    query,
    ["limit", "skip", "name", "fullname", "type", "filepath", "mangling", "operator", "searchtype"],
    ["name", "fullname", "type", "mangling"],
  );
  const lower = (key: string) => query.getAll(key).map((v) => v.toLowerCase());
  return {
    limit: integer(query, "limit", 0, 10_000),
    skip: integer(query, "skip", 0, Number.MAX_SAFE_INTEGER, 0),
    operator: oneOf<Operator>(query, "operator", OPERATORS, "contains"),
    searchtype: oneOf(query, "searchtype", ["all", "internal", "external"] as const, "all"),
    name: lower("name"),
    fullname: lower("fullname"),
    type: lower("type"),
    filepath: lower("filepath"),
    mangling: lower("mangling"),
  };
}
