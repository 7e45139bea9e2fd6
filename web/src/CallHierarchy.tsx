// @module CallHierarchy: who calls an object and what it calls, up to a number of hops (the call-hierarchy route, callers and callees asked apart so each side has its own columns), drawn in layers.
import { useMemo } from "preact/hooks";
import { dateQuery } from "./analysis.ts";
import { appPath, restUrl } from "./api.ts";
import { HopsInput } from "./Controls.tsx";
import type { LayeredGraph } from "./impact-types.ts";
import { LayeredPicture, type Placed } from "./LayeredPicture.tsx";
import { Loading, ProblemNote } from "./ProblemNote.tsx";
import { viewOf } from "./url-state.ts";
import { useApi } from "./use-api.ts";

export const HIERARCHY_MAX_HOPS = 32;
const DEFAULT_HOPS = "2";
/** Nodes asked for a side: the picture draws fewer, the totals say how many there are. */
const HIERARCHY_LIMIT = "500";

export function CallHierarchy(props: { app: string; params: URLSearchParams; id: string }) {
  const { app, params, id } = props;
  const hops = params.get("chops") ?? DEFAULT_HOPS;
  const url = (direction: string) =>
    restUrl(`${appPath(app)}/objects/${encodeURIComponent(id)}/call-hierarchy`, {
      direction,
      hops,
      limit: HIERARCHY_LIMIT,
      ...dateQuery(params),
    });
  const callers = useApi<LayeredGraph>(url("callers"), { keep: true });
  const callees = useApi<LayeredGraph>(url("callees"), { keep: true });
  const placed = useMemo(
    () =>
      callers.data && callees.data
        ? [
            ...callees.data.nodes.map((node): Placed => ({ node, column: node.depth })),
            ...callers.data.nodes.map((node): Placed => ({ node, column: -node.depth })),
          ]
        : [],
    [callers.data, callees.data],
  );
  const links = useMemo(
    () => [...(callees.data?.links ?? []), ...(callers.data?.links ?? [])],
    [callers.data, callees.data],
  );
  const total = (g: LayeredGraph | undefined) =>
    g ? `${g.totalNodes - 1}${g.truncated ? ` (the first ${g.nodes.length - 1} read)` : ""}` : "…";
  return (
    <section aria-labelledby="hierarchy-title" class="panel">
      <h3 id="hierarchy-title">Call hierarchy</h3>
      <HopsInput
        params={params}
        name="chops"
        value={hops}
        min={1}
        max={HIERARCHY_MAX_HOPS}
        hint="links followed from the object each way"
      />
      {(callers.error ?? callees.error) && (
        <ProblemNote problem={(callers.error ?? callees.error)!} what="The call hierarchy" />
      )}
      {(callers.loading || callees.loading) && <Loading what="the call hierarchy" />}
      {callers.data && callees.data && (
        <>
          <p class="total" data-testid="hierarchy-summary">
            {`${total(callers.data)} callers and ${total(callees.data)} callees within ${hops} hops`}
          </p>
          <LayeredPicture
            placed={placed}
            links={links}
            testId="hierarchy-picture"
            label={`Call hierarchy: ${callers.data.totalNodes - 1} callers to the left, ${callees.data.totalNodes - 1} callees to the right, within ${hops} hops`}
            link={(to) => viewOf(params, "object", { id: to })}
            columnName={(column) =>
              `${column < 0 ? "Callers" : "Callees"} at ${Math.abs(column)} ${Math.abs(column) === 1 ? "hop" : "hops"}`
            }
          />
        </>
      )}
    </section>
  );
}
