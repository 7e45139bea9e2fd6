// @module Resolves the `{name}` path segment: strict decoding, name rules, access, and the published versions.

import type { Context } from "hono";
import { ApiError } from "../contract/errors.ts";
import type { Snapshot } from "../format/snapshot.ts";
import { applicationNameProblem } from "../rules.ts";
import { type Version, versionAt } from "../storage/catalog.ts";
import type { AppEnv } from "./context.ts";

/** Valid names by raw segment, met lately: a client asks of one application again and again. Cleared past this many. */
const decodedNames = new Map<string, string>();
const MAX_DECODED_NAMES = 256;

/** The raw `{name}` segment of /rest/applications/{name}/..., percent-decoded exactly once. */
export function decodeApplicationName(rawSegment: string): string {
  const known = decodedNames.get(rawSegment);
  if (known !== undefined) return known;
  const name = checkedName(rawSegment);
  if (decodedNames.size >= MAX_DECODED_NAMES) decodedNames.clear();
  decodedNames.set(rawSegment, name);
  return name;
}

function checkedName(rawSegment: string): string {
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
  const application = c.get("application");
  const versions = await c.get("deps").catalog.versions(application);
  if (!versions)
    throw new ApiError(
      "application_not_found",
      `no analysis of application ${JSON.stringify(application)} is published`,
    );
  c.set("versions", versions);
  return versions;
}

/**
 * The analysis a route reads (docs/api.md#history-and-date): the newest analyzed at or before
 * `date` (ms), or the newest of all without it; a 404 no_analysis_at_date when there is none. With
 * it, a handle on the analysis before it, against which statuses are computed.
 */
export async function selectedAnalysis(
  c: Context<AppEnv>,
  date: number | undefined,
): Promise<{ version: Version; snapshot: Snapshot; previous: { key: string; open(): Promise<Snapshot> } | null }> {
  const { catalog } = c.get("deps");
  const versions = await publishedVersions(c);
  const version = date === undefined ? versions[versions.length - 1] : versionAt(versions, date);
  if (!version) throw noAnalysisAt(c.get("application"), versions, date!, "date");
  const before = versions[versions.indexOf(version) - 1];
  return {
    version,
    snapshot: await catalog.open(version),
    previous: before ? { key: before.sha256, open: () => catalog.open(before) } : null,
  };
}

/**
 * The two analyses changes compares: `to` selected as `date` is (default the newest), `from` too
 * (default the one before `to`'s); a 404 no_analysis_at_date naming the parameter when there is none.
 */
export async function comparedAnalyses(
  c: Context<AppEnv>,
  from: number | undefined,
  to: number | undefined,
): Promise<{ from: Version; to: Version }> {
  const versions = await publishedVersions(c);
  const newer = to === undefined ? versions[versions.length - 1] : versionAt(versions, to);
  if (!newer) throw noAnalysisAt(c.get("application"), versions, to!, "to");
  const older = from === undefined ? versions[versions.indexOf(newer) - 1] : versionAt(versions, from);
  if (older) return { from: older, to: newer };
  throw from === undefined
    ? new ApiError(
        "no_analysis_at_date",
        `no analysis comes before ${newer.analyzedAt}, the first of ${JSON.stringify(c.get("application"))}: give from, or a later to`,
        { parameter: "from" },
      )
    : noAnalysisAt(c.get("application"), versions, from, "from");
}

/** The 404 of a date before the application's first analysis. */
function noAnalysisAt(application: string, versions: readonly Version[], date: number, parameter: string) {
  return new ApiError(
    "no_analysis_at_date",
    `${parameter} ${new Date(date).toISOString()} is before the first analysis of ${JSON.stringify(application)} (${versions[0].analyzedAt}): give a date at or after it`,
    { parameter },
  );
}
