// @module Resource bounds: values per parameter, characters per value, URL length — each a clear 400.
import { beforeAll, describe, expect, it } from "vitest";
import petstoreV1 from "../fixtures/examples/petstore-v1.json";
import { appPath, call, publishHistory } from "./harness.ts";

const application = "Bounds & Co";
const objects = `${appPath(application)}/objects`;

beforeAll(async () => {
  await publishHistory([{ ...petstoreV1, application }]);
});

describe("resource bounds", () => {
  it("accepts 50 values of a repeated parameter and refuses 51", async () => {
    const names = (n: number) => Array.from({ length: n }, (_, i) => `name=v${i}`).join("&");
    const ok = await call(`${objects}?limit=1&${names(50)}&name=find`.replace("&name=v49", ""));
    expect(ok.status).toBe(200);
    const refused = await call(`${objects}?limit=1&${names(51)}`);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      status: 400,
      title: "Invalid parameter",
      code: "invalid_parameter",
      detail: "name may be given at most 50 times in one request",
      parameter: "name",
    });
  });

  it("accepts a value of 1,000 characters and refuses 1,001", async () => {
    expect((await call(`${objects}?limit=1&fullname=${"x".repeat(1000)}`)).body).toEqual({
      totalObjects: 0,
      objects: [],
    });
    const refused = await call(`${objects}?limit=1&fullname=${"x".repeat(1001)}`);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: "invalid_parameter",
      parameter: "fullname",
      detail: "fullname may be at most 1000 characters long, got 1001",
    });
  });

  it("counts characters after decoding: 1,000 two-byte characters (6,000 encoded) are fine, 1,001 are not", async () => {
    expect((await call(`${objects}?limit=1&name=${"%C3%A9".repeat(1000)}`)).status).toBe(200);
    expect((await call(`${objects}?limit=1&name=${"%C3%A9".repeat(1001)}`)).body).toMatchObject({
      code: "invalid_parameter",
      parameter: "name",
    });
  });

  it("refuses a URL longer than 8 KiB, whatever its parameters", async () => {
    const path = `${objects}?limit=1&${Array.from({ length: 1400 }, () => "skip=1").join("&")}`;
    expect(path.length).toBeGreaterThan(8192);
    const refused = await call(path);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: "invalid_parameter" });
    expect((refused.body as { detail: string }).detail).toMatch(
      /^the request URL is \d+ characters long; at most 8192 are accepted$/,
    );
  });
});
