// @module Vite build of the explorer: Preact, bundled into web/dist, which wrangler.toml serves as static assets at /; with it the API reference viewer that /docs loads.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import preact from "@preact/preset-vite";
import { defineConfig, type Plugin } from "vite";

/** Where /docs (src/http/routes/meta.ts) loads its viewer from: this origin, never a CDN. */
export const DOCS_VIEWER = "docs/api-reference.js";

/** Scalar's own single-file browser build of its API reference, copied as it ships (the package exports no path to it). */
function docsViewer(): Plugin {
  return {
    name: "appstruct-docs-viewer",
    async generateBundle() {
      const entry = createRequire(import.meta.url).resolve("@scalar/api-reference");
      const source = await readFile(join(dirname(entry), "browser", "standalone.js"));
      this.emitFile({ type: "asset", fileName: DOCS_VIEWER, source });
    },
  };
}

export default defineConfig({
  plugins: [preact(), docsViewer()],
  base: "/",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // Cytoscape alone is ~450 kB minified: one chunk for it, one for the explorer.
    chunkSizeWarningLimit: 700,
  },
});
