// @module ChangesView: what changed between two analyses of the application — totals, then the added, deleted and modified objects, each opening its page in the analysis where it is.
import { useEffect, useState } from "preact/hooks";
import type { Version } from "./analysis.ts";
import { appPath, restUrl } from "./api.ts";
import { Pager } from "./Controls.tsx";
import type { ChangeStatus, Changes } from "./impact-types.ts";
import { Link } from "./Link.tsx";
import { Loading, ProblemNote } from "./ProblemNote.tsx";
import { navigate, useScrollRestore, viewOf, withParams } from "./url-state.ts";
import { useApi } from "./use-api.ts";

const STATUSES = ["added", "deleted", "modified"] as const;
const PAGE = 100;

export function ChangesView(props: { app: string; params: URLSearchParams; versions: readonly Version[] }) {
  const { app, params, versions } = props;
  const skip = Number(params.get("skip")) || 0;
  const statuses = params.getAll("status").filter((s) => (STATUSES as readonly string[]).includes(s));
  const [from, setFrom] = useState(params.get("from") ?? "");
  const [to, setTo] = useState(params.get("to") ?? "");
  useEffect(() => {
    setFrom(params.get("from") ?? "");
    setTo(params.get("to") ?? "");
  }, [params.get("from"), params.get("to")]);
  const changes = useApi<Changes>(
    restUrl(`${appPath(app)}/changes`, {
      from: params.get("from") ?? undefined,
      // The version picked in the header is the newer side unless another is chosen here.
      to: params.get("to") ?? params.get("date") ?? undefined,
      status: statuses,
      limit: String(PAGE),
      skip: String(skip),
    }),
    { keep: true },
  );
  useScrollRestore(changes.data !== undefined);
  // An object's page in the analysis where it is: a deleted one in the older, the others in the newer.
  const objectAt = (id: string, status: ChangeStatus) =>
    viewOf(withParams(params, { date: status === "Deleted" ? changes.data!.from : changes.data!.to }), "object", {
      id,
    });
  const newestFirst = [...versions].reverse();
  return (
    <section aria-labelledby="changes-title">
      <h2 id="changes-title" tabIndex={-1}>
        Changes
      </h2>
      <form
        class="level-controls"
        aria-label="Analyses compared"
        onSubmit={(e) => {
          e.preventDefault();
          navigate(withParams(params, { from: from || null, to: to || null, skip: null }));
        }}
      >
        <label>
          From{" "}
          <select value={from} onChange={(e) => setFrom((e.target as HTMLSelectElement).value)}>
            <option value="">the one before</option>
            {newestFirst.map((v) => (
              <option value={v.analyzedAt}>{v.analyzedAt}</option>
            ))}
          </select>
        </label>
        <label>
          To{" "}
          <select value={to} onChange={(e) => setTo((e.target as HTMLSelectElement).value)}>
            <option value="">the newest</option>
            {newestFirst.map((v) => (
              <option value={v.analyzedAt}>{v.analyzedAt}</option>
            ))}
          </select>
        </label>
        <button type="submit">Compare</button>
      </form>
      {changes.error && <ProblemNote problem={changes.error} what="Comparing the analyses" />}
      {changes.loading && <Loading what="the changes" />}
      {changes.data && (
        <>
          <p data-testid="changes-compared">
            From the analysis of <strong>{changes.data.from}</strong> to that of <strong>{changes.data.to}</strong>
          </p>
          <fieldset class="totals" data-testid="changes-totals">
            <legend>Objects (check to list only some)</legend>
            {STATUSES.map((s) => (
              <label key={s}>
                <input
                  type="checkbox"
                  checked={statuses.includes(s)}
                  onChange={(e) =>
                    navigate(
                      withParams(params, {
                        status: (e.target as HTMLInputElement).checked
                          ? [...statuses, s]
                          : statuses.filter((x) => x !== s),
                        skip: null,
                      }),
                    )
                  }
                />{" "}
                {s} <strong>{changes.data!.totals[s].toLocaleString("en")}</strong>
              </label>
            ))}
          </fieldset>
          <p class="total" role="status" data-testid="changes-total">
            {`${changes.data.totalObjects.toLocaleString("en")} objects listed${changes.data.objects.length ? `; showing ${skip + 1}–${skip + changes.data.objects.length}` : ""}`}
          </p>
          {changes.data.objects.length > 0 && (
            <table data-testid="changes" class="cards">
              <thead>
                <tr>
                  <th scope="col">Object</th>
                  <th scope="col">Status</th>
                  <th scope="col">Type</th>
                  <th scope="col">Full name</th>
                </tr>
              </thead>
              <tbody>
                {changes.data.objects.map((o) => (
                  <tr key={o.id}>
                    <td data-label="Object">
                      <Link to={objectAt(o.id, o.status)}>{o.name}</Link>
                    </td>
                    <td data-label="Status">
                      <span class={`status ${o.status.toLowerCase()}`}>{o.status}</span>
                    </td>
                    <td data-label="Type">{o.type}</td>
                    <td data-label="Full name" class="wrap">
                      {o.fullName}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <Pager
            params={params}
            skip={skip}
            size={PAGE}
            shown={changes.data.objects.length}
            total={changes.data.totalObjects}
            label="Result pages"
          />
        </>
      )}
    </section>
  );
}
