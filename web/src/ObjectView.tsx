// @module ObjectView: one object — characteristics, its code, callers beside callees (escalated toggle), the call hierarchy, the transactions through it, the start and end points within a number of hops, and for an end point what reaches it.
import type { ApiCallee, ApiCharacteristics, ApiPointsResult } from "../../src/contract/api-schemas.ts";
import { dateQuery } from "./analysis.ts";
import { appPath, restUrl } from "./api.ts";
import { CallHierarchy } from "./CallHierarchy.tsx";
import { CallTable } from "./CallTable.tsx";
import { HopsInput } from "./Controls.tsx";
import { DataGraphPanel } from "./DataGraphPanel.tsx";
import type { ApiCaller } from "./impact-types.ts";
import { Link } from "./Link.tsx";
import { PointList } from "./PointList.tsx";
import { Loading, ProblemNote } from "./ProblemNote.tsx";
import { SourceCode } from "./SourceCode.tsx";
import { navigate, viewOf, withParams } from "./url-state.ts";
import { useApi } from "./use-api.ts";

export const MAX_HOPS = 32;
/** Start points are rarely one link away: the default reaches those of a typical call chain. */
const DEFAULT_HOPS = "6";

export function ObjectView(props: { app: string; params: URLSearchParams }) {
  const { app, params } = props;
  const id = params.get("id") ?? "";
  const escalated = params.get("escalated") === "true";
  const hops = params.get("hops") ?? DEFAULT_HOPS;
  const date = dateQuery(params);
  const base = `${appPath(app)}/objects/${encodeURIComponent(id)}`;
  const object = useApi<ApiCharacteristics>(restUrl(base, date));
  const located = useApi<ApiCharacteristics>(restUrl(base, { select: "source-locations", ...date }));
  const calls = { select: "parent", includeEscalated: escalated ? "true" : undefined, ...date };
  const callees = useApi<ApiCallee[]>(restUrl(`${base}/callees`, calls));
  const callers = useApi<ApiCaller[]>(restUrl(`${base}/callers`, calls));
  const points = useApi<ApiPointsResult>(restUrl(`${base}/start-end-points`, { hops, ...date }));
  // With no link followed, an object is in its own start (end) points exactly when it is one.
  const role = useApi<ApiPointsResult>(
    object.data ? restUrl(`${base}/start-end-points`, { hops: "0", ...date }) : null,
  );
  const objectLink = (to: string) => viewOf(params, "object", { id: to });
  const transactionLink = (to: string) => viewOf(params, "transactions", { id: to });
  const isEnd = role.data?.endPoints.some((p) => p.id === id) ?? false;
  const isStart = role.data?.startPoints.some((p) => p.id === id) ?? false;
  const setEscalated = (on: boolean) =>
    navigate(withParams(params, { escalated: on ? "true" : null }), { replace: true });

  return (
    <section aria-labelledby="object-title">
      <h2 id="object-title" tabIndex={-1}>
        {object.data ? `${object.data.name} (${object.data.type})` : `Object ${id}`}
      </h2>
      {object.error && <ProblemNote problem={object.error} what={`Reading object ${id}`} />}
      {object.loading && <Loading what="the object" />}
      {object.data && (
        <div class="object-grid">
          <section aria-labelledby="characteristics-title" class="panel">
            <h3 id="characteristics-title">Characteristics</h3>
            <Characteristics object={object.data} objectLink={objectLink} />
            {isStart && (
              <p>
                A start point: <Link to={transactionLink(id)}>open its transaction</Link>.
              </p>
            )}
          </section>
          <section aria-labelledby="code-title" class="panel">
            <h3 id="code-title">Code</h3>
            {located.error && <p class="muted">{located.error.detail}</p>}
            {located.loading && <Loading what="the source locations" />}
            {located.data &&
              (located.data.sourceLocations ? (
                <SourceCode
                  app={app}
                  params={params}
                  object={object.data}
                  locations={located.data.sourceLocations}
                  language={object.data.programmingLanguage.name}
                />
              ) : (
                <p class="muted">The analysis locates no code for this object.</p>
              ))}
          </section>
        </div>
      )}
      {!object.error && (
        <>
          <label class="inline">
            <input
              type="checkbox"
              checked={escalated}
              onChange={(e) => setEscalated((e.target as HTMLInputElement).checked)}
            />{" "}
            Include callers and callees that also have escalated links
          </label>
          <div class="object-grid">
            <CallTable title="Callers" testId="callers" calls={callers} link={objectLink} />
            <CallTable title="Callees" testId="callees" calls={callees} link={objectLink} />
          </div>
          <CallHierarchy app={app} params={params} id={id} />
          {isEnd && <DataGraphPanel app={app} params={params} id={id} />}
          <section aria-labelledby="points-title" class="panel">
            <h3 id="points-title">Transactions through this object, and the end points it reaches</h3>
            <HopsInput
              params={params}
              name="hops"
              value={hops}
              min={0}
              max={MAX_HOPS}
              hint="links followed from start points to the object and from it to end points"
            />
            {points.error && <ProblemNote problem={points.error} what="Start and end points" />}
            {points.loading && <Loading what="start and end points" />}
            {points.data && (
              <div class="points">
                <PointList
                  title="Transactions through it (their start points)"
                  points={points.data.startPoints}
                  testId="start-points"
                  link={transactionLink}
                />
                <PointList title="End points" points={points.data.endPoints} testId="end-points" link={objectLink} />
              </div>
            )}
          </section>
        </>
      )}
    </section>
  );
}

function Characteristics(props: { object: ApiCharacteristics; objectLink: (id: string) => URLSearchParams }) {
  const { object } = props;
  return (
    <dl class="facts" data-testid="characteristics">
      <dt>ID</dt>
      <dd>{object.id}</dd>
      <dt>Full name</dt>
      <dd class="wrap">{object.fullName}</dd>
      <dt>Type</dt>
      <dd>
        {object.type} <code>{object.typeId}</code>
      </dd>
      <dt>Status</dt>
      <dd>{object.status.id ?? "not applicable"}</dd>
      <dt>Language</dt>
      <dd>{object.programmingLanguage.name ?? "unknown"}</dd>
      <dt>Origin</dt>
      <dd>{object.external ? "external" : "internal"}</dd>
      <dt>Parent</dt>
      <dd>
        {object.parent ? (
          <Link to={props.objectLink(object.parent.id)}>{`${object.parent.name} (${object.parent.type})`}</Link>
        ) : (
          "none"
        )}
      </dd>
      {object.mangling && (
        <>
          <dt>Mangling</dt>
          <dd class="wrap">
            <code>{object.mangling}</code>
          </dd>
        </>
      )}
      {object.annotations && object.annotations.length > 0 && (
        <>
          <dt>Annotations</dt>
          <dd class="wrap">{object.annotations.join(", ")}</dd>
        </>
      )}
    </dl>
  );
}
