// @module Resolves the `{name}` path segment: strict decoding, name rules, access, and the published versions.

import type { Context } from "hono";
import { ApiError } from "../contract/errors.ts";
import { applicationNameProblem } from "../rules.ts";
import type { Version } from "../storage/catalog.ts";
import type { AppEnv } from "./context.ts";

/** The raw `{name}` segment of /rest/applications/{name}/..., percent-decoded exactly once. */
export function decodeApplicationName(rawSegment: string): string {
  let name: string;
  try {
    name = decodeURIComponent(rawSegment);
  } catch {
    throw new ApiError(
      "invalid_application_name",
      `the application name is not valid percent-encoded UTF-8: ${JSON.stringify(rawSegment.slice(0, 100))}`,
      { parameter: "name" },
    );
  }
  const problem = applicationNameProblem(name);
  if (problem) throw new ApiError("invalid_application_name", `the application name ${problem}`, { parameter: "name" });
  return name;
}

/** The published versions of the request's application (remembered for the ETag), or a 404. */
export async function publishedVersions(c: Context<AppEnv>): Promise<Version[]> {
  const application = c.var.application;
  const versions = await c.var.deps.catalog.versions(application);
  if (!versions)
    throw new ApiError(
      "application_not_found",
      `no analysis of application ${JSON.stringify(application)} is published`,
    );
  c.set("versions", versions);
  return versions;
}
