// @module App: the explorer page — header, then the view the URL names (overview, search, object, levels, transactions, changes), with focus moved to the view's heading on navigation.
import { useEffect, useRef, useState } from "preact/hooks";
import type { ApplicationList } from "../../src/contract/api-schemas.ts";
import { ChangesView } from "./ChangesView.tsx";
import { FileView } from "./FileView.tsx";
import { Header } from "./Header.tsx";
import { LevelsView } from "./LevelsView.tsx";
import { ObjectView } from "./ObjectView.tsx";
import { OverviewView } from "./OverviewView.tsx";
import { Loading, ProblemNote } from "./ProblemNote.tsx";
import { SearchView } from "./SearchView.tsx";
import { TransactionsView } from "./TransactionsView.tsx";
import { navigate, useUrlState, VIEWS, type View, withParams } from "./url-state.ts";
import { useApi } from "./use-api.ts";

/** A new API key starts the page afresh: every answer is read again with it. */
export function App() {
  const [generation, setGeneration] = useState(0);
  return <Explorer key={generation} onKey={() => setGeneration((g) => g + 1)} />;
}

function Explorer(props: { onKey: () => void }) {
  const params = useUrlState();
  const applications = useApi<ApplicationList>("/rest/applications");
  const requested = params.get("view") as View | null;
  const view: View = requested && VIEWS.includes(requested) ? requested : "app";
  const app = params.get("app") ?? applications.data?.applications[0]?.name;

  // Without an application in the URL, the first one is chosen, in place (back does not return to an empty page).
  useEffect(() => {
    if (!params.get("app") && app) navigate(withParams(params, { app }), { replace: true });
  }, [app, params]);

  // A new view (not a new filter) moves the focus to its heading, as a page load would.
  const main = useRef<HTMLElement>(null);
  const viewKey = `${view} ${params.get("id") ?? ""} ${params.get("path") ?? ""}`;
  const first = useRef(true);
  useEffect(() => {
    document.title = `${app ? `${app} · ` : ""}${view === "app" ? "overview" : view} · appstruct explorer`;
    if (first.current) {
      first.current = false;
      return;
    }
    main.current?.querySelector<HTMLElement>("h2")?.focus();
  }, [viewKey]);

  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <Header params={params} applications={applications.data} app={app} view={view} onKey={props.onKey} />
      <main id="main" ref={main}>
        {applications.error && <ProblemNote problem={applications.error} what="Listing the applications" />}
        {applications.loading && <Loading what="applications" />}
        {applications.data && !app && (
          <p>
            No application is published yet: publish one with <code>npx appstruct publish</code>.
          </p>
        )}
        {app && view === "app" && <OverviewView app={app} params={params} />}
        {app && view === "search" && <SearchView app={app} params={params} />}
        {app && view === "object" && <ObjectView app={app} params={params} />}
        {app && view === "file" && <FileView app={app} params={params} />}
        {app && view === "levels" && <LevelsView app={app} params={params} />}
        {app && view === "transactions" && <TransactionsView app={app} params={params} />}
        {app && view === "changes" && (
          <ChangesView
            app={app}
            params={params}
            versions={applications.data?.applications.find((a) => a.name === app)?.versions ?? []}
          />
        )}
      </main>
    </>
  );
}
