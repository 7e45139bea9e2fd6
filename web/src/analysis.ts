// @module Which analysis of an application a page reads: the newest one analyzed at or before `date` (the API's rule), or the newest.
import type { ApplicationList } from "../../src/contract/api-schemas.ts";

export type Version = ApplicationList["applications"][number]["versions"][number];

/** The version `date` selects among `versions` (oldest first); undefined when none is that old. */
export function selectedVersion(versions: readonly Version[], date: string | null): Version | undefined {
  if (date === null) return versions.at(-1);
  const at = Date.parse(date);
  return versions.findLast((v) => Date.parse(v.analyzedAt) <= at);
}

/** `{date}` for a REST query when the page reads an older analysis; nothing when it reads the newest. */
export const dateQuery = (params: URLSearchParams): { date?: string } => {
  const date = params.get("date");
  return date ? { date } : {};
};
