// @module LevelsView: a level graph drawn (node size by nbObjects, links as arrows, names with their context), drill-down from node to children down to level 5 and its objects (a node's only child opened on the way), its neighbours greyed around it, breadcrumbs back up.
import type { ElementDefinition } from "cytoscape";
import { useEffect, useMemo, useState } from "preact/hooks";
import type { ApiLevel5Node, ApiLevelGraph, ApiLevelNode } from "../../src/contract/api-schemas.ts";
import { dateQuery } from "./analysis.ts";
import { appPath, restUrl } from "./api.ts";
import { BIG_GRAPH_ELEMENTS, GraphCanvas, layoutFor } from "./GraphCanvas.tsx";
import { Link } from "./Link.tsx";
import { type DrawnGraph, type DrawnNode, drawableGraph, level2ChildrenByName } from "./level-graph.ts";
import { contextName, nameCounts, pathOfNames } from "./level-names.ts";
import { Loading, ProblemNote } from "./ProblemNote.tsx";
import { navigate, viewOf, withParams } from "./url-state.ts";
import { useApi, useApiAll } from "./use-api.ts";

const MAX_LEVEL = 5;
/** Choices of how many nodes are drawn ("all" draws every node in scope). */
const TOP_CHOICES = ["25", "50", "100", "250", "all"] as const;
const DEFAULT_TOP = "50";
/** More links than this take seconds to paint on a canvas: the ones among the largest nodes are drawn. */
export const MAX_DRAWN_LINKS = 3000;
/** The largest nodes keep their label however far the graph is zoomed out; the others show it from a closer zoom. */
const NAMED_AT_ANY_ZOOM = 20;
/** Neighbours of a drilled node drawn around its children: the largest this many. */
const MAX_OUTSIDE = 12;

type Dated = { date?: string };
const graphUrl = (app: string, level: number, date: Dated) => restUrl(`${appPath(app)}/levels/${level}/graph`, date);
const nodesUrl = (app: string, level: number, id: number, date: Dated) =>
  restUrl(`${appPath(app)}/levels/${level}/nodes`, { _id: String(id), select: "children", ...date });

/** The drilled `_id`s of `?path=3,7`; anything else in it is ignored. */
const pathOf = (params: URLSearchParams): number[] =>
  (params.get("path") ?? "")
    .split(",")
    .filter((s) => /^\d+$/.test(s))
    .map(Number);

export function LevelsView(props: { app: string; params: URLSearchParams }) {
  const { app, params } = props;
  const level = Math.min(MAX_LEVEL, Math.max(1, Number(params.get("level")) || 1));
  const path = pathOf(params).slice(0, MAX_LEVEL + 1 - level);
  const shown = level + path.length; // MAX_LEVEL + 1: the objects of a level-5 node
  const graphLevels = Array.from({ length: Math.min(shown, MAX_LEVEL) - level + 1 }, (_, i) => level + i);
  const date = dateQuery(params);
  const graphs = useApiAll<ApiLevelGraph>(graphLevels.map((l) => graphUrl(app, l, date)));
  const parentLevel = shown - 1;
  const parentId = path.length ? path[path.length - 1] : null;
  const children = useApi<(ApiLevelNode | ApiLevel5Node)[]>(
    parentId !== null && parentLevel >= 2 ? nodesUrl(app, parentLevel, parentId, date) : null,
    { keep: true },
  );

  const graphOf = (l: number) => graphs.data?.[l - level];
  const drilled = path.map((id, i) => ({
    id,
    level: level + i,
    node: graphOf(level + i)?.nodes.find((n) => n._id === id),
  }));
  const missing = graphs.data ? drilled.find((d) => !d.node) : undefined;
  // One scope object per answer: a new one would draw the graph again.
  const scope = useMemo(
    () =>
      graphs.data && !missing
        ? scopeOf(
            parentLevel,
            parentId === null ? null : drilled[drilled.length - 1].node!.fullName,
            graphOf(2),
            children.data,
          )
        : undefined,
    [graphs.data, children.data, path.join(",")],
  );
  const levelLink = (to: number[]) => withParams(params, { path: to.length ? to.join(",") : null, filter: null });
  // A node with one child has nothing to choose from: its child is opened in its place (back skips it too).
  const onlyChild = scope?.ids?.size === 1 && shown < MAX_LEVEL ? [...scope.ids][0] : undefined;
  useEffect(() => {
    if (onlyChild !== undefined) navigate(levelLink([...path, onlyChild]), { replace: true });
  }, [onlyChild, path.join(",")]);

  return (
    <section aria-labelledby="levels-title">
      <h2 id="levels-title" tabIndex={-1}>
        {shown > MAX_LEVEL
          ? `Objects of ${drilled[drilled.length - 1]?.node?.name ?? "a level-5 node"}`
          : `Level ${shown}`}
      </h2>
      <div class="level-controls">
        <label>
          Start at level{" "}
          <select
            value={String(level)}
            onChange={(e) =>
              navigate(withParams(params, { level: (e.target as HTMLSelectElement).value, path: null, filter: null }))
            }
          >
            {[1, 2, 3, 4, 5].map((l) => (
              <option value={String(l)}>{l}</option>
            ))}
          </select>
        </label>
      </div>
      <nav aria-label="Breadcrumbs" class="breadcrumbs">
        <ol>
          <li>
            <Link to={levelLink([])} aria-current={path.length ? undefined : "location"}>{`Level ${level}`}</Link>
          </li>
          {drilled.map((d, i) => (
            <li key={d.id}>
              <Link to={levelLink(path.slice(0, i + 1))} aria-current={i === path.length - 1 ? "location" : undefined}>
                {d.node ? d.node.name : `node ${d.id}`}
              </Link>
            </li>
          ))}
        </ol>
      </nav>
      {graphs.error && <ProblemNote problem={graphs.error} what="Reading the level graphs" />}
      {children.error && <ProblemNote problem={children.error} what="Reading the node's children" />}
      {missing && (
        <p class="problem" role="alert">
          Level {missing.level} has no node with _id {missing.id}: node ids are volatile and change when a new analysis
          is published. Go back to <Link to={levelLink([])}>level {level}</Link>.
        </p>
      )}
      {(graphs.loading || children.loading) && <Loading what="the level" />}
      {!missing && graphs.data && shown <= MAX_LEVEL && (parentId === null || parentLevel === 1 || children.data) && (
        <LevelGraph
          params={params}
          graph={graphOf(shown)!}
          level={shown}
          scope={scope!}
          onDrill={(id) => navigate(levelLink([...path, id]))}
        />
      )}
      {!missing && shown > MAX_LEVEL && children.data && (
        <LevelObjects params={params} node={children.data[0] as ApiLevel5Node | undefined} />
      )}
    </section>
  );
}

/** The nodes in scope at the shown level: all, the named children of a level-1 node, or the children the API lists. */
function scopeOf(
  parentLevel: number,
  parentFullName: string | null,
  level2: ApiLevelGraph | undefined,
  children: (ApiLevelNode | ApiLevel5Node)[] | undefined,
): { ids: Set<number> | null; note?: string } {
  if (parentFullName === null) return { ids: null };
  if (parentLevel === 1) {
    const ids = level2 ? level2ChildrenByName(level2, parentFullName) : null;
    return ids
      ? { ids }
      : {
          ids: null,
          note: "This taxonomy's level-2 names do not say which nodes belong to this level-1 node: every level-2 node is shown.",
        };
  }
  const node = children?.[0] as ApiLevelNode | undefined;
  return { ids: new Set(node ? node.children.map((c) => c._id) : []) };
}

function LevelGraph(props: {
  params: URLSearchParams;
  graph: ApiLevelGraph;
  level: number;
  scope: { ids: Set<number> | null; note?: string };
  onDrill: (id: number) => void;
}) {
  const { params, graph, level, scope } = props;
  const top = params.get("top") ?? DEFAULT_TOP;
  const [filter, setFilter] = useState(params.get("filter") ?? "");
  // Back/forward moves the field with the URL.
  useEffect(() => setFilter(params.get("filter") ?? ""), [params.get("filter")]);
  const drawn = useMemo(
    () =>
      drawableGraph(graph, {
        scope: scope.ids,
        nameFilter: params.get("filter") ?? "",
        topN: top === "all" ? Infinity : Number(top),
        maxLinks: MAX_DRAWN_LINKS,
        maxOutside: scope.ids === null ? 0 : MAX_OUTSIDE,
      }),
    [graph, scope.ids, params.get("filter"), top],
  );
  const sameName = useMemo(() => nameCounts(graph.nodes), [graph]);
  const label = (n: DrawnNode) => contextName(n, sameName.get(n.name) ?? 0);
  const elements = useMemo(() => elementsOf(drawn, label), [drawn, sameName]);
  const layout = useMemo(() => layoutFor(drawn.links.length), [drawn]);
  const drillable = level < MAX_LEVEL ? `level ${level + 1}` : "its objects";
  return (
    <div class="level">
      {scope.note && <p class="hint">{scope.note}</p>}
      <form
        class="level-controls"
        onSubmit={(e) => {
          e.preventDefault();
          navigate(withParams(params, { filter: filter || null }), { replace: true });
        }}
      >
        <label>
          Draw the{" "}
          <select
            value={top}
            onChange={(e) =>
              navigate(
                withParams(params, {
                  top:
                    (e.target as HTMLSelectElement).value === DEFAULT_TOP
                      ? null
                      : (e.target as HTMLSelectElement).value,
                }),
                { replace: true },
              )
            }
          >
            {TOP_CHOICES.map((n) => (
              <option value={n}>{n === "all" ? "all" : `top ${n}`}</option>
            ))}
          </select>{" "}
          nodes by objects
        </label>
        <label>
          Node name contains{" "}
          <input type="search" value={filter} onInput={(e) => setFilter((e.target as HTMLInputElement).value)} />
        </label>
        <button type="submit">Filter</button>
      </form>
      <p class="total" role="status" data-testid="level-summary">
        {`${drawn.nodes.length.toLocaleString("en")} of ${drawn.matchingNodes.toLocaleString("en")} nodes and ${drawn.links.length.toLocaleString("en")} of ${drawn.linksInScope.toLocaleString("en")} links drawn`}
        {drawn.nodes.length < drawn.matchingNodes
          ? " (the nodes with the most objects; links to the others are left out)"
          : ""}
        {drawn.links.length < drawn.linksAmongDrawn
          ? `; at most ${MAX_DRAWN_LINKS.toLocaleString("en")} links are drawn, those among the largest nodes`
          : ""}
        {drawn.outsideNeighbours > 0
          ? `; ${drawn.outside.length} of ${drawn.outsideNeighbours} neighbours outside it drawn grey`
          : ""}
        .
      </p>
      <div class="level-grid">
        <GraphCanvas
          elements={elements}
          layout={layout}
          height={460}
          testId="level-graph"
          label={`Graph of level ${level}: ${drawn.nodes.length} nodes and ${drawn.links.length} links; the table lists the nodes`}
          onActivate={(id) =>
            drawn.outside.some((n) => String(n._id) === id)
              ? // A neighbour is not under the drilled node: it opens from its own level.
                navigate(withParams(params, { level: String(level), path: id, filter: null }))
              : props.onDrill(Number(id))
          }
        />
        <div class="node-table">
          <table data-testid="level-nodes">
            <caption>{`Nodes (open one to see ${drillable})`}</caption>
            <thead>
              <tr>
                <th scope="col">Node</th>
                <th scope="col" class="num">
                  Objects
                </th>
                <th scope="col" class="num">
                  <abbr title="links to other nodes / from other nodes">Out / in</abbr>
                </th>
              </tr>
            </thead>
            <tbody>
              {drawn.nodes.map((n) => (
                <tr key={n._id}>
                  <td>
                    <button
                      type="button"
                      class="link"
                      onClick={() => props.onDrill(n._id)}
                      title={pathOfNames(n.fullName).join(" › ")}
                    >
                      {label(n)}
                    </button>
                  </td>
                  <td class="num">{n.nbObjects.toLocaleString("en")}</td>
                  <td class="num">
                    {n.linksOut} / {n.linksIn}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </div>
  );
}

function elementsOf(drawn: DrawnGraph, label: (n: DrawnNode) => string): ElementDefinition[] {
  const max = Math.max(1, ...drawn.nodes.map((n) => n.nbObjects), ...drawn.outside.map((n) => n.nbObjects));
  // Area grows with the number of objects: the side with its square root.
  const node = (n: DrawnNode, outside: boolean, rank: number) => ({
    data: {
      id: String(n._id),
      label: outside ? `${pathOfNames(n.fullName).at(-2) ?? ""} › ${n.name}` : label(n),
      size: Math.round(18 + 46 * Math.sqrt(n.nbObjects / max)),
      tip: `${pathOfNames(n.fullName).join(" › ")}: ${n.nbObjects.toLocaleString("en")} objects${outside ? " (outside)" : ""}`,
    },
    classes: `${outside ? "outside" : ""} ${rank >= NAMED_AT_ANY_ZOOM ? "minor" : ""}`,
  });
  const classes = drawn.nodes.length + drawn.links.length > BIG_GRAPH_ELEMENTS ? "many" : "";
  const link = (l: { origin: number; target: number }, kind: string) => ({
    data: { id: `${l.origin}>${l.target}`, source: String(l.origin), target: String(l.target) },
    classes: kind,
  });
  return [
    ...drawn.nodes.map((n, rank) => node(n, false, rank)),
    ...drawn.outside.map((n) => node(n, true, NAMED_AT_ANY_ZOOM)),
    ...drawn.links.map((l) => link(l, classes)),
    ...drawn.outsideLinks.map((l) => link(l, `outside ${classes}`)),
  ];
}

/** Client-side pages of a level-5 node's objects (the API answers them all at once). */
const OBJECTS_PAGE = 100;

function LevelObjects(props: { params: URLSearchParams; node: ApiLevel5Node | undefined }) {
  const [shownCount, setShownCount] = useState(OBJECTS_PAGE);
  if (!props.node) return <p class="problem">This level-5 node no longer exists.</p>;
  const objects = props.node.children;
  return (
    <div>
      <p class="total" role="status" data-testid="level-objects-total">
        {objects.length.toLocaleString("en")} objects in {props.node.name}
      </p>
      <table data-testid="level-objects">
        <thead>
          <tr>
            <th scope="col">Object</th>
            <th scope="col">Type</th>
            <th scope="col">Full name</th>
          </tr>
        </thead>
        <tbody>
          {objects.slice(0, shownCount).map((o) => (
            <tr key={o.id}>
              <td>
                <Link to={viewOf(props.params, "object", { id: o.id })}>{o.name}</Link>
              </td>
              <td>{o.type}</td>
              <td class="wrap">{o.fullName}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {shownCount < objects.length && (
        <button type="button" onClick={() => setShownCount(shownCount + OBJECTS_PAGE)}>
          Show {Math.min(OBJECTS_PAGE, objects.length - shownCount)} more of {objects.length - shownCount}
        </button>
      )}
    </div>
  );
}
