// @module The application catalog as the API shows it: the applications a key may read, each with its published versions.
import { z } from "zod";
import type { Catalog, Version } from "../storage/catalog.ts";

export const ApplicationVersionSchema = z
  .object({
    analyzedAt: z.string().meta({
      description:
        "When the analysis was made, as published: the value to give as `date` to find objects to read this version.",
    }),
  })
  .strict();

export const ApplicationListSchema = z
  .object({
    applications: z.array(
      z
        .object({
          name: z
            .string()
            .meta({ description: "Application name, as it goes (percent-encoded) in /rest/applications/{name}/..." }),
          versions: z.array(ApplicationVersionSchema).min(1).meta({
            description: "Published analyses, oldest first; the last one is what routes read without `date`.",
          }),
        })
        .strict(),
    ),
  })
  .strict()
  .meta({ description: "The applications the request may read, sorted by name." });

export type ApplicationList = z.infer<typeof ApplicationListSchema>;

/**
 * The applications `scope` allows (null: all) that have a published version, and every version
 * read (the answer's ETag derives from their content addresses).
 */
export async function applicationList(
  catalog: Catalog,
  scope: Set<string> | null,
): Promise<{ list: ApplicationList; versions: Version[] }> {
  const names = (await catalog.applications()).filter((name) => !scope || scope.has(name));
  const histories = await Promise.all(names.map(async (name) => ({ name, versions: await catalog.versions(name) })));
  const published = histories.filter((h): h is { name: string; versions: Version[] } => h.versions !== null);
  return {
    list: {
      applications: published.map(({ name, versions }) => ({
        name,
        versions: versions.map((v) => ({ analyzedAt: v.analyzedAt })),
      })),
    },
    versions: published.flatMap((h) => h.versions),
  };
}
