// @module SearchView: the find-objects form (every filter, repeatable, one operator, search type, page size; the application's types offered) and its results (annotations and tags with each) with paging and totalObjects; back returns to them where they were.
import { useEffect, useState } from "preact/hooks";
import type { ApiFindObjectsResult, ApiLevelGraph } from "../../src/contract/api-schemas.ts";
import { dateQuery } from "./analysis.ts";
import { appPath, restUrl } from "./api.ts";
import { Pager } from "./Controls.tsx";
import { Link } from "./Link.tsx";
import { distinctNames } from "./level-names.ts";
import { Loading, ProblemNote } from "./ProblemNote.tsx";
import { navigate, useScrollRestore, viewOf, withParams } from "./url-state.ts";
import { useApi } from "./use-api.ts";

/** The find-objects filters, by their API names. */
export const FILTERS = ["name", "fullname", "type", "filepath", "mangling", "annotation", "tag", "post-it"] as const;
const FILTER_LABELS: Record<(typeof FILTERS)[number], string> = {
  name: "Name",
  fullname: "Full name",
  type: "Type",
  filepath: "File path",
  mangling: "Mangling",
  annotation: "Annotation",
  tag: "Tag",
  "post-it": "Post-it title",
};
const OPERATORS = ["contains", "equals", "startswith", "endswith"] as const;
const SEARCH_TYPES = ["all", "internal", "external"] as const;
const PAGE_SIZES = ["10", "25", "50", "100"] as const;
const DEFAULT_PAGE_SIZE = "25";

type Filter = { kind: (typeof FILTERS)[number]; value: string };

/** The filters of the URL; without any, one empty Name row ready to type into. */
function filtersOf(params: URLSearchParams): Filter[] {
  const filters = FILTERS.flatMap((kind) => params.getAll(kind).map((value) => ({ kind, value })));
  return filters.length ? filters : [{ kind: "name", value: "" }];
}

export function SearchView(props: { app: string; params: URLSearchParams }) {
  const { app, params } = props;
  const [filters, setFilters] = useState<Filter[]>(() => filtersOf(params));
  const [operator, setOperator] = useState(params.get("operator") ?? "contains");
  const [searchtype, setSearchtype] = useState(params.get("searchtype") ?? "all");
  const [limit, setLimit] = useState(params.get("limit") ?? DEFAULT_PAGE_SIZE);
  // Back/forward moves the form with the URL.
  useEffect(() => {
    setFilters(filtersOf(params));
    setOperator(params.get("operator") ?? "contains");
    setSearchtype(params.get("searchtype") ?? "all");
    setLimit(params.get("limit") ?? DEFAULT_PAGE_SIZE);
  }, [params.toString()]);

  const skip = Number(params.get("skip") ?? "0");
  const query: Record<string, string | string[] | undefined> = {
    limit: params.get("limit") ?? DEFAULT_PAGE_SIZE,
    skip: String(skip),
    operator: params.get("operator") ?? undefined,
    searchtype: params.get("searchtype") ?? undefined,
    date: params.get("date") ?? undefined,
  };
  for (const kind of FILTERS) query[kind] = params.getAll(kind);
  // Kept: back to these results draws them at once, at the height they had, so the scroll can go back.
  const result = useApi<ApiFindObjectsResult>(restUrl(`${appPath(app)}/objects`, query), { keep: true });
  useScrollRestore(result.data !== undefined);
  // The types the application's objects have: level 5 of the taxonomy is named after them.
  const level5 = useApi<ApiLevelGraph>(restUrl(`${appPath(app)}/levels/5/graph`, dateQuery(params)), { keep: true });

  const submit = (event: Event) => {
    event.preventDefault();
    const changes: Record<string, string | string[] | null> = {
      skip: null,
      operator: operator === "contains" ? null : operator,
      searchtype: searchtype === "all" ? null : searchtype,
      limit: limit === DEFAULT_PAGE_SIZE ? null : limit,
    };
    for (const kind of FILTERS)
      changes[kind] = filters.filter((f) => f.kind === kind && f.value !== "").map((f) => f.value);
    navigate(withParams(params, changes));
  };
  const setFilter = (index: number, change: Partial<Filter>) =>
    setFilters(filters.map((f, i) => (i === index ? { ...f, ...change } : f)));

  return (
    <section aria-labelledby="search-title">
      <h2 id="search-title" tabIndex={-1}>
        Find objects
      </h2>
      {/* biome-ignore lint/a11y/useSemanticElements: a form with role="search" is announced by every screen reader; <search> is not yet */}
      <form class="search" onSubmit={submit} role="search" aria-label="Find objects">
        <fieldset>
          <legend>Filters (values of one filter combine with OR, different filters with AND)</legend>
          {filters.every((f) => f.value === "") && <p class="hint">No filter: every object is listed.</p>}
          {filters.map((filter, index) => (
            <div class="filter-row" key={index}>
              <label>
                <span class="sr-only">Filter {index + 1}: field</span>
                <select
                  value={filter.kind}
                  onChange={(e) => setFilter(index, { kind: (e.target as HTMLSelectElement).value as Filter["kind"] })}
                >
                  {FILTERS.map((kind) => (
                    <option value={kind}>{FILTER_LABELS[kind]}</option>
                  ))}
                </select>
              </label>
              <label>
                <span class="sr-only">Filter {index + 1}: value</span>
                <input
                  type="text"
                  list={filter.kind === "type" ? "application-types" : undefined}
                  value={filter.value}
                  onInput={(e) => setFilter(index, { value: (e.target as HTMLInputElement).value })}
                />
              </label>
              <button
                type="button"
                onClick={() => setFilters(filters.filter((_, i) => i !== index))}
                aria-label={`Remove filter ${index + 1}`}
              >
                Remove
              </button>
            </div>
          ))}
          <button type="button" onClick={() => setFilters([...filters, { kind: "name", value: "" }])}>
            Add filter
          </button>
          <datalist id="application-types" data-testid="application-types">
            {level5.data && distinctNames(level5.data).map((t) => <option value={t.name} />)}
          </datalist>
        </fieldset>
        <div class="search-options">
          <Choice label="Operator" value={operator} options={OPERATORS} onChange={setOperator} />
          <Choice label="Objects" value={searchtype} options={SEARCH_TYPES} onChange={setSearchtype} />
          <Choice label="Per page" value={limit} options={PAGE_SIZES} onChange={setLimit} />
          <button type="submit" class="primary">
            Search
          </button>
        </div>
      </form>
      {result.error && <ProblemNote problem={result.error} what="Search" />}
      {result.loading && <Loading what="objects" />}
      {result.data && <Results params={params} skip={skip} limit={Number(query.limit)} data={result.data} />}
    </section>
  );
}

/** A labelled select of fixed values. */
function Choice(props: {
  label: string;
  value: string;
  options: readonly string[];
  onChange: (value: string) => void;
}) {
  return (
    <label>
      {props.label}{" "}
      <select value={props.value} onChange={(e) => props.onChange((e.target as HTMLSelectElement).value)}>
        {props.options.map((o) => (
          <option value={o}>{o}</option>
        ))}
      </select>
    </label>
  );
}

function Results(props: { params: URLSearchParams; skip: number; limit: number; data: ApiFindObjectsResult }) {
  const { params, skip, limit, data } = props;
  const first = data.objects.length ? skip + 1 : 0;
  const last = skip + data.objects.length;
  return (
    <div class="results">
      <p class="total" role="status" data-testid="search-total">
        {data.totalObjects.toLocaleString("en")} objects match{data.objects.length ? `; showing ${first}–${last}` : ""}.
      </p>
      {data.objects.length > 0 && (
        <table data-testid="search-results" class="cards">
          <caption class="sr-only">Matching objects, sorted by name</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">Full name</th>
              <th scope="col">File</th>
              <th scope="col">Annotations and tags</th>
              <th scope="col">Origin</th>
            </tr>
          </thead>
          <tbody>
            {data.objects.map((o) => (
              <tr key={o.id}>
                <td data-label="Name">
                  <Link to={viewOf(params, "object", { id: o.id })}>{o.name}</Link>
                </td>
                <td data-label="Type">{o.type}</td>
                <td data-label="Full name" class="wrap">
                  {o.fullName}
                </td>
                <td data-label="File" class="wrap">
                  {o.filePath ?? "—"}
                </td>
                <td data-label="Annotations and tags" class="wrap" data-testid="marks">
                  {[...(o.annotations ?? []).map((a) => ["annotation", a]), ...o.tags.map((t) => ["tag", t])].map(
                    ([kind, text]) => (
                      <span class={`mark ${kind}`} title={kind}>
                        {text}
                      </span>
                    ),
                  )}
                </td>
                <td data-label="Origin" class="nowrap">
                  {o.external ? "external" : "internal"}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager
        params={params}
        skip={skip}
        size={limit}
        shown={data.objects.length}
        total={data.totalObjects}
        label="Result pages"
      />
    </div>
  );
}
