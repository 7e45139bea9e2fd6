// @module DataGraphPanel: on an end point's page (a table, a file), the pages and programs that reach it — its data graph.
import { FlowGraph } from "./FlowGraph.tsx";
import { Link } from "./Link.tsx";
import { viewOf } from "./url-state.ts";

export function DataGraphPanel(props: { app: string; params: URLSearchParams; id: string }) {
  return (
    <section aria-labelledby="data-graph-title" class="panel">
      <h3 id="data-graph-title">What reaches this end point (its data graph)</h3>
      <p class="hint">
        Every object from which this end point is reached, walking back to the start points.{" "}
        <Link to={viewOf(props.params, "transactions", { kind: "data-graphs", id: props.id })}>Open it alone</Link>
      </p>
      <FlowGraph app={props.app} params={props.params} kind="data-graphs" id={props.id} />
    </section>
  );
}
