// @module Resolves the `{name}` path segment: strict decoding, name rules, access, and the published versions.
import { ApiError } from "../api-error.ts";
import { applicationNameProblem } from "../rules.ts";
import type { Catalog, Version } from "../storage/catalog.ts";

/** The raw `{name}` segment of /rest/applications/{name}/..., percent-decoded exactly once. */
export function decodeApplicationName(rawSegment: string): string {
  let name: string;
  try {
    name = decodeURIComponent(rawSegment);
  } catch {
    throw new ApiError("invalid_application_name", `the application name is not valid percent-encoded UTF-8: ${JSON.stringify(rawSegment.slice(0, 100))}`, { parameter: "name" });
  }
  const problem = applicationNameProblem(name);
  if (problem) throw new ApiError("invalid_application_name", `the application name ${problem}`, { parameter: "name" });
  return name;
}

export async function publishedVersions(catalog: Catalog, application: string): Promise<Version[]> {
  const versions = await catalog.versions(application);
  if (!versions) throw new ApiError("application_not_found", `no analysis of application ${JSON.stringify(application)} is published`);
  return versions;
}
