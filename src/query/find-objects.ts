// @module findObjects: filters combined per docs/api.md#requests (OR within a parameter, AND across) by a cost-based plan; exact total, one page.

import type { FilterName, Operator, SearchType } from "../contract/params.ts";
import { CHUNKS_OF, KEY_PAGES_OF, type PagedIndexTag, type SearchIndexTag, TRIGRAMS_OF } from "../format/sections.ts";
import type { Snapshot } from "../format/snapshot.ts";
import { lowerNeedle } from "../format/string-list.ts";
import { externalRanks } from "./external-ranks.ts";
import { type FieldIndex, fieldIndex } from "./field-index.ts";
import { type ColumnField, fieldMatcher, PAGE_KEYED, type RowField, rowMatcher, VALUE_COLUMN } from "./field-values.ts";
import { objectRows, ranksPassing, readsForRows } from "./object-rows.ts";
import { complementPage, filterRanks, intersectRanks, withoutRanks } from "./rank-set.ts";
import { type ApiObject, renderObjects } from "./render.ts";
import type { PagedKeys } from "./search-keys.ts";
import type { StreamedList } from "./streamed-list.ts";
import {
  candidatesByKey,
  checkKeys,
  distinctLower,
  estimateMatches,
  keyOfEachObject,
  matchPage,
  matchRanks,
  matchRanksWithin,
  readTrigramListsAhead,
} from "./text-match.ts";

/** Filter parameters of find objects and the search index (or key pages) each one reads. */
export const FILTER_INDEX = {
  name: "KNAM",
  fullname: "KFUL",
  type: "XTYP",
  filepath: "XPTH",
  mangling: "KMNG",
  annotation: "XANN",
  tag: "XTAG",
  "post-it": "XPST",
} as const satisfies Record<FilterName, SearchIndexTag>;

/** `tag` and `post-it` always match by substring, whatever the operator (docs/api.md#text-matching). */
const ALWAYS_CONTAINS: ReadonlySet<FilterName> = new Set(["tag", "post-it"]);

/**
 * A later filter is matched through its index only when it would match at most this many times the
 * candidates left; otherwise each candidate's own values are checked (a selective name filter beside
 * `fullname=com` reads a few fullNames, not a million keys).
 */
const CHECK_CANDIDATES_RATIO = 8;

/**
 * A filter whose sections (index, key column, trigrams) would take more than this share of the
 * section budget is not matched through them beside another filter: the candidates the others
 * leave are checked on their rows (up to ROW_CHECK_LIMIT of them), else on the field's column alone
 * (through its index, narrowed to the keys holding a candidate, for a field whose keys are paged).
 * Likewise a field's column is read to check candidates only if it takes at most this share.
 */
const LARGE_FILTER_SHARE = 1 / 2;
/** Candidates checked on their rows whatever the other ways cost: each may cost a page read. */
const ROW_CHECK_LIMIT = 256;

/**
 * Past this many, candidates of a field with the key of each object are checked on their keys
 * rather than their rows. A row checked is a row decoded, a key a lookup in a page of keys; but
 * checked on their rows, the rows the answer lists come with them, while checked on their keys
 * they are read in a round after. At 20 ms a read,
 * checking on keys every multi-filter of the bench's mix that leaves more than 256 (at most some
 * 1,600) took a tenth of them from one or two rounds to two or three. At 1M objects, the 80k
 * candidates of `name=get&fullname=com.acme` took 265 ms on their rows and 83 ms on their keys.
 */
const KEY_CHECK_CANDIDATES = 2048;

/**
 * How many times its estimate a `contains` whose trigram lists are read by range (TFUL, TMNG at 1M
 * objects) counts when the filters are ordered. Matched first, such a filter waits for its lists,
 * then for its keys' pages, before the candidates can be asked for: a round more than a name matched
 * first from its lists in memory, whose candidates then meet the other's lists, read meanwhile. Cold,
 * with 20 ms a read, `name=flexjeeck&fullname=dHandler` (2,137 and 846 matches, estimated 2,965 and
 * 2,251) took five rounds with the fullName first, three with the name.
 */
const RANGED_LISTS_WEIGHT = 2;

/**
 * Fields whose column is a dictionary and one code per object (TYPE, FPTH): checking a candidate is
 * one lookup, decided once per dictionary entry. Beside another filter, such a field is checked on
 * its column rather than matched through its index: the index's postings (as large as the column,
 * 3.8 MB each for `type` at 1M objects) are then never loaded, and `name=lock&type=method` reads
 * one section of 3.8 MB rather than two.
 */
const CODED_FIELDS: ReadonlySet<FilterName> = new Set(["type", "filepath"]);
/**
 * Coded filters are checked on their column without estimating them when the others are estimated
 * to leave at most this share of the objects. Past it, a coded filter estimated more selective
 * than every other goes first, through its index: `name=de&type=oracle procedure` (a quarter of a
 * million names, 234 matches) then takes 0.7 ms warm at 1M objects, not 4 to 11; while
 * `name=get&type=java method` (80k names, half the objects of that type) stays faster checked on
 * the column (3 ms) than intersected through the index (16 ms).
 */
const CODED_CHECK_SHARE = 1 / 64;

export interface FindObjectsQuery {
  filters: Partial<Record<FilterName, string[]>>;
  operator: Operator;
  searchtype: SearchType;
  skip: number;
  limit: number;
}

export interface FindObjectsResult {
  totalObjects: number;
  /** The page, read as it is written. */
  objects: StreamedList<ApiObject>;
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

interface RequestedFilter {
  name: FilterName;
  operator: Operator;
  values: string[];
}

/** A filter whose field rows hold (all but post-it titles). */
type RowFilter = RequestedFilter & { name: RowField };

function requestedFilters(query: FindObjectsQuery): RequestedFilter[] {
  return (Object.entries(query.filters) as [FilterName, string[]][]).map(([name, values]) => ({
    name,
    operator: ALWAYS_CONTAINS.has(name) ? "contains" : query.operator,
    values,
  }));
}

/** Stored bytes of the sections matching `filter` through its index would load whole (key pages count their directory only, and their reversed order for `endswith`). */
function footprint(snapshot: Snapshot, filter: RequestedFilter): number {
  const tag = FILTER_INDEX[filter.name];
  const paged = KEY_PAGES_OF[tag as PagedIndexTag] as (typeof KEY_PAGES_OF)[PagedIndexTag] | undefined;
  const index = paged ? [paged.directory, filter.operator === "endswith" ? paged.reversed : undefined] : [tag];
  const trigrams = TRIGRAMS_OF[tag];
  const lists =
    filter.operator !== "contains" ? undefined : snapshot.has(CHUNKS_OF[trigrams]) ? CHUNKS_OF[trigrams] : trigrams;
  return [...index, lists].reduce((sum, t) => sum + (t ? (snapshot.toc.get(t)?.length ?? 0) : 0), 0);
}

/**
 * The filters with their fields, most selective first. Estimates are made only when `estimated`:
 * a lone filter's is never read, and that of an `endswith` visits every key it matches (16,227
 * keys on 1,049 pages for `summary` at 1M objects), as much as answering it.
 */
async function planFilters(
  snapshot: Snapshot,
  filters: readonly RequestedFilter[],
  universe: number,
  estimated = true,
): Promise<PlannedFilter[]> {
  const planned = await Promise.all(
    filters.map(async ({ name, operator, values }) => {
      const field = await fieldIndex(snapshot, FILTER_INDEX[name], operator);
      const estimate = estimated ? await estimateMatches(field, operator, values, universe) : 0;
      return { name, field, operator, values, estimate };
    }),
  );
  // Most selective first, a contains whose lists are read by range counted RANGED_LISTS_WEIGHT times;
  // the query's own order breaks ties, so a plan is deterministic.
  const weighed = (f: PlannedFilter) =>
    f.operator === "contains" && f.field.trigrams && !f.field.trigrams.listsInMemory
      ? f.estimate * RANGED_LISTS_WEIGHT
      : f.estimate;
  return planned.sort((a, b) => weighed(a) - weighed(b));
}

/** `candidates` (ascending) that pass every filter of `filters`, tested on their rows. */
async function checkOnRows(
  snapshot: Snapshot,
  candidates: Uint32Array,
  filters: readonly RowFilter[],
): Promise<Uint32Array> {
  const tests = filters.map((f) => {
    const values = distinctLower(f.values);
    return { needles: values.map(lowerNeedle), passes: rowMatcher(f.name, f.operator, values) };
  });
  return ranksPassing(snapshot, candidates, tests);
}

/** Whether `filter` is checked on the column `fieldMatcher` reads, which fits beside the others; never a field whose keys are paged. */
function columnFits(snapshot: Snapshot, filter: RequestedFilter): filter is RequestedFilter & { name: ColumnField } {
  return (
    !PAGE_KEYED.has(filter.name) &&
    VALUE_COLUMN[filter.name as ColumnField].reduce((sum, t) => sum + (snapshot.toc.get(t)?.length ?? 0), 0) <=
      snapshot.budgetBytes * LARGE_FILTER_SHARE
  );
}

/** `candidates` (ascending) passing `filter`: on its column when it fits, else through its index, narrowed to the keys holding a candidate. */
async function checkCandidates(
  snapshot: Snapshot,
  filter: RequestedFilter,
  candidates: Uint32Array,
  universe: number,
): Promise<Uint32Array> {
  const values = distinctLower(filter.values);
  if (columnFits(snapshot, filter))
    return filterRanks(candidates, universe, await fieldMatcher(snapshot, filter.name, filter.operator, values));
  const field = await fieldIndex(snapshot, FILTER_INDEX[filter.name], filter.operator);
  return matchRanksWithin(field, filter.operator, values, universe, candidates);
}

/**
 * The filters of `planned` checked on their coded column after the others (CODED_FIELDS): all of
 * them on a coded field whose column fits, but one filter at least is left to the index, the
 * smallest in `footprints` when every filter is coded.
 */
function codedChecks(
  snapshot: Snapshot,
  planned: readonly RequestedFilter[],
  footprints: ReadonlyMap<RequestedFilter, number>,
): RequestedFilter[] {
  const coded = planned.filter((f) => CODED_FIELDS.has(f.name) && columnFits(snapshot, f));
  if (coded.length < planned.length || coded.length === 0) return coded;
  const indexed = coded.reduce((a, b) => (footprints.get(b)! < footprints.get(a)! ? b : a));
  return coded.filter((f) => f !== indexed);
}

/**
 * Starts reading what the filters after the first read whatever candidates the first leaves: the
 * columns of the coded checks, the key of each object of a page-keyed field (OFUL, OMNG), which
 * its candidates are looked up in (matchAll), and a `contains`'s trigram lists for about as many
 * candidates as the first is estimated to leave. They then load while the first filter is matched,
 * not in a round of storage reads after it; wasted only when the first filter matches far fewer. A failed
 * read is not waited for here: the filter that needs it asks again, and fails as it should.
 */
function readAheadOfLaterFilters(
  snapshot: Snapshot,
  planned: readonly PlannedFilter[],
  coded: readonly RequestedFilter[],
): void {
  const ignore = () => {};
  for (const f of coded) for (const tag of VALUE_COLUMN[f.name as ColumnField]) snapshot.section(tag).catch(ignore);
  for (const f of planned.slice(1)) {
    if (keyOfEachObject(f.field)) f.field.keys.keysOfRanks([]).catch(ignore);
    readTrigramListsAhead(f.field, f.operator, f.values, planned[0].estimate);
  }
}

/**
 * Whether `candidates` are checked on their keys' pages, then the `listed` rows an answer lists are
 * read, in fewer turns of the source's connections (six reads of R2 at once) than their rows are
 * read: a common fullName piece leaves most of a name's candidates, whose rows lie all over the name
 * order (70 to 255 row pages at 1M objects, 12 to 43 turns), while their keys, in fullName order, lie
 * nearer together and their reads join. Where reads have no limit (a local file), rows: they serve
 * the listing too.
 */
async function keysWaitLess(
  snapshot: Snapshot,
  keys: PagedKeys,
  candidates: Uint32Array,
  listed: number,
): Promise<boolean> {
  const { connections } = snapshot;
  if (connections === undefined) return false;
  const rowReads = await readsForRows(snapshot, candidates);
  if (rowReads <= connections) return false;
  const keyReads = keys.readsFor(await keys.keysOfRanks(candidates));
  const turns = (reads: number) => Math.ceil(reads / connections);
  return turns(keyReads) + turns(Math.min(rowReads, listed)) < turns(rowReads);
}

/** Ranks matching every filter, ascending; null when there is no filter (every object). `listed`: how many of the first of them the answer lists (skip and limit). */
async function matchAll(
  snapshot: Snapshot,
  filters: PlannedFilter[],
  universe: number,
  listed: number,
): Promise<Uint32Array | null> {
  let matches: Uint32Array | null = null;
  for (const filter of filters) {
    if (matches && filter.estimate > matches.length * CHECK_CANDIDATES_RATIO && columnFits(snapshot, filter)) {
      // Few candidates against a broad filter: check their own values rather than list every match.
      matches = await checkCandidates(snapshot, filter, matches, universe);
    } else if (matches && keyOfEachObject(filter.field)) {
      // The candidates' keys tell which may match; those they do not settle are checked on their rows,
      // or on their keys' text when they are many (KEY_CHECK_CANDIDATES).
      const { ranks, exact } = await candidatesByKey(filter.field, filter.operator, filter.values, matches);
      if (exact) matches = ranks;
      else if (ranks.length > KEY_CHECK_CANDIDATES)
        matches = await checkKeys(filter.field.keys, filter.operator, distinctLower(filter.values), ranks);
      else if (await keysWaitLess(snapshot, filter.field.keys, ranks, listed)) {
        // Most candidates pass such a check (a common fullName piece): the rows of the first, which
        // the answer lists, are read with their keys rather than a round after.
        objectRows(snapshot, Array.from(ranks.subarray(0, listed))).catch(() => {});
        matches = await checkKeys(filter.field.keys, filter.operator, distinctLower(filter.values), ranks);
      } else matches = await checkOnRows(snapshot, ranks, [filter as PlannedFilter & { name: RowField }]);
    } else if (matches) {
      // Its index, verifying only keys that hold a candidate left.
      matches = await matchRanksWithin(filter.field, filter.operator, filter.values, universe, matches);
    } else {
      matches = await matchRanks(filter.field, filter.operator, filter.values, universe);
    }
    if (matches.length === 0) break;
  }
  return matches;
}

export async function findObjects(snapshot: Snapshot, query: FindObjectsQuery): Promise<FindObjectsResult> {
  const { total, page } = await matchingPage(snapshot, query);
  return { totalObjects: total, objects: renderObjects(snapshot, page), ranks: page };
}

/** How many objects match, and the ranks of those at positions [skip, skip + limit). */
async function matchingPage(snapshot: Snapshot, query: FindObjectsQuery): Promise<{ total: number; page: number[] }> {
  const universe = snapshot.meta.counts.objects;
  const requested = requestedFilters(query);
  const footprints = new Map(requested.map((f) => [f, footprint(snapshot, f)]));
  const smallest = Math.min(...footprints.values());
  // A large filter waits only behind a smaller one: alone, or beside its equals, nothing cheaper answers it.
  const deferred = requested.filter(
    (f): f is RowFilter =>
      f.name !== "post-it" && footprints.get(f)! > Math.max(smallest, snapshot.budgetBytes * LARGE_FILTER_SHARE),
  );
  const indexed = requested.filter((f) => !deferred.includes(f as RowFilter));
  let coded = codedChecks(snapshot, indexed, footprints);
  const planned = indexed.filter((f) => !coded.includes(f));
  // An estimate orders filters against each other, or against the coded ones: none for one alone.
  let filters = await planFilters(snapshot, planned, universe, planned.length > 1 || coded.length > 0);
  if (coded.length > 0 && filters[0].estimate > universe * CODED_CHECK_SHARE) {
    // The others leave many candidates: a coded filter more selective than all goes first, through its index.
    const all = await planFilters(snapshot, indexed, universe);
    if (coded.some((f) => f.name === all[0].name)) {
      coded = [];
      filters = all;
    }
  }
  readAheadOfLaterFilters(snapshot, filters, coded);
  if (filters.length === 1 && deferred.length === 0 && coded.length === 0 && query.searchtype === "all") {
    // One filter: its count and page come from its keys, without building every matching rank.
    const [only] = filters;
    const matched = await matchPage(only.field, only.operator, only.values, universe, query.skip, query.limit);
    return { total: matched.total, page: Array.from(matched.page) };
  }
  let matches = await matchAll(snapshot, filters, universe, query.skip + query.limit);
  if (query.searchtype !== "all") {
    const external = await externalRanks(snapshot);
    if (query.searchtype === "external") matches = matches ? intersectRanks([matches, external]) : external;
    else if (matches) matches = withoutRanks(matches, external);
    // Every internal object: the complement of the external ones, paged without listing it.
    else return complementPage(external, universe, query.skip, query.limit);
  }
  // Coded and large filters last, once searchtype has narrowed the candidates too (both imply matches).
  for (const f of coded) if (matches) matches = await checkCandidates(snapshot, f, matches, universe);
  if (deferred.length > 0 && matches) {
    if (matches.length <= ROW_CHECK_LIMIT) matches = await checkOnRows(snapshot, matches, deferred);
    // More candidates: their values in the field's column, or through its index and paged keys.
    else for (const f of deferred) matches = await checkCandidates(snapshot, f, matches, universe);
  }
  const total = matches ? matches.length : universe;
  const page: number[] = [];
  for (let i = query.skip; i < Math.min(total, query.skip + query.limit); i++) page.push(matches ? matches[i] : i);
  return { total, page };
}
