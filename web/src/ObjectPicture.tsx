// @module ObjectPicture: three columns — start points, the object, its direct callees then its end points — at most PICTURE_MAX of each kind.
import type { ElementDefinition } from "cytoscape";
import { useMemo } from "preact/hooks";
import type { ApiCallee, ApiCharacteristics, ApiPointsResult } from "../../src/contract/api-schemas.ts";
import { GraphCanvas, PRESET_LAYOUT } from "./GraphCanvas.tsx";

/** More than this many of one kind would make the picture unreadable: the tables list them all. */
export const PICTURE_MAX = 6;
const COLUMN_GAP = 230;
const ROW_GAP = 30;

/** Nodes and edges with their positions: columns left to right, each column centred on the object. */
function pictureElements(
  object: ApiCharacteristics,
  callees: ApiCallee[],
  points: ApiPointsResult,
): ElementDefinition[] {
  const calleeList = [...new Map(callees.map((c) => [c.id, c])).values()]
    .filter((c) => c.id !== object.id)
    .slice(0, PICTURE_MAX);
  const starts = points.startPoints.filter((p) => p.id !== object.id).slice(0, PICTURE_MAX);
  const calleeIds = new Set(calleeList.map((c) => c.id));
  const ends = points.endPoints.filter((p) => p.id !== object.id && !calleeIds.has(p.id)).slice(0, PICTURE_MAX);
  const column = (list: { id: string; name: string }[], x: number, classes: string) =>
    list.map((n, i) => ({
      data: { id: n.id, label: n.name, size: 14 },
      classes,
      position: { x, y: (i - (list.length - 1) / 2) * ROW_GAP },
    }));
  const right = [...calleeList.map((c) => ({ ...c, kind: "callee" })), ...ends.map((p) => ({ ...p, kind: "end" }))];
  const startIds = new Set(starts.map((s) => s.id));
  return [
    { data: { id: object.id, label: object.name, size: 22 }, classes: "focus", position: { x: COLUMN_GAP, y: 0 } },
    ...column(starts, 0, "start label-left"),
    ...right.flatMap((n, i) =>
      startIds.has(n.id)
        ? []
        : [
            {
              data: { id: n.id, label: n.name, size: 14 },
              classes: `${n.kind === "end" ? "end" : ""} label-right`,
              position: { x: 2 * COLUMN_GAP, y: (i - (right.length - 1) / 2) * ROW_GAP },
            },
          ],
    ),
    ...starts.map((s) => ({ data: { id: `start ${s.id}`, source: s.id, target: object.id }, classes: "reach" })),
    ...calleeList
      .filter((c) => !startIds.has(c.id))
      .map((c) => ({ data: { id: `call ${c.id}`, source: object.id, target: c.id } })),
    ...ends
      .filter((e) => !startIds.has(e.id))
      .map((e) => ({ data: { id: `end ${e.id}`, source: object.id, target: e.id }, classes: "reach" })),
  ];
}

export function ObjectPicture(props: {
  object: ApiCharacteristics;
  callees: ApiCallee[];
  points: ApiPointsResult;
  onOpen: (id: string) => void;
}) {
  const { object, callees, points } = props;
  const elements = useMemo(() => pictureElements(object, callees, points), [object, callees, points]);
  const drawn = elements.filter((e) => e.data.source === undefined).length - 1;
  const hidden =
    new Set(
      [
        ...callees.map((c) => c.id),
        ...points.startPoints.map((p) => p.id),
        ...points.endPoints.map((p) => p.id),
      ].filter((id) => id !== object.id),
    ).size - drawn;
  return (
    <figure class="picture">
      <GraphCanvas
        elements={elements}
        layout={PRESET_LAYOUT}
        height={300}
        testId="object-picture"
        label={`${object.name} with ${callees.length} callee links, ${points.startPoints.length} start points and ${points.endPoints.length} end points; the tables list them`}
        onActivate={(id) => id !== object.id && props.onOpen(id)}
      />
      <figcaption>
        <span class="swatch start">start points</span> → <span class="swatch focus">object</span> →{" "}
        <span class="swatch">callees</span>, <span class="swatch end">end points</span>. Solid: direct call; dashed:
        reached within the hops{hidden > 0 ? `; ${hidden} more not drawn` : ""}. Click a node to open it.
      </figcaption>
    </figure>
  );
}
