// @module Header: the views, the application and version pickers (the version applies to every view), the API key field, a link to the API reference, and which analysis the page shows.
import { useState } from "preact/hooks";
import type { ApplicationList } from "../../src/contract/api-schemas.ts";
import { selectedVersion } from "./analysis.ts";
import { apiKey, setApiKey } from "./api.ts";
import { Link } from "./Link.tsx";
import { navigate, type View, viewOf, withParams } from "./url-state.ts";
import { forgetAnswers } from "./use-api.ts";

const TABS: readonly [View, string][] = [
  ["app", "Overview"],
  ["search", "Search"],
  ["levels", "Levels"],
  ["transactions", "Transactions"],
  ["changes", "Changes"],
];
/** Views that show one thing of an application: another application has no such thing, so switching lands on its overview. */
const VIEWS_OF_ONE: readonly View[] = ["object", "file"];

export function Header(props: {
  params: URLSearchParams;
  applications: ApplicationList | undefined;
  app: string | undefined;
  view: View;
  onKey: () => void;
}) {
  const { params, applications, app, view } = props;
  const versions = applications?.applications.find((a) => a.name === app)?.versions ?? [];
  const date = params.get("date");
  const shown = selectedVersion(versions, date);
  const [key, setKey] = useState(apiKey);
  return (
    <header class="top">
      <h1>
        <a href="/">appstruct explorer</a>
      </h1>
      <nav aria-label="Views" class="tabs">
        {TABS.map(([to, label]) => (
          <Link
            to={viewOf(params, to)}
            class={view === to ? "tab current" : "tab"}
            aria-current={view === to ? "page" : undefined}
          >
            {label}
          </Link>
        ))}
        <a class="tab" href="/docs">
          API reference
        </a>
      </nav>
      <div class="pickers">
        <label>
          Application{" "}
          <select
            value={app ?? ""}
            onChange={(e) => {
              const next = new URLSearchParams({ app: (e.target as HTMLSelectElement).value });
              navigate(VIEWS_OF_ONE.includes(view) ? next : viewOf(next, view));
            }}
            disabled={!applications?.applications.length}
          >
            {!applications?.applications.length && <option value="">none published</option>}
            {applications?.applications.map((a) => (
              <option value={a.name}>{a.name}</option>
            ))}
          </select>
        </label>
        <label>
          Version{" "}
          <select
            value={date ?? ""}
            onChange={(e) =>
              navigate(withParams(params, { date: (e.target as HTMLSelectElement).value || null, skip: null }))
            }
          >
            <option value="">newest</option>
            {[...versions].reverse().map((v) => (
              <option value={v.analyzedAt}>{v.analyzedAt}</option>
            ))}
          </select>
        </label>
        <details class="key">
          <summary>API key</summary>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              setApiKey(key);
              forgetAnswers();
              props.onKey();
            }}
          >
            <label>
              Key{" "}
              <input
                type="password"
                value={key}
                onInput={(e) => setKey((e.target as HTMLInputElement).value)}
                autocomplete="off"
              />
            </label>{" "}
            <button type="submit">Use</button>
          </form>
        </details>
      </div>
      {app && versions.length > 0 && (
        <p class="analysis" data-testid="analysis-shown">
          {shown
            ? `${app}: the analysis of ${shown.analyzedAt}${shown === versions.at(-1) ? " (the newest)" : ""}, ${versions.indexOf(shown) + 1} of ${versions.length}`
            : `${app} has no analysis at or before ${date}`}
        </p>
      )}
    </header>
  );
}
