// @module History published out of order: status.id always compares with the previous version in the manifest.
import { describe, expect, it } from "vitest";
import { compileDocument } from "../../build/compile/compile-document.ts";
import { publishSnapshot } from "../../src/storage/publish.ts";
import { R2Store } from "../../src/storage/r2-store.ts";
import petstoreV1 from "../fixtures/examples/petstore-v1.json";
import petstoreV2 from "../fixtures/examples/petstore-v2.json";
import { appPath, call, publishHistory, testEnv } from "./harness.ts";

const status = async (application: string, id: string) =>
  ((await call(`${appPath(application)}/objects/${id}`)).body as { status: { id: string | null } }).status.id;

describe("status.id follows the published history, whatever the publishing order", () => {
  it("v2 published before v1: v2's statuses compare with v1 once v1 is in the manifest", async () => {
    const application = "History & Co (reversed)";
    const store = new R2Store(testEnv.SNAPSHOTS);
    // v2 alone is a first analysis: every object Added.
    await publishSnapshot(store, compileDocument({ ...petstoreV2, application }).bytes);
    expect(await status(application, "302")).toBe("Added");
    expect(await status(application, "203")).toBe("Added");
    // v1 arrives later with an earlier analyzedAt: v2 stays the newest, now compared with v1.
    await publishSnapshot(store, compileDocument({ ...petstoreV1, application }).bytes);
    await new Promise((resolve) => setTimeout(resolve, 1100)); // the manifest is trusted for MANIFEST_TTL_MS (1 s)
    expect(await status(application, "302")).toBe("Modified"); // checksum c3 → c3-changed
    expect(await status(application, "304")).toBe("Added"); // new in v2
    expect(await status(application, "301")).toBe("Unchanged");
    expect(await status(application, "203")).toBeNull(); // no checksum on either side
  });

  it("published in order, the statuses baked in at compile time are the ones served", async () => {
    const application = "History & Co (in order)";
    await publishHistory([
      { ...petstoreV1, application },
      { ...petstoreV2, application },
    ]);
    expect(await status(application, "302")).toBe("Modified");
    expect(await status(application, "304")).toBe("Added");
    expect(await status(application, "301")).toBe("Unchanged");
    expect(await status(application, "203")).toBeNull();
  });
});
