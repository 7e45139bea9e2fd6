// @module GraphCanvas: a Cytoscape.js drawing (layered with dagre when small enough, concentric beyond) whose nodes can be activated, with zoom, fit and full-screen buttons, a tooltip per node and labels that stay readable at any zoom; the caller gives a text alternative.
import cytoscape, { type ElementDefinition, type LayoutOptions } from "cytoscape";
import dagre from "cytoscape-dagre";
import { useEffect, useRef, useState } from "preact/hooks";

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
  // Nodes outside what is drawn (the neighbours of a drilled node), greyed.
  {
    selector: "node.outside",
    style: { "background-color": "#c3cad2", color: "#6b7682", "font-style": "italic", shape: "round-rectangle" },
  },
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
    selector: "edge.outside",
    style: { "line-color": "#d3d9df", "target-arrow-color": "#d3d9df", "line-style": "dotted" },
  },
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

/** Labels are this big on screen whatever the zoom (Cytoscape scales them with the drawing otherwise). */
const LABEL_PX = 12;
/** Below this zoom the labels of nodes marked `minor` are hidden: they would cover each other (their tooltip stays). */
const MINOR_LABEL_ZOOM = 0.8;
const LABEL_WIDTH_PX = 150;
const ZOOM_STEP = 1.4;

export function GraphCanvas(props: {
  elements: ElementDefinition[];
  layout: LayoutOptions;
  label: string;
  height: number;
  onActivate?: (id: string) => void;
  testId?: string;
}) {
  const container = useRef<HTMLDivElement>(null);
  const graph = useRef<cytoscape.Core | null>(null);
  const activate = useRef(props.onActivate);
  activate.current = props.onActivate;
  const [full, setFull] = useState(false);
  const [tip, setTip] = useState<{ text: string; x: number; y: number } | null>(null);

  useEffect(() => {
    if (!container.current) return;
    const big = props.elements.length > BIG_GRAPH_ELEMENTS;
    const cy = cytoscape({
      container: container.current,
      elements: props.elements,
      style: STYLE,
      layout: props.layout,
      minZoom: 0.05,
      maxZoom: 4,
      boxSelectionEnabled: false,
      // Big graphs: pan and zoom move a bitmap, edges come back when the view stops.
      hideEdgesOnViewport: big,
      textureOnViewport: big,
    });
    graph.current = cy;
    let frame = 0;
    const readableLabels = () => {
      frame = 0;
      const zoom = cy.zoom();
      cy.style()
        .selector("node")
        .style({ "font-size": LABEL_PX / zoom, "text-max-width": `${LABEL_WIDTH_PX / zoom}px` })
        .selector("node.minor")
        .style({ "text-opacity": zoom < MINOR_LABEL_ZOOM ? 0 : 1 })
        .update();
    };
    readableLabels();
    cy.on("zoom", () => {
      frame ||= requestAnimationFrame(readableLabels);
    });
    cy.on("tap", "node", (event) => activate.current?.(event.target.id()));
    cy.on("mouseover", "node", (event) => {
      const at = event.target.renderedPosition();
      const top = container.current?.offsetTop ?? 0;
      setTip({ text: event.target.data("tip") ?? event.target.data("label"), x: at.x + 12, y: top + at.y + 12 });
    });
    cy.on("mouseout", "node", () => setTip(null));
    cy.on("viewport", () => setTip(null));
    // The box can change size after the drawing (a list drawn beside it, a phone turned): draw it anew to fit.
    let width = container.current.clientWidth;
    const resized = new ResizeObserver(() => {
      const now = container.current?.clientWidth ?? width;
      if (now === width) return;
      width = now;
      cy.resize();
      cy.fit(undefined, 20);
    });
    resized.observe(container.current);
    return () => {
      resized.disconnect();
      cancelAnimationFrame(frame);
      graph.current = null;
      cy.destroy();
    };
  }, [props.elements, props.layout]);

  // Full screen is the page's own (a fixed box), so it works where the Fullscreen API does not; Escape leaves it.
  useEffect(() => {
    graph.current?.resize();
    graph.current?.fit(undefined, 20);
    if (!full) return;
    const leave = (event: KeyboardEvent) => event.key === "Escape" && setFull(false);
    addEventListener("keydown", leave);
    return () => removeEventListener("keydown", leave);
  }, [full]);

  const zoomBy = (factor: number) => {
    const cy = graph.current;
    if (!cy) return;
    cy.zoom({ level: cy.zoom() * factor, renderedPosition: { x: cy.width() / 2, y: cy.height() / 2 } });
  };
  return (
    <div class={full ? "graph-box full" : "graph-box"}>
      <div class="graph-tools">
        <button type="button" onClick={() => zoomBy(ZOOM_STEP)}>
          Zoom in
        </button>
        <button type="button" onClick={() => zoomBy(1 / ZOOM_STEP)}>
          Zoom out
        </button>
        <button type="button" onClick={() => graph.current?.fit(undefined, 20)}>
          Fit
        </button>
        <button type="button" aria-pressed={full} onClick={() => setFull(!full)}>
          {full ? "Leave full screen" : "Full screen"}
        </button>
      </div>
      {/* The canvas is a picture for sighted users; the tables next to it carry the same content. */}
      <div
        ref={container}
        class="graph"
        role="img"
        aria-label={props.label}
        data-testid={props.testId}
        style={full ? undefined : { height: `${props.height}px` }}
      />
      {tip && (
        <div class="graph-tip" role="tooltip" data-testid="graph-tip" style={{ left: `${tip.x}px`, top: `${tip.y}px` }}>
          {tip.text}
        </div>
      )}
    </div>
  );
}
