// @module Worked examples inside workerd: test/fixtures/examples (petstore) and test/fixtures/corner, every case through the worker's fetch.
import { beforeAll, describe, expect, it } from "vitest";
import cornerV1 from "../fixtures/corner/corner-v1.json";
import cornerV2 from "../fixtures/corner/corner-v2.json";
import cornerRequests from "../fixtures/corner/requests.json";
import petstoreV1 from "../fixtures/examples/petstore-v1.json";
import petstoreV2 from "../fixtures/examples/petstore-v2.json";
import petstoreRequests from "../fixtures/examples/requests.json";
import { idSubstitution, type RequestCase, runCase } from "../support/request-cases.ts";
import { BASE, fetchWorker, publishHistory } from "./harness.ts";

beforeAll(async () => {
  // Both histories before the first request: the worker trusts a fetched manifest for MANIFEST_TTL_MS.
  const petstore = await publishHistory([petstoreV1, petstoreV2]);
  const corner = await publishHistory([cornerV1, cornerV2]);
  for (const { results } of [petstore, corner])
    expect(results.map((r) => r.outcome)).toEqual(["published", "published"]);
});

describe("test/fixtures/examples/requests.json (Pet Store & Co, v1 then v2)", () => {
  const cases = petstoreRequests as RequestCase[];
  it("has cases", () => expect(cases.length).toBeGreaterThan(30));
  for (const c of cases)
    it(c.request, async () => {
      const outcome = await runCase(fetchWorker, BASE, c);
      expect(outcome.problems).toEqual([]);
    });
});

describe("test/fixtures/corner/requests.json (A/B + ü&Co, v1 then v2)", () => {
  const cases = cornerRequests as RequestCase[];
  const substitute = idSubstitution(fetchWorker, BASE);
  it("has cases", () => expect(cases.length).toBeGreaterThan(100));
  for (const c of cases)
    it(c.request, async () => {
      const outcome = await runCase(fetchWorker, BASE, c, substitute);
      expect(outcome.problems).toEqual([]);
    });
});
