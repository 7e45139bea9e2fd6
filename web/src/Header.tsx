// @module Header: the application and version pickers, the API key field, and the navigation between search and levels.
import { useState } from "preact/hooks";
import type { ApplicationList } from "../../src/contract/api-schemas.ts";
import { apiKey, setApiKey } from "./api.ts";
import { Link } from "./Link.tsx";
import { navigate, type View, withParams } from "./url-state.ts";
import { forgetAnswers } from "./use-api.ts";

export function Header(props: {
  params: URLSearchParams;
  applications: ApplicationList | undefined;
  app: string | undefined;
  view: View;
  onKey: () => void;
}) {
  const { params, applications, app, view } = props;
  const versions = applications?.applications.find((a) => a.name === app)?.versions ?? [];
  const [key, setKey] = useState(apiKey);
  const tab = (to: View, label: string) => (
    <Link
      to={withParams(new URLSearchParams(app ? { app } : {}), { view: to, date: params.get("date") })}
      class={view === to ? "tab current" : "tab"}
      aria-current={view === to ? "page" : undefined}
    >
      {label}
    </Link>
  );
  return (
    <header class="top">
      <h1>
        <a href="/">appstruct explorer</a>
      </h1>
      <nav aria-label="Views" class="tabs">
        {tab("search", "Search")}
        {tab("levels", "Levels")}
      </nav>
      <div class="pickers">
        <label>
          Application{" "}
          <select
            value={app ?? ""}
            onChange={(e) => navigate(new URLSearchParams({ app: (e.target as HTMLSelectElement).value, view }))}
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
            value={params.get("date") ?? ""}
            onChange={(e) =>
              navigate(withParams(params, { date: (e.target as HTMLSelectElement).value || null, skip: null }))
            }
            aria-describedby="version-hint"
          >
            <option value="">newest</option>
            {[...versions].reverse().map((v) => (
              <option value={v.analyzedAt}>{v.analyzedAt}</option>
            ))}
          </select>
        </label>
        <span id="version-hint" class="hint">
          for search (<code>date</code>)
        </span>
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
    </header>
  );
}
