// @module applicationList: the applications a key may read, each with its published versions, from the catalog.
import type { ApplicationList } from "../contract/api-schemas.ts";
import type { Catalog, Version } from "../storage/catalog.ts";

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
