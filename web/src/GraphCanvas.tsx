// @module GraphCanvas: a Cytoscape.js drawing (layered with dagre when small enough, concentric beyond) whose nodes can be activated; the caller gives a text alternative.
import cytoscape, { type ElementDefinition, type LayoutOptions } from "cytoscape";
import dagre from "cytoscape-dagre";
import { useEffect, useRef } from "preact/hooks";

cytoscape.use(dagre);

/** Above this many links a layered layout takes seconds: nodes go on rings by size instead. */
export const LAYERED_LAYOUT_MAX_LINKS = 250;

const STYLE: cytoscape.StylesheetJson = [
  {
    selector: "node",
    style: {
      label: "data(label)",
      width: "data(size)",
      height: "data(size)",
      "background-color": "#3b6ea8",
      color: "#1d2733",
      "font-size": 12,
      "text-valign": "bottom",
      "text-margin-y": 4,
      "text-wrap": "ellipsis",
      "text-max-width": "140px",
      "text-background-color": "#ffffff",
      "text-background-opacity": 0.8,
      "text-background-padding": "1px",
    },
  },
  { selector: "node.focus", style: { "background-color": "#c2571a", "font-weight": "bold" } },
  { selector: "node.start", style: { "background-color": "#2e8540", shape: "round-rectangle" } },
  { selector: "node.end", style: { "background-color": "#8a3ea8", shape: "round-rectangle" } },
  {
    selector: "node.label-left",
    style: {
      "text-halign": "left",
      "text-valign": "center",
      "text-margin-x": -6,
      "text-margin-y": 0,
      "text-max-width": "190px",
    },
  },
  {
    selector: "node.label-right",
    style: {
      "text-halign": "right",
      "text-valign": "center",
      "text-margin-x": 6,
      "text-margin-y": 0,
      "text-max-width": "190px",
    },
  },
  { selector: "node:selected", style: { "border-width": 3, "border-color": "#f0b400" } },
  {
    selector: "edge",
    style: {
      width: 1.2,
      "line-color": "#8d99a6",
      "target-arrow-color": "#8d99a6",
      "target-arrow-shape": "triangle",
      "arrow-scale": 0.9,
      "curve-style": "bezier",
    },
  },
  // Straight edges paint several times faster than bezier ones: big graphs use them.
  { selector: "edge.many", style: { "curve-style": "straight", width: 0.8, "arrow-scale": 0.6 } },
  {
    selector: "edge.reach",
    style: { "line-style": "dashed", "line-color": "#b39bc4", "target-arrow-color": "#b39bc4" },
  },
];

/** From this many elements on, edges are straight and panning shows a bitmap. */
export const BIG_GRAPH_ELEMENTS = 800;

/** Positions given with the nodes, fitted into the canvas. */
export const PRESET_LAYOUT: LayoutOptions = { name: "preset", fit: true, padding: 16 };

export function layoutFor(links: number): LayoutOptions {
  if (links <= LAYERED_LAYOUT_MAX_LINKS)
    return { name: "dagre", rankDir: "TB", nodeSep: 90, rankSep: 80, padding: 20 } as LayoutOptions;
  return {
    name: "concentric",
    concentric: (node: cytoscape.NodeSingular) => node.data("size"),
    levelWidth: () => 10,
    minNodeSpacing: 4,
    padding: 20,
    animate: false,
  } as LayoutOptions;
}

export function GraphCanvas(props: {
  elements: ElementDefinition[];
  layout: LayoutOptions;
  label: string;
  height: number;
  onActivate?: (id: string) => void;
  testId?: string;
}) {
  const container = useRef<HTMLDivElement>(null);
  const activate = useRef(props.onActivate);
  activate.current = props.onActivate;

  useEffect(() => {
    if (!container.current) return;
    const cy = cytoscape({
      container: container.current,
      elements: props.elements,
      style: STYLE,
      layout: props.layout,
      minZoom: 0.05,
      maxZoom: 1.6,
      boxSelectionEnabled: false,
      // Big graphs: pan and zoom move a bitmap, edges come back when the view stops.
      hideEdgesOnViewport: props.elements.length > BIG_GRAPH_ELEMENTS,
      textureOnViewport: props.elements.length > BIG_GRAPH_ELEMENTS,
    });
    cy.on("tap", "node", (event) => activate.current?.(event.target.id()));
    return () => cy.destroy();
  }, [props.elements, props.layout]);

  // The canvas is a picture for sighted users; the tables next to it carry the same content.
  return (
    <div
      ref={container}
      class="graph"
      role="img"
      aria-label={props.label}
      data-testid={props.testId}
      style={{ height: `${props.height}px` }}
    />
  );
}
