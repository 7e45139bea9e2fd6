// @module Zod schemas of the analysis format (docs/analysis-format.md): the single source of its types.
import { z } from "zod";
import { parseRfc3339, publishableNameProblem, RFC3339_EXPECTED } from "../../src/rules.ts";

export { parseRfc3339 };

export const ANALYSIS_FORMAT = "appstruct.analysis/1";
export const READ_FORMATS = [ANALYSIS_FORMAT] as const;

export const OBJECT_ID = /^(0|[1-9][0-9]{0,18})$/;
const FILE_ID = /^-?[0-9]{1,19}$/;
export const LINK_TYPE = /^[A-Za-z0-9_]{1,64}$/;

/** A string that is valid Unicode: a lone surrogate (possible through JSON escapes) cannot be stored as UTF-8. */
const text = (error = "must be a string") =>
  z
    .string({ error })
    .refine((s) => s.isWellFormed(), { error: "must be valid Unicode text (it holds a lone surrogate)" });

/** A record schema: a JSON object with these fields (unknown fields are ignored). */
const record = <T extends z.ZodRawShape>(shape: T) => z.object(shape, { error: "must be a JSON object (a record)" });

const objectId = z
  .string({ error: "must be a string of digits" })
  .regex(OBJECT_ID, { error: "must be 1 to 19 decimal digits without a leading zero" });
const line = z
  .number({ error: "must be a whole number ≥ 1" })
  .int({ error: "must be a whole number ≥ 1" })
  .min(1, { error: "must be a whole number ≥ 1" })
  .max(0xffffffff, { error: "must be at most 4294967295" });

export const FileSchema = record({
  id: z
    .string({ error: "must be a string of an integer" })
    .regex(FILE_ID, { error: "must be a string of an integer, optionally negative" }),
  path: text(),
  language: text().optional(),
  text: text().optional(),
});

export const TaxonomyNodeSchema = record({
  key: text(),
  level: z
    .number({ error: "must be an integer from 1 to 5" })
    .int({ error: "must be an integer from 1 to 5" })
    .min(1, { error: "must be an integer from 1 to 5" })
    .max(5, { error: "must be an integer from 1 to 5" }),
  name: text(),
  fullName: text().optional(),
  parent: text("must be a taxonomy key (string) or null").nullable(),
});

const SourceLocationSchema = z
  .object(
    { fileId: text("must be a string of a file id"), startLine: line, endLine: line },
    { error: "must be an object {fileId, startLine, endLine}" },
  )
  .superRefine((l, ctx) => {
    if (l.startLine > l.endLine)
      ctx.addIssue({ code: "custom", message: `must not be less than startLine (${l.startLine})`, path: ["endLine"] });
  });

const STATUS_VALUES = ["Added", "Modified", "Unchanged"] as const;
export const ObjectSchema = record({
  id: objectId,
  name: text(),
  fullName: text(),
  type: text(),
  typeId: text(),
  language: text("must be a string or null").nullable().optional(),
  filePath: text("must be a string or null").nullable().optional(),
  mangling: text().optional(),
  external: z.boolean({ error: "must be true or false" }).optional(),
  annotations: z.array(text(), { error: "must be an array of strings or null" }).nullable().optional(),
  tags: z.array(text(), { error: "must be an array of strings" }).optional(),
  parent: objectId.nullable().optional(),
  level5: text("must be a taxonomy key (string)").optional(),
  role: z.enum(["start", "end"], { error: 'must be "start", "end" or null' }).nullable().optional(),
  checksum: text().optional(),
  status: z.enum(STATUS_VALUES, { error: 'must be "Added", "Modified", "Unchanged" or null' }).nullable().optional(),
  sourceLocations: z
    .array(SourceLocationSchema, { error: "must be an array of {fileId, startLine, endLine}" })
    .optional(),
});

export const LinkSchema = record({
  from: objectId,
  to: objectId,
  type: text().regex(LINK_TYPE, { error: "must be 1 to 64 letters, digits or _" }),
  escalated: z.boolean({ error: "must be true or false" }).optional(),
});

export const PostItSchema = record({
  object: objectId,
  title: text(),
  text: text().optional(),
});

export const HeaderSchema = z.object({
  format: z.string({ error: `must be "${ANALYSIS_FORMAT}"` }),
  application: text().superRefine((name, ctx) => {
    const problem = publishableNameProblem(name);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  }),
  analyzedAt: z
    .string({ error: `must be ${RFC3339_EXPECTED}` })
    .refine((v) => parseRfc3339(v) !== null, { error: `must be ${RFC3339_EXPECTED}` }),
  analyzer: z.object({ name: text(), version: text() }, { error: "must be {name, version}" }).optional(),
});

export type AnalysisFile = z.infer<typeof FileSchema>;
export type AnalysisTaxonomyNode = z.infer<typeof TaxonomyNodeSchema>;
export type AnalysisObject = z.infer<typeof ObjectSchema>;
export type AnalysisLink = z.infer<typeof LinkSchema>;
export type AnalysisHeader = z.infer<typeof HeaderSchema>;

/** The record kinds of an analysis, with the array that holds them in `.json` and their schema. */
export const RECORD_KINDS = {
  file: { array: "files", schema: FileSchema },
  taxonomy: { array: "taxonomy", schema: TaxonomyNodeSchema },
  object: { array: "objects", schema: ObjectSchema },
  link: { array: "links", schema: LinkSchema },
  postIt: { array: "postIts", schema: PostItSchema },
} as const;
export type RecordKind = keyof typeof RECORD_KINDS;
