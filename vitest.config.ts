// @module Test projects: `node` (the build CLI, format, engine on Node), `e2e` (the explorer in headless Chromium) and `workers` (the worker inside workerd).
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Once for every project: web/dist must exist before a test starts `wrangler dev`.
    globalSetup: ["test/support/web-bundle.global-setup.ts"],
    projects: [
      {
        test: {
          name: "node",
          include: [
            "test/build/**/*.test.ts",
            "test/format/**/*.test.ts",
            "test/node/**/*.test.ts",
            "test/web/**/*.test.ts",
            "test/analyze/**/*.test.ts",
            "test/import/**/*.test.ts",
          ],
          environment: "node",
          testTimeout: 60_000,
          // test/node/answer-memory.test.ts forces full GCs to read what stays live.
          execArgv: ["--expose-gc"],
        },
      },
      {
        // The explorer in headless Chromium (/usr/bin/chromium; skipped, saying so, where it is missing).
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 150_000,
        },
      },
      {
        plugins: [cloudflareTest({ wrangler: { configPath: "./wrangler.toml" } })],
        test: {
          name: "workers",
          include: ["test/worker/**/*.test.ts"],
          exclude: ["test/worker/**/*.latency.test.ts"],
          testTimeout: 60_000,
        },
      },
      {
        // The same worker with every storage call 20 ms late, as R2 is behind a Worker: what only goes wrong while reads are in flight.
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: { bindings: { STORAGE_LATENCY_MS: "20" } },
          }),
        ],
        test: {
          name: "workers-latency",
          include: ["test/worker/**/*.latency.test.ts"],
          testTimeout: 60_000,
        },
      },
    ],
  },
});
