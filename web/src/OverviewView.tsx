// @module OverviewView: an application at a glance — its objects, links, types and technologies, counted from the find-objects and level routes, with links to its entry points and end points.
import type { ApiFindObjectsResult, ApiLevelGraph } from "../../src/contract/api-schemas.ts";
import { dateQuery } from "./analysis.ts";
import { appPath, restUrl } from "./api.ts";
import { Link } from "./Link.tsx";
import { distinctNames, type NamedCount } from "./level-names.ts";
import { Loading, ProblemNote } from "./ProblemNote.tsx";
import { viewOf } from "./url-state.ts";
import { useApi } from "./use-api.ts";

export function OverviewView(props: { app: string; params: URLSearchParams }) {
  const { app, params } = props;
  const date = dateQuery(params);
  const count = (searchtype: string) => restUrl(`${appPath(app)}/objects`, { limit: "0", searchtype, ...date });
  const all = useApi<ApiFindObjectsResult>(count("all"));
  const internal = useApi<ApiFindObjectsResult>(count("internal"));
  const technologies = useApi<ApiLevelGraph>(restUrl(`${appPath(app)}/levels/4/graph`, date), { keep: true });
  const types = useApi<ApiLevelGraph>(restUrl(`${appPath(app)}/levels/5/graph`, date), { keep: true });
  const starts = useApi<{ totalTransactions: number }>(
    restUrl(`${appPath(app)}/transactions`, { limit: "0", ...date }),
  );
  const ends = useApi<{ totalDataGraphs: number }>(restUrl(`${appPath(app)}/data-graphs`, { limit: "0", ...date }));
  const problem = all.error ?? internal.error ?? technologies.error ?? types.error;
  const n = (value: number | undefined) => (value === undefined ? "…" : value.toLocaleString("en"));
  const typeNames = types.data && distinctNames(types.data);
  const technologyNames = technologies.data && distinctNames(technologies.data);
  const search = (filter: Record<string, string>) => viewOf(params, "search", filter);
  return (
    <section aria-labelledby="overview-title">
      <h2 id="overview-title" tabIndex={-1}>
        {app}
      </h2>
      {problem && <ProblemNote problem={problem} what="Counting the application" />}
      {(all.loading || types.loading) && <Loading what="the counts" />}
      <dl class="counts" data-testid="overview-counts">
        <div>
          <dt>Objects</dt>
          <dd>
            <Link to={search({})}>{n(all.data?.totalObjects)}</Link>
            <span class="muted">
              {" "}
              {n(internal.data?.totalObjects)} internal,{" "}
              {all.data && internal.data ? n(all.data.totalObjects - internal.data.totalObjects) : "…"} external
            </span>
          </dd>
        </div>
        <div>
          <dt>
            <abbr title="links between level-5 nodes of the taxonomy (objects of one type in one place)">Links</abbr>
          </dt>
          <dd>{n(types.data?.links.length)}</dd>
        </div>
        <div>
          <dt>Types</dt>
          <dd>{n(typeNames?.length)}</dd>
        </div>
        <div>
          <dt>Technologies</dt>
          <dd>{n(technologyNames?.length)}</dd>
        </div>
        <div>
          <dt>Entry points</dt>
          <dd>
            <Link to={viewOf(params, "transactions")}>{n(starts.data?.totalTransactions)}</Link>
            <span class="muted"> transactions start there</span>
          </dd>
        </div>
        <div>
          <dt>End points</dt>
          <dd>
            <Link to={viewOf(params, "transactions", { kind: "data-graphs" })}>{n(ends.data?.totalDataGraphs)}</Link>
            <span class="muted"> tables and other data the code reaches</span>
          </dd>
        </div>
      </dl>
      <div class="object-grid">
        {technologyNames && (
          <NameTable
            title="Technologies"
            testId="overview-technologies"
            names={technologyNames}
            link={(name) => viewOf(params, "levels", { level: "4", filter: name })}
          />
        )}
        {typeNames && (
          <NameTable
            title="Types"
            testId="overview-types"
            names={typeNames}
            link={(name) => search({ type: name, operator: "equals" })}
          />
        )}
      </div>
    </section>
  );
}

function NameTable(props: {
  title: string;
  testId: string;
  names: NamedCount[];
  link: (name: string) => URLSearchParams;
}) {
  return (
    <section class="panel" aria-label={props.title}>
      <h3>{props.title}</h3>
      <table data-testid={props.testId}>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col" class="num">
              Objects
            </th>
          </tr>
        </thead>
        <tbody>
          {props.names.map((t) => (
            <tr key={t.name}>
              <td>
                <Link to={props.link(t.name)}>{t.name || "(empty name)"}</Link>
              </td>
              <td class="num">{t.nbObjects.toLocaleString("en")}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
