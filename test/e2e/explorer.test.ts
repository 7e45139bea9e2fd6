// @module The explorer end to end in headless Chromium against `wrangler dev` with the shipped analyses and two analyses of an Express project made for the run: every view (overview, search, object, file, levels, transactions, changes, /docs) at desktop and phone widths; every visible answer equals the REST answer; no console errors; screenshots in test-results/explorer/.
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../build/store.ts";
import { ensureWebBuilt } from "../../scripts/build-web.ts";
import { type DevServer, startDevServer } from "../../scripts/dev-server.ts";
import type {
  ApiCallee,
  ApiCallHierarchy,
  ApiChanges,
  ApiCharacteristics,
  ApiFileText,
  ApiFindObjectsResult,
  ApiFlowGraph,
  ApiLevel5Node,
  ApiLevelGraph,
  ApiLevelNode,
  ApiObjectRef,
  ApiPointsResult,
  ApplicationList,
} from "../../src/contract/api-schemas.ts";
import { appstruct } from "../support/appstruct-cli.ts";

const CHROMIUM = "/usr/bin/chromium";
const SHOTS = join(PROJECT_ROOT, "test-results", "explorer");
const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };
const found = existsSync(CHROMIUM);
if (!found)
  console.warn(
    `e2e: ${CHROMIUM} not found: the explorer's browser tests are SKIPPED (install Debian's chromium: apt-get install chromium)`,
  );

let server: DevServer;
let context: BrowserContext;
let page: Page;
let profile: string;
/** Console errors, uncaught exceptions and failed answers of the page, since the test began. */
let pageErrors: string[] = [];
/**
 * A file the analysis lists without its text answers 404 file_not_found, which the object page shows
 * as a note: the one failed answer the page expects (Chromium logs it as a console error too).
 */
const EXPECTED_FAILURE = /^404 \/rest\/applications\/[^/]+\/files\//;
/** Requests the page tried to send anywhere but the server under test (all refused). */
let elsewhere: string[] = [];

/** The API's answer, read directly (not through the page). */
async function rest<T>(path: string): Promise<T> {
  const response = await fetch(server.url + path);
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

const cells = (testId: string, column: number) =>
  page.locator(`[data-testid="${testId}"] tbody tr td:nth-child(${column})`).allInnerTexts();
const linkTexts = (testId: string) => page.locator(`[data-testid="${testId}"] li a`).allInnerTexts();
const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
/** Polls until the page shows what is expected (answers come from wrangler dev: the first ones take a moment). */
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 100 });
const heading = () => page.locator("main h2").first().textContent();
const canvasOf = (testId: string) => page.locator(`[data-testid="${testId}"] canvas`);
const explorer = (query: Record<string, string>) => `${server.url}/?${new URLSearchParams(query)}`;
/** How far the page scrolls sideways: 0 when it fits its window. */
const sideways = () => page.evaluate<number>("document.documentElement.scrollWidth - innerWidth");
const scrolledBy = () => page.evaluate<number>("scrollY");

const PETCLINIC = "Spring PetClinic";
/** test/fixtures/analyze/express as `appstruct analyze` names it. */
const EXPRESS = "owners-api";

/**
 * Two analyses of the Express fixture made now (an analysis no test has seen, with its files' text):
 * the second after findOwner's query changes and deleteOwner is added.
 */
async function analyzeExpress(dir: string): Promise<string[]> {
  const project = join(dir, EXPRESS);
  await cp(join(PROJECT_ROOT, "test", "fixtures", "analyze", "express"), project, { recursive: true });
  const analyze = async (file: string, analyzedAt: string) => {
    const run = await appstruct("analyze", project, "-o", join(dir, file), "--analyzed-at", analyzedAt);
    expect(run.code, run.stderr).toBe(0);
    return join(dir, file);
  };
  const first = await analyze("express-v1.json", "2026-11-01T00:00:00Z");
  const service = join(project, "src", "services", "owner-service.ts");
  const source = await readFile(service, "utf8");
  await writeFile(
    service,
    source
      .replace("where id = $1", "where id = $1 and deleted = false")
      .replace(
        "export async function createOwner",
        'export async function deleteOwner(id: number): Promise<void> {\n  await query("update owners set deleted = true where id = $1", [id]);\n}\n\nexport async function createOwner',
      ),
  );
  return [first, await analyze("express-v2.json", "2026-11-02T00:00:00Z")];
}
const base = (app: string) => `/rest/applications/${encodeURIComponent(app)}`;

describe.skipIf(!found)("explorer in headless Chromium", () => {
  beforeAll(async () => {
    await ensureWebBuilt();
    const folder = join(PROJECT_ROOT, "snapshots");
    const files = (await readdir(folder)).filter((f) => f.endsWith(".json")).map((f) => join(folder, f));
    await mkdir(SHOTS, { recursive: true });
    profile = await mkdtemp(join(tmpdir(), "appstruct-chromium-"));
    const analyses = await analyzeExpress(profile);
    [server, context] = await Promise.all([
      startDevServer({ files: [...files, ...analyses] }),
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
        viewport: DESKTOP,
      }),
    ]);
    page = context.pages()[0] ?? (await context.newPage());
    page.on("console", (message) => {
      if (message.type() === "error" && !message.text().startsWith("Failed to load resource"))
        pageErrors.push(`console: ${message.text()}`);
    });
    page.on("response", (response) => {
      const failure = `${response.status()} ${new URL(response.url()).pathname}`;
      if (response.status() >= 400 && !EXPECTED_FAILURE.test(failure)) pageErrors.push(failure);
    });
    page.on("pageerror", (error) => pageErrors.push(`page: ${error.message}`));
    // Nothing the explorer or /docs shows may come from another origin: such a request is refused and recorded.
    await context.route(
      (url) => url.origin !== server.url,
      (route) => {
        elsewhere.push(route.request().url());
        return route.abort();
      },
    );
  }, 150_000);

  beforeEach(async () => {
    pageErrors = [];
    elsewhere = [];
    await page.setViewportSize(DESKTOP);
  });

  afterAll(async () => {
    await context?.close();
    await server?.stop();
    if (profile) await rm(profile, { recursive: true, force: true });
  });

  it("overview: the application's objects, types and technologies, entry points and end points", async () => {
    const { applications } = await rest<ApplicationList>("/rest/applications");
    const app = applications[0].name;
    const [all, internal, level4, level5, transactions, dataGraphs] = await Promise.all([
      rest<ApiFindObjectsResult>(`${base(app)}/objects?limit=0`),
      rest<ApiFindObjectsResult>(`${base(app)}/objects?limit=0&searchtype=internal`),
      rest<ApiLevelGraph>(`${base(app)}/levels/4/graph`),
      rest<ApiLevelGraph>(`${base(app)}/levels/5/graph`),
      rest<{ totalTransactions: number }>(`${base(app)}/transactions?limit=0`),
      rest<{ totalDataGraphs: number }>(`${base(app)}/data-graphs?limit=0`),
    ]);
    await page.goto(`${server.url}/`);
    await eventually(heading).toBe(app);
    const types = [...new Set(level5.nodes.map((n) => n.name))];
    const technologies = [...new Set(level4.nodes.map((n) => n.name))];
    const counts = page.getByTestId("overview-counts");
    const countTexts = async () => (await counts.locator(":scope > div").allInnerTexts()).join("\n");
    // Each count comes from a request of its own, in no fixed order: each is awaited.
    for (const expected of [
      `End points\n${dataGraphs.totalDataGraphs.toLocaleString("en")}`,
      `Objects\n${all.totalObjects.toLocaleString("en")} ${internal.totalObjects.toLocaleString("en")} internal, ${(all.totalObjects - internal.totalObjects).toLocaleString("en")} external`,
      `Links\n${level5.links.length.toLocaleString("en")}`,
      `Types\n${types.length}`,
      `Technologies\n${technologies.length}`,
      `Entry points\n${transactions.totalTransactions.toLocaleString("en")}`,
    ])
      await eventually(countTexts).toContain(expected);
    expect((await cells("overview-types", 1)).sort()).toEqual([...types].sort());
    expect((await cells("overview-technologies", 1)).sort()).toEqual([...technologies].sort());
    await page.getByTestId("analysis-shown").textContent();
    expect(await page.getByTestId("analysis-shown").textContent()).toBe(
      `${app}: the analysis of ${applications[0].versions.at(-1)!.analyzedAt} (the newest), ${applications[0].versions.length} of ${applications[0].versions.length}`,
    );
    await shot("01-overview");
    // Every view is reached from the keyboard: the header's tabs are links in the tab order.
    for (const [tab, title] of [
      ["Search", "Find objects"],
      ["Levels", "Level 1"],
      ["Changes", "Changes"],
      ["Overview", app],
    ]) {
      await page.locator("main h2").focus();
      let focused = "";
      for (let presses = 0; presses < 12 && focused !== tab; presses++) {
        await page.keyboard.press("Shift+Tab");
        focused = await page.evaluate<string>("document.activeElement.textContent");
      }
      expect(focused).toBe(tab);
      await page.keyboard.press("Enter");
      await eventually(heading).toBe(title);
    }
    // Its entry points link to the transactions.
    await counts.getByRole("link", { name: String(transactions.totalTransactions) }).click();
    await eventually(heading).toBe("Transactions");
    expect(pageErrors).toEqual([]);
  });

  it("search: the application's types offered, annotations and tags shown; back restores the results and their scroll", async () => {
    const app = PETCLINIC;
    const level5 = await rest<ApiLevelGraph>(`${base(app)}/levels/5/graph`);
    await page.goto(explorer({ app, view: "search" }));
    await eventually(() => page.locator("#application-types option").count()).toBeGreaterThan(0);
    const offered = await page
      .locator("#application-types option")
      .evaluateAll((options) => options.map((o) => o.getAttribute("value") ?? ""));
    expect(offered.sort()).toEqual([...new Set(level5.nodes.map((n) => n.name))].sort());
    await page.getByLabel("Filter 1: field").selectOption("type");
    expect(await page.getByLabel("Filter 1: value").getAttribute("list")).toBe("application-types");
    await page.getByLabel("Filter 1: value").fill("Java Field");
    await page.getByLabel("Operator").selectOption("equals");
    await page.getByLabel("Per page").selectOption("100");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    const search = await rest<ApiFindObjectsResult>(`${base(app)}/objects?limit=100&type=Java+Field&operator=equals`);
    expect(search.objects.some((o) => o.annotations?.length) && search.objects.some((o) => o.tags.length)).toBe(true);
    await eventually(() => page.getByTestId("search-total").textContent()).toBe(
      `${search.totalObjects} objects match; showing 1–${search.objects.length}.`,
    );
    expect(await cells("search-results", 1)).toEqual(search.objects.map((o) => o.name));
    expect(await cells("search-results", 5)).toEqual(
      search.objects.map((o) => [...(o.annotations ?? []), ...o.tags].join("")),
    );
    await shot("02-search");

    // Far down the results, open an object, come back: the same rows, scrolled where they were.
    const row = page.locator('[data-testid="search-results"] tbody tr').nth(80);
    await row.scrollIntoViewIfNeeded();
    const scrolled = await scrolledBy();
    expect(scrolled).toBeGreaterThan(1000);
    await row.getByRole("link").click();
    await eventually(heading).toBe(`${search.objects[80].name} (${search.objects[80].type})`);
    await page.goBack();
    await eventually(() => cells("search-results", 1)).toEqual(search.objects.map((o) => o.name));
    await eventually(scrolledBy).toBe(scrolled);
    expect(pageErrors).toEqual([]);
  });

  it("object, found by name in an analysis made now: callers beside callees, its code from its file, the call hierarchy, transactions through it", async () => {
    const app = EXPRESS;
    await page.goto(explorer({ app, view: "search" }));
    await page.getByLabel("Filter 1: value").fill("findOwner");
    await page.getByLabel("Operator").selectOption("equals");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    const [found] = (await rest<ApiFindObjectsResult>(`${base(app)}/objects?limit=25&name=findOwner&operator=equals`))
      .objects;
    await page.getByTestId("search-results").getByRole("link", { name: "findOwner", exact: true }).click();
    const [object, callers, callees] = await Promise.all([
      rest<ApiCharacteristics>(`${base(app)}/objects/${found.id}?select=source-locations`),
      rest<ApiCallee[]>(`${base(app)}/objects/${found.id}/callers?select=parent`),
      rest<ApiCallee[]>(`${base(app)}/objects/${found.id}/callees?select=parent`),
    ]);
    expect(callers.length, "findOwner has callers").toBeGreaterThan(0);
    const id = object.id;
    const location = object.sourceLocations![0];
    const file = await rest<ApiFileText>(
      `${base(app)}/files/${location.fileId}?startLine=${location.startLine}&endLine=${location.endLine}`,
    );
    await eventually(heading).toBe(`${object.name} (${object.type})`);
    await eventually(() => cells("callers", 1)).toEqual(callers.map((c) => c.name));
    expect(await cells("callers", 3)).toEqual(callers.map((c) => c.linkType));
    expect(await cells("callers", 4)).toEqual(callers.map((c) => c.parent?.type ?? "—"));
    expect(await cells("callees", 1)).toEqual(callees.map((c) => c.name));
    // The code: the file's path and the object's lines, numbered as in the file, highlighted.
    await eventually(() => page.getByTestId("source-path").first().textContent()).toBe(file.path);
    const lines = page.locator('[data-testid="source-lines"]').first().locator(".line");
    expect(await lines.allTextContents()).toEqual(file.text.replace(/\n$/, "").split("\n"));
    expect(await lines.first().getAttribute("data-n")).toBe(String(location.startLine));
    expect(await page.locator('[data-testid="source-lines"] .hljs-keyword').count()).toBeGreaterThan(0);
    // The call hierarchy at 2 hops, each side asked apart.
    const [up, down] = await Promise.all([
      rest<ApiCallHierarchy>(`${base(app)}/objects/${id}/call-hierarchy?direction=callers&hops=2&limit=500`),
      rest<ApiCallHierarchy>(`${base(app)}/objects/${id}/call-hierarchy?direction=callees&hops=2&limit=500`),
    ]);
    await eventually(() => page.getByTestId("hierarchy-summary").textContent()).toBe(
      `${up.totalNodes - 1} callers and ${down.totalNodes - 1} callees within 2 hops`,
    );
    await eventually(() => canvasOf("hierarchy-picture").count()).toBeGreaterThan(0);
    // Transactions through it: the start points reaching it within the hops, each opening its transaction.
    const points = await rest<ApiPointsResult>(`${base(app)}/objects/${id}/start-end-points?hops=6`);
    expect(points.startPoints.length, "a route handler reaches findOwner").toBeGreaterThan(0);
    await eventually(() => linkTexts("start-points")).toEqual(points.startPoints.map((p) => p.name));
    await shot("03-object");

    // The hops control redraws the hierarchy.
    await page.getByLabel("Hops").first().fill("1");
    await page.getByLabel("Hops").first().press("Enter");
    const [up1, down1] = await Promise.all([
      rest<ApiCallHierarchy>(`${base(app)}/objects/${id}/call-hierarchy?direction=callers&hops=1&limit=500`),
      rest<ApiCallHierarchy>(`${base(app)}/objects/${id}/call-hierarchy?direction=callees&hops=1&limit=500`),
    ]);
    await eventually(() => page.getByTestId("hierarchy-summary").textContent()).toBe(
      `${up1.totalNodes - 1} callers and ${down1.totalNodes - 1} callees within 1 hops`,
    );

    // The whole file, the object's lines marked.
    await page.getByRole("link", { name: "Open the whole file" }).first().click();
    const whole = await rest<ApiFileText>(`${base(app)}/files/${location.fileId}`);
    await eventually(heading).toBe(whole.path);
    expect(await page.locator('[data-testid="file-lines"] .line').count()).toBe(whole.totalLines);
    expect(await page.locator('[data-testid="file-lines"] .line.marked').count()).toBe(
      Math.min(location.endLine, whole.totalLines) - location.startLine + 1,
    );
    await shot("04-file");

    // From the start points: the first one's transaction.
    await page.goBack();
    await eventually(heading).toBe(`${object.name} (${object.type})`);
    await page.getByTestId("start-points").getByRole("link").first().click();
    await eventually(() => page.locator("main h3").first().textContent()).toBe(
      `Transaction from ${points.startPoints[0].name}`,
    );
    expect(pageErrors).toEqual([]);
  });

  it("an end point: what reaches it (its data graph); switching application lands on the other's overview", async () => {
    const app = PETCLINIC;
    const { dataGraphs } = await rest<{ dataGraphs: ApiObjectRef[] }>(`${base(app)}/data-graphs?limit=100`);
    const graphs = await Promise.all(
      dataGraphs.map((d) => rest<ApiFlowGraph>(`${base(app)}/data-graphs/${d.id}/graph?limit=1000`)),
    );
    const pick = graphs.reduce((best, g, i) => (g.nodes.length > graphs[best].nodes.length ? i : best), 0);
    const table = dataGraphs[pick];
    const reaching = graphs[pick].nodes.filter((n) => n.role === "start" && n.id !== table.id);
    await page.goto(explorer({ app, view: "object", id: table.id }));
    await eventually(() => linkTexts("flow-far")).toEqual(reaching.map((n) => n.name));
    await eventually(() => canvasOf("flow-picture").count()).toBeGreaterThan(0);
    // Its file has no text in this analysis: the page names the file by its path (as find objects knows it), not its id.
    const [listed] = (
      await rest<ApiFindObjectsResult>(
        `${base(app)}/objects?limit=100&operator=equals&fullname=${encodeURIComponent(table.fullName)}`,
      )
    ).objects.filter((o) => o.id === table.id);
    expect(listed.filePath).not.toBeNull();
    await eventually(() => page.getByTestId("source-path").first().textContent()).toBe(listed.filePath);
    await shot("05-end-point");

    // Another application: its overview, not an object of this one's id.
    const other = (await rest<ApplicationList>("/rest/applications")).applications.find((a) => a.name !== app)!;
    await page.getByLabel("Application").selectOption(other.name);
    await eventually(heading).toBe(other.name);
    expect(await page.getByRole("alert").count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it("transactions: searchable entry points, one drawn in layers from its start to the tables it reaches", async () => {
    const app = PETCLINIC;
    const list = await rest<{ totalTransactions: number; transactions: ApiObjectRef[] }>(
      `${base(app)}/transactions?limit=50&name=owner`,
    );
    expect(list.totalTransactions).toBeGreaterThan(0);
    await page.goto(explorer({ app, view: "transactions" }));
    await page.getByLabel("Start point name contains").fill("owner");
    await page.getByRole("button", { name: "Find" }).click();
    await eventually(() => page.getByTestId("flows-total").textContent()).toBe(
      `${list.totalTransactions} transactions; showing 1–${list.transactions.length}`,
    );
    expect(await linkTexts("flows")).toEqual(list.transactions.map((t) => t.name));
    const graphs = await Promise.all(
      list.transactions.map((t) => rest<ApiFlowGraph>(`${base(app)}/transactions/${t.id}/graph?limit=1000`)),
    );
    const pick = graphs.findIndex((g) => g.nodes.some((n) => n.role === "end"));
    const graph = graphs[pick];
    await page.getByTestId("flows").getByRole("link", { name: list.transactions[pick].name, exact: true }).click();
    const ends = graph.nodes.filter((n) => n.role === "end");
    await eventually(() => page.getByTestId("flow-summary").textContent()).toBe(
      `${graph.totalNodes} objects, ${ends.length} end points`,
    );
    expect(await linkTexts("flow-far")).toEqual(ends.map((n) => n.name));
    await eventually(() => canvasOf("flow-picture").count()).toBeGreaterThan(0);
    // Every object of the picture is also a link, by distance, for the keyboard.
    await page.getByText(/^Every object of the picture, by distance/).click();
    expect(await page.locator(".column-list a").count()).toBe(graph.nodes.length - 1);
    await shot("06-transaction");
    // The data graphs, the same way.
    await page.getByRole("link", { name: "Data graphs (to tables and other end points)" }).click();
    const dataGraphs = await rest<{ totalDataGraphs: number; dataGraphs: ApiObjectRef[] }>(
      `${base(app)}/data-graphs?limit=50`,
    );
    await eventually(() => linkTexts("flows")).toEqual(dataGraphs.dataGraphs.map((d) => d.name));
    expect(pageErrors).toEqual([]);
  });

  it("changes between two analyses: totals, objects each opening its page in its analysis; the version picker reads older analyses everywhere", async () => {
    const app = PETCLINIC;
    const { applications } = await rest<ApplicationList>("/rest/applications");
    const versions = applications.find((a) => a.name === app)!.versions;
    const changes = await rest<ApiChanges>(`${base(app)}/changes?limit=100`);
    await page.goto(explorer({ app, view: "changes" }));
    await eventually(() => page.getByTestId("changes-compared").textContent()).toBe(
      `From the analysis of ${changes.from} to that of ${changes.to}`,
    );
    expect((await page.getByTestId("changes-totals").locator("label").allInnerTexts()).map((t) => t.trim())).toEqual([
      `added ${changes.totals.added.toLocaleString("en")}`,
      `deleted ${changes.totals.deleted.toLocaleString("en")}`,
      `modified ${changes.totals.modified.toLocaleString("en")}`,
    ]);
    expect(await cells("changes", 1)).toEqual(changes.objects.map((o) => o.name));
    expect(await cells("changes", 2)).toEqual(changes.objects.map((o) => o.status));
    await shot("07-changes");
    // Only the deleted ones; one opens in the older analysis, where it still is.
    await page.getByRole("checkbox", { name: /deleted/ }).check();
    const deleted = await rest<ApiChanges>(`${base(app)}/changes?limit=100&status=deleted`);
    expect(deleted.objects.length).toBeGreaterThan(0);
    await eventually(() => cells("changes", 1)).toEqual(deleted.objects.map((o) => o.name));
    await page.getByTestId("changes").getByRole("link").first().click();
    await eventually(heading).toBe(`${deleted.objects[0].name} (${deleted.objects[0].type})`);
    expect(new URL(page.url()).searchParams.get("date")).toBe(changes.from);
    expect(await page.getByTestId("analysis-shown").textContent()).toContain(`the analysis of ${changes.from}`);

    // The older analysis read by the levels too.
    const older = versions[0].analyzedAt;
    const level1 = await rest<ApiLevelGraph>(`${base(app)}/levels/1/graph?date=${encodeURIComponent(older)}`);
    await page.goto(explorer({ app, view: "levels", date: older }));
    await eventually(() => cells("level-nodes", 2)).toEqual(
      [...level1.nodes]
        .sort((a, b) => b.nbObjects - a.nbObjects || (a.name < b.name ? -1 : 1))
        .map((n) => n.nbObjects.toLocaleString("en")),
    );
    expect(await page.getByTestId("analysis-shown").textContent()).toBe(
      `${app}: the analysis of ${older}, 1 of ${versions.length}`,
    );
    expect(pageErrors).toEqual([]);
  });

  it("levels: names with their context, zoom, fit and full screen, neighbours greyed, a single child skipped, drill-down and back", async () => {
    const app = PETCLINIC;
    const graphs = await Promise.all([1, 2, 3, 4, 5].map((l) => rest<ApiLevelGraph>(`${base(app)}/levels/${l}/graph`)));
    const byObjects = (nodes: ApiLevelGraph["nodes"]) =>
      [...nodes].sort((a, b) => b.nbObjects - a.nbObjects || (a.name < b.name ? -1 : 1));

    // Level 5 alone: a name many nodes bear is told apart by an ancestor it does not contain.
    await page.goto(explorer({ app, view: "levels", level: "5" }));
    await eventually(() => cells("level-nodes", 1)).toHaveLength(50);
    const top = byObjects(graphs[4].nodes).slice(0, 50);
    const labels = await cells("level-nodes", 1);
    const repeated = top.findIndex((n) => graphs[4].nodes.filter((m) => m.name === n.name).length > 1);
    const context = top[repeated].fullName
      .split("##")
      .slice(0, -1)
      .reverse()
      .find((a) => !top[repeated].name.toLowerCase().includes(a.toLowerCase()));
    expect(labels[repeated]).toBe(`${context} › ${top[repeated].name}`);
    const unique = top.findIndex((n) => graphs[4].nodes.filter((m) => m.name === n.name).length === 1);
    if (unique >= 0) expect(labels[unique]).toBe(top[unique].name);
    await eventually(() => canvasOf("level-graph").count()).toBeGreaterThan(0);
    // Full screen fills the window; Escape leaves it.
    await page.getByRole("button", { name: "Full screen" }).click();
    const box = await page.getByTestId("level-graph").boundingBox();
    expect(box!.width).toBeGreaterThan(DESKTOP.width - 40);
    expect(box!.height).toBeGreaterThan(DESKTOP.height - 100);
    await shot("08-level-5-full-screen");
    await page.keyboard.press("Escape");
    await eventually(async () => (await page.getByTestId("level-graph").boundingBox())!.height).toBe(460);
    await page.getByRole("button", { name: "Zoom in" }).click();
    await page.getByRole("button", { name: "Fit" }).click();

    // From level 1 down, always into the node with the most objects; a node with one child opens the child.
    await page.goto(explorer({ app, view: "levels" }));
    await eventually(heading).toBe("Level 1");
    let node = byObjects(graphs[0].nodes)[0];
    const trail = ["Level 1", node.name];
    let level = 1;
    await page.getByTestId("level-nodes").getByRole("button", { name: node.name, exact: true }).click();
    let skipped = false;
    while (level < 5) {
      // The children of `node` (level `level`), found as the API lists them.
      let children =
        level === 1
          ? graphs[1].nodes.filter((n) => n.fullName === `${node.fullName}##${n.name}`)
          : (
              await rest<ApiLevelNode[]>(`${base(app)}/levels/${level}/nodes?_id=${node._id}&select=children`)
            )[0].children.map((c) => graphs[level].nodes.find((n) => n._id === c._id)!);
      level++;
      while (children.length === 1 && level < 5) {
        skipped = true;
        node = children[0];
        trail.push(node.name);
        children = (
          await rest<ApiLevelNode[]>(`${base(app)}/levels/${level}/nodes?_id=${node._id}&select=children`)
        )[0].children.map((c) => graphs[level].nodes.find((n) => n._id === c._id)!);
        level++;
      }
      await eventually(heading).toBe(`Level ${level}`);
      await eventually(() => page.getByTestId("level-nodes").locator("tbody tr").count()).toBe(
        Math.min(50, children.length),
      );
      expect(await page.getByRole("navigation", { name: "Breadcrumbs" }).getByRole("link").allInnerTexts()).toEqual(
        trail,
      );
      // Neighbours: nodes of this level outside the drilled node, linked to its children.
      const inside = new Set(children.map((c) => c._id));
      const neighbours = new Set<number>();
      for (const l of graphs[level - 1].links) {
        if (inside.has(l.origin._id) && !inside.has(l.target._id)) neighbours.add(l.target._id);
        if (inside.has(l.target._id) && !inside.has(l.origin._id)) neighbours.add(l.origin._id);
      }
      if (neighbours.size)
        expect(await page.getByTestId("level-summary").textContent()).toContain(
          `; ${Math.min(12, neighbours.size)} of ${neighbours.size} neighbours outside it drawn grey`,
        );
      await eventually(() => canvasOf("level-graph").count()).toBeGreaterThan(0);
      if (level === 3) await shot("09-level-3");
      if (level === 5) break;
      node = byObjects(children)[0];
      trail.push(node.name);
      await page.getByTestId("level-nodes").getByRole("button", { name: node.name, exact: true }).first().click();
    }
    expect(skipped, "the PetClinic taxonomy has a node with a single child on the way").toBe(true);
    node = byObjects(
      (await rest<ApiLevelNode[]>(`${base(app)}/levels/4/nodes?_id=${node._id}&select=children`))[0].children.map(
        (c) => graphs[4].nodes.find((n) => n._id === c._id)!,
      ),
    )[0];
    await page.getByTestId("level-nodes").locator("tbody tr").first().getByRole("button").click();
    const [level5] = await rest<ApiLevel5Node[]>(`${base(app)}/levels/5/nodes?_id=${node._id}&select=children`);
    await eventually(heading).toBe(`Objects of ${node.name}`);
    await eventually(() => cells("level-objects", 1)).toEqual(level5.children.slice(0, 100).map((o) => o.name));
    await shot("10-level-5-objects");
    await page.goBack();
    await eventually(heading).toBe("Level 5");
    expect(pageErrors).toEqual([]);
  });

  it("/docs: the API reference drawn with nothing from another origin, linked from the header", async () => {
    await page.goto(explorer({ app: PETCLINIC }));
    await page.getByRole("link", { name: "API reference" }).click();
    await page.waitForURL(`${server.url}/docs`);
    await eventually(() => page.getByText("Find objects", { exact: false }).count()).toBeGreaterThan(0);
    await eventually(() => page.locator("body").textContent()).toContain("Read-only queries on the structure");
    await shot("11-docs");
    expect(elsewhere).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it("a phone (390 px): every view fits without sideways scrolling, results as stacked cards, graphs leave the page room to scroll", async () => {
    const app = PETCLINIC;
    await page.setViewportSize(PHONE);
    const object = (await rest<ApiFindObjectsResult>(`${base(app)}/objects?limit=1&name=createOwner&operator=equals`))
      .objects[0];
    const transaction = (
      await rest<{ transactions: ApiObjectRef[] }>(`${base(app)}/transactions?limit=1&name=createOwner`)
    ).transactions[0];
    const views: [string, Record<string, string>, string][] = [
      ["overview", {}, "overview-counts"],
      ["search", { view: "search", name: "owner" }, "search-results"],
      ["object", { view: "object", id: object.id }, "hierarchy-picture"],
      ["levels", { view: "levels", level: "3" }, "level-graph"],
      ["transactions", { view: "transactions", id: transaction.id }, "flow-picture"],
      ["changes", { view: "changes" }, "changes"],
    ];
    for (const [name, query, testId] of views) {
      await page.goto(explorer({ app, ...query }));
      await eventually(() => page.getByTestId(testId).count()).toBeGreaterThan(0);
      await page.waitForLoadState("networkidle");
      expect(await sideways(), `${name} scrolls sideways`).toBe(0);
      // A graph takes at most 55% of the window's height: a thumb finds page to scroll past it.
      for (const graph of await page.locator(".graph").all())
        expect((await graph.boundingBox())!.height, name).toBeLessThanOrEqual(PHONE.height * 0.55 + 1);
      await shot(`phone-${name}`);
    }
    // Search results are cards: one under the other, each as wide as the page.
    await page.goto(explorer({ app, view: "search", name: "owner" }));
    const cards = page.locator('[data-testid="search-results"] tbody tr');
    await eventually(() => cards.count()).toBeGreaterThan(1);
    const [first, second] = [(await cards.nth(0).boundingBox())!, (await cards.nth(1).boundingBox())!];
    expect(second.y).toBeGreaterThanOrEqual(first.y + first.height);
    expect(first.width).toBeGreaterThan(PHONE.width - 40);
    expect(first.height).toBeLessThan(260);
    expect(pageErrors).toEqual([]);
  });

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
    const response = await fetch(`${server.url}${base(PETCLINIC)}/objects/999999999`);
    const problem = (await response.json()) as { code: string; detail: string };
    expect(problem.code).toBe("object_not_found");
    await page.goto(explorer({ app: PETCLINIC, view: "object", id: "999999999" }));
    await eventually(() => page.getByRole("alert").first().textContent()).toContain(problem.detail);
    await shot("12-error");
  });
});
