// @module Resolves the `{name}` path segment: strict decoding, name rules, access, and the published versions.

import type { Context } from "hono";
import { ApiError } from "../contract/errors.ts";
import type { Snapshot } from "../format/snapshot.ts";
import { applicationNameProblem } from "../rules.ts";
import { type Version, versionAt } from "../storage/catalog.ts";
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

/**
 * The analysis a route reads: the newest, or with `date` (epoch ms) the newest analyzed at or before
 * it (none: 404 no_analysis_at_date); its snapshot; and a handle on the analysis before it, which
 * statuses are relative to.
 */
export async function selectedAnalysis(
  c: Context<AppEnv>,
  date: number | undefined,
): Promise<{ version: Version; snapshot: Snapshot; previous: { key: string; open(): Promise<Snapshot> } | null }> {
  const { catalog } = c.var.deps;
  const versions = await publishedVersions(c);
  const version = date === undefined ? versions[versions.length - 1] : versionAt(versions, date);
  if (!version)
    throw new ApiError(
      "no_analysis_at_date",
      `application ${JSON.stringify(c.var.application)} has no analysis at or before ${new Date(date!).toISOString()}; its first is of ${versions[0].analyzedAt}`,
      { parameter: "date" },
    );
  const before = versions[versions.indexOf(version) - 1];
  return {
    version,
    snapshot: await catalog.open(version),
    previous: before ? { key: before.sha256, open: () => catalog.open(before) } : null,
  };
}
