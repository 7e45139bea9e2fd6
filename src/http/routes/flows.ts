// @module Transaction and data-graph routes: the lists of start and end points, and the graph of one.
import type { Hono } from "hono";
import { DATA_GRAPH, DATA_GRAPHS, honoPath, TRANSACTION_GRAPH, TRANSACTIONS } from "../../contract/route-specs.ts";
import { DATA_GRAPH as DATA_FLOW, flowGraph, listFlows, TRANSACTION } from "../../query/flows.ts";
import { selectedAnalysis } from "../application.ts";
import type { AppEnv } from "../context.ts";
import { parseParams } from "../params.ts";
import { parseQuery } from "../query-string.ts";
import { pathObjectId } from "./objects.ts";

export function flowRoutes(app: Hono<AppEnv>): void {
  app.get(honoPath(TRANSACTIONS), async (c) => {
    const p = parseParams(parseQuery(c.req.url), TRANSACTIONS.query);
    const { snapshot } = await selectedAnalysis(c, p.date);
    const { total, points } = await listFlows(snapshot, TRANSACTION, p);
    return c.json({ totalTransactions: total, transactions: points });
  });

  app.get(honoPath(TRANSACTION_GRAPH), async (c) => {
    const p = parseParams(parseQuery(c.req.url), TRANSACTION_GRAPH.query);
    const id = pathObjectId(c);
    const { snapshot } = await selectedAnalysis(c, p.date);
    return c.json(await flowGraph(snapshot, TRANSACTION, id, p.limit, { signal: c.req.raw.signal }));
  });

  app.get(honoPath(DATA_GRAPHS), async (c) => {
    const p = parseParams(parseQuery(c.req.url), DATA_GRAPHS.query);
    const { snapshot } = await selectedAnalysis(c, p.date);
    const { total, points } = await listFlows(snapshot, DATA_FLOW, p);
    return c.json({ totalDataGraphs: total, dataGraphs: points });
  });

  app.get(honoPath(DATA_GRAPH), async (c) => {
    const p = parseParams(parseQuery(c.req.url), DATA_GRAPH.query);
    const id = pathObjectId(c);
    const { snapshot } = await selectedAnalysis(c, p.date);
    return c.json(await flowGraph(snapshot, DATA_FLOW, id, p.limit, { signal: c.req.raw.signal }));
  });
}
