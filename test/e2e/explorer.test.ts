// @module The explorer end to end in headless Chromium against `wrangler dev` with the shipped analyses: search → object → callees and points → levels 1 to 5 → back; every visible answer equals the REST answer; screenshots in test-results/explorer/.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../build/store.ts";
import { ensureWebBuilt } from "../../scripts/build-web.ts";
import { type DevServer, startDevServer } from "../../scripts/dev-server.ts";
import type {
  ApiCallee,
  ApiFindObjectsResult,
  ApiLevel5Node,
  ApiLevelGraph,
  ApiLevelNode,
  ApiPointsResult,
  ApplicationList,
} from "../../src/contract/api-schemas.ts";

const CHROMIUM = "/usr/bin/chromium";
const SHOTS = join(PROJECT_ROOT, "test-results", "explorer");
const found = existsSync(CHROMIUM);
if (!found)
  console.warn(
    `e2e: ${CHROMIUM} not found: the explorer's browser tests are SKIPPED (install Debian's chromium: apt-get install chromium)`,
  );

let server: DevServer;
let context: BrowserContext;
let page: Page;
let profile: string;
/** Console errors and uncaught exceptions of the page, since the last check. */
let pageErrors: string[] = [];

/** The API's answer, read directly (not through the page). */
async function rest<T>(path: string): Promise<T> {
  const response = await fetch(server.url + path);
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

const cells = (page: Page, testId: string, column: number) =>
  page.locator(`[data-testid="${testId}"] tbody tr td:nth-child(${column})`).allInnerTexts();
const items = (page: Page, testId: string) => page.locator(`[data-testid="${testId}"] li a`).allInnerTexts();
const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`) });
/** Polls until the page shows what is expected (answers come from wrangler dev: the first ones take a moment). */
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 100 });
const heading = () => page.locator("main h2").textContent();

describe.skipIf(!found)("explorer in headless Chromium", () => {
  beforeAll(async () => {
    await ensureWebBuilt();
    const folder = join(PROJECT_ROOT, "snapshots");
    const files = (await readdir(folder)).filter((f) => f.endsWith(".json")).map((f) => join(folder, f));
    await mkdir(SHOTS, { recursive: true });
    profile = await mkdtemp(join(tmpdir(), "appstruct-chromium-"));
    [server, context] = await Promise.all([
      startDevServer({ files }),
      chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        args: [
          "--headless",
          "--no-sandbox",
          "--disable-gpu",
          "--disable-background-networking",
          "--disable-component-update",
          "--no-first-run",
          "--disable-quic",
          "--disable-sync",
        ],
        viewport: { width: 1366, height: 768 },
      }),
    ]);
    page = context.pages()[0] ?? (await context.newPage());
    page.on("console", (message) => message.type() === "error" && pageErrors.push(`console: ${message.text()}`));
    page.on("pageerror", (error) => pageErrors.push(`page: ${error.message}`));
  }, 150_000);

  afterAll(async () => {
    await context?.close();
    await server?.stop();
    if (profile) await rm(profile, { recursive: true, force: true });
  });

  it("search → open object → callees and points → level 1 to 5 drill-down → back", async () => {
    pageErrors = [];
    const { applications } = await rest<ApplicationList>("/rest/applications");
    const app = applications[0].name;
    const base = `/rest/applications/${encodeURIComponent(app)}`;

    // Search: one filter with an operator; the total and the rows are the API's.
    await page.goto(`${server.url}/`);
    await eventually(() => page.locator("select").first().inputValue()).toBe(app);
    await page.getByLabel("Filter 1: value").fill("find");
    await page.getByRole("button", { name: "Add filter" }).click();
    await page.getByLabel("Filter 2: field").selectOption("type");
    await page.getByLabel("Filter 2: value").fill("Java");
    await page.getByLabel("Operator").selectOption("startswith");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    const search = await rest<ApiFindObjectsResult>(`${base}/objects?limit=25&name=find&type=Java&operator=startswith`);
    expect(search.totalObjects).toBeGreaterThan(0);
    await eventually(() => page.getByTestId("search-total").textContent()).toBe(
      `${search.totalObjects} objects match; showing 1–${search.objects.length}.`,
    );
    expect(await cells(page, "search-results", 1)).toEqual(search.objects.map((o) => o.name));
    const state = new URL(page.url()).searchParams;
    expect([state.getAll("name"), state.getAll("type"), state.get("operator")]).toEqual([
      ["find"],
      ["Java"],
      "startswith",
    ]);
    await shot("1-search");

    // The object of the results with the most callees; its view is what the API answers.
    const callees = await Promise.all(
      search.objects.map((o) => rest<ApiCallee[]>(`${base}/objects/${o.id}/callees?select=parent`)),
    );
    const pick = callees.reduce((best, list, i) => (list.length > callees[best].length ? i : best), 0);
    const object = search.objects[pick];
    await page.locator(`[data-testid="search-results"] a[href*="id=${object.id}"]`).first().click();
    await eventually(heading).toBe(`${object.name} (${object.type})`);
    await eventually(() => page.getByTestId("characteristics").textContent()).toContain(object.fullName);
    await eventually(() => cells(page, "callees", 1)).toEqual(callees[pick].map((c) => c.name));
    expect(await cells(page, "callees", 3)).toEqual(callees[pick].map((c) => c.linkType));
    await page.getByLabel("Include callees that also have escalated links").check();
    const escalated = await rest<ApiCallee[]>(
      `${base}/objects/${object.id}/callees?select=parent&includeEscalated=true`,
    );
    await eventually(() => cells(page, "callees", 1)).toEqual(escalated.map((c) => c.name));
    await page.getByLabel("Hops").fill("4");
    await page.getByLabel("Hops").press("Enter");
    const points = await rest<ApiPointsResult>(`${base}/objects/${object.id}/start-end-points?hops=4`);
    await eventually(() => page.getByRole("heading", { name: /^Start points/ }).textContent()).toBe(
      `Start points (${points.startPoints.length})`,
    );
    expect(
      points.startPoints.length + points.endPoints.length,
      "the sample object has points within 4 hops",
    ).toBeGreaterThan(0);
    if (points.startPoints.length)
      expect(await items(page, "start-points")).toEqual(points.startPoints.map((p) => p.name));
    if (points.endPoints.length) expect(await items(page, "end-points")).toEqual(points.endPoints.map((p) => p.name));
    await eventually(() => page.locator('[data-testid="object-picture"] canvas').count()).toBeGreaterThan(0);
    await shot("2-object");

    // Levels: 1, then always the node with the most objects, down to the objects of a level-5 node.
    await page.getByRole("link", { name: "Levels" }).click();
    const graphs = await Promise.all([1, 2, 3, 4, 5].map((l) => rest<ApiLevelGraph>(`${base}/levels/${l}/graph`)));
    const byObjects = (nodes: ApiLevelGraph["nodes"]) =>
      [...nodes].sort((a, b) => b.nbObjects - a.nbObjects || (a.name < b.name ? -1 : 1)).map((n) => n.name);
    await eventually(heading).toBe("Level 1");
    await eventually(() => cells(page, "level-nodes", 1)).toEqual(byObjects(graphs[0].nodes));
    await shot("3-level-1");
    let node = graphs[0].nodes.find((n) => n.name === byObjects(graphs[0].nodes)[0])!;
    const trail = [node.name];
    for (let level = 2; level <= 5; level++) {
      await page.getByTestId("level-nodes").getByRole("button", { name: node.name, exact: true }).click();
      await eventually(heading).toBe(`Level ${level}`);
      // The children: named under a level-1 node (fullName), listed by the nodes route below.
      const children =
        level === 2
          ? graphs[1].nodes.filter((n) => n.fullName === `${node.fullName}##${n.name}`)
          : (
              await rest<ApiLevelNode[]>(`${base}/levels/${level - 1}/nodes?_id=${node._id}&select=children`)
            )[0].children.map((c) => graphs[level - 1].nodes.find((n) => n._id === c._id)!);
      await eventually(() => cells(page, "level-nodes", 1)).toEqual(byObjects(children).slice(0, 50));
      // Cytoscape adds its canvases after the table renders: wait for them (a loaded machine is slow).
      await eventually(() => page.locator('[data-testid="level-graph"] canvas').count()).toBeGreaterThan(0);
      expect(await page.getByRole("navigation", { name: "Breadcrumbs" }).getByRole("link").allInnerTexts()).toEqual([
        "Level 1",
        ...trail,
      ]);
      if (level === 2 || level === 5) await shot(`4-level-${level}`);
      node = children.find((n) => n.name === byObjects(children)[0])!;
      trail.push(node.name);
    }
    await page.getByTestId("level-nodes").getByRole("button", { name: node.name, exact: true }).click();
    const [level5] = await rest<ApiLevel5Node[]>(`${base}/levels/5/nodes?_id=${node._id}&select=children`);
    await eventually(heading).toBe(`Objects of ${node.name}`);
    await eventually(() => cells(page, "level-objects", 1)).toEqual(level5.children.slice(0, 100).map((o) => o.name));
    await shot("5-level-5-objects");

    // Back: the level-5 graph, then level 4, as they were.
    await page.goBack();
    await eventually(heading).toBe("Level 5");
    await page.goBack();
    await eventually(heading).toBe("Level 4");
    expect(new URL(page.url()).searchParams.get("path")?.split(",")).toHaveLength(3);
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it("serves its files with a content security policy and without MIME sniffing", async () => {
    for (const path of ["/", "/rest/applications"]) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.headers.get("X-Content-Type-Options"), path).toBe("nosniff");
    }
    const policy = (await fetch(`${server.url}/`)).headers.get("Content-Security-Policy") ?? "";
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
  });

  it("an API error is shown with the API's detail", async () => {
    const { applications } = await rest<ApplicationList>("/rest/applications");
    const response = await fetch(
      `${server.url}/rest/applications/${encodeURIComponent(applications[0].name)}/objects/999999999`,
    );
    const problem = (await response.json()) as { code: string; detail: string };
    expect(problem.code).toBe("object_not_found");
    await page.goto(`${server.url}/?app=${encodeURIComponent(applications[0].name)}&view=object&id=999999999`);
    await eventually(() => page.getByRole("alert").first().textContent()).toContain(problem.detail);
    await shot("6-error");
  }, 30_000);
});
