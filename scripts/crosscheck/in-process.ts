// @module In-process sides: appstruct's Hono app called with app.fetch over the served folder, and the SQLite answers, both to a JSON body without a socket.

import { loadFolderCatalog } from "../../build/folder-catalog.ts";
import { createApp } from "../../src/app.ts";
import { parseAccessPolicy } from "../../src/http/access.ts";
import { SnapshotSourceLocator } from "../../src/query/source-locator.ts";
import type { AnsweringSide } from "./check-answers.ts";
import { BadRequest } from "./request-params.ts";
import { openReadOnly } from "./sqlite-db.ts";
import { answer } from "./sqlite-server.ts";

const ORIGIN = "http://localhost";

/** appstruct's routes and query engine in this process, as `appstruct serve` builds them. */
export async function appstructInProcess(servedDir: string): Promise<AnsweringSide> {
  const catalog = await loadFolderCatalog(servedDir, () => {});
  const deps = { catalog, sources: new SnapshotSourceLocator(catalog), access: await parseAccessPolicy(undefined) };
  const app = createApp(() => deps);
  return async (query) => {
    const response = await app.fetch(new Request(`${ORIGIN}${query.path}`));
    return { status: response.status, body: await response.text() };
  };
}

/** The SQLite server's answers in this process (same function, no socket). */
export function sqliteInProcess(database: string): AnsweringSide {
  const sql = openReadOnly(database);
  return async (query) => {
    try {
      return { status: 200, body: JSON.stringify(answer(sql, new URL(`${ORIGIN}${query.path}`))) };
    } catch (error) {
      if (error instanceof BadRequest)
        return { status: error.status, body: JSON.stringify({ code: error.code, detail: error.message }) };
      throw error;
    }
  };
}
