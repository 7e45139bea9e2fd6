// @module The rules file: defaults, partial replacement, refusals, concept folders, package patterns, and rules applied to a project.

import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { analyzeProject } from "../../build/analyze/analyze.ts";
import { DEFAULT_RULES, firstMatch, loadRules, packageMatches, RulesError } from "../../build/analyze/rules.ts";
import { conceptOf } from "../../build/analyze/taxonomy.ts";
import { FIXTURES, levelNames, object } from "./fixture-project.ts";

async function rulesFile(content: unknown): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), "appstruct-rules-")), "rules.json");
  await writeFile(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

describe("rules", () => {
  it("concept: the first folders after the skipped ones, or the root name", () => {
    const concept = DEFAULT_RULES.concept;
    expect(conceptOf("src/routes/owners.ts", concept)).toBe("routes");
    expect(conceptOf("src/app/billing/invoice.ts", concept)).toBe("billing");
    expect(conceptOf("server.ts", concept)).toBe("(root)");
    expect(conceptOf("src/index.ts", concept)).toBe("(root)");
    expect(conceptOf("packages/api/src/x.ts", { ...concept, depth: 2 })).toBe("api/src");
  });

  it("package patterns: exact names, scopes, Node built-ins", () => {
    expect(packageMatches("pg", "pg")).toBe(true);
    expect(packageMatches("pg", "pg-promise")).toBe(false);
    expect(packageMatches("@aws-sdk/*", "@aws-sdk/client-s3")).toBe(true);
    expect(packageMatches("node:*", "fs")).toBe(true);
    expect(packageMatches("node:*", "express")).toBe(false);
  });

  it("services: the first rule matching the path or an import; tests before APIs", () => {
    const name = (path: string, imports: string[] = []) =>
      firstMatch(DEFAULT_RULES.services, path, new Set(imports))?.name;
    expect(name("src/routes/owners.test.ts")).toBe("Test Services");
    expect(name("src/routes/owners.ts")).toBe("API Services");
    expect(name("src/main.ts", ["hono"])).toBe("API Services");
    expect(name("src/components/Button.tsx")).toBe("UI Services");
    expect(name("src/db/pool.ts")).toBe("Data Services");
    expect(name("src/billing/invoice.ts")).toBe("Logic Services");
  });

  it("a rules file replaces the sections it names and keeps the defaults of the others", async () => {
    const rules = await loadRules(await rulesFile({ services: [{ name: "Everything" }] }));
    expect(rules.services).toEqual([{ name: "Everything" }]);
    expect(rules.technologies).toEqual(DEFAULT_RULES.technologies);
  });

  it("refuses a rules file that is not JSON, has an unknown section or a bad regular expression, saying where", async () => {
    await expect(loadRules(await rulesFile("{"))).rejects.toThrow(RulesError);
    await expect(loadRules(await rulesFile({ service: [] }))).rejects.toThrow(/Unrecognized key/);
    await expect(loadRules(await rulesFile({ services: [{ name: "x", path: "(" }] }))).rejects.toThrow(
      /services\.0\.path must be a valid JavaScript regular expression/,
    );
  });

  it("custom rules change the taxonomy and the end points of an analysis", async () => {
    const rules = await loadRules(
      await rulesFile({
        abstracted: { internal: "Owners", external: "Outside" },
        services: [
          { name: "Persistence", imports: ["pg"] },
          { name: "Test Services", path: "^src/server\\.ts$" },
          { name: "Rest" },
        ],
        endPoints: [{ packages: ["express"], members: "^listen$", what: "server socket" }],
      }),
    );
    const d = analyzeProject({ folder: join(FIXTURES, "express"), rules }).document;
    expect(levelNames(d, object(d, '"src/db/client".query'))).toEqual([
      "Owners",
      "Persistence",
      "db",
      "TypeScript",
      "TypeScript Function",
    ]);
    expect(levelNames(d, object(d, '"src/server".start'))).toEqual([
      "Owners",
      "Test Services",
      "(root)",
      "Express",
      "TypeScript Function",
    ]);
    expect(object(d, '"src/server".start').tags).toEqual(["exported", "test"]);
    expect(levelNames(d, object(d, '"src/routes/owners".createOwnerHandler'))).toEqual([
      "Owners",
      "Rest",
      "routes",
      "Express",
      "TypeScript Function",
    ]);
    expect(object(d, '"src/routes/owners".createOwnerHandler').tags).toEqual(["async"]);
    expect(levelNames(d, object(d, "express.listen"))).toEqual([
      "Outside",
      "Libraries",
      "express",
      "npm",
      "External Member",
    ]);
    // Tables are end points whatever the rules: the owners table the services query stays one.
    expect(d.objects.filter((o) => o.role === "end").map((o) => o.fullName)).toEqual(["express.listen", "owners"]);
    expect(object(d, "express.listen").tags).toEqual(["server socket"]);
  });
});
