// @module `node --expose-gc scripts/bench/answer-memory.ts <snapshot>`: heap growth and time of the largest answers, through the app in process, above a warm section cache (docs/memory.md).
//
// The app is the Node mode's (createApp over a folder catalog holding a link to the snapshot, one
// SectionCache of --section-cache-mb). Each case is asked once to warm the cache, then measured
// twice by heapGrowth: garbage included (timed), and live.
import { mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { loadFolderCatalog } from "../../build/folder-catalog.ts";
import { createApp } from "../../src/app.ts";
import { SectionCache } from "../../src/format/section-cache.ts";
import { SnapshotSourceLocator } from "../../src/query/source-locator.ts";
import { type Fetch, heapGrowth, send } from "./heap-growth.ts";

interface Case {
  label: string;
  /** The requests sent together (several: concurrent requests). */
  requests: () => Request[];
}

interface Measured {
  label: string;
  status: number[];
  bodyBytes: number;
  ms: number;
  /** Highest heapUsed + arrayBuffers above the baseline, garbage included. */
  peakBytes: number;
  /** Highest heapUsed + arrayBuffers above the baseline after a GC (every 10 ms and at each chunk read). */
  liveBytes: number;
}

const ORIGIN = "http://appstruct.bench";

function rest(application: string, path: string): () => Request[] {
  return () => [new Request(`${ORIGIN}/rest/applications/${encodeURIComponent(application)}${path}`)];
}

function mcp(protocolVersion: string, body: unknown): () => Request[] {
  return () => [
    new Request(`${ORIGIN}/mcp`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        "Mcp-Protocol-Version": protocolVersion,
      },
      body: JSON.stringify(body),
    }),
  ];
}

const toolCall = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

function cases(application: string, walkFrom: string, bigNode: number): Case[] {
  const find = (limit: number, skip = 0) => ({ application, name: "e", limit, skip });
  const batch = (size: number, limit: number) =>
    Array.from({ length: size }, (_, i) => toolCall(i + 1, "find_objects", find(limit, i * limit)));
  const levelNodes = (query: string) => rest(application, `/levels/5/nodes?${query}&select=children`);
  return [
    { label: "level 5 nodes name=e with children", requests: levelNodes("name=e") },
    { label: `level 5 node _id=${bigNode} with children`, requests: levelNodes(`_id=${bigNode}`) },
    { label: "find objects name=e limit=10000", requests: rest(application, "/objects?limit=10000&name=e") },
    {
      label: `start-end-points hops=32 of ${walkFrom}`,
      requests: rest(application, `/objects/${walkFrom}/start-end-points?hops=32`),
    },
    {
      label: "5 concurrent level 5 nodes name=e",
      requests: () => Array.from({ length: 5 }, () => levelNodes("name=e")()[0]),
    },
    { label: "MCP find_objects limit=10000", requests: mcp("2025-06-18", toolCall(1, "find_objects", find(10000))) },
    { label: "MCP find_objects limit=1000", requests: mcp("2025-06-18", toolCall(1, "find_objects", find(1000))) },
    {
      label: "MCP list_level_nodes level 5 name=e",
      requests: mcp("2025-06-18", toolCall(1, "list_level_nodes", { application, level: 5, name: "e" })),
    },
    { label: "MCP batch of 20 find_objects limit=10000 (2025-06-18)", requests: mcp("2025-06-18", batch(20, 10000)) },
    { label: "MCP batch of 20 find_objects limit=10000 (2025-03-26)", requests: mcp("2025-03-26", batch(20, 10000)) },
    { label: "MCP batch of 4 find_objects limit=1000 (2025-03-26)", requests: mcp("2025-03-26", batch(4, 1000)) },
  ];
}

async function measure(fetch: Fetch, c: Case, gc: () => void): Promise<Measured> {
  await send(fetch, c.requests());
  const peak = await heapGrowth(fetch, c.requests(), gc, false);
  const live = await heapGrowth(fetch, c.requests(), gc, true);
  return {
    label: c.label,
    status: peak.status,
    bodyBytes: peak.bodyBytes,
    ms: peak.ms,
    peakBytes: peak.bytes,
    liveBytes: live.bytes,
  };
}

const MiB = 1 << 20;

async function main(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("run with node --expose-gc: the probe forces GCs around each answer");
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      "section-cache-mb": { type: "string", default: "64" },
      application: { type: "string", default: "Synthetic Enterprise" },
      walk: { type: "string", default: "629028" },
      node: { type: "string", default: "102" },
      only: { type: "string" },
    },
  });
  if (positionals.length !== 1) throw new Error("usage: answer-memory.ts <snapshot> [--only <label substring>]");
  const folder = await mkdtemp(join(tmpdir(), "appstruct-answer-memory-"));
  try {
    await symlink(resolve(positionals[0]), join(folder, "bench.snap"));
    const sections = new SectionCache(Number(values["section-cache-mb"]) * MiB);
    const catalog = await loadFolderCatalog(folder, () => {}, { sections });
    const app = createApp(() => ({ catalog, sources: new SnapshotSourceLocator(catalog), access: null }));
    const fetch: Fetch = (request) => app.fetch(request);
    for (const c of cases(values.application, values.walk, Number(values.node))) {
      if (values.only && !c.label.includes(values.only)) continue;
      const m = await measure(fetch, c, gc);
      console.log(
        `${m.label.padEnd(56)} ${m.status.join(",").padEnd(14)} ${(m.bodyBytes / MiB).toFixed(1).padStart(7)} MiB body ${m.ms.toFixed(0).padStart(6)} ms  peak +${(m.peakBytes / MiB).toFixed(1).padStart(6)} MiB  live +${(m.liveBytes / MiB).toFixed(1).padStart(6)} MiB`,
      );
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

await main();
