// @module TransactionsView: the application's transactions (its start points) or data graphs (its end points), searchable by name and paged; one of them drawn as layers from its start to the tables it reaches.
import { useEffect, useState } from "preact/hooks";
import { dateQuery } from "./analysis.ts";
import { appPath, restUrl } from "./api.ts";
import { Pager } from "./Controls.tsx";
import { FlowGraph, type FlowKind } from "./FlowGraph.tsx";
import type { DataGraphList, GraphItem, TransactionList } from "./impact-types.ts";
import { Link } from "./Link.tsx";
import { Loading, ProblemNote } from "./ProblemNote.tsx";
import { navigate, useScrollRestore, viewOf, withParams } from "./url-state.ts";
import { useApi } from "./use-api.ts";

const PAGE = 50;

export function TransactionsView(props: { app: string; params: URLSearchParams }) {
  const { app, params } = props;
  const kind: FlowKind = params.get("kind") === "data-graphs" ? "data-graphs" : "transactions";
  const id = params.get("id");
  const skip = Number(params.get("skip")) || 0;
  const [name, setName] = useState(params.get("name") ?? "");
  useEffect(() => setName(params.get("name") ?? ""), [params.get("name")]);
  const list = useApi<TransactionList | DataGraphList>(
    restUrl(`${appPath(app)}/${kind}`, {
      name: params.get("name") ?? undefined,
      limit: String(PAGE),
      skip: String(skip),
      ...dateQuery(params),
    }),
    { keep: true },
  );
  useScrollRestore(list.data !== undefined);
  const [total, items]: [number, GraphItem[]] | [undefined, undefined] = list.data
    ? "transactions" in list.data
      ? [list.data.totalTransactions, list.data.transactions]
      : [list.data.totalDataGraphs, list.data.dataGraphs]
    : [undefined, undefined];
  const forward = kind === "transactions";
  const open = (to: string) => withParams(params, { id: to });
  return (
    <section aria-labelledby="flows-title">
      <h2 id="flows-title" tabIndex={-1}>
        {forward ? "Transactions" : "Data graphs"}
      </h2>
      <nav class="tabs" aria-label="Transactions or data graphs">
        <Link
          to={viewOf(params, "transactions")}
          class={forward ? "tab current" : "tab"}
          aria-current={forward ? "page" : undefined}
        >
          Transactions (from entry points)
        </Link>
        <Link
          to={viewOf(params, "transactions", { kind: "data-graphs" })}
          class={forward ? "tab" : "tab current"}
          aria-current={forward ? undefined : "page"}
        >
          Data graphs (to tables and other end points)
        </Link>
      </nav>
      {/* biome-ignore lint/a11y/useSemanticElements: a form with role="search" is announced by every screen reader; <search> is not yet */}
      <form
        class="level-controls"
        role="search"
        aria-label={forward ? "Find transactions" : "Find data graphs"}
        onSubmit={(e) => {
          e.preventDefault();
          navigate(withParams(params, { name: name || null, skip: null, id: null }));
        }}
      >
        <label>
          {forward ? "Start point" : "End point"} name contains{" "}
          <input type="search" value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
        </label>
        <button type="submit">Find</button>
      </form>
      {list.error && (
        <ProblemNote problem={list.error} what={forward ? "Listing transactions" : "Listing data graphs"} />
      )}
      {list.loading && <Loading what="the list" />}
      <div class="flows-grid">
        {/* The list's column is there before its answer, so the picture beside it keeps its width. */}
        <div>
          {items && total !== undefined && (
            <>
              <p class="total" role="status" data-testid="flows-total">
                {`${total.toLocaleString("en")} ${forward ? "transactions" : "data graphs"}${items.length ? `; showing ${skip + 1}–${skip + items.length}` : ""}`}
              </p>
              <ul class="flow-list" data-testid="flows">
                {items.map((t) => (
                  <li key={t.id}>
                    <Link to={open(t.id)} aria-current={t.id === id ? "location" : undefined}>
                      {t.name}
                    </Link>{" "}
                    <span class="muted">{t.type}</span>
                  </li>
                ))}
              </ul>
              <Pager
                params={params}
                skip={skip}
                size={PAGE}
                shown={items.length}
                total={total}
                label="List pages"
                reset={{ id: null }}
              />
            </>
          )}
        </div>
        <div>
          {id ? (
            <>
              <h3>
                {forward ? "Transaction from " : "Data graph of "}
                <Link to={viewOf(params, "object", { id })}>
                  {items?.find((t) => t.id === id)?.name ?? `object ${id}`}
                </Link>
              </h3>
              <FlowGraph app={app} params={params} kind={kind} id={id} />
            </>
          ) : (
            <p class="hint">
              Open one to draw it, from{" "}
              {forward ? "its start point to what it reaches" : "what reaches it to its end point"}.
            </p>
          )}
        </div>
      </div>
    </section>
  );
}
