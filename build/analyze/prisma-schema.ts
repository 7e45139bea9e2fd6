// @module Prisma schemas: each `model` becomes a Prisma Model object that USEs its table (`@@map("name")`, else the model's name).
import type { DataObjects } from "./data-objects.ts";
import type { IdAllocator } from "./ids.ts";
import { type CodeModel, type CodeObject, declaredObject, type ProjectFile } from "./model.ts";

export interface PrismaModel {
  object: CodeObject;
  table: string;
}

const MODEL = /^[ \t]*model[ \t]+([A-Za-z_]\w*)[ \t]*\{/gm;

/** The models of a schema file, each linked to its table; returns them by the name of their client delegate (`prisma.user` for `User`). */
export function readPrismaSchema(
  text: string,
  file: ProjectFile,
  fileObject: CodeObject,
  model: CodeModel,
  ids: IdAllocator,
  data: DataObjects,
): Map<string, PrismaModel> {
  const delegates = new Map<string, PrismaModel>();
  const lineAt = (offset: number) => text.slice(0, offset).split("\n").length;
  for (const match of text.matchAll(MODEL)) {
    const start = match.index + match[0].length - match[0].trimStart().length;
    const close = text.indexOf("\n}", start);
    const end = close < 0 ? text.length : close + 2;
    const body = text.slice(start, end);
    const name = match[1];
    const table = /@@map\(\s*(?:name:\s*)?"([^"]+)"\s*\)/.exec(body)?.[1] ?? name;
    const object = model.add(
      declaredObject(
        { id: ids.idFor(`model:${file.path}:${name}`), name, fullName: name, kind: "model", language: "Prisma" },
        { file, fileObject, startLine: lineAt(start), endLine: lineAt(end), text: body },
      ),
    );
    data.use(object, { schema: null, name: table }, "USE");
    delegates.set(name[0].toLowerCase() + name.slice(1), { object, table });
  }
  return delegates;
}
