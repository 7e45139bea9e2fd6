// @module The rules file (taxonomy, start points, end points): its schema, the documented defaults, loading and matching.
import { readFile } from "node:fs/promises";
import { builtinModules } from "node:module";
import { z } from "zod";
import defaults from "./default-rules.json" with { type: "json" };

const regex = z.string().refine((s) => {
  try {
    new RegExp(s);
    return true;
  } catch {
    return false;
  }
}, "must be a valid JavaScript regular expression");

const FileRule = z
  .object({ name: z.string().min(1), path: regex.optional(), imports: z.array(z.string()).optional() })
  .strict();

const RulesSchema = z
  .object({
    abstracted: z.object({ internal: z.string().min(1), external: z.string().min(1) }).strict(),
    services: z.array(FileRule).min(1),
    concept: z
      .object({ skipFolders: z.array(z.string()), depth: z.number().int().min(1).max(5), rootName: z.string().min(1) })
      .strict(),
    technologies: z.array(FileRule),
    startPoints: z
      .object({
        routeFrameworks: z.array(z.string()),
        commandFrameworks: z.array(z.string()).default([]),
        routeMethods: z.array(z.string()),
        routeDecorators: z.array(z.string()),
        routeFiles: regex,
        routeFileExports: z.array(z.string()),
        packageBin: z.boolean(),
        packageMain: z.boolean(),
      })
      .strict(),
    sql: z
      .object({ queryMethods: z.array(z.string()), queryTags: z.array(z.string()), service: z.string().min(1) })
      .strict(),
    endPoints: z.array(
      z.object({ packages: z.array(z.string()).min(1), members: regex.optional(), what: z.string() }).strict(),
    ),
  })
  .strict();

export type Rules = z.infer<typeof RulesSchema>;
export type FileRuleT = z.infer<typeof FileRule>;

export const DEFAULT_RULES: Rules = RulesSchema.parse(defaults);

export class RulesError extends Error {}

/** A rules file replaces the default sections it names; the sections it leaves out keep their defaults. */
export async function loadRules(path: string | undefined): Promise<Rules> {
  if (!path) return DEFAULT_RULES;
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    throw new RulesError(`${path}: ${(error as Error).message}`);
  }
  const parsed = RulesSchema.partial().safeParse(json);
  if (!parsed.success)
    throw new RulesError(
      `${path}: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(document)"} ${i.message}`).join("; ")}`,
    );
  return { ...DEFAULT_RULES, ...parsed.data };
}

const BUILTINS = new Set(builtinModules);

/** Whether a package name matches a pattern: exact, `@scope/*`, or `node:*` for any Node built-in. */
export function packageMatches(pattern: string, name: string): boolean {
  if (pattern === "node:*") return BUILTINS.has(name) || name.startsWith("node:");
  if (pattern.endsWith("/*")) return name.startsWith(pattern.slice(0, -1));
  return pattern === name;
}

/** The first rule a file matches by path or by one of the packages it imports; a rule with neither condition matches every file. */
export function firstMatch(rules: FileRuleT[], path: string, imports: ReadonlySet<string>): FileRuleT | null {
  for (const rule of rules) {
    if (!rule.path && !rule.imports) return rule;
    if (rule.path && new RegExp(rule.path).test(path)) return rule;
    if (rule.imports?.some((p) => [...imports].some((i) => packageMatches(p, i)))) return rule;
  }
  return null;
}
