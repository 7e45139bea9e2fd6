// @module The SourceService entrypoint through the SOURCE service binding: locations of a published version by object rank.
import { describe, expect, it } from "vitest";
import { readManifest } from "../../src/storage/publish.ts";
import { R2Store } from "../../src/storage/r2-store.ts";
import petstoreV1 from "../fixtures/examples/petstore-v1.json";
import { byName, type RefObject } from "../support/reference/reference.ts";
import { publishHistory, testEnv } from "./harness.ts";

describe("SourceService over the SOURCE binding", () => {
  it("answers each rank's locations (objects in name order), null where there are none or the rank is not an object", async () => {
    const application = "Source & Co";
    await publishHistory([{ ...petstoreV1, application }]);
    const version = (await readManifest(new R2Store(testEnv.SNAPSHOTS), application))!.versions[0];
    const objects = [...(petstoreV1.objects as RefObject[])].sort(byName);
    const ranks = [...objects.keys()].reverse();
    const answer = await testEnv.SOURCE!.lookup(version, [...ranks, -1, objects.length, 2.5]);
    const expected = [...ranks.map((r) => objects[r].sourceLocations ?? null), null, null, null];
    expect(answer).toEqual({ answer: expected });
    expect(expected.filter((l) => l === null)).toHaveLength(4); // the external `format` has none
    expect(await testEnv.SOURCE!.lookup(version, [])).toEqual({ answer: [] });
  });
});
