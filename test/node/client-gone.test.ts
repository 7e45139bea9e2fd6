// @module A request whose client has gone: whatever the route throws, the answer is a bare 499 (nobody reads it) and nothing is logged as a failure.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { compileAnalysisToFile } from "../../build/compile/compile.ts";
import { loadFolderCatalog } from "../../build/folder-catalog.ts";
import { createApp } from "../../src/app.ts";

const EXAMPLES = join(import.meta.dirname, "../fixtures/examples");
const BASE = `http://local/rest/applications/${encodeURIComponent("Pet Store & Co")}`;

let folder: string;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "appstruct-client-gone-"));
  await compileAnalysisToFile(join(EXAMPLES, "petstore-v1.json"), join(folder, "petstore-v1.snap"), null);
  const catalog = await loadFolderCatalog(folder, () => {});
  app = createApp(() => ({ catalog, sources: null, access: null }));
}, 60_000);
afterAll(() => rm(folder, { recursive: true, force: true }));

describe("a request whose client has gone", () => {
  it("answers 499 with no body where the route fails, and logs nothing", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const path = `${BASE}/objects/999999999/start-end-points?hops=3`;
      const live = await app.fetch(new Request(path));
      expect(live.status).toBe(404);
      const gone = await app.fetch(new Request(path, { signal: AbortSignal.abort() }));
      expect(gone.status).toBe(499);
      expect(await gone.text()).toBe("");
      expect(logged).not.toHaveBeenCalled();
    } finally {
      logged.mockRestore();
    }
  });
});
