// @module LayeredPicture: nodes in columns by their distance from one object (callers to the left, callees or what a transaction reaches to the right), links as arrows; a column shows at most COLUMN_MAX nodes, the rest counted; every node also listed, by distance, for the keyboard.
import type { ElementDefinition } from "cytoscape";
import { useMemo } from "preact/hooks";
import { GraphCanvas, PRESET_LAYOUT } from "./GraphCanvas.tsx";
import type { LayeredGraph, LayeredNode } from "./impact-types.ts";
import { Link } from "./Link.tsx";
import { navigate } from "./url-state.ts";

/** More nodes than this in one column would be a wall of labels: the lists carry them all. */
export const COLUMN_MAX = 25;
const COLUMN_GAP = 260;
const ROW_GAP = 34;

/** A node and its column: 0 the object, negative callers (or what reaches it), positive what it reaches. */
export interface Placed {
  node: LayeredNode;
  column: number;
}

/** Columns of `placed` (each node once, in the given order), at most COLUMN_MAX a column. */
export function columnsOf(placed: readonly Placed[]): { drawn: Placed[]; hidden: number } {
  const seen = new Set<string>();
  const perColumn = new Map<number, number>();
  const drawn: Placed[] = [];
  let hidden = 0;
  for (const p of placed) {
    if (seen.has(p.node.id)) continue;
    seen.add(p.node.id);
    const count = perColumn.get(p.column) ?? 0;
    if (count >= COLUMN_MAX) {
      hidden++;
      continue;
    }
    perColumn.set(p.column, count + 1);
    drawn.push(p);
  }
  return { drawn, hidden };
}

function elementsOf(drawn: Placed[], links: LayeredGraph["links"]): ElementDefinition[] {
  const sizes = new Map<number, number>();
  for (const p of drawn) sizes.set(p.column, (sizes.get(p.column) ?? 0) + 1);
  const index = new Map<number, number>();
  const ids = new Set(drawn.map((p) => p.node.id));
  const nodes = drawn.map(({ node, column }) => {
    const i = index.get(column) ?? 0;
    index.set(column, i + 1);
    const side = column < 0 ? "label-left" : column > 0 ? "label-right" : "";
    const role = node.role === "start" ? "start" : node.role === "end" ? "end" : "";
    return {
      data: { id: node.id, label: node.name, size: column === 0 ? 22 : 14, tip: `${node.fullName} (${node.type})` },
      classes: `${column === 0 ? "focus" : ""} ${role} ${side}`,
      position: { x: column * COLUMN_GAP, y: (i - ((sizes.get(column) ?? 1) - 1) / 2) * ROW_GAP },
    };
  });
  const edges = new Map<string, ElementDefinition>();
  for (const l of links) {
    if (!ids.has(l.from) || !ids.has(l.to) || l.from === l.to) continue;
    const id = `${l.from}>${l.to}`;
    edges.set(id, { data: { id, source: l.from, target: l.to } });
  }
  return [...nodes, ...edges.values()];
}

export function LayeredPicture(props: {
  placed: readonly Placed[];
  links: LayeredGraph["links"];
  label: string;
  testId: string;
  height?: number;
  /** Where a node leads (its object's page). */
  link: (id: string) => URLSearchParams;
  /** What a column is called in the list: "2 links before", "1 link after"… */
  columnName: (column: number) => string;
}) {
  const { drawn, hidden } = useMemo(() => columnsOf(props.placed), [props.placed]);
  const elements = useMemo(() => elementsOf(drawn, props.links), [drawn, props.links]);
  const focus = drawn.find((p) => p.column === 0)?.node.id;
  return (
    <figure class="picture">
      <GraphCanvas
        elements={elements}
        layout={PRESET_LAYOUT}
        height={props.height ?? 360}
        testId={props.testId}
        label={props.label}
        onActivate={(id) => id !== focus && navigate(props.link(id))}
      />
      <figcaption>
        {drawn.length} nodes drawn{hidden > 0 ? `, ${hidden} more not drawn (at most ${COLUMN_MAX} a column)` : ""}.{" "}
        <span class="swatch focus">the object</span> <span class="swatch start">start points</span>{" "}
        <span class="swatch end">end points</span>. Click a node to open it.
      </figcaption>
      <ColumnList placed={props.placed} link={props.link} columnName={props.columnName} />
    </figure>
  );
}

/** Every node (drawn or not), column by column, as links: the picture's content for the keyboard and screen readers. */
function ColumnList(props: {
  placed: readonly Placed[];
  link: (id: string) => URLSearchParams;
  columnName: (column: number) => string;
}) {
  const columns = new Map<number, LayeredNode[]>();
  const seen = new Set<string>();
  for (const { node, column } of props.placed) {
    if (seen.has(node.id) || column === 0) continue;
    seen.add(node.id);
    columns.set(column, [...(columns.get(column) ?? []), node]);
  }
  return (
    <details class="column-list">
      <summary>Every object of the picture, by distance ({seen.size})</summary>
      {[...columns.keys()]
        .sort((a, b) => a - b)
        .map((column) => (
          <div key={column}>
            <h4>{props.columnName(column)}</h4>
            <ul>
              {columns.get(column)!.map((n) => (
                <li key={n.id}>
                  <Link to={props.link(n.id)}>{n.name}</Link> <span class="muted">{n.type}</span>
                </li>
              ))}
            </ul>
          </div>
        ))}
    </details>
  );
}
