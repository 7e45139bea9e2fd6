// @module findObjects: filters combined per semantics.md (OR within a parameter, AND across) by a cost-based plan; exact total, one page.
import { type SearchIndexTag, TRIGRAMS_OF } from "../format/sections.ts";
import type { Snapshot } from "../format/snapshot.ts";
import { fieldMatcher } from "./field-values.ts";
import { externalRanks } from "./external-ranks.ts";
import { complementPage, filterRanks, intersectRanks, withoutRanks } from "./rank-set.ts";
import { type ApiObject, renderObjects } from "./render.ts";
import { type FieldIndex, type Operator, distinctLower, estimateMatches, matchPage, matchRanks } from "./text-match.ts";

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
} as const satisfies Record<string, SearchIndexTag>;
export type FilterName = keyof typeof FILTER_INDEX;

/** `tag` and `post-it` always match by substring, whatever the operator (semantics.md §2). */
const ALWAYS_CONTAINS: ReadonlySet<FilterName> = new Set(["tag", "post-it"]);

/**
 * A later filter is matched through its index only when it would match at most this many times the
 * candidates left; otherwise each candidate's own values are checked (a selective name filter beside
 * `fullname=com` reads a few fullNames, not a million keys).
 */
const CHECK_CANDIDATES_RATIO = 8;

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

interface PlannedFilter {
  name: FilterName;
  field: FieldIndex;
  operator: Operator;
  values: string[];
  estimate: number;
}

async function planFilters(snapshot: Snapshot, query: FindObjectsQuery, universe: number): Promise<PlannedFilter[]> {
  const planned = await Promise.all(
    (Object.entries(query.filters) as [FilterName, string[]][]).map(async ([name, values]) => {
      const tag = FILTER_INDEX[name];
      const trigramTag = TRIGRAMS_OF[tag];
      const operator = ALWAYS_CONTAINS.has(name) ? "contains" : query.operator;
      const useTrigrams = operator === "contains" && snapshot.has(trigramTag);
      const [index, trigrams] = await Promise.all([snapshot.section(tag), useTrigrams ? snapshot.section(trigramTag) : null]);
      const field = { index, trigrams };
      return { name, field, operator, values, estimate: estimateMatches(field, operator, values, universe) };
    }),
  );
  // Most selective first; the query's own order breaks ties, so a plan is deterministic.
  return planned.sort((a, b) => a.estimate - b.estimate);
}

/** Ranks matching every filter, ascending; null when there is no filter (every object). */
async function matchAll(snapshot: Snapshot, filters: PlannedFilter[], universe: number): Promise<Uint32Array | null> {
  let matches: Uint32Array | null = null;
  for (const filter of filters) {
    if (matches && filter.estimate > matches.length * CHECK_CANDIDATES_RATIO) {
      matches = filterRanks(matches, universe, await fieldMatcher(snapshot, filter.name, filter.operator, distinctLower(filter.values)));
    } else {
      const set = matchRanks(filter.field, filter.operator, filter.values, universe);
      matches = matches ? intersectRanks([matches, set]) : set;
    }
    if (matches.length === 0) break;
  }
  return matches;
}

export async function findObjects(snapshot: Snapshot, query: FindObjectsQuery): Promise<FindObjectsResult> {
  const { total, page } = await matchingPage(snapshot, query);
  return { totalObjects: total, objects: await renderObjects(snapshot, page), ranks: page };
}

/** How many objects match, and the ranks of those at positions [skip, skip + limit). */
async function matchingPage(snapshot: Snapshot, query: FindObjectsQuery): Promise<{ total: number; page: number[] }> {
  const universe = snapshot.meta.counts.objects;
  const filters = await planFilters(snapshot, query, universe);
  if (filters.length === 1 && query.searchtype === "all") {
    // One filter: its count and page come from its keys, without building every matching rank.
    const [only] = filters;
    const matched = matchPage(only.field, only.operator, only.values, universe, query.skip, query.limit);
    return { total: matched.total, page: Array.from(matched.page) };
  }
  let matches = await matchAll(snapshot, filters, universe);
  if (query.searchtype !== "all") {
    const external = await externalRanks(snapshot);
    if (query.searchtype === "external") matches = matches ? intersectRanks([matches, external]) : external;
    else if (matches) matches = withoutRanks(matches, external);
    // Every internal object: the complement of the external ones, paged without listing it.
    else return complementPage(external, universe, query.skip, query.limit);
  }
  const total = matches ? matches.length : universe;
  const page: number[] = [];
  for (let i = query.skip; i < Math.min(total, query.skip + query.limit); i++) page.push(matches ? matches[i] : i);
  return { total, page };
}
