// @module Hand-worked fixture projects: the exact objects (type, fullName, file, lines) and links the analyzer finds in each.
import { describe, expect, it } from "vitest";
import { analyzeFixture, levelNames, linkLines, object, objectLines } from "./fixture-project.ts";

describe("appstruct analyze on fixture projects", () => {
  it("overloads: one object per overloaded function or method, spanning its signatures; calls resolve to it", () => {
    const d = analyzeFixture("overloads").document;
    expect(objectLines(d)).toEqual([
      'TypeScript Function | "src/format".format | src/format.ts:2-6',
      'TypeScript Function | "src/format".pad | src/format.ts:8-10',
      'TypeScript Class | "src/format".Printer | src/format.ts:12-19',
      'TypeScript Method | "src/format".Printer.print | src/format.ts:13-18',
      'TypeScript Function | "src/main".run | src/main.ts:3-7',
    ]);
    expect(object(d, '"src/format".format')).toMatchObject({
      typeId: "TS_FUNCTION",
      mangling: "(number) | (Date)",
      tags: ["exported", "overloaded"],
    });
    expect(levelNames(d, object(d, '"src/format".format'))).toEqual([
      "Application Services",
      "Logic Services",
      "(root)",
      "TypeScript",
      "TypeScript Function",
    ]);
    expect(levelNames(d, object(d, "ECMAScript.Date.toISOString"))).toEqual([
      "External Services",
      "Libraries",
      "ECMAScript",
      "ECMAScript",
      "External Method",
    ]);
    expect(object(d, '"src/format".Printer.print').mangling).toBe("(string) | (string[])");
    expect(linkLines(d, ["CALL", "INCLUDE"]).filter((l) => !l.includes("ECMAScript"))).toEqual([
      'CALL "src/format".Printer.print -> "src/format".format',
      'CALL "src/format".format -> "src/format".pad',
      'CALL "src/main".run -> "src/format".Printer',
      'CALL "src/main".run -> "src/format".Printer.print',
      'CALL "src/main".run -> "src/format".format',
      "INCLUDE src/main.ts -> src/format.ts",
    ]);
    expect(linkLines(d, ["CALL"])).toContain('CALL "src/format".format -> ECMAScript.Date.toISOString');
  });

  it("generics: generic classes, methods and functions; a function passed as a value is REFER, a call through a parameter no link", () => {
    const d = analyzeFixture("generics").document;
    expect(objectLines(d)).toEqual([
      'TypeScript Class | "src/box".Box | src/box.ts:1-11',
      'TypeScript Constructor | "src/box".Box.constructor | src/box.ts:2-2',
      'TypeScript Method | "src/box".Box.map | src/box.ts:4-6',
      'TypeScript Method | "src/box".Box.get | src/box.ts:8-10',
      'TypeScript Function | "src/box".first | src/box.ts:13-15',
      'TypeScript Arrow Function | "src/box".double | src/box.ts:17-17',
      'TypeScript Function | "src/box".total | src/box.ts:19-22',
    ]);
    expect(object(d, '"src/box".first')).toMatchObject({
      mangling: "<T>(readonly T[])",
      tags: ["exported", "generic"],
    });
    expect(object(d, '"src/box".Box.map').mangling).toBe("<U>((value: T) => U)");
    expect(linkLines(d, ["CALL", "REFER", "USE", "INHERIT"])).toEqual([
      'CALL "src/box".Box.map -> "src/box".Box.constructor',
      'CALL "src/box".total -> "src/box".Box.constructor',
      'CALL "src/box".total -> "src/box".Box.get',
      'CALL "src/box".total -> "src/box".Box.map',
      'CALL "src/box".total -> "src/box".first',
      'REFER "src/box".total -> "src/box".double',
      'USE "src/box".Box.map -> "src/box".Box',
    ]);
  });

  it("default exports and re-exports: calls through a barrel, renamed and namespace imports reach the original declarations", () => {
    const d = analyzeFixture("exports").document;
    expect(objectLines(d)).toEqual([
      'TypeScript Function | "src/app".main | src/app.ts:4-6',
      'TypeScript Function | "src/lib/math".add | src/lib/math.ts:1-3',
      'TypeScript Function | "src/lib/math".multiply | src/lib/math.ts:5-7',
      'TypeScript Arrow Function | "src/lib/strings".shout | src/lib/strings.ts:1-1',
    ]);
    expect(object(d, '"src/lib/math".add').tags).toEqual(["default export", "exported"]);
    expect(linkLines(d, ["CALL", "INCLUDE"]).filter((l) => !l.includes("ECMAScript"))).toEqual([
      'CALL "src/app".main -> "src/lib/math".add',
      'CALL "src/app".main -> "src/lib/math".multiply',
      'CALL "src/app".main -> "src/lib/strings".shout',
      "INCLUDE src/app.ts -> src/lib/index.ts",
      "INCLUDE src/lib/index.ts -> src/lib/math.ts",
      "INCLUDE src/lib/index.ts -> src/lib/strings.ts",
    ]);
  });

  it("class hierarchies: extends, super calls, overrides (INHERIT up, DISPATCH down) and escalated links between classes", () => {
    const d = analyzeFixture("classes").document;
    expect(objectLines(d)).toEqual([
      'TypeScript Class | "src/shapes".Shape | src/shapes.ts:1-9',
      'TypeScript Constructor | "src/shapes".Shape.constructor | src/shapes.ts:2-2',
      'TypeScript Method | "src/shapes".Shape.area | src/shapes.ts:4-4',
      'TypeScript Method | "src/shapes".Shape.describe | src/shapes.ts:6-8',
      'TypeScript Class | "src/shapes".Rectangle | src/shapes.ts:11-22',
      'TypeScript Constructor | "src/shapes".Rectangle.constructor | src/shapes.ts:12-17',
      'TypeScript Method | "src/shapes".Rectangle.area | src/shapes.ts:19-21',
      'TypeScript Class | "src/shapes".Square | src/shapes.ts:24-32',
      'TypeScript Constructor | "src/shapes".Square.constructor | src/shapes.ts:25-27',
      'TypeScript Method | "src/shapes".Square.describe | src/shapes.ts:29-31',
    ]);
    expect(object(d, '"src/shapes".Shape').tags).toEqual(["abstract", "exported"]);
    expect(linkLines(d, ["CALL", "INHERIT", "DISPATCH"])).toEqual([
      'CALL "src/shapes".Rectangle.constructor -> "src/shapes".Shape.constructor',
      'CALL "src/shapes".Shape.describe -> "src/shapes".Shape.area',
      'CALL "src/shapes".Square.constructor -> "src/shapes".Rectangle.constructor',
      'CALL "src/shapes".Square.describe -> "src/shapes".Shape.describe',
      'DISPATCH "src/shapes".Shape.area -> "src/shapes".Rectangle.area',
      'DISPATCH "src/shapes".Shape.describe -> "src/shapes".Square.describe',
      'INHERIT "src/shapes".Rectangle -> "src/shapes".Shape',
      'INHERIT "src/shapes".Rectangle.area -> "src/shapes".Shape.area',
      'INHERIT "src/shapes".Square -> "src/shapes".Rectangle',
      'INHERIT "src/shapes".Square.describe -> "src/shapes".Shape.describe',
    ]);
    expect(linkLines(d, ["CALL"], { escalated: true })).toEqual([
      'CALL "src/shapes".Rectangle -> "src/shapes".Shape',
      'CALL "src/shapes".Square -> "src/shapes".Rectangle',
      'CALL "src/shapes".Square -> "src/shapes".Shape',
    ]);
  });

  it("interface dispatch: a call through an interface reaches the interface member, which DISPATCHes to its implementation", () => {
    const d = analyzeFixture("dispatch").document;
    expect(objectLines(d)).toEqual([
      'TypeScript Interface | "src/repository".Owner | src/repository.ts:1-4',
      'TypeScript Interface | "src/repository".OwnerRepository | src/repository.ts:6-9',
      'TypeScript Interface Method | "src/repository".OwnerRepository.findById | src/repository.ts:7-7',
      'TypeScript Interface Method | "src/repository".OwnerRepository.save | src/repository.ts:8-8',
      'TypeScript Class | "src/repository".MemoryOwnerRepository | src/repository.ts:11-21',
      'TypeScript Method | "src/repository".MemoryOwnerRepository.findById | src/repository.ts:14-16',
      'TypeScript Method | "src/repository".MemoryOwnerRepository.save | src/repository.ts:18-20',
      'TypeScript Class | "src/service".OwnerService | src/service.ts:3-11',
      'TypeScript Constructor | "src/service".OwnerService.constructor | src/service.ts:4-4',
      'TypeScript Method | "src/service".OwnerService.rename | src/service.ts:6-10',
    ]);
    expect(
      linkLines(d, ["CALL", "INHERIT", "DISPATCH", "USE", "INCLUDE"]).filter((l) => !l.includes("ECMAScript")),
    ).toEqual([
      'CALL "src/service".OwnerService.rename -> "src/repository".OwnerRepository.findById',
      'CALL "src/service".OwnerService.rename -> "src/repository".OwnerRepository.save',
      'DISPATCH "src/repository".OwnerRepository.findById -> "src/repository".MemoryOwnerRepository.findById',
      'DISPATCH "src/repository".OwnerRepository.save -> "src/repository".MemoryOwnerRepository.save',
      "INCLUDE src/service.ts -> src/repository.ts",
      'INHERIT "src/repository".MemoryOwnerRepository -> "src/repository".OwnerRepository',
      'INHERIT "src/repository".MemoryOwnerRepository.findById -> "src/repository".OwnerRepository.findById',
      'INHERIT "src/repository".MemoryOwnerRepository.save -> "src/repository".OwnerRepository.save',
      'USE "src/repository".MemoryOwnerRepository -> "src/repository".Owner',
      'USE "src/repository".MemoryOwnerRepository.findById -> "src/repository".Owner',
      'USE "src/repository".MemoryOwnerRepository.save -> "src/repository".Owner',
      'USE "src/repository".OwnerRepository.findById -> "src/repository".Owner',
      'USE "src/repository".OwnerRepository.save -> "src/repository".Owner',
      'USE "src/service".OwnerService.constructor -> "src/repository".OwnerRepository',
      'USE "src/service".OwnerService.rename -> "src/repository".Owner',
    ]);
  });

  it("callbacks: calls inside anonymous callbacks belong to the enclosing function; function references are REFER", () => {
    const d = analyzeFixture("callbacks").document;
    expect(objectLines(d)).toEqual([
      'TypeScript Function | "src/events".normalize | src/events.ts:1-3',
      'TypeScript Function | "src/events".isLong | src/events.ts:5-7',
      'TypeScript Function | "src/events".longWords | src/events.ts:9-14',
      'TypeScript Function | "src/events".later | src/events.ts:16-18',
    ]);
    expect(
      linkLines(d, ["CALL", "REFER"]).filter(
        (l) => !l.includes("ECMAScript.String") && !l.includes("ECMAScript.Array"),
      ),
    ).toEqual([
      'CALL "src/events".later -> "src/events".longWords',
      'CALL "src/events".later -> ECMAScript.setTimeout',
      'CALL "src/events".longWords -> "src/events".normalize',
      'REFER "src/events".longWords -> "src/events".isLong',
    ]);
  });

  it("decorators: annotations on the decorated objects, CALLs to the decorator functions, functions in a property decorator's options", () => {
    const d = analyzeFixture("decorators").document;
    expect(objectLines(d)).toEqual([
      'TypeScript Function | "src/controller".Controller | src/controller.ts:3-7',
      'TypeScript Function | "src/controller".Logged | src/controller.ts:9-11',
      'TypeScript Class | "src/controller".PetController | src/controller.ts:13-19',
      'TypeScript Method | "src/controller".PetController.list | src/controller.ts:15-18',
      'TypeScript Function | "src/controller".Field | src/controller.ts:21-25',
      'TypeScript Class | "src/controller".Pet | src/controller.ts:27-30',
      'TypeScript Arrow Function | "src/controller".Pet.type | src/controller.ts:28-28',
    ]);
    expect(object(d, '"src/controller".PetController').annotations).toEqual(['@Controller("/pets")']);
    expect(object(d, '"src/controller".PetController.list').annotations).toEqual(["@Logged"]);
    expect(linkLines(d, ["CALL"]).filter((l) => !l.includes("ECMAScript"))).toEqual([
      'CALL "src/controller".Pet -> "src/controller".Field',
      'CALL "src/controller".PetController -> "src/controller".Controller',
      'CALL "src/controller".PetController.list -> "src/controller".Logged',
    ]);
  });

  it("JavaScript with JSDoc and CommonJS, no tsconfig: prototype methods, module.exports, require, JSDoc parameter types", () => {
    const d = analyzeFixture("jsdoc").document;
    expect(objectLines(d)).toEqual([
      'JavaScript Function | "lib/cart".Cart | lib/cart.js:7-11',
      'JavaScript Method | "lib/cart".Cart.add | lib/cart.js:17-20',
      'JavaScript Method | "lib/cart".Cart.total | lib/cart.js:23-25',
      'JavaScript Function Expression | "lib/prices".price | lib/prices.js:5-7',
    ]);
    expect(object(d, '"lib/cart".Cart')).toMatchObject({
      typeId: "JS_FUNCTION",
      mangling: "(string)",
      tags: ["exported"],
      language: "JavaScript",
    });
    expect(object(d, '"lib/cart".Cart.add').mangling).toBe("(string)");
    expect(object(d, '"lib/prices".price').tags).toEqual(["exported"]);
    expect(linkLines(d, ["CALL", "INCLUDE"]).filter((l) => !l.includes("ECMAScript"))).toEqual([
      'CALL "lib/cart".Cart.total -> "lib/prices".price',
      "INCLUDE lib/cart.js -> lib/prices.js",
    ]);
  });

  it("start points: package bin and main, a Next.js route file, a NestJS route decorator, a Hono route (frameworks not installed)", () => {
    const d = analyzeFixture("entry-points").document;
    expect(d.objects.filter((o) => o.role === "start").map((o) => `${o.type} | ${o.fullName}`)).toEqual([
      'TypeScript Function | "app/api/owners/route".GET',
      "JavaScript File | bin/cli.js",
      'TypeScript Route Handler | "src/hono".GET /health',
      'TypeScript Function | "src/index".run',
      'TypeScript Method | "src/nest".PetsController.list',
    ]);
    expect(d.objects.filter((o) => o.role === "end")).toEqual([]);
    expect(linkLines(d, ["CALL", "INCLUDE"]).filter((l) => !l.includes("ECMAScript"))).toEqual([
      'CALL "app/api/owners/route".GET -> "app/api/owners/route".helper',
      'CALL "src/hono".app -> hono.Hono',
      'CALL "src/index".run -> "src/index".count',
      'CALL "src/nest".PetsController -> @nestjs/common.Controller',
      'CALL "src/nest".PetsController.list -> @nestjs/common.Get',
      'CALL bin/cli.js -> "src/index".run',
      "CALL src/hono.ts -> hono.Hono.get",
      "INCLUDE bin/cli.js -> src/index.ts",
      "INCLUDE src/hono.ts -> hono",
      "INCLUDE src/nest.ts -> @nestjs/common",
    ]);
  });

  it("a file with syntax errors is reported (tag, post-it, problems) and the rest is analysed", () => {
    const { document: d, syntaxProblems } = analyzeFixture("syntax-error");
    expect(syntaxProblems.map((p) => `${p.file}:${p.line}`)).toEqual([
      "src/broken.ts:8",
      "src/broken.ts:8",
      "src/broken.ts:8",
      "src/broken.ts:9",
    ]);
    const broken = object(d, "src/broken.ts");
    expect(broken.tags).toEqual(["syntax errors"]);
    expect(d.postIts).toEqual([
      { object: broken.id, title: "Syntax errors", text: expect.stringMatching(/^line 8: ':' expected\./) },
    ]);
    expect(objectLines(d)).toEqual(
      expect.arrayContaining([
        'TypeScript Function | "src/broken".welcome | src/broken.ts:3-5',
        'TypeScript Function | "src/good".greet | src/good.ts:1-3',
      ]),
    );
    expect(linkLines(d, ["CALL", "INCLUDE"])).toEqual([
      'CALL "src/broken".welcome -> "src/good".greet',
      "INCLUDE src/broken.ts -> src/good.ts",
    ]);
  });
});
