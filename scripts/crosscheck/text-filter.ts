// @module The four text operators of docs/api.md#text-matching as JavaScript predicates on lower-cased strings.

export const OPERATORS = ["contains", "equals", "startswith", "endswith"] as const;
export type Operator = (typeof OPERATORS)[number];

/** Whether lower-cased `field` matches lower-cased `value` under `operator`. */
export function textMatches(operator: Operator, field: string, value: string): boolean {
  switch (operator) {
    case "contains":
      return field.includes(value);
    case "equals":
      return field === value;
    case "startswith":
      return field.startsWith(value);
    case "endswith":
      return field.endsWith(value);
  }
}
