// @module Patterns easy to miss, each in a fixture written from the pattern: CommonJS apps and prototypes, entry points without main or in build output, an extended tsconfig that is not installed, JSX without its runtime.
import { describe, expect, it } from "vitest";
import { analyzeFixture, linkLines, object, objectLines } from "./fixture-project.ts";

const startPoints = (d: ReturnType<typeof analyzeFixture>["document"]) =>
  d.objects.filter((o) => o.role === "start").map((o) => `${o.type} | ${o.fullName}`);

describe("appstruct analyze: blind spots", () => {
  it("CommonJS: routes on `var app = module.exports = express()`, `this.x()` between functions bound by assignment, prototype methods under their constructor, index.js as the default main", () => {
    const d = analyzeFixture("commonjs").document;
    expect(objectLines(d)).toEqual([
      'JavaScript Route Handler | "index".GET /health | index.js:7-9',
      'JavaScript Function Expression | "index".create | index.js:11-14',
      'JavaScript Function Expression | "lib/application".app.init | lib/application.js:3-6',
      'JavaScript Function Expression | "lib/application".app.defaultConfiguration | lib/application.js:8-10',
      'JavaScript Function Expression | "lib/application".app.set | lib/application.js:12-15',
      'JavaScript Function | "lib/router".Router | lib/router.js:1-3',
      'JavaScript Method | "lib/router".Router.use | lib/router.js:5-8',
      'JavaScript Method | "lib/router".Router.handle | lib/router.js:10-12',
      'JavaScript Method | "lib/router".Router.dispatch | lib/router.js:14-17',
    ]);
    expect(linkLines(d, ["CALL"])).toEqual([
      'CALL "index".create -> "lib/application".app.init',
      'CALL "index".create -> "lib/router".Router',
      'CALL "index".create -> "lib/router".Router.use',
      'CALL "lib/application".app.defaultConfiguration -> "lib/application".app.set',
      'CALL "lib/application".app.init -> "lib/application".app.defaultConfiguration',
      'CALL "lib/router".Router.handle -> "lib/router".Router.dispatch',
      'CALL "lib/router".Router.use -> ECMAScript.Array.push',
      "CALL index.js -> express",
      "CALL index.js -> express.get",
    ]);
    // Prototype methods belong to their constructor function; functions bound to an object's property, to the file.
    const router = object(d, '"lib/router".Router').id;
    for (const m of ["use", "handle", "dispatch"]) expect(object(d, `"lib/router".Router.${m}`).parent).toBe(router);
    expect(object(d, '"lib/application".app.init').parent).toBe(object(d, "lib/application.js").id);
    expect(startPoints(d)).toEqual([
      'JavaScript Route Handler | "index".GET /health',
      'JavaScript Function Expression | "index".create',
    ]);
  });

  it("CLI command handlers of commander and yargs are start points, at the end of long option chains too: inline ones become Command Handler objects, named ones are marked", () => {
    const d = analyzeFixture("commands").document;
    expect(objectLines(d)).toEqual([
      'TypeScript Command Handler | "src/commander-cli".command build | src/commander-cli.ts:14-16',
      'TypeScript Function | "src/tasks".build | src/tasks.ts:1-3',
      'TypeScript Function | "src/tasks".clean | src/tasks.ts:5-7',
      'TypeScript Function | "src/yargs-cli".serve | src/yargs-cli.ts:4-6',
      'TypeScript Command Handler | "src/yargs-cli".command clean | src/yargs-cli.ts:10-10',
    ]);
    expect(linkLines(d, ["CALL"]).filter((l) => l.includes('"src/tasks"'))).toEqual([
      'CALL "src/commander-cli".command build -> "src/tasks".build',
      'CALL "src/yargs-cli".command clean -> "src/tasks".clean',
      'CALL "src/yargs-cli".serve -> "src/tasks".build',
    ]);
    // `cache.set("clean", clean)` on a Map registers nothing: clean is a start point for `.action(clean)` only.
    expect(startPoints(d)).toEqual([
      'TypeScript Command Handler | "src/commander-cli".command build',
      'TypeScript Function | "src/tasks".clean',
      'TypeScript Function | "src/yargs-cli".serve',
      'TypeScript Command Handler | "src/yargs-cli".command clean',
    ]);
  });

  it("super() into a base class without constructor calls that class; an implements clause inherited from a base lacking the method still DISPATCHes", () => {
    const d = analyzeFixture("inheritance").document;
    expect(objectLines(d)).toEqual([
      'TypeScript Interface | "src/greeters".Greeter | src/greeters.ts:1-3',
      'TypeScript Interface Method | "src/greeters".Greeter.greet | src/greeters.ts:2-2',
      'TypeScript Class | "src/greeters".Base | src/greeters.ts:5-7',
      'TypeScript Class | "src/greeters".Middle | src/greeters.ts:9-9',
      'TypeScript Class | "src/greeters".Leaf | src/greeters.ts:11-15',
      'TypeScript Constructor | "src/greeters".Leaf.constructor | src/greeters.ts:12-14',
      'TypeScript Class | "src/greeters".Polite | src/greeters.ts:18-20',
      'TypeScript Method | "src/greeters".Polite.greet | src/greeters.ts:19-19',
      'TypeScript Class | "src/greeters".Loud | src/greeters.ts:22-26',
      'TypeScript Method | "src/greeters".Loud.greet | src/greeters.ts:23-25',
      'TypeScript Class | "src/greeters".Friendly | src/greeters.ts:28-32',
      'TypeScript Method | "src/greeters".Friendly.greet | src/greeters.ts:29-31',
      'TypeScript Class | "src/greeters".VeryFriendly | src/greeters.ts:34-38',
      'TypeScript Method | "src/greeters".VeryFriendly.greet | src/greeters.ts:35-37',
      'TypeScript Class | "src/greeters".Quiet | src/greeters.ts:41-41',
      'TypeScript Class | "src/greeters".Whisper | src/greeters.ts:43-47',
      'TypeScript Method | "src/greeters".Whisper.greet | src/greeters.ts:44-46',
      'TypeScript Function | "src/greeters".welcome | src/greeters.ts:49-51',
    ]);
    expect(linkLines(d, ["CALL", "DISPATCH"]).filter((l) => !l.includes("ECMAScript"))).toEqual([
      'CALL "src/greeters".Leaf.constructor -> "src/greeters".Middle',
      'CALL "src/greeters".VeryFriendly.greet -> "src/greeters".Friendly.greet',
      'CALL "src/greeters".welcome -> "src/greeters".Greeter.greet',
      'DISPATCH "src/greeters".Friendly.greet -> "src/greeters".VeryFriendly.greet',
      'DISPATCH "src/greeters".Greeter.greet -> "src/greeters".Friendly.greet',
      'DISPATCH "src/greeters".Greeter.greet -> "src/greeters".Polite.greet',
      'DISPATCH "src/greeters".Greeter.greet -> "src/greeters".Whisper.greet',
      'DISPATCH "src/greeters".Polite.greet -> "src/greeters".Loud.greet',
    ]);
  });

  it("package.json main and bin in build output map back through the tsconfig's outDir and rootDir", () => {
    const d = analyzeFixture("build-output").document;
    expect(startPoints(d)).toEqual([
      "TypeScript File | source/cli/tool.ts",
      'TypeScript Function | "source/server".serve',
    ]);
  });

  it("an extended tsconfig that is not installed: a warning, and the modern library rather than ES5", () => {
    const { document: d, configProblems } = analyzeFixture("missing-extends");
    expect(configProblems.map((p) => p.slice(p.indexOf("tsconfig.json: ") + 15))).toEqual([
      "File '@tsconfig/node22/tsconfig.json' not found.",
      "a configuration it extends is not installed; analysing with target ESNext and its library (install the project's dependencies to use its own)",
    ]);
    expect(linkLines(d, ["CALL"])).toEqual([
      'CALL "src/cache".cached -> ECMAScript.ErrorConstructor.constructor',
      'CALL "src/cache".cached -> ECMAScript.Map.get',
      'CALL "src/cache".cached -> ECMAScript.Map.has',
      'CALL "src/cache".cached -> ECMAScript.Map.set',
      'CALL "src/cache".cached -> ECMAScript.ObjectConstructor.hasOwn',
      'CALL "src/cache".cached -> ECMAScript.PromiseConstructor.reject',
      "CALL src/cache.ts -> ECMAScript.MapConstructor.constructor",
    ]);
  });

  it("JSX whose runtime is not installed: the elements the checker types itself link nowhere, and the components still link", () => {
    const d = analyzeFixture("jsx-unknown-runtime").document;
    expect(objectLines(d)).toEqual([
      'TypeScript Function | "src/page".Page | src/page.tsx:1-3',
      'TypeScript Function | "src/page".Title | src/page.tsx:4-6',
    ]);
    expect(linkLines(d, ["CALL"])).toEqual(['CALL "src/page".Page -> "src/page".Title']);
  });
});
