// @module appstruct serve answers the explorer's built files as Workers static assets does: index.html at /, content types, the _headers rules, and nothing outside the folder or owned by the API.
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { explorerFiles, parseHeaderRules } from "../../build/explorer-files.ts";

let root: string;
let files: (request: Request) => Promise<Response | null>;
const get = (path: string, method = "GET") => files(new Request(`http://localhost${path}`, { method }));

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "appstruct-explorer-"));
  const dist = join(root, "dist");
  await mkdir(join(dist, "assets"), { recursive: true });
  await writeFile(join(dist, "index.html"), "<!doctype html><title>appstruct</title>");
  await writeFile(join(dist, "assets/app-1.js"), "console.log(1)");
  await writeFile(join(dist, "_headers"), await readFile(join(import.meta.dirname, "../../web/public/_headers")));
  await writeFile(join(root, "secret.txt"), "outside");
  files = (await explorerFiles(dist))!;
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe("the explorer's files on Node", () => {
  it("answers / with index.html and the explorer's headers", async () => {
    const response = (await get("/"))!;
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("Content-Security-Policy")).toMatch(/^default-src 'self'; script-src 'self'/);
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(await response.text()).toBe("<!doctype html><title>appstruct</title>");
  });

  it("answers a script with its content type, and HEAD without a body", async () => {
    const response = (await get("/assets/app-1.js"))!;
    expect(response.headers.get("Content-Type")).toBe("text/javascript; charset=utf-8");
    expect(await response.text()).toBe("console.log(1)");
    expect(await (await get("/assets/app%2D1.js"))!.text()).toBe("console.log(1)");
    const head = (await get("/assets/app-1.js", "HEAD"))!;
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  it("leaves to the API what has no file, other methods, the _headers file and paths out of the folder", async () => {
    expect(await get("/rest/applications")).toBeNull();
    expect(await get("/assets/missing.js")).toBeNull();
    expect(await get("/", "POST")).toBeNull();
    expect(await get("/_headers")).toBeNull();
    expect(await get("/%2e%2e/secret.txt")).toBeNull();
    expect(await get("/assets/%2e%2e/%2e%2e/secret.txt")).toBeNull();
    expect(await get("/assets/%E0%A4%A")).toBeNull();
  });

  it("is absent when the explorer is not built", async () => {
    expect(await explorerFiles(join(root, "nothing-here"))).toBeNull();
  });

  it("reads the rules of a _headers file", () => {
    expect(parseHeaderRules("# comment\n/*\n  A: 1\n  B: x: y\n/docs\n  C: 2\n")).toEqual([
      {
        pattern: "/*",
        headers: [
          ["A", "1"],
          ["B", "x: y"],
        ],
      },
      { pattern: "/docs", headers: [["C", "2"]] },
    ]);
  });
});
