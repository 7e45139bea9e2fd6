// @module findObjects: filters combined per semantics.md (OR within a parameter, AND across), exact total, one page.
import type { SectionTag } from "../format/sections.ts";
import type { Snapshot } from "../format/snapshot.ts";
import { filterRanks, intersectRanks } from "./rank-set.ts";
import { type ApiObject, renderObjects } from "./render.ts";
import { type Operator, matchRanks } from "./text-match.ts";

/** Filter parameters of find objects and the search index each one reads. */
export const FILTER_INDEX = {
  name: "XNAM",
  fullname: "XFUL",
  type: "XTYP",
  filepath: "XPTH",
  mangling: "XMNG",
  annotation: "XANN",
  tag: "XTAG",
  "post-it": "XPST",
} as const satisfies Record<string, SectionTag>;
export type FilterName = keyof typeof FILTER_INDEX;

/** `tag` and `post-it` always match by substring, whatever the operator (semantics.md §2). */
const ALWAYS_CONTAINS: ReadonlySet<FilterName> = new Set(["tag", "post-it"]);

export const SEARCH_TYPES = ["all", "internal", "external"] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

export interface FindObjectsQuery {
  filters: Partial<Record<FilterName, string[]>>;
  operator: Operator;
  searchtype: SearchType;
  skip: number;
  limit: number;
}

export interface FindObjectsResult {
  totalObjects: number;
  objects: ApiObject[];
  /** Ranks of `objects`, for fetching their source locations. */
  ranks: number[];
}

export async function findObjects(snapshot: Snapshot, query: FindObjectsQuery): Promise<FindObjectsResult> {
  const universe = snapshot.meta.counts.objects;
  const sets: Uint32Array[] = [];
  for (const [name, values] of Object.entries(query.filters) as [FilterName, string[]][]) {
    const index = await snapshot.section(FILTER_INDEX[name]);
    sets.push(matchRanks(index, ALWAYS_CONTAINS.has(name) ? "contains" : query.operator, values, universe));
  }
  let matches: Uint32Array | null = sets.length ? intersectRanks(sets) : null;
  if (query.searchtype !== "all") {
    const core = await snapshot.section("OBJC");
    const wantExternal = query.searchtype === "external";
    matches = filterRanks(matches, universe, (r) => core.external(r) === wantExternal);
  }
  const total = matches ? matches.length : universe;
  const ranks: number[] = [];
  for (let i = query.skip; i < Math.min(total, query.skip + query.limit); i++) ranks.push(matches ? matches[i] : i);
  return { totalObjects: total, objects: await renderObjects(snapshot, ranks), ranks };
}
