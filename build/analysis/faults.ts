// @module Faults: what is wrong with an analysis and where, collected up to a cap.
import type { z } from "zod";

export interface Fault {
  /** The record: `objects[17]`, `line 9`, or `document` for the whole file. */
  at: string;
  /** The field inside the record (`parent`, `sourceLocations[0].fileId`), or null for the record itself. */
  field: string | null;
  message: string;
}

export const FAULT_CAP = 100;

export class FaultList {
  readonly faults: Fault[] = [];
  total = 0;

  add(at: string, field: string | null, message: string): void {
    this.total++;
    if (this.faults.length < FAULT_CAP) this.faults.push({ at, field, message });
  }

  /** Adds one fault per zod issue, quoting the value found at the issue's path. */
  addIssues(at: string, record: unknown, issues: readonly z.core.$ZodIssue[]): void {
    for (const issue of issues) {
      const field = issue.path
        .map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`))
        .join("")
        .replace(/^\./, "");
      const found = valueAt(record, issue.path);
      const message =
        found === undefined
          ? issue.code === "invalid_type"
            ? "is required"
            : issue.message
          : `${issue.message}, found ${describe(found)}`;
      this.add(at, field || null, message);
    }
  }

  get ok(): boolean {
    return this.total === 0;
  }
}

function valueAt(record: unknown, path: readonly PropertyKey[]): unknown {
  let value = record;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** A short, quoted rendering of a found value for messages. */
function describe(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

export function formatFault(f: Fault): string {
  const where = f.at.startsWith("line ")
    ? f.field
      ? `${f.at}, ${f.field}`
      : f.at
    : f.field
      ? `${f.at}.${f.field}`
      : f.at;
  return `${where}: ${f.message}`;
}

/** Thrown when an analysis is refused; carries every fault found (up to the cap) and the total. */
export class AnalysisRefused extends Error {
  readonly faults: FaultList;

  constructor(faults: FaultList) {
    super(`analysis refused: ${faults.total} fault${faults.total === 1 ? "" : "s"}`);
    this.faults = faults;
  }
}
