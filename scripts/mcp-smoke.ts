// @module MCP smoke check against a running server: the official SDK client connects to /mcp, finds the tools, and each tool's answer on every readable application equals the REST answer.
//
// npm run mcp:smoke [-- <base URL>]     (default http://localhost:8787; the API key, if any, from APPSTRUCT_API_KEY)
//
// The applications and the ids come from the server itself (list_applications, find_objects, the level
// graphs), so the check runs on whatever is published. Prints one line per comparison and ends with
// `N passed, N failed`; exits 1 on any failure.
import { isDeepStrictEqual } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

const TOOLS = [
  "list_applications",
  "find_objects",
  "get_object",
  "list_callees",
  "get_start_end_points",
  "list_callers",
  "get_call_hierarchy",
  "find_paths",
  "list_transactions",
  "get_transaction_graph",
  "list_level_nodes",
  "get_level_graph",
  "list_changes",
  "read_source",
];

const base = (process.argv[2] ?? "http://localhost:8787").replace(/\/$/, "");
const key = process.env.APPSTRUCT_API_KEY;
const headers: Record<string, string> = key ? { "X-API-KEY": key } : {};

let passed = 0;
let failed = 0;
function check(label: string, ok: boolean, detail = ""): void {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? "ok  " : "FAIL"} ${label}${ok || !detail ? "" : `\n     ${detail}`}`);
}

async function rest(path: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(base + path, { headers });
  return { status: response.status, body: await response.json() };
}

const client = new Client({ name: "appstruct-mcp-smoke", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }));
const server = client.getServerVersion();
console.log(`connected to ${base}/mcp: ${server?.name} ${server?.version}`);

const listed = (await client.listTools()).tools.map((t) => t.name);
check(`tools/list: ${listed.join(", ")}`, isDeepStrictEqual(listed, TOOLS), `expected ${TOOLS.join(", ")}`);

/** Calls `tool` and compares its answer with GET `path`: the structured content (through `unwrap`) for a 200, the problem for an error. */
async function compare(
  tool: string,
  args: Record<string, unknown>,
  path: string,
  unwrap: (s: Record<string, unknown>) => unknown = (s) => s,
): Promise<Record<string, unknown> | undefined> {
  const result = (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
  const expected = await rest(path);
  const label = `${tool} ${JSON.stringify(args)} = GET ${path} (${expected.status})`;
  if (expected.status === 200) {
    const actual = result.isError ? result.content : unwrap(result.structuredContent ?? {});
    check(
      label,
      !result.isError && isDeepStrictEqual(actual, expected.body),
      `got ${JSON.stringify(actual).slice(0, 300)}`,
    );
    return result.structuredContent;
  }
  const problem = result.isError ? JSON.parse((result.content[0] as { text: string }).text) : result.structuredContent;
  check(
    label,
    result.isError === true && isDeepStrictEqual(problem, expected.body),
    `got ${JSON.stringify(problem).slice(0, 300)}`,
  );
  return undefined;
}

const { structuredContent } = (await client.callTool({ name: "list_applications", arguments: {} })) as CallToolResult;
const applications = (structuredContent as { applications: { name: string; versions: { analyzedAt: string }[] }[] })
  .applications;
check(
  `list_applications: ${applications.map((a) => `${a.name} (${a.versions.length})`).join("; ") || "none"}`,
  applications.length > 0,
  "nothing is published: run `npx appstruct publish --local <analysis>` first",
);

for (const { name } of applications) {
  const app = `/rest/applications/${encodeURIComponent(name)}`;
  const found = await compare(
    "find_objects",
    { application: name, limit: 5 },
    `${app}/objects?limit=5`,
    ({ nextSkip: _, ...rest }) => rest,
  );
  const first = (found?.objects as { id: string; fullName: string }[] | undefined)?.[0];
  if (first) {
    await compare("get_object", { application: name, id: first.id }, `${app}/objects/${first.id}`);
    await compare(
      "list_callees",
      { application: name, id: first.id, withParent: true },
      `${app}/objects/${first.id}/callees?select=parent`,
      (s) => s.callees,
    );
    await compare(
      "get_start_end_points",
      { application: name, id: first.id, hops: 3 },
      `${app}/objects/${first.id}/start-end-points?hops=3`,
    );
    // Named by full name, as an agent names it.
    const byName = { application: name, name: first.fullName };
    await compare("list_callers", byName, `${app}/objects/${first.id}/callers`, (s) => s.callers);
    await compare(
      "get_call_hierarchy",
      { ...byName, direction: "both" },
      `${app}/objects/${first.id}/call-hierarchy?direction=both`,
    );
    await compare("find_paths", { ...byName, to: first.id }, `${app}/objects/${first.id}/paths?to=${first.id}`);
  }
  for (const kind of ["transactions", "data-graphs"]) {
    const list = await compare("list_transactions", { application: name, kind, limit: 5 }, `${app}/${kind}?limit=5`);
    const point = ((list?.transactions ?? list?.dataGraphs) as { id: string }[] | undefined)?.[0];
    if (point)
      await compare(
        "get_transaction_graph",
        { application: name, kind, id: point.id },
        `${app}/${kind}/${point.id}/graph`,
      );
  }
  await compare("get_object", { application: name, id: "0" }, `${app}/objects/0`);
  for (let level = 1; level <= 5; level++) {
    const graph = await compare(
      "get_level_graph",
      { application: name, level, full: true },
      `${app}/levels/${level}/graph`,
    );
    const node = (graph?.nodes as { name: string }[] | undefined)?.[0];
    if (level >= 2 && node)
      await compare(
        "list_level_nodes",
        { application: name, level, name: node.name },
        `${app}/levels/${level}/nodes?name=${encodeURIComponent(node.name)}&select=children`,
        (s) => s.nodes,
      );
  }
}

await client.close();
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
