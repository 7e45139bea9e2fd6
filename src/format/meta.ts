// @module The META section: snapshot metadata as UTF-8 JSON, checked with a schema before use.
import { z } from "zod";
import { parseRfc3339, publishableNameProblem, RFC3339_EXPECTED } from "../rules.ts";
import { CorruptSnapshotError } from "./errors.ts";
import type { SnapshotMeta } from "./model.ts";

const count = z.number().int().nonnegative();
// The name and the date by the rules the API reads them with: a snapshot the API could not name or
// date is refused here, by the reader and by publishing alike.
const MetaSchema = z
  .object({
    application: z.string().superRefine((name, ctx) => {
      const problem = publishableNameProblem(name);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
    analyzedAt: z.string().refine((v) => parseRfc3339(v) !== null, `must be ${RFC3339_EXPECTED}`),
    analyzedAtMs: z.number().finite(),
    analyzer: z.object({ name: z.string(), version: z.string() }).nullable(),
    statusBase: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .nullable(),
    taxonomyDerived: z.boolean(),
    counts: z.object({ objects: count, links: count, files: count, postIts: count, levels: z.array(count).length(5) }),
  })
  .refine((m) => parseRfc3339(m.analyzedAt) === m.analyzedAtMs, {
    path: ["analyzedAtMs"],
    message: "must be analyzedAt in milliseconds since the epoch",
  });

export function encodeMeta(meta: SnapshotMeta): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(MetaSchema.parse(meta)));
}

export function decodeMeta(bytes: Uint8Array): SnapshotMeta {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes));
  } catch {
    throw new CorruptSnapshotError("META section is not UTF-8 JSON");
  }
  const parsed = MetaSchema.safeParse(json);
  if (!parsed.success)
    throw new CorruptSnapshotError(
      `META section is malformed: ${parsed.error.issues[0].path.join(".")} ${parsed.error.issues[0].message}`,
    );
  return parsed.data;
}
