// @module ObjectPicture: the object in the middle, its start points before it, its direct callees and end points after it (at most PICTURE_MAX of each).
import type { ElementDefinition } from "cytoscape";
import { useMemo } from "preact/hooks";
import type { ApiCallee, ApiCharacteristics, ApiPointsResult } from "../../src/query/api-schemas.ts";
import { GraphCanvas, layoutFor } from "./GraphCanvas.tsx";

/** More than this many of one kind would make the picture unreadable: the tables list them all. */
export const PICTURE_MAX = 12;

export function ObjectPicture(props: { object: ApiCharacteristics; callees: ApiCallee[]; points: ApiPointsResult; onOpen: (id: string) => void }) {
  const { object, callees, points } = props;
  const elements = useMemo(() => {
    const nodes = new Map<string, ElementDefinition>();
    const edges: ElementDefinition[] = [];
    const add = (id: string, label: string, classes: string) => {
      if (!nodes.has(id)) nodes.set(id, { data: { id, label, size: 22 }, classes });
    };
    add(object.id, object.name, "focus");
    const calleeIds = [...new Set(callees.map((c) => c.id))].slice(0, PICTURE_MAX);
    for (const id of calleeIds) {
      const callee = callees.find((c) => c.id === id)!;
      add(id, callee.name, "");
      if (id !== object.id) edges.push({ data: { id: `call ${id}`, source: object.id, target: id } });
    }
    for (const p of points.startPoints.slice(0, PICTURE_MAX)) {
      add(p.id, p.name, "start");
      if (p.id !== object.id) edges.push({ data: { id: `start ${p.id}`, source: p.id, target: object.id }, classes: "reach" });
    }
    for (const p of points.endPoints.slice(0, PICTURE_MAX)) {
      add(p.id, p.name, "end");
      if (p.id !== object.id && !edges.some((e) => e.data.target === p.id && e.data.source === object.id)) edges.push({ data: { id: `end ${p.id}`, source: object.id, target: p.id }, classes: "reach" });
    }
    return [...nodes.values(), ...edges];
  }, [object, callees, points]);
  const layout = useMemo(() => layoutFor(0, "LR"), []);
  const hidden = Math.max(0, new Set(callees.map((c) => c.id)).size - PICTURE_MAX) + Math.max(0, points.startPoints.length - PICTURE_MAX) + Math.max(0, points.endPoints.length - PICTURE_MAX);
  return (
    <figure class="picture">
      <GraphCanvas
        elements={elements}
        layout={layout}
        height={260}
        testId="object-picture"
        label={`${object.name} with ${callees.length} callee links, ${points.startPoints.length} start points and ${points.endPoints.length} end points; the tables below list them`}
        onActivate={(id) => id !== object.id && props.onOpen(id)}
      />
      <figcaption>
        <span class="swatch focus">object</span> <span class="swatch">callee</span> <span class="swatch start">start point</span> <span class="swatch end">end point</span> — solid: direct call, dashed: reached
        within the hops{hidden ? `; ${hidden} more not drawn` : ""}. Click a node to open it.
      </figcaption>
    </figure>
  );
}
