// @module FlowGraph: one transaction (from its start point forward) or one data graph (back from its end point) in layers, with the points at its other end listed.
import { useMemo } from "preact/hooks";
import { dateQuery } from "./analysis.ts";
import { appPath, restUrl } from "./api.ts";
import type { LayeredGraph } from "./impact-types.ts";
import { LayeredPicture } from "./LayeredPicture.tsx";
import { Link } from "./Link.tsx";
import { Loading, ProblemNote } from "./ProblemNote.tsx";
import { viewOf } from "./url-state.ts";
import { useApi } from "./use-api.ts";

export type FlowKind = "transactions" | "data-graphs";
/** Nodes asked for: a picture of more is unreadable, and the answer says how many there are. */
const FLOW_LIMIT = "1000";

export function FlowGraph(props: { app: string; params: URLSearchParams; kind: FlowKind; id: string }) {
  const { app, params, kind, id } = props;
  const graph = useApi<LayeredGraph>(
    restUrl(`${appPath(app)}/${kind}/${encodeURIComponent(id)}/graph`, { limit: FLOW_LIMIT, ...dateQuery(params) }),
    { keep: true },
  );
  const forward = kind === "transactions";
  // A transaction reads left to right from its start point; a data graph ends at its end point on the right.
  const placed = useMemo(
    () => graph.data?.nodes.map((node) => ({ node, column: forward ? node.depth : -node.depth })) ?? [],
    [graph.data],
  );
  const far = graph.data?.nodes.filter((n) => n.id !== id && n.role === (forward ? "end" : "start")) ?? [];
  const what = forward
    ? "end points it reaches (tables, files, services)"
    : "start points reaching it (pages, programs)";
  return (
    <div class="flow">
      {graph.error && <ProblemNote problem={graph.error} what={forward ? "The transaction" : "The data graph"} />}
      {graph.loading && <Loading what="the graph" />}
      {graph.data && (
        <>
          <p class="total" data-testid="flow-summary">
            {`${graph.data.totalNodes.toLocaleString("en")} objects, ${far.length} ${forward ? "end" : "start"} points${graph.data.truncated ? ` (the first ${graph.data.nodes.length} read)` : ""}`}
          </p>
          <LayeredPicture
            placed={placed}
            links={graph.data.links}
            testId="flow-picture"
            height={420}
            label={`${forward ? "Transaction" : "Data graph"} of ${graph.data.nodes.find((n) => n.id === id)?.name ?? id}: ${graph.data.totalNodes} objects in ${Math.max(0, ...graph.data.nodes.map((n) => n.depth)) + 1} layers`}
            link={(to) => viewOf(params, "object", { id: to })}
            columnName={(column) =>
              `${Math.abs(column)} ${Math.abs(column) === 1 ? "link" : "links"} ${forward ? "from the start point" : "before the end point"}`
            }
          />
          <h4>
            The {what} ({far.length})
          </h4>
          <ul data-testid="flow-far">
            {far.map((n) => (
              <li key={n.id}>
                <Link to={viewOf(params, "object", { id: n.id })}>{n.name}</Link>{" "}
                <span class="muted">
                  {n.type}, {n.depth} {n.depth === 1 ? "link" : "links"} away
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
