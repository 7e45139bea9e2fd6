// @module Engine-level sides: appstruct's query functions on a Snapshot (file source, the Worker's default section budget) against the SQLite functions, answers as objects (no HTTP, no JSON).

import type { FilterName } from "../../src/contract/params.ts";
import { SectionCache } from "../../src/format/section-cache.ts";
import { Snapshot } from "../../src/format/snapshot.ts";
import { callHierarchy } from "../../src/query/call-hierarchy.ts";
import { objectCallees } from "../../src/query/callees.ts";
import { objectCallers } from "../../src/query/callers.ts";
import { objectCharacteristics } from "../../src/query/characteristics.ts";
import { findObjects } from "../../src/query/find-objects.ts";
import { levelGraph, levelNodes } from "../../src/query/levels.ts";
import { startEndPoints } from "../../src/query/points.ts";
import { collect } from "../../src/query/streamed-list.ts";
import { fileSource } from "../../src/storage/file-source.ts";
import { DEFAULT_SECTION_CACHE_MB } from "../../src/storage/isolate-caches.ts";
import type { MixQuery } from "./mix.ts";
import { parseRoute } from "./routes.ts";
import { openReadOnly } from "./sqlite-db.ts";
import { answer } from "./sqlite-server.ts";

const ORIGIN = "http://localhost";

/** Answers one mix query as an object. */
export type EngineSide = (query: MixQuery) => Promise<unknown>;

/** appstruct's query engine as a Worker isolate runs it: the snapshot read by range, decoded sections in a 64 MiB LRU. */
export async function appstructEngine(snapshotPath: string): Promise<EngineSide> {
  const snapshot = await Snapshot.open(await fileSource(snapshotPath), {
    sections: new SectionCache(DEFAULT_SECTION_CACHE_MB * 2 ** 20),
  });
  const application = snapshot.meta.application;
  return async (query) => {
    const route = parseRoute(new URL(`${ORIGIN}${query.path}`), application);
    switch (route.kind) {
      case "ready":
        return true;
      case "find": {
        const r = route.request;
        const filters: Partial<Record<FilterName, string[]>> = {};
        for (const name of ["name", "fullname", "type", "filepath", "mangling"] as const)
          if (r[name].length > 0) filters[name] = r[name];
        const { totalObjects, objects } = await findObjects(snapshot, {
          filters,
          operator: r.operator,
          searchtype: r.searchtype,
          skip: r.skip,
          limit: r.limit,
        });
        return { totalObjects, objects: await collect(objects) };
      }
      case "characteristics":
        return (await objectCharacteristics(snapshot, route.id, null)).object;
      case "callees":
      case "callers": {
        const options = { includeEscalated: route.includeEscalated, withParent: route.withParent };
        return collect(
          route.kind === "callees"
            ? (await objectCallees(snapshot, route.id, options)).callees
            : (await objectCallers(snapshot, route.id, options)).callers,
        );
      }
      case "call-hierarchy":
        return callHierarchy(snapshot, route.id, {
          direction: route.direction,
          hops: route.hops,
          linkTypes: [],
          limit: route.limit,
        });
      case "points":
        return collect(await startEndPoints(snapshot, route.id, route.hops));
      case "level-nodes":
        return collect(await levelNodes(snapshot, route.level, { name: route.name, id: route.id }));
      case "level-graph":
        return levelGraph(snapshot, route.level);
    }
  };
}

/** The SQLite statements behind the server's routes, called directly. */
export function sqliteEngine(database: string): EngineSide {
  const sql = openReadOnly(database);
  return async (query) => answer(sql, new URL(`${ORIGIN}${query.path}`));
}
