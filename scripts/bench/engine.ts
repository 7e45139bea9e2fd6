// @module Our side, in process: a mix query answered by the query engine, with the body the HTTP route would send.

import type { FilterName } from "../../src/contract/params.ts";
import type { Snapshot } from "../../src/format/snapshot.ts";
import { currentStorageMeter, StorageMeter } from "../../src/format/storage-meter.ts";
import { callHierarchy } from "../../src/query/call-hierarchy.ts";
import { objectCallees } from "../../src/query/callees.ts";
import { objectCallers } from "../../src/query/callers.ts";
import { objectCharacteristics } from "../../src/query/characteristics.ts";
import { findObjects } from "../../src/query/find-objects.ts";
import { levelGraph, levelNodes } from "../../src/query/levels.ts";
import { rankOfId } from "../../src/query/lookup.ts";
import { startEndPoints } from "../../src/query/points.ts";
import { objectLocations } from "../../src/query/source-locator.ts";
import { collect } from "../../src/query/streamed-list.ts";
import type { BenchQuery } from "./queries.ts";

/**
 * The answer body of `q` on `snapshot`, the only published version (so no previous one for status),
 * answered as the server answers a request: inside a StorageMeter of its own (src/app.ts). Outside
 * any, an answer that joins a load it started itself (a walk's rows read ahead, then read) cannot
 * tell it is its own and polls for it on timers: a 3-hop walk at 1M objects joined some 45 loads
 * so, its p50 3.8 ms outside a meter and 2.2 ms inside (a 1-hop walk's 1.5 and 0.3 ms).
 */
export function engineAnswer(snapshot: Snapshot, q: BenchQuery): Promise<unknown> {
  return new StorageMeter(currentStorageMeter()).measure(() => answer(snapshot, q));
}

async function answer(snapshot: Snapshot, q: BenchQuery): Promise<unknown> {
  switch (q.route) {
    case "find": {
      const filters: Partial<Record<FilterName, string[]>> = {};
      for (const [name, value] of Object.entries(q.filters))
        if (value !== undefined) filters[name as FilterName] = [value];
      const { totalObjects, objects } = await findObjects(snapshot, {
        filters,
        operator: q.operator,
        searchtype: "all",
        skip: q.skip,
        limit: q.limit,
      });
      return { totalObjects, objects: await collect(objects) };
    }
    case "characteristics": {
      if (!q.withLocations) return (await objectCharacteristics(snapshot, q.id, null)).object;
      // As the route asks: the locations beside the rows, once the id page gives the rank.
      const rank = await rankOfId(snapshot, q.id);
      const [{ object }, [locations]] = await Promise.all([
        objectCharacteristics(snapshot, q.id, null),
        objectLocations(snapshot, [rank]),
      ]);
      return locations ? { ...object, sourceLocations: locations } : object;
    }
    case "callees":
    case "callers": {
      const options = { includeEscalated: q.includeEscalated, withParent: q.withParent };
      return collect(
        q.route === "callees"
          ? (await objectCallees(snapshot, q.id, options)).callees
          : (await objectCallers(snapshot, q.id, options)).callers,
      );
    }
    case "call-hierarchy":
      return callHierarchy(snapshot, q.id, { direction: q.direction, hops: q.hops, linkTypes: [], limit: 1000 });
    case "points":
      return collect(await startEndPoints(snapshot, q.id, q.hops));
    case "level-nodes":
      return collect(await levelNodes(snapshot, q.level, { name: q.name, id: q.nodeId }));
    case "level-graph":
      return levelGraph(snapshot, q.level);
  }
}
