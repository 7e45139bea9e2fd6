// @module docs/api.md against the code: every route, parameter, answer field and error code it must describe, its links, and its examples sent to the service.
import { copyFile, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { loadFolderCatalog } from "../../build/folder-catalog.ts";
import { createApp } from "../../src/app.ts";
import { ERROR_TITLES, PUBLISH_ERROR_TITLES } from "../../src/contract/errors.ts";
import { ROUTE_SPECS, type RouteSpec } from "../../src/contract/route-specs.ts";
import { SnapshotSourceLocator } from "../../src/query/source-locator.ts";
import { anchor, codeSpans, fences, headings, type Section, sections, tables } from "../support/markdown.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const DOC = await readFile(join(ROOT, "docs/api.md"), "utf8");
const EXAMPLES = join(ROOT, "test/fixtures/examples");
const COMMON_ERRORS_ANCHOR = "#errors-of-every-application-route";

/** The section of `spec`: the one whose heading names its method and path exactly. */
function routeSection(spec: RouteSpec): Section {
  const found = sections(DOC, (h) => codeSpans(h.text).includes(`${spec.method} ${spec.path}`));
  expect(found, `one heading holding \`${spec.method} ${spec.path}\``).toHaveLength(1);
  return found[0];
}

const tableWith = (section: Section, firstHeader: string) =>
  tables(section.lines).filter((t) => t.header[0] === firstHeader);

/** Every field path of a response schema: `objects[].parent.id`; a top-level array's items have no prefix. */
function fieldPaths(schema: z.ZodType): Set<string> {
  type Json = { type?: string; properties?: Record<string, Json>; items?: Json; anyOf?: Json[]; oneOf?: Json[] };
  const out = new Set<string>();
  const walk = (s: Json, prefix: string) => {
    for (const alternative of s.anyOf ?? s.oneOf ?? []) walk(alternative, prefix);
    for (const [key, value] of Object.entries(s.properties ?? {})) {
      const path = prefix ? `${prefix}.${key}` : key;
      out.add(path);
      walk(value, path);
    }
    if (s.items) walk(s.items, prefix && `${prefix}[]`);
  };
  walk(z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }) as Json, "");
  return out;
}

/** The codes of the section's **Errors** paragraph, with the common ones when it links to them. */
function documentedErrors(section: Section, common: readonly string[]): string[] {
  const start = section.lines.findIndex((l) => l.startsWith("**Errors**"));
  expect(start, `an **Errors** paragraph under ${section.heading.text}`).toBeGreaterThanOrEqual(0);
  const end = section.lines.findIndex((l, i) => i > start && l.trim() === "");
  const paragraph = section.lines.slice(start, end < 0 ? undefined : end).join(" ");
  const codes = codeSpans(paragraph);
  return paragraph.includes(`](${COMMON_ERRORS_ANCHOR})`) ? [...common, ...codes] : codes;
}

const applicationRoutes = ROUTE_SPECS.filter((s) => s.path.startsWith("/rest/applications/{name}/"));
const commonErrors = [...applicationRoutes[0].errors].filter((code) =>
  applicationRoutes.every((s) => s.errors.includes(code)),
);

describe("docs/api.md describes every route of src/contract/route-specs.ts", () => {
  it.each(ROUTE_SPECS.map((s) => [s.path, s] as const))(
    "%s: its parameters, each with the spec's rules",
    (_path, spec) => {
      const section = routeSection(spec);
      const expected = [
        ...Object.keys(spec.pathParams).map((name) => ["path", name, "yes", "no", "—"]),
        ...Object.entries(spec.query).map(([name, p]) => [
          "query",
          name,
          p.required ? "yes" : "no",
          p.repeatable ? "yes" : "no",
          p.default === undefined ? "—" : `\`${p.default}\``,
        ]),
      ];
      const found = tableWith(section, "Parameter");
      if (expected.length === 0) {
        expect(found).toEqual([]);
        return;
      }
      expect(found, "one parameter table").toHaveLength(1);
      const { header, rows } = found[0];
      expect(header.slice(0, 5)).toEqual(["Parameter", "In", "Required", "Repeatable", "Default"]);
      // "no (one of name/_id)" reads as no: the rule that one of them is needed is the route's own.
      const documented = rows.map(([name, where, required, repeatable, byDefault]) => [
        where,
        name.replace(/^`|`$/g, ""),
        required.split(" ")[0],
        repeatable,
        byDefault,
      ]);
      expect(documented).toEqual(expected);
    },
  );

  it.each(ROUTE_SPECS.map((s) => [s.path, s] as const))(
    "%s: every field of its answer, and no other",
    (_path, spec) => {
      const section = routeSection(spec);
      const paths = fieldPaths(spec.response);
      const found = tableWith(section, "Field");
      if (paths.size === 0) {
        expect(found).toEqual([]);
        return;
      }
      expect(found, "one answer table").toHaveLength(1);
      const documented = found[0].rows.map(([field]) => field.replace(/^`|`$/g, ""));
      expect(new Set(documented)).toEqual(paths);
      expect(documented).toHaveLength(paths.size);
    },
  );

  it.each(ROUTE_SPECS.map((s) => [s.path, s] as const))(
    "%s: exactly the error codes the route can answer",
    (_path, spec) => {
      expect(new Set(documentedErrors(routeSection(spec), commonErrors))).toEqual(new Set(spec.errors));
    },
  );

  it("lists the errors every application route shares", () => {
    const [section] = sections(DOC, (h) => `#${anchor(h.text)}` === COMMON_ERRORS_ANCHOR);
    const firstParagraph = section.lines
      .join("\n")
      .trim()
      .split(/\n\s*\n/)[0];
    expect(new Set(codeSpans(firstParagraph))).toEqual(new Set(commonErrors));
  });

  it("has no route section for a route the specs do not have", () => {
    const documented = headings(DOC).flatMap((h) => codeSpans(h.text).filter((c) => /^GET \/rest\//.test(c)));
    expect(documented.sort()).toEqual(ROUTE_SPECS.map((s) => `GET ${s.path}`).sort());
  });
});

describe("docs/api.md's error table", () => {
  const [table] = tables(DOC.split("\n")).filter((t) => t.header.join("|") === "Status|Code|Title|When");
  const all = { ...ERROR_TITLES, ...PUBLISH_ERROR_TITLES };

  it("has every code of src/contract/errors.ts with its status and title, and no other", () => {
    const rows = table.rows.map(([status, code, title]) => [code.replace(/^`|`$/g, ""), Number(status), title]);
    expect(rows.sort()).toEqual(
      Object.entries(all)
        .map(([code, [status, title]]) => [code, status, title])
        .sort(),
    );
  });

  it("says when each code is answered", () => {
    for (const row of table.rows) expect(row[3].length, row[1]).toBeGreaterThan(20);
  });
});

describe("links to docs/api.md sections", () => {
  const anchors = new Set(headings(DOC).map((h) => `#${anchor(h.text)}`));

  it("every link inside docs/api.md lands on a heading", () => {
    const links = [...DOC.matchAll(/\]\((#[^)]+)\)/g)].map((m) => m[1]);
    expect(links.length).toBeGreaterThan(10);
    expect(links.filter((l) => !anchors.has(l))).toEqual([]);
  });

  it("every reference to a docs/api.md section in the repository (docs, comments, README) names one", async () => {
    const titles = headings(DOC).map((h) => h.text);
    const files = await textFiles(["README.md", "docs", "src", "build", "test", "scripts", "snapshots", "web/src"]);
    const references: string[] = [];
    const broken: string[] = [];
    for (const file of files) {
      const text = await readFile(file, "utf8");
      const where = file.slice(ROOT.length + 1);
      // An anchor after the file name (links, comments), or a quoted heading title (comments naming a route's section).
      for (const m of text.matchAll(/(?<![\w-])(?:docs\/)?api\.md(?:(#[\w-]+)| "([^"]+)")/g)) {
        references.push(m[0]);
        const found = m[1] ? anchors.has(m[1]) : titles.some((t) => t.startsWith(m[2]));
        if (!found) broken.push(`${where}: ${m[0]}`);
      }
    }
    expect(references.length).toBeGreaterThan(50);
    expect(broken).toEqual([]);
  });
});

/** The Markdown and TypeScript files under `paths` (relative to the root), recursively. */
async function textFiles(paths: string[]): Promise<string[]> {
  const out: string[] = [];
  const visit = async (path: string): Promise<void> => {
    const entries = await readdir(path, { withFileTypes: true }).catch(() => null);
    if (!entries) {
      if (/\.(md|ts|tsx)$/.test(path)) out.push(path);
      return;
    }
    for (const e of entries) if (e.name !== "node_modules" && e.name !== "dist") await visit(join(path, e.name));
  };
  for (const p of paths) await visit(join(ROOT, p));
  return out;
}

describe("docs/api.md's examples are the service's answers", () => {
  let folder = "";
  let app: ReturnType<typeof createApp>;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "appstruct-api-doc-"));
    for (const file of ["petstore-v1.json", "petstore-v2.json"])
      await copyFile(join(EXAMPLES, file), join(folder, file));
    const catalog = await loadFolderCatalog(folder, () => {});
    const deps = { catalog, sources: new SnapshotSourceLocator(catalog), access: null };
    app = createApp(() => deps);
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  /** Each `http` block holding one GET, with the `json` block right after it: the answer. */
  const all = fences(DOC);
  const examples = all.flatMap((fence, i) => {
    const request = /^GET (\/\S+)$/.exec(fence.body.trim());
    const answer = all[i + 1];
    return fence.lang === "http" && request && answer?.lang === "json"
      ? [{ path: request[1], answer: answer.body }]
      : [];
  });

  it("every route has at least one example", () => {
    for (const spec of ROUTE_SPECS) {
      const pattern = new RegExp(`^${spec.path.replace(/\{[^}]+\}/g, "[^/?]+")}(\\?|$)`);
      expect(
        examples.some((e) => pattern.test(e.path)),
        spec.path,
      ).toBe(true);
    }
  });

  it.each(examples.map((e) => [e.path, e] as const))("GET %s", async (path, example) => {
    const expected = JSON.parse(example.answer) as { status?: number; code?: string } | unknown[] | true;
    const response = await app.request(path);
    // An error example is a problem body, which names its own status.
    const status = typeof expected === "object" && !Array.isArray(expected) && expected.code ? expected.status : 200;
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual(expected);
  });
});
