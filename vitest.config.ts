// @module Test projects: `node` (the build CLI, format, engine on Node) and `workers` (the worker inside workerd).
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "node",
          include: ["test/build/**/*.test.ts", "test/format/**/*.test.ts", "test/node/**/*.test.ts", "test/analyze/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
        },
      },
      {
        plugins: [cloudflareTest({ wrangler: { configPath: "./wrangler.toml" } })],
        test: {
          name: "workers",
          include: ["test/worker/**/*.test.ts"],
          testTimeout: 60_000,
        },
      },
    ],
  },
});
