// @module ObjectView: one object — characteristics with source locations, direct callees (escalated toggle), start and end points within a number of hops, and a picture of them.
import type { ApiCallee, ApiCharacteristics, ApiPointsResult } from "../../src/contract/api-schemas.ts";
import { appPath, restUrl } from "./api.ts";
import { Link } from "./Link.tsx";
import { ObjectPicture } from "./ObjectPicture.tsx";
import { PointList } from "./PointList.tsx";
import { Loading, ProblemNote } from "./ProblemNote.tsx";
import { navigate, withParams } from "./url-state.ts";
import { useApi } from "./use-api.ts";

export const MAX_HOPS = 32;

export function ObjectView(props: { app: string; params: URLSearchParams }) {
  const { app, params } = props;
  const id = params.get("id") ?? "";
  const escalated = params.get("escalated") === "true";
  const hops = params.get("hops") ?? "1";
  const base = `${appPath(app)}/objects/${encodeURIComponent(id)}`;
  const object = useApi<ApiCharacteristics>(base);
  const located = useApi<ApiCharacteristics>(restUrl(base, { select: "source-locations" }));
  const callees = useApi<ApiCallee[]>(
    restUrl(`${base}/callees`, { select: "parent", includeEscalated: escalated ? "true" : undefined }),
  );
  const points = useApi<ApiPointsResult>(restUrl(`${base}/start-end-points`, { hops }));
  const objectLink = (to: string) => withParams(new URLSearchParams({ app }), { view: "object", id: to });

  return (
    <section aria-labelledby="object-title">
      <h2 id="object-title" tabIndex={-1}>
        {object.data ? `${object.data.name} (${object.data.type})` : `Object ${id}`}
      </h2>
      {object.error && <ProblemNote problem={object.error} what={`Reading object ${id}`} />}
      {object.loading && <Loading what="the object" />}
      <div class="object-grid">
        {object.data && (
          <section aria-labelledby="characteristics-title" class="panel">
            <h3 id="characteristics-title">Characteristics</h3>
            <dl class="facts" data-testid="characteristics">
              <dt>ID</dt>
              <dd>{object.data.id}</dd>
              <dt>Full name</dt>
              <dd class="wrap">{object.data.fullName}</dd>
              <dt>Type</dt>
              <dd>
                {object.data.type} <code>{object.data.typeId}</code>
              </dd>
              <dt>Status</dt>
              <dd>{object.data.status.id ?? "not applicable"}</dd>
              <dt>Language</dt>
              <dd>{object.data.programmingLanguage.name ?? "unknown"}</dd>
              <dt>Origin</dt>
              <dd>{object.data.external ? "external" : "internal"}</dd>
              <dt>Parent</dt>
              <dd>
                {object.data.parent ? (
                  <Link
                    to={objectLink(object.data.parent.id)}
                  >{`${object.data.parent.name} (${object.data.parent.type})`}</Link>
                ) : (
                  "none"
                )}
              </dd>
              {object.data.mangling && (
                <>
                  <dt>Mangling</dt>
                  <dd class="wrap">
                    <code>{object.data.mangling}</code>
                  </dd>
                </>
              )}
              {object.data.annotations && object.data.annotations.length > 0 && (
                <>
                  <dt>Annotations</dt>
                  <dd>{object.data.annotations.join(", ")}</dd>
                </>
              )}
              <dt>Source locations</dt>
              <dd data-testid="source-locations">
                {located.error ? (
                  <span class="muted">{located.error.detail}</span>
                ) : located.data ? (
                  located.data.sourceLocations ? (
                    located.data.sourceLocations.map((l) => (
                      <div>{`file ${l.fileId}, lines ${l.startLine}–${l.endLine}`}</div>
                    ))
                  ) : (
                    "none"
                  )
                ) : (
                  "…"
                )}
              </dd>
            </dl>
          </section>
        )}
        {object.data && callees.data && points.data && (
          <section aria-labelledby="picture-title" class="panel">
            <h3 id="picture-title">Picture</h3>
            <ObjectPicture
              object={object.data}
              callees={callees.data}
              points={points.data}
              onOpen={(to) => navigate(objectLink(to))}
            />
          </section>
        )}
      </div>
      {!object.error && (
        <div class="object-grid">
          <section aria-labelledby="callees-title" class="panel">
            <h3 id="callees-title">Direct callees</h3>
            <label class="inline">
              <input
                type="checkbox"
                checked={escalated}
                onChange={(e) =>
                  navigate(withParams(params, { escalated: (e.target as HTMLInputElement).checked ? "true" : null }), {
                    replace: true,
                  })
                }
              />{" "}
              Include callees that also have escalated links
            </label>
            {callees.error && <ProblemNote problem={callees.error} what="Callees" />}
            {callees.loading && <Loading what="callees" />}
            {callees.data && (
              <table data-testid="callees">
                <caption>{callees.data.length === 1 ? "1 callee link" : `${callees.data.length} callee links`}</caption>
                <thead>
                  <tr>
                    <th scope="col">Callee</th>
                    <th scope="col">Type</th>
                    <th scope="col">Link type</th>
                    <th scope="col">Parent type</th>
                  </tr>
                </thead>
                <tbody>
                  {callees.data.map((c) => (
                    <tr key={`${c.id} ${c.linkType}`}>
                      <td>
                        <Link to={objectLink(c.id)}>{c.name}</Link>
                      </td>
                      <td>{c.type}</td>
                      <td>
                        <code>{c.linkType}</code>
                      </td>
                      <td>{c.parent ? c.parent.type : "—"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
          <section aria-labelledby="points-title" class="panel">
            <h3 id="points-title">Start and end points</h3>
            <label class="inline">
              Hops{" "}
              <input
                type="number"
                min={0}
                max={MAX_HOPS}
                value={hops}
                onChange={(e) =>
                  navigate(withParams(params, { hops: (e.target as HTMLInputElement).value || null }), {
                    replace: true,
                  })
                }
                aria-describedby="hops-hint"
              />
            </label>{" "}
            <span id="hops-hint" class="hint">
              links followed from start points to the object and from it to end points (0 to {MAX_HOPS})
            </span>
            {points.error && <ProblemNote problem={points.error} what="Start and end points" />}
            {points.loading && <Loading what="start and end points" />}
            {points.data && (
              <div class="points">
                <PointList
                  title="Start points"
                  points={points.data.startPoints}
                  testId="start-points"
                  link={objectLink}
                />
                <PointList title="End points" points={points.data.endPoints} testId="end-points" link={objectLink} />
              </div>
            )}
          </section>
        </div>
      )}
    </section>
  );
}
