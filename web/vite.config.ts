// @module Vite build of the explorer: Preact, bundled into web/dist, which wrangler.toml serves as static assets at /.
import preact from "@preact/preset-vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [preact()],
  base: "/",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // Cytoscape alone is ~450 kB minified: one chunk for it, one for the explorer.
    chunkSizeWarningLimit: 700,
  },
});
